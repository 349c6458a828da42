// tgb: include in a .cu file to run mxm on the GPU with a semiring or types
// the library does not instantiate. Enable the combination there with
//   template <> struct tgb::detail::cuda::mxm_enabled<TC, TA, TB, MySemiring> : std::true_type {};
// before calling tgb::mxm; its operators must be __host__ __device__.
#pragma once

#include "tgb/detail/cuda/mxm.cuh"
#include "tgb/tgb.hpp"
