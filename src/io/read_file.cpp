// tgb: reading files in chunks (gzip inflated as it is read) and writing
// them atomically.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <ostream>
#include <streambuf>
#include <string>

#include "text_source.hpp"
#include "tgb/io/matrix_market.hpp"

#if defined(TGB_HAVE_ZLIB)
#include <zlib.h>
#endif

namespace tgb::io::detail {

namespace {

constexpr std::uint64_t unknown = std::numeric_limits<std::uint64_t>::max();

bool ends_with(const std::string& s, const char* suffix) {
  const std::size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

std::string errno_text(int err) { return std::strerror(err); }

class memory_source final : public byte_source {
 public:
  memory_source(const char* data, std::size_t size) : p_(data), end_(data + size) {}
  std::size_t read(char* buf, std::size_t n) override {
    n = std::min<std::size_t>(n, static_cast<std::size_t>(end_ - p_));
    if (n) std::memcpy(buf, p_, n);
    p_ += n;
    return n;
  }
  std::uint64_t remaining_bound() const override { return static_cast<std::uint64_t>(end_ - p_); }

 private:
  const char* p_;
  const char* end_;
};

class fd_source final : public byte_source {
 public:
  fd_source(int fd, std::string name, std::uint64_t size) : fd_(fd), name_(std::move(name)), size_(size) {}
  ~fd_source() override { ::close(fd_); }
  std::size_t read(char* buf, std::size_t n) override {
    for (;;) {
      const ssize_t got = ::read(fd_, buf, n);
      if (got >= 0) {
        done_ += static_cast<std::uint64_t>(got);
        return static_cast<std::size_t>(got);
      }
      if (errno == EINTR) continue;
      throw io_error(name_ + ": read failed: " + errno_text(errno));
    }
  }
  // Regular files only; a pipe or a device has no known end.
  std::uint64_t remaining_bound() const override {
    if (size_ == unknown) return unknown;
    return size_ > done_ ? size_ - done_ : 0;
  }

 private:
  int fd_;
  std::string name_;
  std::uint64_t size_;
  std::uint64_t done_ = 0;
};

#if defined(TGB_HAVE_ZLIB)
// Inflates gzip data from another source as it is read; concatenated members
// are read one after another, as gunzip does.
class gzip_source final : public byte_source {
 public:
  gzip_source(std::unique_ptr<byte_source> in, std::string name) : in_(std::move(in)), name_(std::move(name)) {
    if (inflateInit2(&z_, 16 + MAX_WBITS) != Z_OK) throw io_error(name_ + ": cannot start gzip decompression");
  }
  ~gzip_source() override { inflateEnd(&z_); }
  std::size_t read(char* buf, std::size_t n) override {
    n = std::min<std::size_t>(n, 1u << 30);
    while (!done_) {
      if (z_.avail_in == 0 && !in_eof_) {
        const std::size_t got = in_->read(inbuf_, sizeof inbuf_);
        if (got == 0) in_eof_ = true;
        z_.next_in = reinterpret_cast<Bytef*>(inbuf_);
        z_.avail_in = static_cast<uInt>(got);
      }
      if (member_end_) {
        // Another member follows only if there are more bytes.
        if (z_.avail_in == 0 && in_eof_) {
          done_ = true;
          break;
        }
        if (inflateReset(&z_) != Z_OK) throw io_error(name_ + ": gzip data is corrupt: cannot start the next member");
        member_end_ = false;
      }
      z_.next_out = reinterpret_cast<Bytef*>(buf);
      z_.avail_out = static_cast<uInt>(n);
      const int rc = inflate(&z_, Z_NO_FLUSH);
      const std::size_t out = n - z_.avail_out;
      if (rc == Z_STREAM_END) {
        member_end_ = true;
      } else if (rc == Z_BUF_ERROR && z_.avail_in == 0 && in_eof_) {
        throw io_error(name_ + ": gzip data is corrupt: the stream ends early");
      } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        throw io_error(name_ + ": gzip data is corrupt: " + (z_.msg ? z_.msg : "invalid data"));
      }
      if (out > 0) return out;
      if (rc != Z_STREAM_END && z_.avail_in == 0 && in_eof_)
        throw io_error(name_ + ": gzip data is corrupt: the stream ends early");
    }
    return 0;
  }
  std::uint64_t remaining_bound() const override {
    const std::uint64_t in = in_->remaining_bound();
    if (in == unknown) return unknown;
    const std::uint64_t left = in + z_.avail_in;
    if (left > unknown / 2048) return unknown;
    return left * 1032 + (std::uint64_t(1) << 16);  // plus what inflate may hold back
  }

 private:
  std::unique_ptr<byte_source> in_;
  std::string name_;
  z_stream z_{};
  char inbuf_[1 << 16];
  bool in_eof_ = false, member_end_ = false, done_ = false;
};
#endif

std::unique_ptr<byte_source> gzip_over(std::unique_ptr<byte_source> in, const std::string& name) {
#if defined(TGB_HAVE_ZLIB)
  return std::make_unique<gzip_source>(std::move(in), name);
#else
  (void)in;
  throw not_implemented(name + ": this build of tgb has no zlib, so it cannot read .gz files");
#endif
}

}  // namespace

std::unique_ptr<byte_source> open_file(const std::string& path) {
  int fd;
  do fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  while (fd < 0 && errno == EINTR);
  if (fd < 0) throw io_error(path + ": cannot open: " + errno_text(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    throw io_error(path + ": cannot open: " + errno_text(err));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    throw io_error(path + ": is a folder, not a file");
  }
  std::unique_ptr<byte_source> src =
      std::make_unique<fd_source>(fd, path, S_ISREG(st.st_mode) ? static_cast<std::uint64_t>(st.st_size) : unknown);
  if (ends_with(path, ".gz")) return gzip_over(std::move(src), path);
  return src;
}

std::string gunzip(const std::string& data, const std::string& name) {
  std::unique_ptr<byte_source> z = gzip_over(std::make_unique<memory_source>(data.data(), data.size()), name);
  // Bounded like every other host array (host_allocation_limit()).
  const std::size_t limit = host_allocation_limit();
  std::string out;
  try {
    char buf[1 << 16];
    while (const std::size_t n = z->read(buf, sizeof buf)) {
      if (limit && out.size() + n > limit)
        throw out_of_memory(name + ": decompressing: the data inflates to more than the host allocation limit of " +
                            std::to_string(limit) + " bytes");
      out.append(buf, n);
    }
  } catch (const std::bad_alloc&) {
    throw out_of_memory(name + ": out of memory while decompressing (" + std::to_string(out.size()) +
                        " bytes inflated)");
  }
  return out;
}

// ---------------------------------------------------------------------------
// line_reader

line_reader::line_reader(const char* data, std::size_t size, const std::string& name)
    : name(name), p_(data), end_(data + size), eof_(true) {}

line_reader::line_reader(std::unique_ptr<byte_source> src, const std::string& name)
    : name(name), p_(nullptr), end_(nullptr), src_(std::move(src)) {}

line_reader::~line_reader() { std::free(buf_); }

void line_reader::fail(const std::string& msg) const { throw io_error(where() + msg); }

std::string line_reader::where() const { return name + ":" + std::to_string(line == 0 ? 1 : line) + ": "; }

std::uint64_t line_reader::remaining() const {
  const std::uint64_t here = static_cast<std::uint64_t>(end_ - p_);
  if (!src_) return here;
  const std::uint64_t more = src_->remaining_bound();
  return more == unknown ? unknown : here + more;
}

// Moves the unread bytes to the front of the buffer and reads more; false at
// the end of the source.
bool line_reader::fill() {
  if (eof_) return false;
  const std::size_t kept = static_cast<std::size_t>(end_ - p_);
  if (kept == cap_) {
    if (cap_ > max_line_length) {
      ++line;
      fail("the line is longer than " + std::to_string(max_line_length >> 20) +
           " MiB; this is not Matrix Market or edge-list text");
    }
    const std::size_t grown = cap_ ? cap_ * 2 : std::size_t(1) << 18;
    char* nb = static_cast<char*>(std::malloc(grown));
    if (!nb) throw out_of_memory(name + ": out of memory for a read buffer of " + std::to_string(grown) + " bytes");
    if (kept) std::memcpy(nb, p_, kept);
    std::free(buf_);
    buf_ = nb;
    cap_ = grown;
  } else if (kept && p_ != buf_) {
    std::memmove(buf_, p_, kept);
  }
  p_ = buf_;
  end_ = buf_ + kept;
  const std::size_t got = src_->read(buf_ + kept, cap_ - kept);
  if (got == 0) {
    eof_ = true;
    return false;
  }
  // A NUL byte means binary data (or /dev/zero): stop at once, at its line,
  // rather than buffer up to the line limit.
  if (const void* z = std::memchr(buf_ + kept, '\0', got)) {
    const char* q = static_cast<const char*>(z);
    line += 1 + static_cast<std::uint64_t>(std::count(static_cast<const char*>(p_), q, '\n'));
    fail("a NUL byte; this is binary data, not Matrix Market or edge-list text");
  }
  end_ += got;
  return true;
}

void line_reader::check(const char* b, const char* e) const {
  if (static_cast<std::size_t>(e - b) > max_line_length)
    fail("the line is longer than " + std::to_string(max_line_length >> 20) +
         " MiB; this is not Matrix Market or edge-list text");
  // Text read in chunks was searched for NUL bytes as it arrived (fill()).
  if (!src_ && std::memchr(b, '\0', static_cast<std::size_t>(e - b)))
    fail("a NUL byte; this is binary data, not Matrix Market or edge-list text");
}

bool line_reader::next(const char*& b, const char*& e) {
  std::size_t scanned = 0;  // bytes after p_ already searched for '\n'
  for (;;) {
    const std::size_t avail = static_cast<std::size_t>(end_ - p_);
    const void* nl = avail > scanned ? std::memchr(p_ + scanned, '\n', avail - scanned) : nullptr;
    if (nl) {
      b = p_;
      e = static_cast<const char*>(nl);
      p_ = e + 1;
      break;
    }
    scanned = avail;
    if (!fill()) {  // the end: what is left is the last line, without '\n'
      if (p_ >= end_) return false;
      b = p_;
      e = end_;
      p_ = end_;
      break;
    }
  }
  ++line;
  check(b, e);
  if (e > b && e[-1] == '\r') --e;
  return true;
}

// ---------------------------------------------------------------------------
// atomic_output

namespace {

// An ostream buffer over a file descriptor that remembers the first error.
class fd_buf final : public std::streambuf {
 public:
  explicit fd_buf(int fd) : fd_(fd) { setp(buf_, buf_ + sizeof buf_); }
  int error() const { return err_; }

 protected:
  int_type overflow(int_type c) override {
    if (drain() != 0) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain(); }

 private:
  int drain() {
    const char* p = pbase();
    std::size_t n = static_cast<std::size_t>(pptr() - pbase());
    while (n > 0 && err_ == 0) {
      const ssize_t w = ::write(fd_, p, n);
      if (w < 0) {
        if (errno == EINTR) continue;
        err_ = errno;
      } else if (w == 0) {
        err_ = EIO;
      } else {
        p += w;
        n -= static_cast<std::size_t>(w);
      }
    }
    setp(buf_, buf_ + sizeof buf_);
    return err_ == 0 ? 0 : -1;
  }
  int fd_;
  int err_ = 0;
  char buf_[1 << 16];
};

std::atomic<unsigned> g_temp_counter{0};

}  // namespace

struct atomic_output::impl {
  std::string path, target, temp;  // target: path with a symbolic link resolved
  int fd = -1;
  bool in_place = false, committed = false;
  fd_buf buf;
  std::ostream os;
  impl(int f) : fd(f), buf(f), os(&buf) {}
};

atomic_output::atomic_output(const std::string& path) {
  std::string target = path;
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) throw io_error(path + ": is a folder, cannot write a file there");
  if (exists && !S_ISREG(st.st_mode)) {
    // A device or pipe (/dev/stdout, a FIFO) cannot be replaced: write to it.
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) throw io_error(path + ": cannot open for writing: " + errno_text(errno));
    d_ = std::make_unique<impl>(fd);
    d_->path = d_->target = path;
    d_->in_place = true;
    return;
  }
  struct stat lst {};
  if (::lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {
    // Replace the file the link points to, not the link.
    if (char* real = ::realpath(path.c_str(), nullptr)) {
      target = real;
      std::free(real);
    }
  }
  const std::size_t slash = target.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "" : target.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? target : target.substr(slash + 1);
  if (base.empty()) throw io_error(path + ": not a file name");
  const unsigned long long seed =
      static_cast<unsigned long long>(std::chrono::steady_clock::now().time_since_epoch().count());
  int fd = -1;
  std::string temp;
  for (int attempt = 0; fd < 0; ++attempt) {
    // Same folder, so that the rename is atomic; a dot name, so that it is
    // not taken for a result while being written.
    temp = dir + "." + base + ".tgb-tmp-" + std::to_string(::getpid()) + "-" + std::to_string(g_temp_counter++) + "-" +
           std::to_string((seed >> (attempt % 32)) & 0xffffff);
    fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && (errno != EEXIST || attempt > 100))
      throw io_error(path + ": cannot create a temporary file in its folder (" + temp + "): " + errno_text(errno));
  }
  // The new file keeps the old one's permissions (best effort: if we may not
  // change them we still write, with the umask's).
  if (exists) (void)::fchmod(fd, st.st_mode & 07777);
  d_ = std::make_unique<impl>(fd);
  d_->path = path;
  d_->target = target;
  d_->temp = temp;
}

