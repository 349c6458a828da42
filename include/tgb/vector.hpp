// tgb: Vector<T>, a GraphBLAS vector. On the host it is stored in one of two
// forms (GraphBLAS's sparse and bitmap):
//   sparse: the stored indices, increasing, and their values (memory and
//     time in proportion to the entries: BFS frontiers on road networks);
//   bitmap: a dense value array with a presence byte per element and a count.
// The rule (detail::sparse_fits): an operation's result is sparse while it
// holds at most n/16 entries, else bitmap; set_form overrides it. A new
// vector is sparse and empty (no O(n) allocation). Operations that know the
// sparse form read it as it is; the rest read a bitmap made from it once
// (const readers may make it: it is kept beside the sparse form until the
// vector is next written, so a reader's view stays valid).
//
// A vector lives on the host or on the CUDA device (to(), location()), in
// bitmap form there (detail::device_vector). Every vector operation runs
// where its operands live (detail/vector_device.hpp says what the device
// runs); element access, extract_tuples, build and resize need a host vector
// (nothing is copied behind the caller's back, as for Matrix).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
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
#include "tgb/detail/vector_storage.hpp"
#include "tgb/error.hpp"
#include "tgb/matrix.hpp"

namespace tgb {


// The form a vector's results take: the rule's pick (automatic) or always
// one (Vector::set_form).
enum class vector_form { automatic, sparse, bitmap };

template <class T>
class Vector {
 public:
  using value_type = T;
  Vector() = default;
  // A vector of n elements with no stored entries, on the host (sparse: O(1)).
  explicit Vector(index_t n) {
    detail::check_vector_size(n);
    v_.n = n;
    s_.n = n;
  }
  // n elements, none stored, on `where` (made there: nothing is copied).
  Vector(index_t n, backend where) : Vector(n) {
    if (where != backend::cuda) return;
    if (cuda_device_count() == 0)
      throw not_implemented("tgb: cannot make a vector on the GPU: " + cuda_device_description());
    dev_ = detail::guard_alloc([&] { return std::make_unique<detail::device_vector<T>>(n, current_stream()); });
    drop_sparse();
  }
  Vector(const Vector& o) : form_(o.form_) {
    const std::lock_guard<std::mutex> lock(detail::tile_copy_mutex(&o));  // o's bitmap may be in the making
    if (o.has_bitmap_.load(std::memory_order_relaxed)) v_ = o.v_;
    else v_.n = o.v_.n, v_.nvals = o.v_.nvals;
    has_bitmap_.store(o.has_bitmap_.load(std::memory_order_relaxed), std::memory_order_relaxed);
    if (o.has_sparse_) s_ = o.s_;
    else s_.n = o.s_.n;
    has_sparse_ = o.has_sparse_;
    if (o.dev_) dev_ = std::make_unique<detail::device_vector<T>>(detail::clone(*o.dev_, current_stream()));
  }
  Vector& operator=(const Vector& o) {
    if (this != &o) {
      Vector c(o);
      swap(c);
    }
    return *this;
  }
  Vector(Vector&& o) noexcept { swap(o); }
  Vector& operator=(Vector&& o) noexcept {
    Vector t(std::move(o));
    swap(t);
    return *this;
  }

