// tgb: reading whole files, gzip included where zlib is available.
#include <cerrno>
#include <cstring>
#include <algorithm>
#include <fstream>
#include <string>

#include "tgb/io/matrix_market.hpp"

#if defined(TGB_HAVE_ZLIB)
#include <zlib.h>
#endif

namespace tgb::io::detail {

namespace {
bool ends_with(const std::string& s, const char* suffix) {
  const std::size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}
}  // namespace

std::string gunzip(const std::string& data, const std::string& name) {
#if defined(TGB_HAVE_ZLIB)
  z_stream z{};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) throw io_error(name + ": cannot start gzip decompression");
  std::string out;
  char buf[1 << 16];
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  int rc = Z_OK;
  std::size_t left = data.size();
  try {
    // Concatenated gzip members are read one after another, as gunzip does.
    while (rc != Z_STREAM_END || left > 0) {
      if (rc == Z_STREAM_END) {
        if (inflateReset(&z) != Z_OK) break;
        rc = Z_OK;
      }
      const uInt chunk = static_cast<uInt>(std::min<std::size_t>(left, 1u << 30));
      z.avail_in = chunk;
      const Bytef* before = z.next_in;
      do {
        z.next_out = reinterpret_cast<Bytef*>(buf);
        z.avail_out = sizeof buf;
        rc = inflate(&z, Z_NO_FLUSH);
        if (rc != Z_OK && rc != Z_STREAM_END) {
          const std::string msg = z.msg ? z.msg : (rc == Z_BUF_ERROR ? "unexpected end of data" : "invalid data");
          throw io_error(name + ": gzip data is corrupt: " + msg);
        }
        out.append(buf, sizeof buf - z.avail_out);
      } while (rc != Z_STREAM_END && z.avail_out == 0);
      left -= static_cast<std::size_t>(z.next_in - before);
      if (rc != Z_STREAM_END && z.avail_in == 0 && left == 0)
        throw io_error(name + ": gzip data is corrupt: the stream ends early");
    }
  } catch (const std::bad_alloc&) {
    inflateEnd(&z);
    throw out_of_memory(name + ": out of memory while decompressing");
  } catch (...) {
    inflateEnd(&z);
    throw;
  }
  inflateEnd(&z);
  return out;
#else
  (void)data;
  throw not_implemented(name + ": this build of tgb has no zlib, so it cannot read .gz files");
#endif
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw io_error(path + ": cannot open: " + std::strerror(errno));
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size < 0) throw io_error(path + ": cannot determine the file size");
  in.seekg(0, std::ios::beg);
  std::string text;
  try {
    text.resize(static_cast<std::size_t>(size));
  } catch (const std::bad_alloc&) {
    throw out_of_memory(path + ": out of memory reading the file");
  }
  if (size > 0 && !in.read(&text[0], size)) throw io_error(path + ": read failed");
  if (ends_with(path, ".gz")) return gunzip(text, path);
  return text;
}

}  // namespace tgb::io::detail
