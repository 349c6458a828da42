// tgb command line: shared declarations.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

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

double median(std::vector<double> v);
std::string json_escape(const std::string& s);

}  // namespace tgb::cli
