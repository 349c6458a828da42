// tgb CUDA backend: the element-wise vector operations for every pair of the
// value types the library ships (so that they also cast), fill and reduce
// per type.
#include "tgb/detail/cuda/vector_elementwise.cuh"

namespace tgb::detail::cuda {

#define TGB_CUDA_VECTOR_PAIR(TW, TU)                                                                          \
  template device_vector<TW> vector_cast<TW, TU>(const device_vector<TU>&, stream_t);                        \
  template device_vector<TW> vector_ewise<TW, TU>(const device_vector<TU>&, const device_vector<TU>&, int, int, \
                                                  TU, TU, stream_t);                                          \
  template device_vector<TW> vector_apply<TW, TU>(const device_vector<TU>&, const coded_unary&, stream_t);   \
  template device_vector<TW> vector_apply_index<TW, TU>(const device_vector<TU>&, int, const coded_scalar&,  \
                                                        stream_t);                                            \
  template device_vector<TW> vector_select<TW, TU>(const device_vector<TU>&, const coded_select&,            \
                                                   const coded_scalar&, stream_t);
#define TGB_CUDA_VECTOR_FROM(TU)                                                                               \
  TGB_CUDA_VECTOR_PAIR(bool, TU) TGB_CUDA_VECTOR_PAIR(std::int32_t, TU) TGB_CUDA_VECTOR_PAIR(std::int64_t, TU) \
  TGB_CUDA_VECTOR_PAIR(float, TU) TGB_CUDA_VECTOR_PAIR(double, TU)                                            \
  template device_vector<TU> vector_fill(index_t, TU, stream_t);                                              \
  template TU vector_reduce(const device_vector<TU>&, const coded_monoid&, bool*, stream_t);

TGB_CUDA_VECTOR_FROM(bool)
TGB_CUDA_VECTOR_FROM(std::int32_t)
TGB_CUDA_VECTOR_FROM(std::int64_t)
TGB_CUDA_VECTOR_FROM(float)
TGB_CUDA_VECTOR_FROM(double)

}  // namespace tgb::detail::cuda
