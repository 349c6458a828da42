// tgb: index sets for assign and extract (GrB_Index *I with GrB_ALL, and
// SuiteSparse's GxB_RANGE / GxB_STRIDE): tgb::all, a list, or a range.
#pragma once

#include <initializer_list>
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
    if (stride > 0) l.count_ = end > begin ? (end - begin + stride - 1) / stride : 0;
    else l.count_ = begin > end ? (begin - end + (-stride) - 1) / (-stride) : 0;
    return l;
  }

  bool is_all() const noexcept { return kind_ == kind::all; }
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
      default: return begin_ + k * stride_;
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
      const index_t first = begin_, last = begin_ + (c - 1) * stride_;
      if (first < 0 || first >= n) throw bad(first);
      if (last < 0 || last >= n) throw bad(last);
      return;
    }
    for (index_t i : list_)
      if (i < 0 || i >= n) throw bad(i);
  }

 private:
  enum class kind { all, list, range };
  kind kind_;
  std::vector<index_t> list_;
  index_t begin_ = 0, stride_ = 1, count_ = 0;
};

}  // namespace tgb
