// tgb: Matrix<T>, a sparse matrix stored natively in 16x16 tiles.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "tgb/algebra.hpp"
#include "tgb/backend.hpp"
#include "tgb/config.hpp"
#include "tgb/detail/cuda/api.hpp"
#include "tgb/detail/device_storage.hpp"
#include "tgb/detail/hyper_storage.hpp"
#include "tgb/detail/row_storage.hpp"
#include "tgb/detail/tile_storage.hpp"
#include "tgb/error.hpp"

namespace tgb {

template <class T>
struct coo {
  std::vector<index_t> rows;
  std::vector<index_t> cols;
  std::vector<T> values;
};

template <class T>
struct csr {
  std::vector<offset_t> rowptr;
  std::vector<index_t> colidx;
  std::vector<T> values;
};

namespace detail {
// Sorts validated triplets into CSR order (by row, then column, then input
// position, so duplicates are adjacent and in input order); the columns must
// fit a row form (rows_fit).
void sort_triplets(index_t nrows, const index_t* rows, const index_t* cols, std::size_t n, buffer<offset_t>& rowptr,
                   buffer<row_col_t>& colidx, buffer<offset_t>& order);
// Validates CSR arrays (monotone row pointers, columns in range) and sorts
// each row by column; order[p] is the source position of sorted entry p.
// Throws invalid_value on duplicates.
void sort_csr_rows(index_t nrows, index_t ncols, const offset_t* rowptr, buffer<row_col_t>& colidx,
                   buffer<offset_t>& order);
// Transposed pattern; gather[e] is the entry of `a` that lands at e.
tile_pattern transpose_pattern(const tile_pattern& a, buffer<offset_t>& gather);

template <class I>
index_t checked_index(I v, index_t bound, const char* what) {
  static_assert(std::is_integral_v<I>, "indices must be integers");
  bool ok;
  if constexpr (std::is_signed_v<I>) ok = v >= 0 && static_cast<long long>(v) < bound;
  else ok = static_cast<unsigned long long>(v) < static_cast<unsigned long long>(bound);
  if (!ok)
    throw index_out_of_bounds(std::string("tgb: ") + what + " index " + std::to_string(v) + " is outside [0, " +
                              std::to_string(bound) + ")");
  return static_cast<index_t>(v);
}

template <class T>
tile_matrix<T> transpose_tiles(const tile_matrix<T>& a) {
  tile_matrix<T> t;
  buffer<offset_t> gather;
  t.pat = transpose_pattern(a.pat, gather);
  t.values = gather_values<T>(gather, a.values);
  return t;
}

// Guards the tile copy of a row-form matrix, made on first use by const
// readers that may run on several threads (striped by address).
inline std::mutex& tile_copy_mutex(const void* m) {
  static std::mutex locks[64];
  return locks[(reinterpret_cast<std::uintptr_t>(m) >> 4) % 64];
}

template <class T>
class device_tile_view;

// Runs f, turning std::bad_alloc from any temporary into tgb::out_of_memory.
template <class F>
decltype(auto) guard_alloc(F&& f) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    throw out_of_memory("tgb: out of memory");
  }
}
}  // namespace detail

template <class T>
class Matrix {
 public:
  using value_type = T;

  // An empty 0 x 0 matrix.
  Matrix() : Matrix(0, 0) {}
  // An nrows x ncols matrix with no stored entries, on the host (in
  // hypersparse rows from kHyperMinRows rows: memory independent of the
  // dimension).
  Matrix(index_t nrows, index_t ncols) { make_empty(nrows, ncols); }
  // A copy lives where the original does (a device copy is issued on the
  // current stream).
  Matrix(const Matrix& o) : m_(o.m_), control_(o.control_) {
    if (o.rows_) rows_ = std::make_unique<detail::csr_matrix<T>>(*o.rows_);
    rows_ntiles_ = o.rows_ntiles_;
    if (o.hyper_) hyper_ = std::make_unique<detail::hyper_matrix<T>>(*o.hyper_);
    if (o.dev_) dev_ = std::make_unique<detail::device_tile_matrix<T>>(detail::clone(*o.dev_, current_stream()));
    if (o.dev_rows_)
      dev_rows_ = std::make_unique<detail::device_row_matrix<T>>(detail::clone(*o.dev_rows_, current_stream()));
  }
  Matrix& operator=(const Matrix& o) {
    if (this != &o) {
      Matrix tmp(o);
      swap(tmp);
    }
    return *this;
  }
  Matrix(Matrix&&) noexcept = default;
  Matrix& operator=(Matrix&&) noexcept = default;
  void swap(Matrix& o) noexcept {
    m_.swap(o.m_);
    rows_.swap(o.rows_);
    hyper_.swap(o.hyper_);
    tile_copy_.swap(o.tile_copy_);
    dev_.swap(o.dev_);
    dev_rows_.swap(o.dev_rows_);
    std::swap(control_, o.control_);
    std::swap(rows_ntiles_, o.rows_ntiles_);
  }

