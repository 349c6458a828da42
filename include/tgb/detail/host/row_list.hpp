// tgb host backend: the stored rows of a matrix in rows or hypersparse rows,
// as the kernels that read them in place take them (matrix-vector products,
// reductions): the k-th stored row is row id(k), its entries ptr[k] to
// ptr[k + 1], columns increasing.
#pragma once

#include <algorithm>

#include "tgb/detail/host/threads.hpp"
#include "tgb/detail/hyper_storage.hpp"
#include "tgb/detail/row_storage.hpp"

namespace tgb::detail::host {

template <class Col, class TA>
struct row_list {
  index_t nrows = 0, ncols = 0, nvec = 0;
  const index_t* ids = nullptr;  // nullptr: the k-th row is row k
  const offset_t* ptr = nullptr;
  const Col* col = nullptr;
  const TA* val = nullptr;
  index_t id(index_t k) const { return ids ? ids[k] : k; }
  offset_t entries() const { return nvec ? ptr[nvec] : 0; }
};
template <class TA>
row_list<row_col_t, TA> row_list_of(const csr_matrix<TA>& m) {
  return {m.p.nrows, m.p.ncols, m.p.nrows, nullptr, m.p.rowptr.data(), m.p.colidx.data(), m.values.data()};
}
template <class TA>
row_list<index_t, TA> row_list_of(const hyper_matrix<TA>& m) {
  return {m.p.nrows, m.p.ncols, m.p.nvec(), m.p.row.data(), m.p.ptr.data(), m.p.colidx.data(), m.values.data()};
}

template <class X>
inline constexpr bool is_row_list = false;
template <class Col, class TA>
inline constexpr bool is_row_list<row_list<Col, TA>> = true;

// f(a) on X as stored: its rows or hypersparse rows as a row_list, or its
// tiles (the kernels that take either, and reduce, which tells them apart by
// is_row_list).
template <class MX, class F>
void read_rows_or_tiles(const MX& X, F&& f) {
  if (const auto* r = X.row_form()) f(row_list_of(*r));
  else if (const auto* h = X.hyper_form()) f(row_list_of(*h));
  else f(X.tiles());
}

// The rows of op(X) for a row method: X's own row form where it is stored
// so (transposed if asked), else its hypersparse rows or a CSR view of its
// tiles made into `owned` (values copied only where `values`).
template <class MX, class T = typename MX::value_type>
const csr_matrix<T>* rows_for(const MX& X, bool transpose, bool values, csr_matrix<T>& owned) {
  if (const csr_matrix<T>* r = X.row_form()) {
    if (!transpose) return r;
    owned = transpose_csr(*r, values);
  } else if (const hyper_matrix<T>* h = X.hyper_form()) {
    owned = rows_of(*h);
    if (transpose) owned = transpose_csr(owned, values);
  } else {
    owned = csr_of(X.tiles(), transpose, values);  // X is stored in tiles here
  }
  return &owned;
}

// rows_for with its storage: the rows of op(m), read in place or made for
// the caller (owns(): made, and take() hands them over).
template <class T>
class rows_view {
 public:
  template <class MX>
  rows_view(const MX& m, bool transpose, bool values = true) : p_(rows_for(m, transpose, values, owned_)) {}
  rows_view(const rows_view&) = delete;
  rows_view& operator=(const rows_view&) = delete;
  const csr_matrix<T>& operator*() const noexcept { return *p_; }
  const csr_matrix<T>* operator->() const noexcept { return p_; }
  bool owns() const noexcept { return p_ == &owned_; }
  csr_matrix<T> take() noexcept { return std::move(owned_); }

 private:
  csr_matrix<T> owned_;
  const csr_matrix<T>* p_ = nullptr;
};

// Column-owned work over the rows `active` (stored-row numbers, increasing):
// the columns are split into parts, a few per thread, and body(k, first,
// last) runs for each active row k on its entries [first, last) whose columns
// lie in the part; every column is owned by one part, and its entries are
// visited in increasing row order whatever the thread count (deterministic
// folds without atomics). `parallel` picks the split.
template <class Col, class TA, class Rows, class Body>
void by_column_parts(const row_list<Col, TA>& A, const Rows& active, bool parallel, Body&& body) {
  const int nthreads = parallel ? max_threads() : 1;
  const index_t nparts = nthreads > 1 ? std::min<index_t>(std::max<index_t>(A.ncols, 1), index_t(nthreads) * 2) : 1;
#pragma omp parallel for schedule(dynamic, 1) if (nparts > 1)
  for (index_t part = 0; part < nparts; ++part) {
    // Balanced bounds without the product ncols * part (hypersparse widths).
    const index_t q = A.ncols / nparts, rem = A.ncols % nparts;
    const index_t c0 = q * part + std::min(part, rem), c1 = q * (part + 1) + std::min(part + 1, rem);
    for (index_t k : active) {
      offset_t first = A.ptr[k];
      const offset_t end = A.ptr[k + 1];
      if (part > 0) first = std::lower_bound(A.col + first, A.col + end, static_cast<Col>(c0)) - A.col;
      offset_t last = first;
      if (part + 1 < nparts) {
        while (last < end && static_cast<index_t>(A.col[last]) < c1) ++last;
      } else {
        last = end;
      }
      if (last > first) body(k, first, last);
    }
  }
}

}  // namespace tgb::detail::host
