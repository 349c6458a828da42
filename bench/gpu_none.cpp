// tgb-bench without the CUDA backend: the GPU columns say why they are empty.
#include <chrono>

#include "gpu.hpp"

namespace bench {
bool gpu_available() { return false; }
std::string gpu_description() { return "CUDA backend not compiled"; }
double gpu_copy_bandwidth() { return 0; }
timing tgb_cuda(op, const tgb::Matrix<double>&, const tgb::Matrix<bool>&, int, tgb::csr<double>*) {
  timing t;
  t.note = "no CUDA backend";
  return t;
}
timing tgb_cuda_msbfs_step(const tgb::Matrix<bool>&, const tgb::Matrix<bool>&, const tgb::Matrix<bool>&, int,
                           tgb::csr<double>*) {
  timing t;
  t.note = "no CUDA backend";
  return t;
}
timing tgb_cuda_convert(const tgb::csr<double>&, tgb::index_t, const tgb::Matrix<double>&, int, std::string*) {
  timing t;
  t.note = "no CUDA backend";
  return t;
}
big_product past_2_31(int) {
  big_product b;
  b.tgb.note = b.cusparse.note = "no CUDA backend";
  return b;
}
timing cusparse(op, const tgb::csr<double>&, int, tgb::csr<double>*) {
  timing t;
  t.note = "no CUDA backend";
  return t;
}
timing tgb_cuda_mxv(const tgb::Matrix<double>&, bool, bool, int, std::vector<double>*) {
  timing t;
  t.note = "no CUDA backend";
  return t;
}
timing cusparse_spmv(const tgb::csr<double>&, int, std::vector<double>*, bool) {
  timing t;
  t.note = "no CUDA backend";
  return t;
}
std::string set_pool_policy(bool) { return "no CUDA backend"; }
void set_gpu_fused_max(double) {}
void set_gpu_warp_pair(double) {}
void set_gpu_dense_tile(int) {}
void set_gpu_row_ratio(double) {}
bool set_gpu_method(const std::string& name) { return name == "auto" || name == "tile" || name == "rows" || name == "dot"; }
void trim_pool() {}
stopwatch::stopwatch(bool) {}
stopwatch::~stopwatch() {}
void stopwatch::start() {
  t0_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
double stopwatch::stop_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count() - t0_;
}
}  // namespace bench