  // Builds from triplets. `dup` decides what duplicates mean (no_duplicates
  // or a binary operator); indices are checked against the shape.
  template <class RowC, class ColC, class ValC, class Dup>
  static Matrix from_coo(index_t nrows, index_t ncols, const RowC& rows, const ColC& cols, const ValC& vals,
                         Dup dup) {
    return detail::guard_alloc([&] {
      detail::check_dimensions(nrows, ncols);
      const std::size_t n = std::size(rows);
      if (std::size(cols) != n || std::size(vals) != n)
        throw invalid_value("tgb: from_coo: rows, cols and values differ in length (" + std::to_string(n) + ", " +
                            std::to_string(std::size(cols)) + ", " + std::to_string(std::size(vals)) + ")");
      detail::buffer<index_t> r(n), c(n);
      for (std::size_t k = 0; k < n; ++k) {
        r[k] = detail::checked_index(rows[k], nrows, "row");
        c[k] = detail::checked_index(cols[k], ncols, "column");
      }
      // Sorted by (row, column, position): with a pointer per row, or, for
      // triplets far fewer than the rows (or columns too many for a row
      // form), listing the rows that have some.
      const bool hyper = detail::hyper_rows(nrows, static_cast<index_t>(std::min<std::size_t>(n, std::size_t(nrows)))) ||
                         !detail::rows_fit(ncols);
      detail::buffer<index_t> rowlist, hcol;
      detail::buffer<detail::row_col_t> rcol;
      detail::buffer<offset_t> rowptr, order;
      if (hyper) detail::sort_triplets_hyper(r.data(), c.data(), n, rowlist, rowptr, hcol, order);
      else detail::sort_triplets(nrows, r.data(), c.data(), n, rowptr, rcol, order);
      const index_t segments = hyper ? static_cast<index_t>(rowlist.size()) : nrows;
      // Fold duplicates (adjacent, in input order) into the first of each run.
      detail::buffer<T> v(n);
      std::size_t out = 0;
      auto fold = [&](auto& colidx) {
        offset_t row_start_out = 0;
        for (index_t s = 0; s < segments; ++s) {
          const offset_t b = rowptr[s], e = rowptr[s + 1];
          for (offset_t p = b; p < e; ++p) {
            const T val = static_cast<T>(vals[order[p]]);
            if (p > b && colidx[p] == colidx[p - 1]) {
              if constexpr (std::is_same_v<Dup, no_duplicates_t>) {
                throw invalid_value("tgb: from_coo: duplicate entry (" + std::to_string(hyper ? rowlist[s] : s) + ", " +
                                    std::to_string(colidx[p]) + ") and the duplicate policy is no_duplicates");
              } else {
                v[out - 1] = static_cast<T>(dup(v[out - 1], val));
              }
            } else {
              colidx[out] = colidx[p];
              v[out] = val;
              ++out;
            }
          }
          rowptr[s] = row_start_out;
          row_start_out = static_cast<offset_t>(out);
        }
        rowptr[segments] = row_start_out;
        if (out != n) colidx = detail::prefix_copy(colidx, out);
      };
      if (hyper) fold(hcol);
      else fold(rcol);
      if (out != n) v = detail::prefix_copy(v, out);
      Matrix m(nrows, ncols);
      if (hyper) {
        detail::hyper_matrix<T> h = detail::hyper_matrix<T>::empty(nrows, ncols);
        h.p.row = std::move(rowlist);
        h.p.ptr = std::move(rowptr);
        h.p.colidx = std::move(hcol);
        h.values = std::move(v);
        m.assign_hyper(std::move(h));
      } else {
        detail::csr_matrix<T> out_rows;
        out_rows.p.nrows = nrows;
        out_rows.p.ncols = ncols;
        out_rows.p.rowptr = std::move(rowptr);
        out_rows.p.colidx = std::move(rcol);
        out_rows.values = std::move(v);
        m.assign_rows(std::move(out_rows));
      }
      return m;
    });
  }

