// tgb CUDA backend: mxm for every predefined semiring on int64.
#include "mxm_instances.cuh"

TGB_CUDA_MXM_ALL(std::int64_t)

// plus_pair into int64 from bool (triangle counting).
template tgb::detail::cuda::device_result<std::int64_t> tgb::detail::cuda::mxm(
    tgb::detail::cuda::device_operand<std::int64_t>, const tgb::detail::cuda::mask_arg&, int, bool,
    const std::decay_t<decltype(tgb::plus_pair)>&, tgb::detail::cuda::device_operand<bool>,
    tgb::detail::cuda::device_operand<bool>, const tgb::detail::cuda::mxm_request&, tgb::stream_t);