  // Every element stored, from a container of values (std::vector, array...).
  template <class ValC>
  static Vector from_dense(const ValC& values) {
    const index_t n = static_cast<index_t>(std::size(values));
    detail::check_vector_size(n);
    detail::vector_bitmap<T> b(n);
    index_t i = 0;
    for (const auto& x : values) {
      b.values[static_cast<std::size_t>(i)] = static_cast<T>(x);
      b.present[static_cast<std::size_t>(i)] = 1;
      ++i;
    }
    b.nvals = n;
    Vector w(n);
    w.assign_bitmap(std::move(b));
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
  // Matrix::from_coo's do. Costs O(tuples log tuples) into the sparse form,
  // O(n + tuples) into the bitmap form (the rule picks by the tuple count);
  // on a throw the vector is unchanged.
  template <class IdxC, class ValC, class Dup = no_duplicates_t>
  void build(const IdxC& indices, const ValC& values, Dup dup = no_duplicates) {
    const std::size_t len = std::size(indices);
    if (std::size(values) != len)
      throw invalid_value("tgb: Vector::build: indices and values differ in length (" + std::to_string(len) + ", " +
                          std::to_string(std::size(values)) + ")");
    host_only("build");
    if (nvals() != 0)
      throw output_not_empty("tgb: Vector::build: the vector already holds " + std::to_string(nvals()) +
                             " entries; clear() it first");
    const index_t n = v_.n;
    detail::buffer<index_t> idx(len);
    detail::buffer<T> val(len);
    {
      std::size_t k = 0;
      auto vi = std::begin(values);
      for (auto ii = std::begin(indices); ii != std::end(indices); ++ii, ++vi, ++k) {
        idx[k] = index_of(*ii);
        val[k] = static_cast<T>(*vi);
      }
    }
    auto duplicate = [&](index_t i) {
      throw invalid_value("tgb: Vector::build: duplicate index " + std::to_string(i) +
                          " and the duplicate policy is no_duplicates");
    };
    if (form_ == vector_form::sparse ||
        (form_ == vector_form::automatic && detail::sparse_fits(static_cast<index_t>(len), n))) {
      // Tuples sorted by (index, input place): dup folds each index's values in input order.
      detail::buffer<index_t> order(len);
      for (std::size_t k = 0; k < len; ++k) order[k] = static_cast<index_t>(k);
      std::sort(order.data(), order.data() + len,
                [&](index_t a, index_t b) { return idx[a] < idx[b] || (idx[a] == idx[b] && a < b); });
      index_t m = 0;
      for (std::size_t k = 0; k < len; ++k) m += k == 0 || idx[order[k]] != idx[order[k - 1]];
      detail::vector_sparse<T> s(n, m);
      index_t e = -1;
      for (std::size_t k = 0; k < len; ++k) {
        const index_t i = idx[order[k]];
        const T x = val[order[k]];
        if (e >= 0 && s.index[e] == i) {
          if constexpr (std::is_same_v<Dup, no_duplicates_t>) duplicate(i);
          else s.values[e] = static_cast<T>(dup(s.values[e], x));
        } else {
          ++e;
          s.index[e] = i;
          s.values[e] = x;
        }
      }
      assign_sparse(std::move(s));
      return;
    }
    detail::vector_bitmap<T> b(n);
    for (std::size_t k = 0; k < len; ++k) {
      const index_t i = idx[k];
      if (b.present[i]) {
        if constexpr (std::is_same_v<Dup, no_duplicates_t>) duplicate(i);
        else b.values[i] = static_cast<T>(dup(b.values[i], val[k]));
      } else {
        b.values[i] = val[k];
        b.present[i] = 1;
        ++b.nvals;
      }
    }
    assign_bitmap(std::move(b));
  }

  index_t size() const noexcept { return v_.n; }
  // Stored entries: O(1) on the host; on the device the count of an
  // operation's result is made on first asking (one wait for the GPU).
  index_t nvals() const {
    if (!dev_) return has_sparse_ ? s_.nvals() : v_.nvals;
    index_t k = dev_->nvals.load();
    if (k < 0) {
      k = detail::device_count_nonzero(dev_->present.data(), dev_->n, current_stream());
      dev_->nvals = k;  // racing readers store the same count
    }
    return k;
  }

  // The host form the entries are held in now (sparse where both are held),
  // and the form results take (set_form). set_form(f) converts the vector
  // now and makes f the form of every result written into it; automatic
  // gives the choice back to the rule. Device vectors are bitmaps.
  vector_form form() const noexcept { return dev_ || !has_sparse_ ? vector_form::bitmap : vector_form::sparse; }
  vector_form form_control() const noexcept { return form_; }
  void set_form(vector_form f) {
    if (!dev_) {
      const bool sparse =
          f == vector_form::sparse || (f == vector_form::automatic && detail::sparse_fits(nvals(), v_.n));
      if (sparse) {
        if (!has_sparse_) assign_sparse(detail::guard_alloc([&] { return detail::sparse_of(v_); }));
        else drop_bitmap();
      } else {
        bitmap();
        drop_sparse();
      }
    }
    form_ = f;  // after the conversion, which may throw
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
      const detail::vector_bitmap<T>& b = bitmap();
      auto d = detail::guard_alloc([&] {
        auto p = std::make_unique<detail::device_vector<T>>();
        p->n = b.n;
        p->nvals = b.nvals;
        p->values = detail::device_buffer<T>::from_host(b.values.data(), b.values.size(), current_stream());
        p->present = detail::device_buffer<std::uint8_t>::from_host(b.present.data(), b.present.size(), current_stream());
        return p;
      });
      drop_sparse();
      drop_bitmap();
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
      // In the form the rule (or set_form) picks, as an operation's result.
      const bool sparse = wants_sparse(b.nvals);
      detail::vector_sparse<T> sp;
      if (sparse) sp = detail::guard_alloc([&] { return detail::sparse_of(b); });
      dev_.reset();
      if (sparse) assign_sparse(std::move(sp));
      else assign_bitmap(std::move(b));
    }
  }

