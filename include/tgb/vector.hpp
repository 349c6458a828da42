// tgb: Vector<T>, a dense vector with a presence flag per element: what a
// row or column reduction produces and what its mask reads.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tgb/config.hpp"
#include "tgb/detail/buffer.hpp"
#include "tgb/error.hpp"

namespace tgb {

template <class T>
class Vector {
 public:
  using value_type = T;
  Vector() = default;
  explicit Vector(index_t n) {
    if (n < 0 || n > max_dimension) throw invalid_value("tgb: invalid vector size " + std::to_string(n));
    n_ = n;
    values_ = detail::buffer<T>(static_cast<std::size_t>(n), T());
    present_ = detail::buffer<std::uint8_t>(static_cast<std::size_t>(n), std::uint8_t(0));
  }

  index_t size() const noexcept { return n_; }
  index_t nvals() const noexcept {
    index_t k = 0;
    for (index_t i = 0; i < n_; ++i) k += present_[i];
    return k;
  }
  std::optional<T> get(index_t i) const {
    check(i);
    return present_[i] ? std::optional<T>(values_[i]) : std::nullopt;
  }
  void set(index_t i, T v) {
    check(i);
    values_[i] = v;
    present_[i] = 1;
  }
  void remove(index_t i) {
    check(i);
    present_[i] = 0;
  }
  void clear() noexcept {
    for (index_t i = 0; i < n_; ++i) present_[i] = 0;
  }
  // Stored entries as (index, value) lists, increasing index.
  std::pair<std::vector<index_t>, std::vector<T>> entries() const {
    std::pair<std::vector<index_t>, std::vector<T>> out;
    for (index_t i = 0; i < n_; ++i)
      if (present_[i]) {
        out.first.push_back(i);
        out.second.push_back(values_[i]);
      }
    return out;
  }

  // Raw access for the backends.
  const T* values() const noexcept { return values_.data(); }
  const std::uint8_t* present() const noexcept { return present_.data(); }
  void swap(Vector& o) noexcept {
    std::swap(n_, o.n_);
    values_.swap(o.values_);
    present_.swap(o.present_);
  }
  T* mutable_values() noexcept { return values_.data(); }
  std::uint8_t* mutable_present() noexcept { return present_.data(); }

 private:
  void check(index_t i) const {
    if (i < 0 || i >= n_)
      throw invalid_index("tgb: vector index " + std::to_string(i) + " is outside [0, " + std::to_string(n_) + ")");
  }
  index_t n_ = 0;
  detail::buffer<T> values_;
  detail::buffer<std::uint8_t> present_;
};

}  // namespace tgb
