// tgb CUDA backend: instantiations of the element-wise operations, the
// reductions and the write-back for the value types the library ships
// (apply and apply_index for every pair of them, so that they also cast).
#include "tgb/detail/cuda/elementwise.cuh"

namespace tgb::detail::cuda {

#define TGB_CUDA_APPLY(TC, TA)                                                                                  \
  template device_tile_matrix<TC> apply<TC, TA>(const device_tile_matrix<TA>&, const coded_unary&, stream_t);    \
  template device_tile_matrix<TC> apply_index<TC, TA>(const device_tile_matrix<TA>&, int, const coded_scalar&, \
                                                      stream_t);
#define TGB_CUDA_APPLY_FROM(TA)                                                                            \
  TGB_CUDA_APPLY(bool, TA) TGB_CUDA_APPLY(std::int32_t, TA) TGB_CUDA_APPLY(std::int64_t, TA) \
  TGB_CUDA_APPLY(float, TA) TGB_CUDA_APPLY(double, TA)
#define TGB_CUDA_ELEMENTWISE(T)                                                                                  \
  template device_tile_matrix<T> writeback(const device_tile_matrix<T>&, const mask_arg&, int, bool,             \
                                           device_tile_matrix<T>&&, bool, stream_t);                             \
  template device_tile_matrix<T> select(const device_tile_matrix<T>&, const coded_select&, const coded_scalar&,  \
                                        stream_t);                                                               \
  template device_tile_matrix<T> ewise(const device_tile_matrix<T>&, const device_tile_matrix<T>&, int, int, T, T, \
                                       stream_t);                                                                \
  template void reduce_rows(const device_tile_matrix<T>&, const coded_monoid&, T*, std::uint8_t*, stream_t);     \
  template T reduce_all(const device_tile_matrix<T>&, const coded_monoid&, stream_t);                            \
  TGB_CUDA_APPLY_FROM(T)

TGB_CUDA_ELEMENTWISE(bool)
TGB_CUDA_ELEMENTWISE(std::int32_t)
TGB_CUDA_ELEMENTWISE(std::int64_t)
TGB_CUDA_ELEMENTWISE(float)
TGB_CUDA_ELEMENTWISE(double)

}  // namespace tgb::detail::cuda
