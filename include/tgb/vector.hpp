// tgb: Vector<T>, a GraphBLAS vector. Stored in bitmap form: a dense value
// array with a presence byte per element and a count of the stored entries.
// Every operation that reads a vector scans its n presence bytes once (cheap,
// and vectorized), then does work in proportion to the entries that matter;
// a sparse (index list) form for very sparse frontiers on huge n can be added
// later behind the same interface.
//
// A vector lives on the host or on the CUDA device (to(), location()), in the
// same layout there (detail::device_vector). Every vector operation runs where
// its operands live (detail/vector_device.hpp says what the device runs);
// element access, extract_tuples, build and resize need a host vector
// (nothing is copied behind the caller's back, as for Matrix).
#pragma once

#include <memory>

#include <cstdint>
#include <cstring>
#include <iterator>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tgb/algebra.hpp"
#include "tgb/config.hpp"
#include "tgb/detail/buffer.hpp"
#include "tgb/detail/device_storage.hpp"
#include "tgb/error.hpp"
#include "tgb/matrix.hpp"

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
  // Eight presence bytes at a time: the high bit of each nonzero byte, counted.
  void recount() noexcept {
    index_t k = 0;
    const std::uint8_t* p = present.data();
    const index_t words = n / 8;
    constexpr std::uint64_t low7 = 0x7F7F7F7F7F7F7F7FULL;
#pragma omp parallel for reduction(+ : k) schedule(static) if (n > 1 << 20)
    for (index_t q = 0; q < words; ++q) {
      std::uint64_t w;
      std::memcpy(&w, p + 8 * q, 8);
      // 0x80 in each nonzero byte, moved to 0x01 and summed by a multiply
      // (no popcount: without -mpopcnt it is a libgcc call, 15% of a BFS).
      k += static_cast<index_t>((((((w & low7) + low7) | w) & ~low7) >> 7) * 0x0101010101010101ULL >> 56);
    }
    for (index_t i = 8 * words; i < n; ++i) k += p[i] != 0;
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
  // A vector of n elements with no stored entries, on the host.
  explicit Vector(index_t n) {
    detail::check_vector_size(n);
    detail::vector_bitmap<T> b(n);
    v_.swap(b);
  }
  // n elements, none stored, on `where` (made there: nothing is copied).
  Vector(index_t n, backend where) : Vector(where == backend::cuda ? 0 : n) {
    if (where != backend::cuda) return;
    detail::check_vector_size(n);
    if (cuda_device_count() == 0)
      throw not_implemented("tgb: cannot make a vector on the GPU: " + cuda_device_description());
    dev_ = detail::guard_alloc([&] { return std::make_unique<detail::device_vector<T>>(n, current_stream()); });
    v_.n = n;
  }
  Vector(const Vector& o) : v_(o.v_) {
    if (o.dev_) dev_ = std::make_unique<detail::device_vector<T>>(detail::clone(*o.dev_, current_stream()));
  }
  Vector& operator=(const Vector& o) {
    if (this != &o) {
      Vector c(o);
      swap(c);
    }
    return *this;
  }
  Vector(Vector&&) noexcept = default;
  Vector& operator=(Vector&&) noexcept = default;

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
    host_only("build");
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
  // Stored entries: O(1) on the host; on the device the count of an
  // operation's result is made on first asking (one wait for the GPU).
  index_t nvals() const {
    if (!dev_) return v_.nvals;
    index_t k = dev_->nvals.load();
    if (k < 0) {
      k = detail::device_count_nonzero(dev_->present.data(), dev_->n, current_stream());
      dev_->nvals = k;  // racing readers store the same count
    }
    return k;
  }

  // Where the storage lives; operations on the vector run there.
  backend location() const noexcept { return dev_ ? backend::cuda : backend::host; }
  // Moves the vector to the host or to the CUDA device (copies issued on the
  // current stream), as Matrix::to does; throws not_implemented without a
  // GPU, and leaves the vector as it was if a copy fails.
  void to(backend where) {
    if (where == location()) return;
    if (where == backend::cuda) {
      if (cuda_device_count() == 0)
        throw not_implemented("tgb: cannot move a vector to the GPU: " + cuda_device_description());
      auto d = detail::guard_alloc([&] {
        auto p = std::make_unique<detail::device_vector<T>>();
        p->n = v_.n;
        p->nvals = v_.nvals;
        p->values = detail::device_buffer<T>::from_host(v_.values.data(), v_.values.size(), current_stream());
        p->present =
            detail::device_buffer<std::uint8_t>::from_host(v_.present.data(), v_.present.size(), current_stream());
        return p;
      });
      detail::vector_bitmap<T> shape;
      shape.n = v_.n;
      v_.swap(shape);
      dev_ = std::move(d);
    } else {
      detail::vector_bitmap<T> b = detail::guard_alloc([&] {
        detail::vector_bitmap<T> h;
        h.n = dev_->n;
        h.values = dev_->values.to_host();
        h.present = dev_->present.to_host();
        if (dev_->nvals.load() >= 0) h.nvals = dev_->nvals.load();
        else h.recount();
        return h;
      });
      v_.swap(b);
      dev_.reset();
    }
  }

  std::optional<T> get(index_t i) const {
    host_only("element access");
    check(i);
    return v_.present[i] ? std::optional<T>(v_.values[i]) : std::nullopt;
  }
  // GrB_Vector_setElement / removeElement.
  void set(index_t i, T v) {
    host_only("element access");
    check(i);
    v_.values[i] = v;
    if (!v_.present[i]) {
      v_.present[i] = 1;
      ++v_.nvals;
    }
  }
  void remove(index_t i) {
    host_only("element access");
    check(i);
    if (v_.present[i]) {
      v_.present[i] = 0;
      --v_.nvals;
    }
  }
  // Removes every entry; the size and the residence stay.
  void clear() {
    if (dev_) {
      detail::device_zero(dev_->present.data(), dev_->present.size(), current_stream());
      dev_->nvals = 0;
      return;
    }
    for (index_t i = 0; i < v_.n; ++i) v_.present[i] = 0;
    v_.nvals = 0;
  }
  // GrB_Vector_resize: entries below the new size are kept, the rest dropped.
  void resize(index_t n) {
    host_only("resize");
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
    host_only("extract_tuples");
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
  // Both on the host or both on the device (one kernel and a read-back
  // there); a host and a device vector throw.
  friend bool operator==(const Vector& a, const Vector& b) {
    if (a.dev_ && b.dev_) {
      if constexpr (detail::cuda::device_types<T>)
        return detail::cuda::vector_equal<T>(*a.dev_, *b.dev_, current_stream());
      else
        throw not_implemented("tgb: == on device vectors needs a value type the device runs (bool, int32, int64, "
                              "float or double)");
    }
    a.host_only("comparison");
    b.host_only("comparison");
    if (a.v_.n != b.v_.n || a.v_.nvals != b.v_.nvals) return false;
    for (index_t i = 0; i < a.v_.n; ++i) {
      if (a.v_.present[i] != b.v_.present[i]) return false;
      if (a.v_.present[i] && !(a.v_.values[i] == b.v_.values[i])) return false;
    }
    return true;
  }
  friend bool operator!=(const Vector& a, const Vector& b) { return !(a == b); }

  // Raw access for algorithms and the backends (values[i] is meaningful only
  // where present()[i] is 1). Host vectors only: a device vector throws
  // (every host operation reads its operands through these).
  const T* values() const {
    host_only("host access");
    return v_.values.data();
  }
  const std::uint8_t* present() const {
    host_only("host access");
    return v_.present.data();
  }
  const detail::vector_bitmap<T>& bitmap() const {
    host_only("this operation (it runs on the host)");
    return v_;
  }
  // The device storage (device vectors only).
  const detail::device_vector<T>& device() const {
    if (!dev_) throw invalid_value("tgb: the vector lives on the host; call to(tgb::backend::cuda) first");
    return *dev_;
  }
  // Backend hooks: replace the contents (noexcept, used last by every
  // operation so that a throwing operation leaves the output unchanged).
  // The host one is for host vectors, the device one for device vectors.
  void assign_bitmap(detail::vector_bitmap<T>&& b) noexcept { v_.swap(b); }
  // Updates the host bitmap in place with f(bitmap), which must not throw
  // (an index-wise update that allocates nothing: GrB_assign over all
  // indices, for one).
  template <class F>
  void update_bitmap(F&& f) noexcept {
    f(v_);
  }
  void assign_device(detail::device_vector<T>&& d) noexcept { *dev_ = std::move(d); }
  // The device storage, for an operation that replaces it whole and borrows
  // its arrays meanwhile (null for a host vector).
  detail::device_vector<T>* device_storage() noexcept { return dev_.get(); }
  void swap(Vector& o) noexcept {
    v_.swap(o.v_);
    dev_.swap(o.dev_);
  }

 private:
  void host_only(const char* what) const {
    if (dev_)
      throw invalid_value(std::string("tgb: ") + what + " needs a host vector; call to(tgb::backend::host) first");
  }
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

  detail::vector_bitmap<T> v_;                       // on the device: only n is set
  std::unique_ptr<detail::device_vector<T>> dev_;    // set where the vector lives on the device
};

}  // namespace tgb
