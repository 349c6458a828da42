// tgb: index sets for assign and extract (GrB_Index *I with GrB_ALL, and
// SuiteSparse's GxB_RANGE / GxB_STRIDE): tgb::all, a list, or a range.
#pragma once

#include <initializer_list>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tgb/config.hpp"
#include "tgb/error.hpp"

namespace tgb {

struct all_t {};
inline constexpr all_t all{};

class index_list {
 public:
  // Every index of the object it is applied to, in order (GrB_ALL).
  index_list(all_t) noexcept : kind_(kind::all) {}
  // An explicit list, in the given order.
  index_list(std::vector<index_t> list) : kind_(kind::list), list_(std::move(list)) {}
  index_list(std::initializer_list<index_t> list) : kind_(kind::list), list_(list) {}
  // Any other container of integers (an unsigned index too large for index_t
  // wraps negative and is rejected by check()).
  template <class C, class = std::enable_if_t<
                         !std::is_convertible_v<const C&, std::vector<index_t>> &&
                         std::is_integral_v<std::decay_t<decltype(*std::begin(std::declval<const C&>()))>>>>
  explicit index_list(const C& list) : kind_(kind::list) {
    for (const auto& i : list) list_.push_back(static_cast<index_t>(i));
  }
  // begin, begin + stride, ... while below end (stride > 0) or above it
  // (stride < 0): GxB_RANGE with an exclusive end, or GxB_STRIDE.
  static index_list range(index_t begin, index_t end, index_t stride = 1) {
    if (stride == 0) throw invalid_value("tgb: index_list::range: the stride must not be 0");
    index_list l(all);
    l.kind_ = kind::range;
    l.begin_ = begin;
    l.stride_ = stride;
    // The count, (span - 1) / |stride| + 1, in unsigned arithmetic: the span
    // of two index_t values (and |INT64_MIN|) always fits in 64 unsigned bits.
    using u64 = unsigned long long;
    const bool up = stride > 0;
    if (up ? end <= begin : begin <= end) return l;  // empty
    const u64 span = up ? u64(end) - u64(begin) : u64(begin) - u64(end);
    const u64 step = up ? u64(stride) : u64(0) - u64(stride);
    const u64 count = (span - 1) / step + 1;
    if (count > u64(std::numeric_limits<index_t>::max()))
      throw invalid_value("tgb: index_list::range(" + std::to_string(begin) + ", " + std::to_string(end) + ", " +
                          std::to_string(stride) + ") holds " + std::to_string(count) +
                          " indices, more than an index_t can count");
    l.count_ = static_cast<index_t>(count);
    return l;
  }

  bool is_all() const noexcept { return kind_ == kind::all; }
  bool is_range() const noexcept { return kind_ == kind::range; }
  // A range's first index and stride (index k is begin + k * stride).
  index_t range_begin() const noexcept { return begin_; }
  index_t range_stride() const noexcept { return stride_; }
  // A list's indices (empty for all and ranges).
  const std::vector<index_t>& list() const noexcept { return list_; }
  // Number of indices when applied to an object of size n.
  index_t count(index_t n) const noexcept {
    switch (kind_) {
      case kind::all: return n;
      case kind::list: return static_cast<index_t>(list_.size());
      default: return count_;
    }
  }
  // The k-th index (0 <= k < count(n)).
  index_t operator[](index_t k) const noexcept {
    switch (kind_) {
      case kind::all: return k;
      case kind::list: return list_[static_cast<std::size_t>(k)];
      default: return at(k);
    }
  }
  // Throws index_out_of_bounds (GrB_INDEX_OUT_OF_BOUNDS) unless every index
  // lies in [0, n); `what` names the operation.
  void check(index_t n, const char* what) const {
    if (kind_ == kind::all) return;
    const index_t c = count(n);
    if (c == 0) return;
    auto bad = [&](index_t i) {
      return index_out_of_bounds(std::string("tgb::") + what + ": index " + std::to_string(i) + " is outside [0, " +
                                 std::to_string(n) + ")");
    };
    if (kind_ == kind::range) {
      const index_t first = begin_, last = at(c - 1);
      if (first < 0 || first >= n) throw bad(first);
      if (last < 0 || last >= n) throw bad(last);
      return;
    }
    for (index_t i : list_)
      if (i < 0 || i >= n) throw bad(i);
  }

 private:
  // begin_ + k * stride_ for 0 <= k < count_: the result lies between begin
  // and end, but k * stride_ alone may not fit, so it is formed modulo 2^64.
  index_t at(index_t k) const noexcept {
    using u64 = unsigned long long;
    return static_cast<index_t>(u64(begin_) + u64(k) * u64(stride_));
  }
  enum class kind { all, list, range };
  kind kind_;
  std::vector<index_t> list_;
  index_t begin_ = 0, stride_ = 1, count_ = 0;
};

}  // namespace tgb
