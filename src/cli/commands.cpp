// tgb command line: `info`, the option parsing of `mxm`, and helpers.
#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory_resource>
#include <sstream>

#include "cli.hpp"
#include "tgb/tgb.hpp"

namespace tgb::cli {

const std::vector<std::string>& semiring_names() {
#define TGB_CLI_NAME(name, add, mul, unused) #name,
  static const std::vector<std::string> names{TGB_SEMIRINGS(TGB_CLI_NAME, ~)};
#undef TGB_CLI_NAME
  return names;
}

const std::vector<std::string>& operator_names() {
  // Order matches tgb::detail::op_code.
  static const std::vector<std::string> names{"plus", "minus", "times", "min", "max", "first", "second",
                                              "pair", "any",   "lor",   "land", "lxor", "eq",    "ne",
                                              "pow"};
  return names;
}

namespace {

// The command line's one budget: every host allocation through tgb's host
// memory resource (matrix storage, the readers' arrays) is counted against it.
class budget_resource final : public std::pmr::memory_resource {
 public:
  std::atomic<std::size_t> limit{0}, used{0};
  std::atomic<bool> refused{false};

 private:
  void* do_allocate(std::size_t bytes, std::size_t align) override {
    const std::size_t now = used.fetch_add(bytes) + bytes;
    const std::size_t lim = limit.load();
    if (lim && (now > lim || now < bytes)) {
      used.fetch_sub(bytes);
      refused = true;
      throw std::bad_alloc();
    }
    try {
      return default_host_memory_resource()->allocate(bytes, align);
    } catch (...) {
      used.fetch_sub(bytes);
      throw;
    }
  }
  void do_deallocate(void* p, std::size_t bytes, std::size_t align) override {
    default_host_memory_resource()->deallocate(p, bytes, align);
    used.fetch_sub(bytes);
  }
  bool do_is_equal(const std::pmr::memory_resource& o) const noexcept override { return this == &o; }
};

budget_resource g_budget;

}  // namespace

std::size_t parse_memory_size(const std::string& cmd, const std::string& v) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long n = std::strtoull(v.c_str(), &end, 10);
  std::string unit = end ? end : "";
  for (char& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  int shift = -1;
  if (unit.empty() || unit == "B") shift = 0;
  else if (unit == "K" || unit == "KB" || unit == "KIB") shift = 10;
  else if (unit == "M" || unit == "MB" || unit == "MIB") shift = 20;
  else if (unit == "G" || unit == "GB" || unit == "GIB") shift = 30;
  else if (unit == "T" || unit == "TB" || unit == "TIB") shift = 40;
  if (v.empty() || !std::isdigit(static_cast<unsigned char>(v[0])) || errno || shift < 0 || n == 0 ||
      n > (~0ull >> shift))
    throw usage_error(cmd + ": --max-memory takes a size such as 4G, 512M or 1000000 (bytes), not '" + v + "'");
  return static_cast<std::size_t>(n << shift);
}

std::size_t apply_memory_budget(std::size_t bytes) {
  const std::size_t limit = bytes ? bytes : host_allocation_limit();
  g_budget.limit = limit;
  set_host_memory_resource(&g_budget);
  // One array can be no larger than the whole budget.
  if (bytes && (host_allocation_limit() == 0 || bytes < host_allocation_limit())) set_host_allocation_limit(bytes);
  return limit;
}

std::string memory_budget_note() {
  if (!g_budget.refused) return "";
  return " (the memory budget of " + std::to_string(g_budget.limit.load()) + " bytes was reached; see --max-memory)";
}

void finish_stdout() {
  errno = 0;
  std::cout.flush();
  const bool failed = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout);
  if (failed) {
    const int err = errno;
    throw io_error(std::string("<stdout>: write failed") + (err ? std::string(": ") + std::strerror(err) : ""));
  }
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string json_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\', out += c;
    else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else out += c;
  }
  return out;
}

