// tgb: CSR import and export without a copy where the layout allows
// (GxB_Matrix_import_CSR / export_CSR, GrB_Matrix_import/export).
//
//   import_csr(nrows, ncols, std::move(rowptr), std::move(colidx), std::move(values))
//     adopts the caller's arrays: where the storage rule (or the result's
//     form, see below) keeps the matrix in rows, the matrix stores the very
//     arrays it was given (no copy; they are freed with the matrix); where it
//     picks tiles or hypersparse rows, it builds that form from them and
//     frees them. Rows must already be sorted by column, without repeats
//     (GraphBLAS's "not jumbled"): checked in one read-only pass. On any
//     error (out of memory too) the arrays are left with the caller as they
//     were; on success they are the matrix's (the caller's are left empty).
//   export_csr(std::move(A)) hands A's host row form over without a copy
//     (A must be an rvalue: it is consumed, left 0 x 0); a matrix stored
//     otherwise (tiles, hypersparse rows, or on the GPU) is converted, which
//     copies.
//   view_csr(A) reads A's host row form in place (no copy, no ownership):
//     empty where A is not stored in rows on the host (A.set_storage(rows)
//     converts it once).
//
// The index types are the row form's own: offset_t (64-bit) row pointers and
// 32-bit column indices, so a matrix with more than 2^31 - 2 columns cannot
// adopt arrays (import_csr copies into the form the rule picks, as from_csr).
// host_array<T> is tgb's owning host array (data(), size(), begin(), end());
// arrays that come out of export_csr go back in through import_csr, again
// without a copy. std::vector<bool> packs bits: a Matrix<bool> imports and
// exports host_array<bool> only.
//
// The same on the GPU (bool, int32, int64, float and double matrices):
//   import_device_csr(nrows, ncols, std::move(rowptr), std::move(colidx), std::move(values))
//     adopts device_array<T>s: the matrix lives on the GPU in rows and stores
//     the very arrays (no copy; they are freed with the matrix, or when it
//     changes form, as set_storage(tiles) makes it). Checked on the device in one
//     read-only pass (row pointers, columns in range, increasing within each
//     row); on any error they stay with the caller as they were.
//   export_device_csr(std::move(A)) hands a device matrix's row form over
//     without a copy (A is left 0 x 0); a device matrix in tiles is
//     converted (a copy on the device); a host matrix throws invalid_value.
//   view_device_csr(A) reads A's device row form in place (device pointers),
//     empty where A is not stored in rows on the GPU.
// device_array<T> is tgb's owning device array: device_array<T>(n)
// allocates n elements from tgb's device memory resource (a caller fills
// them with its own kernels), device_array<T>::adopt(p, n, owner, stream)
// takes over memory the caller allocated, which owner->deallocate frees
// (default_device_memory_resource() frees with cudaFreeAsync, which also
// frees cudaMalloc's memory), and release() gives the pointer up again.
// Adopted pointers must be aligned to 256 bytes, as cudaMalloc's are.
#pragma once

#include <cstdint>
#include <memory>
#include <memory_resource>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tgb/matrix.hpp"