  std::optional<T> get(index_t i) const {
    host_only("element access");
    check(i);
    if (has_sparse_) {
      const index_t* b = s_.index.data();
      const index_t* e = b + s_.nvals();
      const index_t* p = std::lower_bound(b, e, i);
      return p != e && *p == i ? std::optional<T>(s_.values[p - b]) : std::nullopt;
    }
    return v_.present[i] ? std::optional<T>(v_.values[i]) : std::nullopt;
  }
  // GrB_Vector_setElement / removeElement (a sparse vector becomes a bitmap
  // first: O(n) once, then O(1) each; the next operation's result takes the
  // form the rule or set_form picks again).
  void set(index_t i, T v) {
    host_only("element access");
    check(i);
    bitmap();
    drop_sparse();
    v_.values[i] = v;
    if (!v_.present[i]) {
      v_.present[i] = 1;
      ++v_.nvals;
    }
  }
  void remove(index_t i) {
    host_only("element access");
    check(i);
    if (!get(i)) return;
    bitmap();
    drop_sparse();
    v_.present[i] = 0;
    --v_.nvals;
  }
  // Removes every entry; the size, the residence and the form control stay.
  void clear() {
    if (dev_) {
      detail::device_zero(dev_->present.data(), dev_->present.size(), current_stream());
      dev_->nvals = 0;
      return;
    }
    if (form_ == vector_form::bitmap) {
      bitmap();
      drop_sparse();
      std::memset(v_.present.data(), 0, v_.present.size());
      v_.nvals = 0;
      return;
    }
    detail::vector_sparse<T> e;
    e.n = v_.n;
    assign_sparse(std::move(e));
  }
  // GrB_Vector_resize: entries below the new size are kept, the rest dropped
  // (the result in the form the rule picks for the new size).
  void resize(index_t n) {
    host_only("resize");
    detail::check_vector_size(n);
    detail::vector_sparse<T> s;
    detail::vector_bitmap<T> b;
    const bool sparse = detail::guard_alloc([&] {
      if (has_sparse_) {
        const index_t* ix = s_.index.data();
        const index_t keep = static_cast<index_t>(std::lower_bound(ix, ix + s_.nvals(), n) - ix);
        s = detail::vector_sparse<T>(n, keep);
        std::copy(ix, ix + keep, s.index.data());
        std::copy(s_.values.data(), s_.values.data() + keep, s.values.data());
      } else {
        b = detail::vector_bitmap<T>(n);
        const index_t keep = n < v_.n ? n : v_.n;
        for (index_t i = 0; i < keep; ++i)
          if (v_.present[i]) {
            b.values[i] = v_.values[i];
            b.present[i] = 1;
            ++b.nvals;
          }
      }
      const index_t k = has_sparse_ ? s.nvals() : b.nvals;
      const bool want = wants_sparse(k, n);
      if (want && !has_sparse_) s = detail::sparse_of(b);
      if (!want && has_sparse_) b = detail::bitmap_of(s);
      return want;
    });
    v_.n = n;
    if (sparse) assign_sparse(std::move(s));
    else assign_bitmap(std::move(b));
  }

