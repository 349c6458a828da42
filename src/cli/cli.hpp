// tgb command line: shared declarations.
#pragma once

#include <cstddef>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "tgb/error.hpp"

namespace tgb::cli {

// A usage error: exit status 1.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

int cmd_info(const std::vector<std::string>& args);
int cmd_mxm(const std::vector<std::string>& args);
int cmd_demo(const std::vector<std::string>& args);
int cmd_tc(const std::vector<std::string>& args);
int cmd_bfs(const std::vector<std::string>& args);
int cmd_mcl(const std::vector<std::string>& args);
int cmd_sssp(const std::vector<std::string>& args);
int cmd_pagerank(const std::vector<std::string>& args);
int cmd_cc(const std::vector<std::string>& args);
int cmd_lcc(const std::vector<std::string>& args);
int cmd_ktruss(const std::vector<std::string>& args);
int cmd_bc(const std::vector<std::string>& args);

// Options of `tgb mxm` after parsing.
struct mxm_options {
  std::string a, b, out, mask, init;
  std::string semiring = "plus_times";
  std::string type = "fp64";
  std::string accum;  // empty: none
  std::string backend = "auto";
  bool complement = false, structure = false, replace = false, transpose_a = false, transpose_b = false;
  bool json = false;
  int repeat = 1;
  std::size_t max_memory = 0;  // bytes; 0: the default (physical memory)
};

// Runs `tgb mxm` for one value type (instantiated per type in mxm_*.cpp).
int run_mxm_bool(const mxm_options& o);
int run_mxm_int32(const mxm_options& o);
int run_mxm_int64(const mxm_options& o);
int run_mxm_fp32(const mxm_options& o);
int run_mxm_fp64(const mxm_options& o);

// Names of the predefined semirings and accumulator operators.
const std::vector<std::string>& semiring_names();
const std::vector<std::string>& operator_names();

// --max-memory SIZE: bytes, or with a suffix K, M, G, T (powers of 1024).
std::size_t parse_memory_size(const std::string& cmd, const std::string& v);
// Counts every host allocation made through tgb's host memory resource
// against one budget (`bytes`, or physical memory when 0) and bounds reads by
// it; returns the budget, for io::read_options::max_memory.
std::size_t apply_memory_budget(std::size_t bytes);
// " (the --max-memory budget of N bytes was reached)" once the budget has
// refused an allocation, else "".
std::string memory_budget_note();
// Flushes stdout and checks that everything written to it arrived; io_error
// otherwise (a full disk, /dev/full), so that no command exits 0 with its
// output lost.
void finish_stdout();

// Runs f, naming `what` in an out-of-memory error, which would otherwise say
// only how many bytes were asked for.
template <class F>
auto in_context(const std::string& what, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const out_of_memory& e) {
    throw out_of_memory(what + ": " + e.what());
  } catch (const std::bad_alloc&) {
    throw out_of_memory(what + ": out of memory");
  }
}

double median(std::vector<double> v);
std::string json_escape(const std::string& s);

}  // namespace tgb::cli
