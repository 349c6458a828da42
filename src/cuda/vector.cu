// tgb CUDA backend: the vector products for every predefined semiring on the
// value types the library ships, the vector masks and the write-back.
#include "tgb/detail/cuda/vector.cuh"

namespace tgb::detail::cuda {

#define TGB_CUDA_VECTOR_PRODUCT(name, add, mul, T)                                                              \
  template device_vector<T> vector_product<T, semiring<add, mul>>(const vector_operand<T>&, bool, bool,               \
                                                                   const device_vector<T>&, const std::uint8_t*, \
                                                                   const semiring<add, mul>&, stream_t,        \
                                                                   device_vector<T>*);
#define TGB_CUDA_VECTOR(T)                                                                                     \
  template device_buffer<std::uint8_t> vector_admits(const device_vector<T>&, bool, bool, stream_t);          \
  template device_vector<T> vector_writeback(const device_vector<T>&, const std::uint8_t*, int, bool,         \
                                             device_vector<T>&&, bool, stream_t);                             \
  template void vector_assign_all(device_vector<T>&, const device_vector<T>*, const T*, const std::uint8_t*, int, \
                                  bool, stream_t);                                                            \
  TGB_SEMIRINGS(TGB_CUDA_VECTOR_PRODUCT, T)

TGB_CUDA_VECTOR(bool)
TGB_CUDA_VECTOR(std::int32_t)
TGB_CUDA_VECTOR(std::int64_t)
TGB_CUDA_VECTOR(float)
TGB_CUDA_VECTOR(double)

}  // namespace tgb::detail::cuda
