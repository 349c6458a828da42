// tgb: text read line by line from memory, a file or a gzip stream. Files
// are read in chunks (and inflated chunk by chunk), so the whole text is never
// held in memory: what a reader keeps is one buffer plus the entries it parsed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "tgb/error.hpp"

namespace tgb::io::detail {

// Bytes from somewhere; read() returns 0 at the end and throws io_error on failure.
class byte_source {
 public:
  virtual ~byte_source() = default;
  virtual std::size_t read(char* buf, std::size_t n) = 0;
  // An upper bound on the bytes still to come, for checking declared sizes
  // before anything is allocated (for gzip data: 1032 times the compressed
  // bytes left, deflate's largest ratio).
  virtual std::uint64_t remaining_bound() const = 0;
};

// Opens a file for reading; ".gz" files are inflated as they are read. A
// folder or something that cannot be opened is an io_error naming the path.
std::unique_ptr<byte_source> open_file(const std::string& path);

// The longest line a reader accepts. Matrix Market and edge-list lines are
// short; a longer one is not text of either kind (a binary file, /dev/zero),
// and bounding it bounds the buffer.
constexpr std::size_t max_line_length = std::size_t(1) << 20;

class line_reader {
 public:
  // Text already in memory: lines point into it.
  line_reader(const char* data, std::size_t size, const std::string& name);
  // Text from a source, read in chunks.
  line_reader(std::unique_ptr<byte_source> src, const std::string& name);
  ~line_reader();
  line_reader(const line_reader&) = delete;
  line_reader& operator=(const line_reader&) = delete;

  // The next line without its "\n" or "\r\n"; false at the end. A NUL byte
  // or a line above max_line_length is an io_error at that line.
  bool next(const char*& b, const char*& e);
  // Throws io_error "name:line: msg" for the line last returned.
  [[noreturn]] void fail(const std::string& msg) const;
  // "name:line: " for the line last returned.
  std::string where() const;
  // An upper bound on the bytes after the line last returned.
  std::uint64_t remaining() const;

  const std::string& name;
  std::uint64_t line = 0;  // number of the line last returned, 1-based

 private:
  bool fill();
  void check(const char* b, const char* e) const;

  const char* p_;
  const char* end_;
  std::unique_ptr<byte_source> src_;
  char* buf_ = nullptr;
  std::size_t cap_ = 0;
  bool eof_ = false;
};

}  // namespace tgb::io::detail