  // Builds from CSR arrays (rowptr of nrows + 1, column indices, values).
  // Rows need not be sorted; duplicates and out-of-range indices are errors.
  template <class PtrC, class ColC, class ValC>
  static Matrix from_csr(index_t nrows, index_t ncols, const PtrC& rowptr, const ColC& colidx, const ValC& vals) {
    return detail::guard_alloc([&] {
      detail::check_dimensions(nrows, ncols);
      if (std::size(rowptr) != static_cast<std::size_t>(nrows) + 1)
        throw invalid_value("tgb: from_csr: rowptr has " + std::to_string(std::size(rowptr)) +
                            " entries, expected nrows + 1 = " + std::to_string(nrows + 1));
      const std::size_t n = std::size(colidx);
      if (std::size(vals) != n)
        throw invalid_value("tgb: from_csr: colidx and values differ in length");
      detail::buffer<offset_t> rp(static_cast<std::size_t>(nrows) + 1);
      for (index_t i = 0; i <= nrows; ++i) {
        rp[i] = static_cast<offset_t>(rowptr[i]);
        if (rp[i] < 0 || static_cast<std::size_t>(rp[i]) > n || (i > 0 && rp[i] < rp[i - 1]) || (i == 0 && rp[0] != 0))
          throw invalid_value("tgb: from_csr: row pointers must start at 0, never decrease and end at nnz (row " +
                              std::to_string(i) + ")");
      }
      if (static_cast<std::size_t>(rp[nrows]) != n)
        throw invalid_value("tgb: from_csr: rowptr[nrows] = " + std::to_string(rp[nrows]) + " but there are " +
                            std::to_string(n) + " column indices");
      if (!detail::rows_fit(ncols)) {
        // Too many columns for a row form: the same entries as triplets
        // (duplicates are errors here too), stored as the rule picks.
        detail::buffer<index_t> ri(n), cj(n);
        for (index_t i = 0; i < nrows; ++i)
          for (offset_t p = rp[i]; p < rp[i + 1]; ++p) ri[p] = i;
        for (std::size_t k = 0; k < n; ++k) cj[k] = detail::checked_index(colidx[k], ncols, "column");
        return from_coo(nrows, ncols, ri, cj, vals, no_duplicates);
      }
      detail::buffer<detail::row_col_t> ci(n);
      for (std::size_t k = 0; k < n; ++k)
        ci[k] = static_cast<detail::row_col_t>(detail::checked_index(colidx[k], ncols, "column"));
      detail::buffer<offset_t> order;
      detail::sort_csr_rows(nrows, ncols, rp.data(), ci, order);
      detail::csr_matrix<T> r;
      r.p.nrows = nrows;
      r.p.ncols = ncols;
      r.p.rowptr = std::move(rp);
      r.p.colidx = std::move(ci);
      r.values = detail::gather_values<T>(order, vals);
      Matrix m(nrows, ncols);
      m.assign_rows(std::move(r));
      return m;
    });
  }

  // Builds on the GPU from COO arrays already in device memory: n row
  // indices, n column indices (32- or 64-bit integers) and n values. The
  // conversion runs on the device, on the current stream; the arrays stay the
  // caller's and are only read. The result lives on the device. `dup` is
  // no_duplicates or a predefined binary operator (tgb::plus, first, second,
  // min, ...), folded in input order. Bad indices and duplicates throw as
  // from_coo's do; host pointers throw invalid_value.
  template <class I, class Dup = no_duplicates_t>
  static Matrix from_device_coo(index_t nrows, index_t ncols, const I* rows, const I* cols, const T* values,
                                offset_t n, Dup dup = no_duplicates) {
    (void)dup;
    check_device_type();
    return from_device("from_device_coo", false, nrows, ncols, detail::cuda::int_array{}, detail::cuda::int_array_of(rows),
                       detail::cuda::int_array_of(cols), values, n, dup_code<Dup>());
  }

  // Builds on the GPU from CSR arrays already in device memory: rowptr of
  // nrows + 1 entries, nnz column indices and values. Rows need not be
  // sorted; duplicates and out-of-range indices are errors.
  template <class P, class I>
  static Matrix from_device_csr(index_t nrows, index_t ncols, const P* rowptr, const I* colidx, const T* values,
                                offset_t nnz) {
    check_device_type();
    return from_device("from_device_csr", true, nrows, ncols, detail::cuda::int_array_of(rowptr), detail::cuda::int_array{},
                       detail::cuda::int_array_of(colidx), values, nnz, -1);
  }

  // Writes a device matrix's entries into device arrays the caller owns
  // (rowptr: nrows + 1; colidx and values: nvals()), rows sorted by column.
  // Issued on the current stream without waiting; any array may be null to
  // skip it. Index types too narrow for the matrix throw invalid_value.
  template <class P, class I>
  void to_device_csr(P* rowptr, I* colidx, T* values) const {
    check_device_type();
    if constexpr (detail::cuda::built)
      detail::cuda::to_device_arrays(*detail::device_tile_view<T>(*this), detail::cuda::int_out_of(rowptr),
                                     detail::cuda::int_out{}, detail::cuda::int_out_of(colidx), values,
                                     current_stream());
  }
  // The same as triplets sorted by (row, column): rows, cols and values of
  // nvals() entries each.
  template <class I>
  void to_device_coo(I* rows, I* cols, T* values) const {
    check_device_type();
    if constexpr (detail::cuda::built)
      detail::cuda::to_device_arrays(*detail::device_tile_view<T>(*this), detail::cuda::int_out{},
                                     detail::cuda::int_out_of(rows), detail::cuda::int_out_of(cols), values,
                                     current_stream());
  }

  index_t nrows() const noexcept { return m_.pat.nrows; }
  index_t ncols() const noexcept { return m_.pat.ncols; }
  offset_t nvals() const noexcept {
    return dev_ ? dev_->pat.nnz : dev_rows_ ? dev_rows_->nnz : rows_ ? rows_->p.nnz() : hyper_ ? hyper_->p.nnz() : m_.pat.nnz();
  }
  // Non-empty 16x16 tiles (whatever the form; counted for a row-form matrix).
  offset_t ntiles() const {
    if (dev_) return dev_->pat.ntiles;
    if (dev_rows_) return detail::guard_alloc([&] { return detail::count_tiles(detail::rows_to_host(*dev_rows_).p); });
    if (rows_) return rows_ntiles_ >= 0 ? rows_ntiles_ : detail::guard_alloc([&] { return detail::count_tiles(rows_->p); });
    if (hyper_) return detail::guard_alloc([&] { return detail::count_tiles(hyper_->p); });
    return m_.pat.ntiles();
  }

