// tgb CUDA backend: explicit instantiations of mxm<T, T, T, S> for every
// predefined semiring S. Each src/cuda/mxm_<type>.cu expands this for one T,
// so the types compile in parallel.
#pragma once

#include <type_traits>

#include "tgb/detail/cuda/mxm.cuh"

#define TGB_CUDA_MXM_ONE(T, SR)                                                                                   \
  template tgb::detail::device_tile_matrix<T> tgb::detail::cuda::mxm<T, T, T, std::decay_t<decltype(tgb::SR)>>( \
      const tgb::detail::device_tile_matrix<T>&, const tgb::detail::cuda::mask_arg&, int, bool,                   \
      const std::decay_t<decltype(tgb::SR)>&, const tgb::detail::device_tile_matrix<T>&,                          \
      const tgb::detail::device_tile_matrix<T>&, const tgb::detail::cuda::mxm_request&, tgb::stream_t);

// The list must match tgb::detail::cuda::device_semiring in api.hpp.
#define TGB_CUDA_MXM_ALL(T)                                                                                    \
  TGB_CUDA_MXM_ONE(T, plus_times) TGB_CUDA_MXM_ONE(T, plus_min) TGB_CUDA_MXM_ONE(T, min_plus)               \
  TGB_CUDA_MXM_ONE(T, max_plus) TGB_CUDA_MXM_ONE(T, min_times) TGB_CUDA_MXM_ONE(T, max_times)               \
  TGB_CUDA_MXM_ONE(T, min_max) TGB_CUDA_MXM_ONE(T, max_min) TGB_CUDA_MXM_ONE(T, lor_land)                   \
  TGB_CUDA_MXM_ONE(T, plus_pair) TGB_CUDA_MXM_ONE(T, any_pair) TGB_CUDA_MXM_ONE(T, plus_first)              \
  TGB_CUDA_MXM_ONE(T, plus_second) TGB_CUDA_MXM_ONE(T, min_first) TGB_CUDA_MXM_ONE(T, min_second)           \
  TGB_CUDA_MXM_ONE(T, any_second) TGB_CUDA_MXM_ONE(T, any_first) TGB_CUDA_MXM_ONE(T, max_first)             \
  TGB_CUDA_MXM_ONE(T, max_second)
