// tgb: Vector<T>, a GraphBLAS vector. Stored in bitmap form: a dense value
// array with a presence byte per element and a count of the stored entries.
// Every operation that reads a vector scans its n presence bytes once (cheap,
// and vectorized), then does work in proportion to the entries that matter;
// a sparse (index list) form for very sparse frontiers on huge n can be added
// later behind the same interface. Vectors live on the host only for now.
#pragma once

#include <iterator>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tgb/algebra.hpp"
#include "tgb/config.hpp"
#include "tgb/detail/buffer.hpp"
#include "tgb/error.hpp"

namespace tgb {

namespace detail {
// The storage of a vector, as the backends produce and read it: values[i] is
// meaningful only where present[i] is 1; nvals counts the ones.
template <class T>
struct vector_bitmap {
  index_t n = 0;
  index_t nvals = 0;
  buffer<T> values;
  buffer<std::uint8_t> present;

  vector_bitmap() = default;
  // n elements, none stored (values left unset).
  explicit vector_bitmap(index_t size)
      : n(size), values(static_cast<std::size_t>(size)), present(static_cast<std::size_t>(size), std::uint8_t(0)) {}
  void swap(vector_bitmap& o) noexcept {
    std::swap(n, o.n);
    std::swap(nvals, o.nvals);
    values.swap(o.values);
    present.swap(o.present);
  }
  // After a backend wrote the presence bytes itself.
  void recount() noexcept {
    index_t k = 0;
    const std::uint8_t* p = present.data();
#pragma omp parallel for simd reduction(+ : k) schedule(static) if (n > 1 << 20)
    for (index_t i = 0; i < n; ++i) k += p[i] != 0;
    nvals = k;
  }
};

inline void check_vector_size(index_t n) {
  if (n < 0 || n > max_dimension) throw invalid_value("tgb: invalid vector size " + std::to_string(n));
}
}  // namespace detail

template <class T>
class Vector {
 public:
  using value_type = T;
  Vector() = default;
  // A vector of n elements with no stored entries.
  explicit Vector(index_t n) {
    detail::check_vector_size(n);
    detail::vector_bitmap<T> b(n);
    v_.swap(b);
  }

  // Every element stored, from a container of values (std::vector, array...).
  template <class ValC>
  static Vector from_dense(const ValC& values) {
    const index_t n = static_cast<index_t>(std::size(values));
    Vector w(n);
    index_t i = 0;
    for (const auto& x : values) {
      w.v_.values[static_cast<std::size_t>(i)] = static_cast<T>(x);
      w.v_.present[static_cast<std::size_t>(i)] = 1;
      ++i;
    }
    w.v_.nvals = n;
    return w;
  }
  // A vector of size n built from (index, value) tuples; see build().
  template <class IdxC, class ValC, class Dup = no_duplicates_t>
  static Vector from_coo(index_t n, const IdxC& indices, const ValC& values, Dup dup = no_duplicates) {
    Vector w(n);
    w.build(indices, values, dup);
    return w;
  }

  // GrB_Vector_build: stores values[k] at indices[k]. The vector must be
  // empty (output_not_empty otherwise). Duplicates are folded in input order
  // with `dup` (dup(earlier, later)); with no_duplicates they are an error
  // (invalid_value). Indices outside [0, size) throw index_out_of_bounds, as
  // Matrix::from_coo's do. Costs O(number of tuples); on a throw the vector
  // is unchanged.
  template <class IdxC, class ValC, class Dup = no_duplicates_t>
  void build(const IdxC& indices, const ValC& values, Dup dup = no_duplicates) {
    const std::size_t len = std::size(indices);
    if (std::size(values) != len)
      throw invalid_value("tgb: Vector::build: indices and values differ in length (" + std::to_string(len) + ", " +
                          std::to_string(std::size(values)) + ")");
    if (v_.nvals != 0)
      throw output_not_empty("tgb: Vector::build: the vector already holds " + std::to_string(v_.nvals) +
                             " entries; clear() it first");
    detail::vector_bitmap<T> b(v_.n);
    auto vi = std::begin(values);
    for (auto ii = std::begin(indices); ii != std::end(indices); ++ii, ++vi) {
      const index_t i = index_of(*ii);
      const T x = static_cast<T>(*vi);
      if (b.present[i]) {
        if constexpr (std::is_same_v<Dup, no_duplicates_t>) {
          throw invalid_value("tgb: Vector::build: duplicate index " + std::to_string(i) +
                              " and the duplicate policy is no_duplicates");
        } else {
          b.values[i] = static_cast<T>(dup(b.values[i], x));
        }
      } else {
        b.values[i] = x;
        b.present[i] = 1;
        ++b.nvals;
      }
    }
    v_.swap(b);
  }