  // The form the entries are stored in (docs/tile-format.md, "Two forms"):
  // tiles; rows for matrices whose tiles are nearly empty; hypersparse rows
  // (host only) where few rows have entries. Chosen by one rule,
  // detail::choose_form, at every store on the host; on the device, rows come
  // from mxm's row saxpy (and set_storage). set_storage overrides the rule.
  storage_form form() const noexcept {
    return rows_ || dev_rows_ ? storage_form::rows : hyper_ ? storage_form::hyper : storage_form::tiles;
  }
  storage_control storage() const noexcept { return control_; }
  // Names the form this matrix keeps from now on (or hands the choice back to
  // the rule) and stores it so at once. On the device, rows or tiles convert
  // there (rows need ncols < 2^31 - 1) and automatic keeps the form.
  void set_storage(storage_control c) {
    detail::guard_alloc([&] {
      const storage_control old = control_;
      control_ = c;
      try {
        if (dev_ || dev_rows_) {
          if constexpr (detail::cuda::device_types<T>) {
            if ((c == storage_control::tiles || c == storage_control::hyper) && dev_rows_) {
              auto t = std::make_unique<detail::device_tile_matrix<T>>(detail::cuda::tiles_of(*dev_rows_, current_stream()));
              dev_ = std::move(t);
              dev_rows_.reset();
            } else if (c == storage_control::rows && dev_ && detail::rows_fit(ncols())) {
              assign_device_rows_as_is(
                  std::make_unique<detail::device_row_matrix<T>>(detail::cuda::rows_of(*dev_, current_stream())));
            }
          }
        } else {
          if (rows_) {
            detail::csr_matrix<T> r(*rows_);
            assign_rows(std::move(r));
          } else if (hyper_) {
            detail::hyper_matrix<T> h(*hyper_);
            assign_hyper(std::move(h));
          } else {
            detail::tile_matrix<T> t(m_);
            assign_tiles(std::move(t));
          }
        }
      } catch (...) {
        control_ = old;
        throw;
      }
    });
  }
  // Bytes of every array of the stored form (host or device).
  double stored_bytes() const {
    if (dev_) return detail::tile_form_bytes(nrows(), dev_->pat.ntiles, dev_->pat.nnz, sizeof(T));
    if (dev_rows_) return detail::row_form_bytes(nrows(), dev_rows_->nnz, sizeof(T));
    if (rows_) return detail::row_form_bytes(nrows(), rows_->p.nnz(), sizeof(T));
    if (hyper_) return detail::hyper_form_bytes(hyper_->p.nvec(), hyper_->p.nnz(), sizeof(T));
    return detail::tile_form_bytes(nrows(), m_.pat.ntiles(), m_.pat.nnz(), sizeof(T));
  }
  // Where the storage lives; operations run there.
  backend location() const noexcept { return dev_ || dev_rows_ ? backend::cuda : backend::host; }

  // Moves the storage to the host or to the CUDA device (copies issued on the
  // current stream). The only way a matrix changes residence: operations never
  // copy behind the caller's back. Throws not_implemented without CUDA.
  void to(backend where) {
    if (where == location()) return;
    if (where == backend::cuda) {
      if (cuda_device_count() == 0) throw not_implemented("tgb: cannot move a matrix to the GPU: " + cuda_device_description());
      // The form moves as it is (rows whose columns do not fit the device's
      // 32 bits go as tiles).
      std::unique_ptr<detail::device_tile_matrix<T>> d;
      std::unique_ptr<detail::device_row_matrix<T>> dr;
      detail::guard_alloc([&] {
        if (rows_ && detail::rows_fit(ncols()) && detail::cuda::device_value_type<T>) {
          dr = std::make_unique<detail::device_row_matrix<T>>(detail::rows_to_device(*rows_, current_stream()));
          return;
        }
        const detail::tile_matrix<T>* h = &m_;
        detail::tile_matrix<T> from_rows;
        if (rows_ || hyper_) {
          from_rows = rows_ ? detail::tiles_of(*rows_) : detail::tiles_of(*hyper_);
          h = &from_rows;
        }
        d = std::make_unique<detail::device_tile_matrix<T>>(detail::to_device(*h, current_stream()));
      });
      detail::tile_matrix<T> shape = shape_of(nrows(), ncols());
      dev_ = std::move(d);
      dev_rows_ = std::move(dr);
      m_.swap(shape);
      rows_.reset();
      hyper_.reset();
      tile_copy_.reset();
    } else {
      // Stored on the host by the rule; the device copy goes only once the
      // host form is complete.
      stored s;
      if (dev_rows_) s = prepare(detail::rows_to_host(*dev_rows_));
      else s = prepare(detail::to_host(*dev_));
      commit(std::move(s));
    }
  }

  // A(i,j) if stored; std::nullopt if not. Indices outside the matrix throw
  // invalid_index.
  std::optional<T> get(index_t i, index_t j) const {
    check_element("element access", i, j);
    const std::optional<std::size_t> at = position(i, j);
    if (!at) return std::nullopt;
    return rows_ ? rows_->values[*at] : hyper_ ? hyper_->values[*at] : m_.values[*at];
  }

