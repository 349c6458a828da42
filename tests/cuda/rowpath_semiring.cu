// The device mxm, mxv and vxm for the user-defined semiring of the row path's
// and the vector tests.
#include "rowpath_semiring.hpp"
#include "tgb/cuda/mxm.cuh"

template tgb::detail::cuda::device_result<std::int64_t>
tgb::detail::cuda::mxm<std::int64_t, std::int64_t, std::int64_t, rowpath_test::bor_skew_t>(
    tgb::detail::cuda::device_operand<std::int64_t>, const tgb::detail::cuda::mask_arg&, int, bool,
    const rowpath_test::bor_skew_t&, tgb::detail::cuda::device_operand<std::int64_t>,
    tgb::detail::cuda::device_operand<std::int64_t>, const tgb::detail::cuda::mxm_request&, tgb::stream_t);

template tgb::detail::device_vector<std::int64_t>
tgb::detail::cuda::vector_product<std::int64_t, rowpath_test::bor_skew_t>(
    const tgb::detail::cuda::vector_operand<std::int64_t>&, bool, bool, const tgb::detail::device_vector<std::int64_t>&,
    const std::uint8_t*, const rowpath_test::bor_skew_t&, tgb::stream_t, tgb::detail::device_vector<std::int64_t>*);
