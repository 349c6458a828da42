// A user-defined semiring for the row path's device tests: bitwise-or with
// a terminal value (-1) over int64, and a product that is not symmetric in
// its operands. rowpath_semiring.cu instantiates the device mxm, mxv and vxm for it.
#pragma once

#include <cstdint>

#include "tgb/tgb.hpp"

namespace rowpath_test {
struct bor_op {
  TGB_HD std::int64_t operator()(std::int64_t a, std::int64_t b) const { return a | b; }
};
struct skew_times {
  TGB_HD std::int64_t operator()(std::int64_t a, std::int64_t b) const { return 3 * a - b; }
};
inline constexpr auto bor_skew =
    tgb::make_semiring(tgb::make_monoid(bor_op{}, std::int64_t(0), std::int64_t(-1)), skew_times{});
using bor_skew_t = std::decay_t<decltype(bor_skew)>;
}  // namespace rowpath_test

template <>
struct tgb::detail::cuda::mxm_enabled<std::int64_t, std::int64_t, std::int64_t, rowpath_test::bor_skew_t>
    : std::true_type {};
template <>
struct tgb::detail::cuda::mxv_enabled<std::int64_t, std::int64_t, std::int64_t, rowpath_test::bor_skew_t>
    : std::true_type {};