atomic_output::~atomic_output() {
  if (!d_) return;
  if (d_->fd >= 0) ::close(d_->fd);
  if (!d_->committed && !d_->temp.empty()) ::unlink(d_->temp.c_str());
}

std::ostream& atomic_output::stream() { return d_->os; }

void atomic_output::commit() {
  impl& d = *d_;
  d.os.flush();
  auto failed = [&](const char* what, int err) {
    throw io_error(d.path + ": " + what + ": " + errno_text(err ? err : EIO));
  };
  if (!d.os || d.buf.error()) failed("write failed", d.buf.error());
  // Durable before it becomes visible under the name.
  if (!d.in_place && ::fsync(d.fd) != 0) failed("write failed (fsync)", errno);
  const int fd = d.fd;
  d.fd = -1;
  if (::close(fd) != 0) failed("write failed (close)", errno);
  if (d.in_place) {
    d.committed = true;
    return;
  }
  if (::rename(d.temp.c_str(), d.target.c_str()) != 0) failed("cannot replace the file", errno);
  d.committed = true;
  // Makes the rename itself durable; some file systems cannot sync a folder,
  // and the data is already in place, so a failure here is not an error.
  const std::size_t slash = d.target.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : d.target.substr(0, slash));
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    (void)::fsync(dfd);
    ::close(dfd);
  }
}

}  // namespace tgb::io::detail
