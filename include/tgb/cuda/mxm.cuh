// tgb: include in a .cu file to run mxm, mxv and vxm on the GPU with a
// semiring or types the library does not instantiate; its operators must be
// __host__ __device__. Enable the combination where every caller sees it
// (a header), and instantiate it in the .cu file:
//   template <> struct tgb::detail::cuda::mxm_enabled<TC, TA, TB, MySemiring> : std::true_type {};
//   template <> struct tgb::detail::cuda::mxv_enabled<TW, TA, TU, MySemiring> : std::true_type {};
// mxm: instantiate tgb::detail::cuda::mxm<TC, TA, TB, MySemiring>; mxv and
// vxm (u and A are cast to w's type TW first): instantiate
// tgb::detail::cuda::vector_product<TW, MySemiring>. tests/cuda/rowpath_semiring.cu
// does both; docs/api.md, "On the device".
#pragma once

#include "tgb/detail/cuda/mxm.cuh"
#include "tgb/detail/cuda/vector.cuh"
#include "tgb/tgb.hpp"