  index_t size() const noexcept { return v_.n; }
  // Stored entries, O(1).
  index_t nvals() const noexcept { return v_.nvals; }

  std::optional<T> get(index_t i) const {
    check(i);
    return v_.present[i] ? std::optional<T>(v_.values[i]) : std::nullopt;
  }
  // GrB_Vector_setElement / removeElement.
  void set(index_t i, T v) {
    check(i);
    v_.values[i] = v;
    if (!v_.present[i]) {
      v_.present[i] = 1;
      ++v_.nvals;
    }
  }
  void remove(index_t i) {
    check(i);
    if (v_.present[i]) {
      v_.present[i] = 0;
      --v_.nvals;
    }
  }
  // Removes every entry; the size stays.
  void clear() noexcept {
    for (index_t i = 0; i < v_.n; ++i) v_.present[i] = 0;
    v_.nvals = 0;
  }
  // GrB_Vector_resize: entries below the new size are kept, the rest dropped.
  void resize(index_t n) {
    detail::check_vector_size(n);
    detail::vector_bitmap<T> b(n);
    const index_t keep = n < v_.n ? n : v_.n;
    for (index_t i = 0; i < keep; ++i)
      if (v_.present[i]) {
        b.values[i] = v_.values[i];
        b.present[i] = 1;
        ++b.nvals;
      }
    v_.swap(b);
  }

  // Stored entries as (index, value) lists, increasing index
  // (GrB_Vector_extractTuples).
  std::pair<std::vector<index_t>, std::vector<T>> extract_tuples() const {
    std::pair<std::vector<index_t>, std::vector<T>> out;
    out.first.reserve(static_cast<std::size_t>(v_.nvals));
    out.second.reserve(static_cast<std::size_t>(v_.nvals));
    for (index_t i = 0; i < v_.n; ++i)
      if (v_.present[i]) {
        out.first.push_back(i);
        out.second.push_back(v_.values[i]);
      }
    return out;
  }
  std::pair<std::vector<index_t>, std::vector<T>> entries() const { return extract_tuples(); }

  // Same size, same stored indices, equal values (== on T, so NaN != NaN).
  friend bool operator==(const Vector& a, const Vector& b) {
    if (a.v_.n != b.v_.n || a.v_.nvals != b.v_.nvals) return false;
    for (index_t i = 0; i < a.v_.n; ++i) {
      if (a.v_.present[i] != b.v_.present[i]) return false;
      if (a.v_.present[i] && !(a.v_.values[i] == b.v_.values[i])) return false;
    }
    return true;
  }
  friend bool operator!=(const Vector& a, const Vector& b) { return !(a == b); }

  // Raw access for algorithms and the backends (values[i] is meaningful only
  // where present()[i] is 1).
  const T* values() const noexcept { return v_.values.data(); }
  const std::uint8_t* present() const noexcept { return v_.present.data(); }
  const detail::vector_bitmap<T>& bitmap() const noexcept { return v_; }
  // Backend hook: replaces the contents (noexcept, used last by every
  // operation so that a throwing operation leaves the output unchanged).
  void assign_bitmap(detail::vector_bitmap<T>&& b) noexcept { v_.swap(b); }
  void swap(Vector& o) noexcept { v_.swap(o.v_); }

 private:
  void check(index_t i) const {
    if (i < 0 || i >= v_.n)
      throw invalid_index("tgb: vector index " + std::to_string(i) + " is outside [0, " + std::to_string(v_.n) + ")");
  }
  template <class I>
  index_t index_of(I v) const {
    static_assert(std::is_integral_v<I>, "indices must be integers");
    bool ok;
    if constexpr (std::is_signed_v<I>) ok = v >= 0 && static_cast<long long>(v) < v_.n;
    else ok = static_cast<unsigned long long>(v) < static_cast<unsigned long long>(v_.n);
    if (!ok)
      throw index_out_of_bounds("tgb: Vector::build: index " + std::to_string(v) + " is outside [0, " +
                                std::to_string(v_.n) + ")");
    return static_cast<index_t>(v);
  }

  detail::vector_bitmap<T> v_;
};

}  // namespace tgb