  // GrB_Matrix_setElement: stores x (cast to T) at (i, j), replacing what is
  // stored there. An entry already stored is overwritten in place; a new one
  // costs a pass over the entries (the matrix is remade through hypersparse
  // rows and stored by the rule), so build many entries with from_coo,
  // assign or ewise_add instead. On a throw the matrix is unchanged.
  template <class U>
  void set(index_t i, index_t j, const U& x) {
    check_element("set", i, j);
    const T v = static_cast<T>(x);
    if (const std::optional<std::size_t> at = position(i, j)) {
      (rows_ ? rows_->values[*at] : hyper_ ? hyper_->values[*at] : m_.values[*at]) = v;
      tile_copy_.reset();
      return;
    }
    detail::guard_alloc(
        [&] { assign_hyper(through_hyper([&](const auto& h) { return detail::with_entry(h, i, j, v); })); });
  }
  // GrB_Matrix_removeElement: drops A(i, j) if it is stored (nothing if not).
  void remove(index_t i, index_t j) {
    check_element("remove", i, j);
    if (!position(i, j)) return;
    detail::guard_alloc(
        [&] { assign_hyper(through_hyper([&](const auto& h) { return detail::without_entry(h, i, j); })); });
  }
  // GrB_Matrix_resize: the entries inside the new shape stay, the rest go.
  void resize(index_t nrows, index_t ncols) {
    if (location() == backend::cuda)
      throw invalid_value("tgb: resize needs a host matrix; call to(tgb::backend::host) first");
    detail::check_dimensions(nrows, ncols);
    detail::guard_alloc(
        [&] { commit(prepare(through_hyper([&](const auto& h) { return detail::resized(h, nrows, ncols); }))); });
  }

  // Triplets sorted by (row, column).
  coo<T> to_coo() const {
    if (hyper_) {
      return detail::guard_alloc([&] {
        const detail::hyper_pattern& h = hyper_->p;
        coo<T> out;
        out.rows.resize(static_cast<std::size_t>(h.nnz()));
        for (index_t k = 0; k < h.nvec(); ++k)
          for (offset_t p = h.ptr[k]; p < h.ptr[k + 1]; ++p) out.rows[p] = h.row[k];
        out.cols.assign(h.colidx.begin(), h.colidx.end());
        out.values.assign(hyper_->values.begin(), hyper_->values.end());
        return out;
      });
    }
    csr<T> c = to_csr();
    coo<T> out;
    out.rows.resize(c.colidx.size());
    for (index_t i = 0; i < nrows(); ++i)
      for (offset_t p = c.rowptr[i]; p < c.rowptr[i + 1]; ++p) out.rows[p] = i;
    out.cols = std::move(c.colidx);
    out.values = std::move(c.values);
    return out;
  }

  // CSR arrays, rows sorted by column (copied from the device if it lives there).
  csr<T> to_csr() const {
    return detail::guard_alloc([&] {
      if (hyper_) {
        const detail::hyper_pattern& h = hyper_->p;
        csr<T> out;
        out.rowptr.assign(static_cast<std::size_t>(h.nrows) + 1, offset_t(0));
        for (index_t k = 0; k < h.nvec(); ++k) out.rowptr[h.row[k] + 1] = h.ptr[k + 1] - h.ptr[k];
        for (index_t i = 0; i < h.nrows; ++i) out.rowptr[i + 1] += out.rowptr[i];
        out.colidx.assign(h.colidx.begin(), h.colidx.end());
        out.values.assign(hyper_->values.begin(), hyper_->values.end());
        return out;
      }
      if (rows_ || dev_rows_) {
        detail::csr_matrix<T> copy;
        if (dev_rows_) copy = detail::rows_to_host(*dev_rows_);
        const detail::csr_matrix<T>& r = rows_ ? *rows_ : copy;
        csr<T> out;
        out.rowptr.assign(r.p.rowptr.begin(), r.p.rowptr.end());
        out.colidx.assign(r.p.colidx.begin(), r.p.colidx.end());
        out.values.assign(r.values.begin(), r.values.end());
        return out;
      }
      detail::tile_matrix<T> copy;
      if (dev_) copy = detail::to_host(*dev_);
      const detail::tile_matrix<T>& h = dev_ ? copy : m_;
      detail::buffer<offset_t> rp, src;
      detail::buffer<index_t> ci;
      detail::pattern_to_csr(h.pat, rp, ci, src);
      csr<T> out;
      out.rowptr.assign(rp.begin(), rp.end());
      out.colidx.assign(ci.begin(), ci.end());
      out.values.resize(src.size());
      for (std::size_t e = 0; e < src.size(); ++e) out.values[e] = h.values[src[e]];
      return out;
    });
  }

  // Removes every entry; the shape and the residence stay.
  void clear() {
    Matrix e(nrows(), ncols());
    if (location() == backend::cuda) e.to(backend::cuda);
    if (control_ != storage_control::automatic) e.set_storage(control_);
    swap(e);
  }