  // Stored entries as (index, value) lists, increasing index
  // (GrB_Vector_extractTuples).
  std::pair<std::vector<index_t>, std::vector<T>> extract_tuples() const {
    host_only("extract_tuples");
    std::pair<std::vector<index_t>, std::vector<T>> out;
    if (has_sparse_) {
      out.first.assign(s_.index.data(), s_.index.data() + s_.nvals());
      out.second.assign(s_.values.data(), s_.values.data() + s_.nvals());
      return out;
    }
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

  // Same size, same stored indices, equal values (== on T, so NaN != NaN),
  // whatever the forms. Both on the host or both on the device (one kernel
  // and a read-back there); a host and a device vector throw.
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
    if (a.size() != b.size() || a.nvals() != b.nvals()) return false;
    if (a.has_sparse_ && b.has_sparse_) {
      for (index_t e = 0; e < a.s_.nvals(); ++e)
        if (a.s_.index[e] != b.s_.index[e] || !(a.s_.values[e] == b.s_.values[e])) return false;
      return true;
    }
    if (a.has_sparse_ || b.has_sparse_) {  // the sparse one's entries, looked up in the bitmap
      const Vector& s = a.has_sparse_ ? a : b;
      const detail::vector_bitmap<T>& m = (a.has_sparse_ ? b : a).v_;
      for (index_t e = 0; e < s.s_.nvals(); ++e) {
        const index_t i = s.s_.index[e];
        if (!m.present[i] || !(m.values[i] == s.s_.values[e])) return false;
      }
      return true;
    }
    for (index_t i = 0; i < a.v_.n; ++i) {
      if (a.v_.present[i] != b.v_.present[i]) return false;
      if (a.v_.present[i] && !(a.v_.values[i] == b.v_.values[i])) return false;
    }
    return true;
  }
  friend bool operator!=(const Vector& a, const Vector& b) { return !(a == b); }

