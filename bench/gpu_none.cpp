// tgb-bench without the CUDA backend: the GPU columns say why they are empty.
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
timing cusparse(op, const tgb::csr<double>&, int, tgb::csr<double>*) {
  timing t;
  t.note = "no CUDA backend";
  return t;
}
}  // namespace bench