  // The tile layout itself (read-only), for inspection and for the backends.
  // A row-form matrix makes a tile copy on first use and keeps it until it
  // changes (safe from several threads).
  const detail::tile_matrix<T>& tiles() const {
    if (location() == backend::cuda)
      throw invalid_value("tgb: the matrix lives on the device; call to(tgb::backend::host) first");
    if (!rows_ && !hyper_) return m_;
    std::lock_guard<std::mutex> hold(detail::tile_copy_mutex(this));
    if (!tile_copy_)
      tile_copy_ = std::make_unique<detail::tile_matrix<T>>(rows_ ? detail::tiles_of(*rows_) : detail::tiles_of(*hyper_));
    return *tile_copy_;
  }
  // The row form, where the matrix is stored so (host); null otherwise.
  const detail::csr_matrix<T>* row_form() const noexcept { return rows_.get(); }
  // The hypersparse row form, where the matrix is stored so; null otherwise.
  const detail::hyper_matrix<T>* hyper_form() const noexcept { return hyper_.get(); }
  // An expiring matrix's row form, handed over without a copy (null where it
  // is not stored so): export_csr's hook. What is left is only destroyed.
  std::unique_ptr<detail::csr_matrix<T>> take_row_form() && noexcept { return std::move(rows_); }
  // The same for the device row form (export_device_csr's hook).
  std::unique_ptr<detail::device_row_matrix<T>> take_device_row_form() && noexcept { return std::move(dev_rows_); }
  // The device tiles; a device matrix in rows has none (read it through
  // detail::device_tile_view, or device_rows()).
  const detail::device_tile_matrix<T>& device_tiles() const {
    if (!dev_ && !dev_rows_) throw invalid_value("tgb: the matrix lives on the host; call to(tgb::backend::cuda) first");
    if (!dev_) throw invalid_value("tgb: the device matrix is stored in rows; read it through detail::device_tile_view");
    return *dev_;
  }
  const detail::device_row_matrix<T>* device_rows() const noexcept { return dev_rows_.get(); }
  // Backend hooks: replace the contents with an operation's result, stored
  // by the rule (used last by every operation; a conversion that fails
  // throws before anything changes, so the output stays as it was).
  void assign_tiles(detail::tile_matrix<T>&& t) { commit(prepare(std::move(t))); }
  // ntiles: r's tile count where the caller has counted it (-1: count here).
  void assign_rows(detail::csr_matrix<T>&& r, offset_t ntiles = -1) { commit(prepare(std::move(r), ntiles)); }
  void assign_hyper(detail::hyper_matrix<T>&& h) { commit(prepare(std::move(h))); }
  // The form assign_rows would store rows of pattern p in (the owner's
  // control, else the rule); ntiles as assign_rows's, counted here if < 0.
  storage_form form_of_rows(const detail::csr_pattern& p, offset_t& ntiles) const {
    if (ntiles < 0 && control_ == storage_control::automatic) ntiles = detail::count_tiles(p);
    return control_ == storage_control::rows    ? storage_form::rows
           : control_ == storage_control::hyper ? storage_form::hyper
           : control_ == storage_control::tiles ? storage_form::tiles
                                                : rule(p, ntiles, p.nnz());
  }
  // For a matrix already on the device (its shape does not change).
  // The owner's control (set_storage) holds on the device too: a result in
  // the other form is converted first (a conversion that fails throws before
  // anything changes).
  void assign_device_tiles(std::unique_ptr<detail::device_tile_matrix<T>> d) {
    if constexpr (detail::cuda::device_types<T>) {
      if (control_ == storage_control::rows && detail::rows_fit(ncols())) {
        assign_device_rows_as_is(std::make_unique<detail::device_row_matrix<T>>(
            detail::guard_alloc([&] { return detail::cuda::rows_of(*d, current_stream()); })));
        return;
      }
    }
    dev_ = std::move(d);
    dev_rows_.reset();
    drop_host_forms();
  }
  void assign_device_rows(std::unique_ptr<detail::device_row_matrix<T>> d) {
    if constexpr (detail::cuda::device_types<T>) {
      if (control_ == storage_control::tiles || control_ == storage_control::hyper) {
        auto t = std::make_unique<detail::device_tile_matrix<T>>(
            detail::guard_alloc([&] { return detail::cuda::tiles_of(*d, current_stream()); }));
        dev_ = std::move(t);
        dev_rows_.reset();
        return;
      }
    }
    assign_device_rows_as_is(std::move(d));
  }

