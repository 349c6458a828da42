// tgb CUDA backend: explicit instantiations of mxm<T, T, T, S> for every
// predefined semiring S. Each src/cuda/mxm_<type>.cu expands this for one T,
// so the types compile in parallel.
#pragma once

#include <type_traits>

#include "tgb/detail/cuda/mxm.cuh"

#define TGB_CUDA_MXM_ONE(T, SR)                                                                              \
  template tgb::detail::cuda::device_result<T> tgb::detail::cuda::mxm<T, T, T, std::decay_t<decltype(tgb::SR)>>( \
      tgb::detail::cuda::device_operand<T>, const tgb::detail::cuda::mask_arg&, int, bool,                    \
      const std::decay_t<decltype(tgb::SR)>&, tgb::detail::cuda::device_operand<T>,                           \
      tgb::detail::cuda::device_operand<T>, const tgb::detail::cuda::mxm_request&, tgb::stream_t);

// Every semiring of the catalogue (TGB_SEMIRINGS, algebra.hpp), as
// device_semiring in api.hpp lists them.
#define TGB_CUDA_MXM_X(name, add, mul, T) TGB_CUDA_MXM_ONE(T, name)
#define TGB_CUDA_MXM_ALL(T) TGB_SEMIRINGS(TGB_CUDA_MXM_X, T)