namespace tgb {

template <class T>
using host_array = detail::buffer<T>;

// A matrix's CSR arrays, owned.
template <class T>
struct csr_export {
  index_t nrows = 0, ncols = 0;
  host_array<offset_t> rowptr;        // nrows + 1
  host_array<std::int32_t> colidx;    // nnz, increasing within each row
  host_array<T> values;               // nnz
};

template <class T>
using device_array = detail::device_buffer<T>;

// A device matrix's CSR arrays, owned (device memory).
template <class T>
struct device_csr_export {
  index_t nrows = 0, ncols = 0;
  device_array<offset_t> rowptr;      // nrows + 1
  device_array<std::int32_t> colidx;  // nnz, increasing within each row
  device_array<T> values;             // nnz
};

// A matrix's CSR arrays, read in place: valid while the matrix is unchanged
// (host pointers from view_csr, device pointers from view_device_csr).
template <class T>
struct csr_view {
  index_t nrows = 0, ncols = 0;
  offset_t nnz = 0;
  const offset_t* rowptr = nullptr;
  const std::int32_t* colidx = nullptr;
  const T* values = nullptr;
};

namespace detail {

// A memory resource that owns one adopted container and frees it (and
// itself) when the buffer that adopted its data is released. It hands out
// nothing. It lives in memory from tgb's host resource (so that the
// out-of-memory sweeps reach it), freed there by its own deallocate.
template <class V>
class adopted_array final : public std::pmr::memory_resource {
 public:
  // A holder with an empty V, from `from`; throws out_of_memory.
  static adopted_array* make(std::pmr::memory_resource* from) {
    void* p = nullptr;
    try {
      p = from->allocate(sizeof(adopted_array), alignof(adopted_array));
    } catch (const std::bad_alloc&) {
      throw_out_of_memory(sizeof(adopted_array), "host allocation failed");
    }
    return new (p) adopted_array(from);
  }
  // Frees an unused holder (its V with it).
  static void destroy(adopted_array* h) noexcept {
    if (!h) return;
    std::pmr::memory_resource* from = h->from_;
    h->~adopted_array();
    from->deallocate(h, sizeof(adopted_array), alignof(adopted_array));
  }
  V& held() noexcept { return v_; }