 private:
  template <class Dup>
  static constexpr int dup_code() {
    if constexpr (std::is_same_v<Dup, no_duplicates_t>) {
      return -1;
    } else {
      static_assert(detail::op_code<Dup>::value >= 0,
                    "on the device, duplicates fold with a predefined binary operator (tgb::plus, first, ...)");
      return detail::op_code<Dup>::value;
    }
  }
  void assign_device_rows_as_is(std::unique_ptr<detail::device_row_matrix<T>> d) noexcept {
    dev_rows_ = std::move(d);
    dev_.reset();
    drop_host_forms();
  }
  // A device matrix keeps only its shape on the host.
  void drop_host_forms() noexcept {
    rows_.reset();
    hyper_.reset();
    tile_copy_.reset();
  }
  static void check_device_type() {
    static_assert(detail::cuda::device_value_type<T>,
                  "device arrays convert for bool, int32_t, int64_t, float and double matrices");
    if (cuda_device_count() == 0)
      throw not_implemented("tgb: device arrays need a GPU: " + cuda_device_description());
  }
  static Matrix from_device(const char* what, bool csr, index_t nrows, index_t ncols, detail::cuda::int_array rowptr,
                            detail::cuda::int_array rows, detail::cuda::int_array cols, const T* values, offset_t n,
                            int dup_code) {
    Matrix m(nrows, ncols);
    if constexpr (detail::cuda::built) {
      m.dev_ = std::make_unique<detail::device_tile_matrix<T>>(detail::cuda::from_device_arrays<T>(
          what, csr, nrows, ncols, rowptr, rows, cols, values, n, dup_code, current_stream()));
      m.hyper_.reset();
    }
    return m;
  }

  void check_element(const char* what, index_t i, index_t j) const {
    if (location() == backend::cuda)
      throw invalid_value(std::string("tgb: ") + what + " needs a host matrix; call to(tgb::backend::host) first");
    if (i < 0 || i >= nrows() || j < 0 || j >= ncols())
      throw invalid_index("tgb: element (" + std::to_string(i) + ", " + std::to_string(j) + ") is outside the " +
                          std::to_string(nrows()) + " x " + std::to_string(ncols()) + " matrix");
  }
  // Where A(i, j) is in the stored form's values (host), if it is stored.
  std::optional<std::size_t> position(index_t i, index_t j) const {
    auto in_row = [j](const auto* col, offset_t b, offset_t e) -> std::optional<std::size_t> {
      const auto* at = std::lower_bound(col + b, col + e, j);
      if (at == col + e || *at != j) return std::nullopt;
      return static_cast<std::size_t>(at - col);
    };
    if (rows_) return in_row(rows_->p.colidx.data(), rows_->p.rowptr[i], rows_->p.rowptr[i + 1]);
    if (hyper_) {
      const detail::hyper_pattern& h = hyper_->p;
      const auto r = std::lower_bound(h.row.begin(), h.row.end(), i);
      if (r == h.row.end() || *r != i) return std::nullopt;
      const std::size_t k = static_cast<std::size_t>(r - h.row.begin());
      return in_row(h.colidx.data(), h.ptr[k], h.ptr[k + 1]);
    }
    const offset_t t = detail::find_tile(m_.pat, i >> tile_shift, j >> tile_shift);
    if (t < 0) return std::nullopt;
    const int r = static_cast<int>(i & (tile_dim - 1)), c = static_cast<int>(j & (tile_dim - 1));
    const detail::row_bits bits = m_.pat.row_mask[16 * t + r];
    if (!((bits >> c) & 1u)) return std::nullopt;
    return static_cast<std::size_t>(m_.pat.tile_offset[t] + m_.pat.row_ptr[16 * t + r] + detail::tile::rank_below(bits, c));
  }
  // f(h) on the host form as hypersparse rows (the single-entry edits): the
  // stored ones, or a copy made for the call.
  template <class F>
  auto through_hyper(F&& f) const {
    if (hyper_) return f(*hyper_);
    if (rows_) return f(detail::hyper_of(detail::csr_matrix<T>(*rows_)));
    return f(detail::hyper_of(m_));
  }