  // Raw access for algorithms and the backends, in bitmap form (values[i] is
  // meaningful only where present()[i] is 1): a sparse vector makes its
  // bitmap on the first call (O(n), kept until the vector is next written).
  // Host vectors only: a device vector throws.
  const T* values() const { return bitmap().values.data(); }
  const std::uint8_t* present() const { return bitmap().present.data(); }
  const detail::vector_bitmap<T>& bitmap() const {
    host_only("this operation (it runs on the host)");
    if (!has_bitmap_.load(std::memory_order_acquire)) {
      const std::lock_guard<std::mutex> lock(detail::tile_copy_mutex(this));
      if (!has_bitmap_.load(std::memory_order_relaxed)) {
        detail::vector_bitmap<T> b = detail::guard_alloc([&] { return detail::bitmap_of(s_); });
        // Only the arrays: n and nvals are right already, and size() reads
        // them without the lock.
        v_.values.swap(b.values);
        v_.present.swap(b.present);
        has_bitmap_.store(true, std::memory_order_release);
      }
    }
    return v_;
  }
  // Whether the host vector holds its bitmap form now (bitmap() costs nothing).
  bool holds_bitmap() const noexcept { return !dev_ && has_bitmap_.load(std::memory_order_acquire); }
  // The sparse form where the vector holds it (else null): operations that
  // know the form read it in place.
  const detail::vector_sparse<T>* sparse() const noexcept { return !dev_ && has_sparse_ ? &s_ : nullptr; }
  // The device storage (device vectors only).
  const detail::device_vector<T>& device() const {
    if (!dev_) throw invalid_value("tgb: the vector lives on the host; call to(tgb::backend::cuda) first");
    return *dev_;
  }
  // Backend hooks. take(): an operation's result, in the form the rule (or
  // set_form) picks; converting may throw, before anything changes. The
  // assign_* hooks replace the contents as given (noexcept, used last by
  // every operation so that a throwing operation leaves the output as it was).
  void take(detail::vector_bitmap<T>&& b) {
    const bool sparse = form_ == vector_form::sparse ||
                        (form_ == vector_form::automatic && detail::bitmap_goes_sparse(b.nvals, v_.n));
    if (sparse) assign_sparse(detail::sparse_of(b));
    else assign_bitmap(std::move(b));
  }
  void take(detail::vector_sparse<T>&& s) {
    if (wants_sparse(s.nvals())) assign_sparse(std::move(s));
    else assign_bitmap(detail::bitmap_of(s));
  }
  void assign_bitmap(detail::vector_bitmap<T>&& b) noexcept {
    v_.swap(b);
    has_bitmap_.store(true, std::memory_order_relaxed);
    drop_sparse();
  }
  void assign_sparse(detail::vector_sparse<T>&& s) noexcept {
    s_.swap(s);
    has_sparse_ = true;
    drop_bitmap();
    v_.nvals = s_.nvals();
  }
  // Updates the host bitmap in place with f(bitmap), which must not throw
  // (an index-wise update that allocates nothing: GrB_assign over all
  // indices, for one). A sparse vector makes its bitmap first (that may
  // throw, changing nothing); its sparse form stays readable while f runs
  // (f may read it: w as its own mask or source) and is dropped after.
  // A vector set_form(sparse) goes back to that form after (where memory
  // allows: the entries are right either way).
  template <class F>
  void update_bitmap(F&& f) {
    bitmap();
    f(v_);
    drop_sparse();
    if (form_ == vector_form::sparse) {
      try {
        assign_sparse(detail::sparse_of(v_));
      } catch (const out_of_memory&) {
      } catch (const std::bad_alloc&) {
      }
    }
  }
  void assign_device(detail::device_vector<T>&& d) noexcept { *dev_ = std::move(d); }
  // The device storage, for an operation that replaces it whole and borrows
  // its arrays meanwhile (null for a host vector).
  detail::device_vector<T>* device_storage() noexcept { return dev_.get(); }
  void swap(Vector& o) noexcept {
    v_.swap(o.v_);
    const bool hb = has_bitmap_.load(std::memory_order_relaxed);
    has_bitmap_.store(o.has_bitmap_.load(std::memory_order_relaxed), std::memory_order_relaxed);
    o.has_bitmap_.store(hb, std::memory_order_relaxed);
    s_.swap(o.s_);
    std::swap(has_sparse_, o.has_sparse_);
    std::swap(form_, o.form_);
    dev_.swap(o.dev_);
  }

 private:
  bool wants_sparse(index_t nvals, index_t n) const noexcept {
    return form_ == vector_form::sparse || (form_ == vector_form::automatic && detail::sparse_fits(nvals, n));
  }
  bool wants_sparse(index_t nvals) const noexcept { return wants_sparse(nvals, v_.n); }
  void drop_sparse() noexcept {
    detail::vector_sparse<T> e;
    e.n = v_.n;
    s_.swap(e);
    has_sparse_ = false;
  }
  void drop_bitmap() noexcept {
    detail::vector_bitmap<T> e;
    e.n = v_.n;
    e.nvals = v_.nvals;
    v_.swap(e);
    has_bitmap_.store(false, std::memory_order_relaxed);
  }
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

  // On the host at least one form holds the entries: v_ where has_bitmap_
  // (a const reader may set it, under the striped lock), s_ where
  // has_sparse_. v_.n is the size and v_.nvals the count in every state; on
  // the device only v_.n is kept.
  mutable detail::vector_bitmap<T> v_;
  mutable std::atomic<bool> has_bitmap_{false};
  detail::vector_sparse<T> s_;
  bool has_sparse_ = true;
  vector_form form_ = vector_form::automatic;
  std::unique_ptr<detail::device_vector<T>> dev_;  // set where the vector lives on the device
};

}  // namespace tgb
