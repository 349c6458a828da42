// tgb: reading whole files, gzip included where zlib is available.
#include <cerrno>
#include <cstring>
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

std::string read_file(const std::string& path) {
  if (ends_with(path, ".gz")) {
#if defined(TGB_HAVE_ZLIB)
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f) throw io_error(path + ": cannot open: " + std::strerror(errno));
    std::string out;
    char buf[1 << 16];
    for (;;) {
      const int n = gzread(f, buf, sizeof buf);
      if (n < 0) {
        int code = 0;
        const std::string msg = gzerror(f, &code);
        gzclose(f);
        throw io_error(path + ": gzip data is corrupt: " + msg);
      }
      if (n == 0) break;
      try {
        out.append(buf, static_cast<std::size_t>(n));
      } catch (const std::bad_alloc&) {
        gzclose(f);
        throw out_of_memory(path + ": out of memory while decompressing");
      }
    }
    gzclose(f);
    return out;
#else
    throw not_implemented(path + ": this build of tgb has no zlib, so it cannot read .gz files");
#endif
  }
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
  return text;
}

}  // namespace tgb::io::detail