  // A result in the form the rule picks, ready to be swapped in.
  struct stored {
    detail::tile_matrix<T> tiles;
    std::unique_ptr<detail::csr_matrix<T>> rows;
    std::unique_ptr<detail::hyper_matrix<T>> hyper;
    offset_t ntiles = -1;  // of rows, where counted
  };
  // The rule's form for a result with these counts; nvec (the non-empty
  // rows) is counted only where hypersparse rows could be chosen.
  template <class Pattern>
  storage_form rule(const Pattern& p, offset_t ntiles, offset_t nnz) const {
    const index_t n = nrows();
    const index_t nvec =
        control_ == storage_control::automatic && detail::hyper_rows(n, 0) ? detail::count_nonempty_rows(p, n / detail::kHyperRatio) : -1;
    return detail::choose_form(control_, backend::host, n, p.ncols, ntiles, nnz, sizeof(T), nvec);
  }
  // Only the shape, for a matrix stored in rows or hypersparse rows.
  static detail::tile_matrix<T> shape_of(index_t nrows, index_t ncols) {
    detail::tile_matrix<T> t;
    t.pat.nrows = nrows;
    t.pat.ncols = ncols;
    return t;
  }
  stored prepare(detail::tile_matrix<T>&& t) const {
    stored s;
    const storage_form f = rule(t.pat, t.pat.ntiles(), t.pat.nnz());
    if (f == storage_form::tiles) {
      s.tiles.swap(t);
      return s;
    }
    if (f == storage_form::rows) s.rows = std::make_unique<detail::csr_matrix<T>>(detail::csr_of(t, false));
    else s.hyper = std::make_unique<detail::hyper_matrix<T>>(detail::hyper_of(t));
    s.tiles = shape_of(t.pat.nrows, t.pat.ncols);
    return s;
  }
  stored prepare(detail::csr_matrix<T>&& r, offset_t ntiles = -1) const {
    stored s;
    const storage_form f = form_of_rows(r.p, ntiles);
    s.ntiles = ntiles;
    if (f == storage_form::tiles) {
      s.tiles = detail::tiles_of(r);
      return s;
    }
    s.tiles = shape_of(r.p.nrows, r.p.ncols);
    if (f == storage_form::rows) s.rows = std::make_unique<detail::csr_matrix<T>>(std::move(r));
    else s.hyper = std::make_unique<detail::hyper_matrix<T>>(detail::hyper_of(std::move(r)));
    return s;
  }
  stored prepare(detail::hyper_matrix<T>&& h) const {
    const bool automatic = control_ == storage_control::automatic;
    const offset_t ntiles = automatic ? detail::count_tiles(h.p) : 0;
    const storage_form f =
        detail::choose_form(control_, backend::host, h.p.nrows, h.p.ncols, ntiles, h.p.nnz(), sizeof(T), h.p.nvec());
    stored s;
    if (automatic) s.ntiles = ntiles;
    if (f == storage_form::tiles) {
      s.tiles = detail::tiles_of(h);
      return s;
    }
    s.tiles = shape_of(h.p.nrows, h.p.ncols);
    if (f == storage_form::rows) s.rows = std::make_unique<detail::csr_matrix<T>>(detail::rows_of(h));
    else s.hyper = std::make_unique<detail::hyper_matrix<T>>(std::move(h));
    return s;
  }
  void commit(stored&& s) noexcept {
    m_.swap(s.tiles);
    rows_ = std::move(s.rows);
    rows_ntiles_ = s.ntiles;
    hyper_ = std::move(s.hyper);
    tile_copy_.reset();
    dev_.reset();
    dev_rows_.reset();
  }
  // An empty matrix in the rule's form.
  void make_empty(index_t nrows, index_t ncols) {
    detail::check_dimensions(nrows, ncols);
    if (detail::hyper_rows(nrows, 0)) {
      m_ = shape_of(nrows, ncols);
      hyper_ = std::make_unique<detail::hyper_matrix<T>>(detail::hyper_matrix<T>::empty(nrows, ncols));
    } else {
      m_.pat = detail::tile_pattern::empty(nrows, ncols);
    }
  }

  // Host tiles; for a matrix in rows or hypersparse rows only the shape (nrows, ncols), and on
  // the device an empty pattern of the right shape.
  detail::tile_matrix<T> m_;
  std::unique_ptr<detail::csr_matrix<T>> rows_;                // the row form (host)
  std::unique_ptr<detail::hyper_matrix<T>> hyper_;             // hypersparse rows (host)
  mutable std::unique_ptr<detail::tile_matrix<T>> tile_copy_;  // tiles of rows_, made on first use
  std::unique_ptr<detail::device_tile_matrix<T>> dev_;       // device, tiles
  std::unique_ptr<detail::device_row_matrix<T>> dev_rows_;   // device, rows
  storage_control control_ = storage_control::automatic;
  offset_t rows_ntiles_ = -1;  // the tiles of rows_ (counted by the rule), -1 where not known
};

namespace detail {
// A matrix's tiles as an operation reads them: the stored tiles, or tiles
// made from the row form for this operation alone (freed with the view, and
// never cached in the matrix, so an operation keeps nothing it allocated).
template <class T>
class tile_view {
 public:
  explicit tile_view(const Matrix<T>& m) {
    if (const csr_matrix<T>* r = m.row_form()) {
      owned_ = tiles_of(*r);
      p_ = &owned_;
    } else if (const hyper_matrix<T>* h = m.hyper_form()) {
      owned_ = tiles_of(*h);
      p_ = &owned_;
    } else {
      p_ = &m.tiles();
    }
  }
  tile_view(const tile_view&) = delete;
  tile_view& operator=(const tile_view&) = delete;
  const tile_matrix<T>& operator*() const noexcept { return *p_; }
  const tile_matrix<T>* operator->() const noexcept { return p_; }

 private:
  tile_matrix<T> owned_;
  const tile_matrix<T>* p_ = nullptr;
};

// A device matrix's tiles as an operation reads them: the stored ones, or
// tiles made from its rows for this operation alone.
template <class T>
class device_tile_view {
 public:
  explicit device_tile_view(const Matrix<T>& m) {
    if (const device_row_matrix<T>* r = m.device_rows()) {
      if constexpr (cuda::device_types<T>) {
        owned_ = cuda::tiles_of(*r, current_stream());
        p_ = &owned_;
      } else {
        throw not_implemented("tgb: a device matrix of this value type cannot be stored in rows");
      }
    } else {
      p_ = &m.device_tiles();
    }
  }
  device_tile_view(const device_tile_view&) = delete;
  device_tile_view& operator=(const device_tile_view&) = delete;
  const device_tile_matrix<T>& operator*() const noexcept { return *p_; }
  const device_tile_matrix<T>* operator->() const noexcept { return p_; }

 private:
  device_tile_matrix<T> owned_;
  const device_tile_matrix<T>* p_ = nullptr;
};
}  // namespace detail

}  // namespace tgb