int cmd_info(const std::vector<std::string>& args) {
  std::string file;
  bool json = false;
  std::size_t max_memory = 0;
  for (std::size_t k = 0; k < args.size(); ++k) {
    const std::string& a = args[k];
    if (a == "--json") json = true;
    else if (a == "--max-memory") {
      if (k + 1 >= args.size()) throw usage_error("tgb info: --max-memory needs a value");
      max_memory = parse_memory_size("tgb info", args[++k]);
    } else if (!a.empty() && a[0] == '-') throw usage_error("tgb info: unknown option '" + a + "'");
    else if (file.empty()) file = a;
    else throw usage_error("tgb info: takes one file");
  }
  if (file.empty()) throw usage_error("tgb info: no file given");
  io::read_options ro;
  ro.max_memory = apply_memory_budget(max_memory);
  const Matrix<double> A = io::read_graph<double>(file, ro);
  // Histogram of entries per tile in powers of two: 1, 2-3, 4-7, ..., 128-255, 256.
  std::vector<offset_t> hist(10, 0);
  offset_t ntiles = 0;
  auto count_tile = [&](offset_t n) {
    int b = 0;
    while ((offset_t(2) << b) <= n && b < 8) ++b;
    ++hist[n == 256 ? 9 : b];
    ++ntiles;
  };
  if (A.form() == storage_form::hyper) {
    // From the entries (a tile copy would cost a pointer per 16 rows).
    const coo<double> c = A.to_coo();
    std::vector<std::pair<index_t, index_t>> keys(c.rows.size());
    for (std::size_t e = 0; e < keys.size(); ++e) keys[e] = {c.rows[e] >> tile_shift, c.cols[e] >> tile_shift};
    std::sort(keys.begin(), keys.end());
    for (std::size_t e = 0, f; e < keys.size(); e = f) {
      for (f = e; f < keys.size() && keys[f] == keys[e]; ++f) {
      }
      count_tile(static_cast<offset_t>(f - e));
    }
  } else {
    const auto& p = A.tiles().pat;
    for (offset_t t = 0; t < p.ntiles(); ++t) count_tile(p.tile_offset[t + 1] - p.tile_offset[t]);
  }
  const char* labels[] = {"1", "2-3", "4-7", "8-15", "16-31", "32-63", "64-127", "128-255", "", "256"};
  const double avg = ntiles ? double(A.nvals()) / double(ntiles) : 0.0;
  if (json) {
    std::cout << "{\"file\":\"" << json_escape(file) << "\",\"nrows\":" << A.nrows() << ",\"ncols\":" << A.ncols()
              << ",\"nvals\":" << A.nvals() << ",\"ntiles\":" << ntiles << ",\"storage\":\"" << storage_form_name(A.form())
              << "\",\"entries_per_tile\":" << avg
              << ",\"tile_histogram\":{";
    bool first = true;
    for (int b = 0; b < 10; ++b) {
      if (b == 8) continue;
      std::cout << (first ? "" : ",") << "\"" << labels[b] << "\":" << hist[b];
      first = false;
    }
    std::cout << "}}\n";
  } else {
    std::cout << "file:            " << file << "\n"
              << "rows:            " << A.nrows() << "\n"
              << "columns:         " << A.ncols() << "\n"
              << "stored entries:  " << A.nvals() << "\n"
              << "non-empty tiles: " << ntiles << " (16x16)\n"
              << "stored as:       " << storage_form_name(A.form()) << "\n"
              << "entries/tile:    " << avg << "\n"
              << "entries per tile histogram:\n";
    for (int b = 0; b < 10; ++b) {
      if (b == 8) continue;
      char line[64];
      std::snprintf(line, sizeof line, "  %8s %12lld\n", labels[b], static_cast<long long>(hist[b]));
      std::cout << line;
    }
  }
  finish_stdout();
  return 0;
}

int cmd_mxm(const std::vector<std::string>& args) {
  mxm_options o;
  std::vector<std::string> pos;
  for (std::size_t k = 0; k < args.size(); ++k) {
    const std::string& a = args[k];
    auto value = [&]() -> std::string {
      if (k + 1 >= args.size()) throw usage_error("tgb mxm: " + a + " needs a value");
      return args[++k];
    };
    if (a == "-o" || a == "--output") o.out = value();
    else if (a == "--semiring") o.semiring = value();
    else if (a == "--type") o.type = value();
    else if (a == "--mask") o.mask = value();
    else if (a == "--complement") o.complement = true;
    else if (a == "--structure") o.structure = true;
    else if (a == "--replace") o.replace = true;
    else if (a == "--accum") o.accum = value();
    else if (a == "--init") o.init = value();
    else if (a == "--transpose-a") o.transpose_a = true;
    else if (a == "--transpose-b") o.transpose_b = true;
    else if (a == "--backend") o.backend = value();
    else if (a == "--json") o.json = true;
    else if (a == "--max-memory") o.max_memory = parse_memory_size("tgb mxm", value());
    else if (a == "--repeat") {
      const std::string v = value();
      char* end = nullptr;
      const long r = std::strtol(v.c_str(), &end, 10);
      if (!end || *end || r < 1 || r > 100000) throw usage_error("tgb mxm: --repeat takes a count from 1 to 100000");
      o.repeat = static_cast<int>(r);
    } else if (!a.empty() && a[0] == '-' && a != "-") throw usage_error("tgb mxm: unknown option '" + a + "'");
    else pos.push_back(a);
  }
  if (pos.size() != 2) throw usage_error("tgb mxm: needs two input files, A and B");
  o.a = pos[0];
  o.b = pos[1];
  if (o.backend != "auto" && o.backend != "host" && o.backend != "cuda")
    throw usage_error("tgb mxm: --backend must be auto, host or cuda");
  if ((o.complement || o.structure) && o.mask.empty())
    throw usage_error("tgb mxm: --complement and --structure modify a mask; give one with --mask");
  if (!o.accum.empty()) {
    const auto& ops = operator_names();
    if (std::find(ops.begin(), ops.end(), o.accum) == ops.end()) {
      std::string all;
      for (const auto& s : ops) all += (all.empty() ? "" : ", ") + s;
      throw usage_error("tgb mxm: unknown accumulator '" + o.accum + "' (one of: " + all + ")");
    }
  }
  {
    const auto& names = semiring_names();
    if (std::find(names.begin(), names.end(), o.semiring) == names.end()) {
      std::string all;
      for (const auto& s : names) all += (all.empty() ? "" : ", ") + s;
      throw usage_error("tgb mxm: unknown semiring '" + o.semiring + "' (one of: " + all + ")");
    }
  }
  o.max_memory = apply_memory_budget(o.max_memory);
  if (o.type == "bool") return run_mxm_bool(o);
  if (o.type == "int32") return run_mxm_int32(o);
  if (o.type == "int64") return run_mxm_int64(o);
  if (o.type == "fp32") return run_mxm_fp32(o);
  if (o.type == "fp64") return run_mxm_fp64(o);
  throw usage_error("tgb mxm: --type must be bool, int32, int64, fp32 or fp64");
}

}  // namespace tgb::cli