 private:
  explicit adopted_array(std::pmr::memory_resource* from) noexcept : from_(from) {}
  void* do_allocate(std::size_t, std::size_t) override { throw std::bad_alloc(); }
  void do_deallocate(void*, std::size_t, std::size_t) override { destroy(this); }
  bool do_is_equal(const std::pmr::memory_resource& o) const noexcept override { return this == &o; }
  std::pmr::memory_resource* from_;
  V v_;
};

// An unused holder freed at scope exit.
template <class V>
struct holder_ptr {
  adopted_array<V>* h = nullptr;
  holder_ptr() = default;
  explicit holder_ptr(adopted_array<V>* p) noexcept : h(p) {}
  holder_ptr(holder_ptr&& o) noexcept : h(o.h) { o.h = nullptr; }
  holder_ptr(const holder_ptr&) = delete;
  holder_ptr& operator=(const holder_ptr&) = delete;
  ~holder_ptr() { adopted_array<V>::destroy(h); }
  adopted_array<V>* release() noexcept {
    adopted_array<V>* p = h;
    h = nullptr;
    return p;
  }
};

// An array's storage as a buffer, without a copy, and back. A vector is
// held by an adopted_array made beforehand (make_holder: the one allocation,
// so that taking the vector cannot fail); a host_array is moved.
template <class V>
holder_ptr<V> make_holder(const V&) {
  return holder_ptr<V>(adopted_array<V>::make(host_memory_resource()));
}
template <class T>
std::nullptr_t make_holder(const buffer<T>&) noexcept {
  return nullptr;
}
template <class T, class A>
buffer<T> adopt(std::vector<T, A>& v, holder_ptr<std::vector<T, A>>& holder) noexcept {
  // Moving between unequal allocators (std::pmr::vector) copies element by
  // element: neither free of copies nor of failure.
  static_assert(std::is_same_v<A, std::allocator<T>>,
                "import_csr adopts std::vector<T> with the default allocator, or host_array<T>");
  if (v.empty()) return buffer<T>();
  holder.h->held() = std::move(v);
  std::vector<T, A>& held = holder.h->held();
  return buffer<T>::adopt(held.data(), held.size(), holder.release());
}
template <class T>
buffer<T> adopt(buffer<T>& b, std::nullptr_t) noexcept {
  return std::move(b);
}
// Gives b's elements back to v, where b still holds what adopt took (h: the
// holder adopt used; null for a host_array).
template <class T, class A>
void give_back(buffer<T>& b, std::vector<T, A>& v, adopted_array<std::vector<T, A>>* h) noexcept {
  if (!h || b.resource() != h) return;
  v = std::move(h->held());
  b.forget();
  adopted_array<std::vector<T, A>>::destroy(h);
}
template <class T>
void give_back(buffer<T>& b, buffer<T>& v, std::nullptr_t) noexcept {
  if (b.data()) v = std::move(b);
}
template <class V>
adopted_array<V>* holder_of(holder_ptr<V>& h) noexcept {
  return h.h;
}
inline std::nullptr_t holder_of(std::nullptr_t) noexcept { return nullptr; }

// The checks import_csr makes before it takes anything: shapes, row
// pointers, columns in range and increasing within each row.
template <class P, class C, class V>
void check_import_csr(index_t nrows, index_t ncols, const P& rowptr, const C& colidx, const V& values) {
  check_dimensions(nrows, ncols);
  const std::size_t n = colidx.size();
  if (rowptr.size() != static_cast<std::size_t>(nrows) + 1)
    throw invalid_value("tgb::import_csr: rowptr has " + std::to_string(rowptr.size()) +
                        " entries, expected nrows + 1 = " + std::to_string(nrows + 1));
  if (values.size() != n)
    throw invalid_value("tgb::import_csr: colidx has " + std::to_string(n) + " entries but values has " +
                        std::to_string(values.size()));
  if (rowptr[0] != 0 || static_cast<std::size_t>(rowptr[static_cast<std::size_t>(nrows)]) != n)
    throw invalid_value("tgb::import_csr: rowptr must start at 0 and end at the entry count " + std::to_string(n) +
                        ", not " + std::to_string(rowptr[0]) + " and " +
                        std::to_string(rowptr[static_cast<std::size_t>(nrows)]));
  for (index_t i = 0; i < nrows; ++i) {
    const offset_t b = rowptr[i], e = rowptr[i + 1];
    if (e < b || e > static_cast<offset_t>(n))
      throw invalid_value("tgb::import_csr: rowptr[" + std::to_string(i + 1) + "] = " + std::to_string(e) +
                          (e < b ? " is below rowptr[" + std::to_string(i) + "] = " + std::to_string(b)
                                 : " is past the entry count " + std::to_string(n)));
    for (offset_t p = b; p < e; ++p) {
      const std::int64_t j = colidx[p];
      if (j < 0 || j >= ncols)
        throw index_out_of_bounds("tgb::import_csr: column index " + std::to_string(j) + " in row " +
                                  std::to_string(i) + " is outside [0, " + std::to_string(ncols) + ")");
      if (p > b && j <= colidx[p - 1])
        throw invalid_value("tgb::import_csr: row " + std::to_string(i) + " is not sorted by column without " +
                            "repeats (column " + std::to_string(j) + " after " + std::to_string(colidx[p - 1]) +
                            "); sort it, or build with from_csr");
    }
  }
}

}  // namespace detail

// Adopts CSR arrays (see the top of this file). P is std::vector<offset_t>
// or host_array<offset_t>, C std::vector<std::int32_t> or
// host_array<std::int32_t>, V std::vector<T> or host_array<T>.
template <class T, class P, class C, class V>
Matrix<T> import_csr(index_t nrows, index_t ncols, P&& rowptr, C&& colidx, V&& values) {
  static_assert(!std::is_lvalue_reference_v<P> && !std::is_lvalue_reference_v<C> && !std::is_lvalue_reference_v<V>,
                "import_csr adopts its arrays: pass them with std::move (from_csr copies instead)");
  static_assert(!std::is_same_v<std::decay_t<V>, std::vector<bool>>,
                "std::vector<bool> packs bits: import a host_array<bool>");
  if (static_cast<const void*>(&rowptr) == static_cast<const void*>(&colidx) ||
      static_cast<const void*>(&rowptr) == static_cast<const void*>(&values) ||
      static_cast<const void*>(&colidx) == static_cast<const void*>(&values))
    throw invalid_value("tgb::import_csr: the same array was passed twice");
  detail::guard_alloc([&] { detail::check_import_csr(nrows, ncols, rowptr, colidx, values); });
  if (!detail::rows_fit(ncols)) {
    Matrix<T> m = Matrix<T>::from_csr(nrows, ncols, rowptr, colidx, values);
    rowptr = std::decay_t<P>();
    colidx = std::decay_t<C>();
    values = std::decay_t<V>();
    return m;
  }
  return detail::guard_alloc([&] {
    Matrix<T> m(nrows, ncols);
    // Every allocation first (the holders), then the arrays move in.
    auto hp = detail::make_holder(rowptr);
    auto hc = detail::make_holder(colidx);
    auto hv = detail::make_holder(values);
    const auto php = detail::holder_of(hp);
    const auto phc = detail::holder_of(hc);
    const auto phv = detail::holder_of(hv);
    detail::csr_matrix<T> r;
    r.p.nrows = nrows;
    r.p.ncols = ncols;
    r.p.rowptr = detail::adopt(rowptr, hp);
    r.p.colidx = detail::adopt(colidx, hc);
    r.values = detail::adopt(values, hv);
    try {
      offset_t ntiles = -1;
      if (m.form_of_rows(r.p, ntiles) != storage_form::hyper) {
        // Rows: r's arrays themselves are stored (moved only once nothing
        // else can fail). Tiles: built from r, which stays as it is.
        m.assign_rows(std::move(r), ntiles);
      } else {
        // Hypersparse rows are made by taking r's pattern apart: from a
        // copy, so that a failure still finds the arrays in r to give back.
        detail::csr_matrix<T> copy = r;
        m.assign_rows(std::move(copy), ntiles);
      }
    } catch (...) {
      detail::give_back(r.p.rowptr, rowptr, php);
      detail::give_back(r.p.colidx, colidx, phc);
      detail::give_back(r.values, values, phv);
      throw;
    }
    return m;
  });
}

// Hands A's CSR arrays over (see the top of this file); A is left 0 x 0.
template <class T>
csr_export<T> export_csr(Matrix<T>&& A) {
  csr_export<T> out;
  out.nrows = A.nrows();
  out.ncols = A.ncols();
  if (A.location() == backend::host && A.row_form()) {
    Matrix<T> empty;  // the one step that can fail, before A is touched
    Matrix<T> gone(std::move(A));
    A = std::move(empty);
    std::unique_ptr<detail::csr_matrix<T>> r = std::move(gone).take_row_form();
    out.rowptr = std::move(r->p.rowptr);
    out.colidx = std::move(r->p.colidx);
    out.values = std::move(r->values);
    return out;
  }
  if (!detail::rows_fit(A.ncols()))
    throw invalid_value("tgb::export_csr: " + std::to_string(A.ncols()) +
                        " columns do not fit 32-bit column indices; use to_csr()");
  detail::guard_alloc([&] {
    const csr<T> c = A.to_csr();
    out.rowptr = host_array<offset_t>(c.rowptr.size());
    out.colidx = host_array<std::int32_t>(c.colidx.size());
    out.values = host_array<T>(c.values.size());
    for (std::size_t i = 0; i < c.rowptr.size(); ++i) out.rowptr[i] = c.rowptr[i];
    for (std::size_t e = 0; e < c.colidx.size(); ++e) out.colidx[e] = static_cast<std::int32_t>(c.colidx[e]);
    for (std::size_t e = 0; e < c.values.size(); ++e) out.values[e] = c.values[e];
  });
  A = Matrix<T>();
  return out;
}

// A view of a temporary would dangle.
template <class T>
void view_csr(const Matrix<T>&&) = delete;

// A's host row form read in place (see the top of this file).
template <class T>
std::optional<csr_view<T>> view_csr(const Matrix<T>& A) {
  if (A.location() != backend::host) return std::nullopt;
  const detail::csr_matrix<T>* r = A.row_form();
  if (!r) return std::nullopt;
  return csr_view<T>{r->p.nrows, r->p.ncols, r->p.nnz(), r->p.rowptr.data(), r->p.colidx.data(), r->values.data()};
}

// ---- the GPU ------------------------------------------------------------------
namespace detail {
template <class T>
void check_device_csr_type(const char* what) {
  static_assert(cuda::device_value_type<T>, "device CSR arrays hold bool, int32_t, int64_t, float or double values");
  if (!cuda::built || cuda_device_count() == 0)
    throw not_implemented(std::string("tgb::") + what + ": device arrays need a GPU: " + cuda_device_description());
}
template <class T>
bool misaligned(const device_array<T>& a) noexcept {
  return reinterpret_cast<std::uintptr_t>(a.data()) % 256 != 0;
}
}  // namespace detail

// Adopts device CSR arrays (see the top of this file).
template <class T>
Matrix<T> import_device_csr(index_t nrows, index_t ncols, device_array<offset_t>&& rowptr,
                            device_array<std::int32_t>&& colidx, device_array<T>&& values) {
  const char* what = "import_device_csr";
  detail::check_device_csr_type<T>(what);
  detail::check_dimensions(nrows, ncols);
  if (!detail::rows_fit(ncols))
    throw invalid_value("tgb::import_device_csr: " + std::to_string(ncols) +
                        " columns do not fit 32-bit column indices; use Matrix::from_device_csr");
  if (rowptr.size() != static_cast<std::size_t>(nrows) + 1)
    throw invalid_value("tgb::import_device_csr: rowptr has " + std::to_string(rowptr.size()) +
                        " entries, not nrows + 1 = " + std::to_string(nrows + 1));
  if (colidx.size() != values.size())
    throw invalid_value("tgb::import_device_csr: colidx has " + std::to_string(colidx.size()) +
                        " entries but values has " + std::to_string(values.size()));
  const void* p[3] = {rowptr.data(), colidx.data(), values.data()};
  for (int a = 0; a < 3; ++a)
    for (int b = a + 1; b < 3; ++b)
      if (p[a] && p[a] == p[b]) throw invalid_value("tgb::import_device_csr: the same array was passed twice");
  if (detail::misaligned(rowptr) || detail::misaligned(colidx) || detail::misaligned(values))
    throw invalid_value("tgb::import_device_csr: the arrays must be aligned to 256 bytes, as cudaMalloc's are");
  const offset_t nnz = static_cast<offset_t>(values.size());
  if constexpr (detail::cuda::built) {
    detail::guard_alloc([&] {
      detail::cuda::check_csr_arrays(what, nrows, ncols, rowptr.data(), colidx.data(), nnz, current_stream());
    });
    return detail::guard_alloc([&] {
      Matrix<T> m(nrows, ncols);
      auto r = std::make_unique<detail::device_row_matrix<T>>();
      // Nothing can fail from here on: the arrays move in.
      r->nrows = nrows;
      r->ncols = ncols;
      r->nnz = nnz;
      r->row_ptr = std::move(rowptr);
      r->col = std::move(colidx);
      r->values = std::move(values);
      m.assign_device_rows(std::move(r));
      return m;
    });
  } else {
    (void)nnz;
    throw not_implemented("tgb::import_device_csr: this build has no CUDA backend");
  }
}

// Hands a device matrix's CSR arrays over (see the top of this file); A is
// left 0 x 0.
template <class T>
device_csr_export<T> export_device_csr(Matrix<T>&& A) {
  detail::check_device_csr_type<T>("export_device_csr");
  if (A.location() != backend::cuda)
    throw invalid_value("tgb::export_device_csr: A lives on the host; use export_csr, or move it with to()");
  device_csr_export<T> out;
  out.nrows = A.nrows();
  out.ncols = A.ncols();
  if constexpr (detail::cuda::built) {
    std::unique_ptr<detail::device_row_matrix<T>> r;
    if (!A.device_rows())
      r = detail::guard_alloc([&] {
        return std::make_unique<detail::device_row_matrix<T>>(detail::cuda::rows_of(A.device_tiles(), current_stream()));
      });
    Matrix<T> empty;  // the last step that can fail, before A is touched
    Matrix<T> gone(std::move(A));
    A = std::move(empty);
    if (!r) r = std::move(gone).take_device_row_form();
    out.rowptr = std::move(r->row_ptr);
    out.colidx = std::move(r->col);
    out.values = std::move(r->values);
  }
  return out;
}

// A view of a temporary would dangle.
template <class T>
void view_device_csr(const Matrix<T>&&) = delete;

// A's device row form read in place (see the top of this file).
template <class T>
std::optional<csr_view<T>> view_device_csr(const Matrix<T>& A) {
  if (A.location() != backend::cuda) return std::nullopt;
  const detail::device_row_matrix<T>* r = A.device_rows();
  if (!r) return std::nullopt;
  return csr_view<T>{r->nrows, r->ncols, r->nnz, r->row_ptr.data(), r->col.data(), r->values.data()};
}

}  // namespace tgb
