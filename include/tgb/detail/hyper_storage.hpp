// tgb: the hypersparse form of a matrix (GraphBLAS's hypersparse CSR): only
// the rows that hold entries are listed, so memory follows the entries, not
// the dimension. docs/tile-format.md, "Hypersparse rows".
//
//   row[nvec]        the non-empty rows, increasing
//   ptr[nvec + 1]    first entry of each listed row
//   colidx[nnz]      column of each entry, increasing within a row
//   values[nnz]
//
// A host form only. mxm (unmasked), apply, select, reductions, mxv, and
// unmasked ewise_add, ewise_mult and transpose read and make it as it is
// (detail/host/hyper_ops.hpp); the other operations read it through a tile
// copy made for the operation (detail::tile_view); a move to the device
// stores it in tiles there. The storage rule
// (detail::choose_form) keeps a matrix so when at most one row in 16 has an
// entry, it has kHyperMinRows rows or more, and the form is the smallest.
#pragma once

#include <algorithm>
#include <cstdint>

#include "tgb/config.hpp"
#include "tgb/detail/buffer.hpp"
#include "tgb/detail/row_storage.hpp"
#include "tgb/detail/tile_storage.hpp"

namespace tgb::detail {

struct hyper_pattern {
  index_t nrows = 0, ncols = 0;
  buffer<index_t> row;
  buffer<offset_t> ptr{1, offset_t(0)};
  buffer<index_t> colidx;
  index_t nvec() const { return static_cast<index_t>(row.size()); }
  offset_t nnz() const { return ptr[ptr.size() - 1]; }
};

template <class T>
struct hyper_matrix {
  hyper_pattern p;
  buffer<T> values;

  static hyper_matrix empty(index_t nrows, index_t ncols) {
    hyper_matrix h;
    h.p.nrows = nrows;
    h.p.ncols = ncols;
    return h;
  }
};

// Lists, of n candidate rows (row k is row_id(k), its entries ptr[k] to
// ptr[k + 1]), those that hold entries: h.row and h.ptr (h.ptr ends at ptr[n]).
template <class RowId>
void list_nonempty_rows(index_t n, const offset_t* ptr, RowId&& row_id, hyper_pattern& h) {
  index_t kept = 0;
  for (index_t k = 0; k < n; ++k) kept += ptr[k + 1] > ptr[k];
  h.row = buffer<index_t>(static_cast<std::size_t>(kept));
  h.ptr = buffer<offset_t>(static_cast<std::size_t>(kept) + 1);
  index_t o = 0;
  for (index_t k = 0; k < n; ++k)
    if (ptr[k + 1] > ptr[k]) {
      h.row[o] = row_id(k);
      h.ptr[o++] = ptr[k];
    }
  h.ptr[kept] = ptr[n];
}

// Non-empty rows of a pattern, counted up to limit + 1 (the rule asks only
// whether they are few; the count stops once they are not).
index_t count_nonempty_rows(const csr_pattern& p, index_t limit);
index_t count_nonempty_rows(const tile_pattern& p, index_t limit);
// Non-empty 16x16 tiles of a hypersparse pattern.
offset_t count_tiles(const hyper_pattern& p);

// Sorts validated triplets by (row, column, input position), as sort_triplets
// does, without an array per row: row[s] is the s-th distinct row, ptr its
// first sorted position. For triplets far fewer than the rows.
void sort_triplets_hyper(const index_t* rows, const index_t* cols, std::size_t n, buffer<index_t>& row,
                         buffer<offset_t>& ptr, buffer<index_t>& colidx, buffer<offset_t>& order);

// Conversions of the patterns (values keep their order between rows and
// hypersparse rows; to and from tiles, perm/src map the entries). cmap, where
// given, maps the rows' columns to the hypersparse ones (column c becomes
// cmap[c]); rows_of_pattern needs columns that fit a row form (rows_fit).
hyper_pattern hyper_of_pattern(csr_pattern&& p, const buffer<index_t>* cmap = nullptr);
csr_pattern rows_of_pattern(hyper_pattern&& h);
// src[e]: the tile-order position of hypersparse entry e.
hyper_pattern hyper_of_tiles(const tile_pattern& p, buffer<offset_t>& src);
// perm[e]: the hypersparse position of the e-th entry in tile order.
tile_pattern pattern_from_hyper(const hyper_pattern& h, buffer<offset_t>& perm);

template <class T>
hyper_matrix<T> hyper_of(csr_matrix<T>&& r, const buffer<index_t>* cmap = nullptr) {
  hyper_matrix<T> h;
  h.p = hyper_of_pattern(std::move(r.p), cmap);
  h.values = std::move(r.values);
  return h;
}
template <class T>
csr_matrix<T> rows_of(const hyper_matrix<T>& h) {
  hyper_pattern copy = h.p;
  csr_matrix<T> r;
  r.p = rows_of_pattern(std::move(copy));
  r.values = h.values;
  return r;
}
template <class T>
hyper_matrix<T> hyper_of(const tile_matrix<T>& t) {
  hyper_matrix<T> h;
  buffer<offset_t> src;
  h.p = hyper_of_tiles(t.pat, src);
  h.values = gather_values<T>(src, t.values);
  return h;
}
template <class T>
tile_matrix<T> tiles_of(const hyper_matrix<T>& h) {
  tile_matrix<T> t;
  buffer<offset_t> perm;
  t.pat = pattern_from_hyper(h.p, perm);
  t.values = gather_values<T>(perm, h.values);
  return t;
}

// Single-entry edits (GrB_Matrix_setElement, _removeElement, _resize), made
// on new arrays so that a failure changes nothing: h with x at (i, j), which
// h does not hold; h without (i, j), which it holds; h cut to a new shape.
template <class T>
hyper_matrix<T> with_entry(const hyper_matrix<T>& h, index_t i, index_t j, const T& x) {
  const hyper_pattern& p = h.p;
  const std::size_t k = static_cast<std::size_t>(std::lower_bound(p.row.begin(), p.row.end(), i) - p.row.begin());
  const bool new_row = k == p.row.size() || p.row[k] != i;
  const offset_t b = p.ptr[k];
  const offset_t e = new_row ? b : p.ptr[k + 1];
  const offset_t at = static_cast<offset_t>(std::lower_bound(p.colidx.data() + b, p.colidx.data() + e, j) - p.colidx.data());
  hyper_matrix<T> out;
  out.p.nrows = p.nrows;
  out.p.ncols = p.ncols;
  const std::size_t nvec = p.row.size() + (new_row ? 1 : 0), nnz = static_cast<std::size_t>(p.nnz()) + 1;
  out.p.row = buffer<index_t>(nvec);
  out.p.ptr = buffer<offset_t>(nvec + 1);
  out.p.colidx = buffer<index_t>(nnz);
  out.values = buffer<T>(nnz);
  for (std::size_t q = 0, o = 0; q <= p.row.size(); ++q, ++o) {
    if (q == k && new_row) {
      out.p.row[o] = i;
      out.p.ptr[o] = p.ptr[q];
      ++o;
    }
    if (q < p.row.size()) out.p.row[o] = p.row[q];
    out.p.ptr[o] = p.ptr[q] + (q > k || (q == k && new_row) ? 1 : 0);
  }
  for (offset_t q = 0, o = 0; q <= p.nnz(); ++q, ++o) {
    if (q == at) {
      out.p.colidx[o] = j;
      out.values[o] = x;
      ++o;
    }
    if (q < p.nnz()) {
      out.p.colidx[o] = p.colidx[q];
      out.values[o] = h.values[q];
    }
  }
  return out;
}

template <class T>
hyper_matrix<T> without_entry(const hyper_matrix<T>& h, index_t i, index_t j) {
  const hyper_pattern& p = h.p;
  const std::size_t k = static_cast<std::size_t>(std::lower_bound(p.row.begin(), p.row.end(), i) - p.row.begin());
  const offset_t at = static_cast<offset_t>(
      std::lower_bound(p.colidx.data() + p.ptr[k], p.colidx.data() + p.ptr[k + 1], j) - p.colidx.data());
  const bool drop_row = p.ptr[k + 1] - p.ptr[k] == 1;
  hyper_matrix<T> out;
  out.p.nrows = p.nrows;
  out.p.ncols = p.ncols;
  const std::size_t nvec = p.row.size() - (drop_row ? 1 : 0), nnz = static_cast<std::size_t>(p.nnz()) - 1;
  out.p.row = buffer<index_t>(nvec);
  out.p.ptr = buffer<offset_t>(nvec + 1);
  out.p.colidx = buffer<index_t>(nnz);
  out.values = buffer<T>(nnz);
  for (std::size_t q = 0, o = 0; q <= p.row.size(); ++q) {
    if (q == k && drop_row) continue;
    if (q < p.row.size()) out.p.row[o] = p.row[q];
    out.p.ptr[o++] = p.ptr[q] - (q > k ? 1 : 0);
  }
  for (offset_t q = 0, o = 0; q < p.nnz(); ++q)
    if (q != at) {
      out.p.colidx[o] = p.colidx[q];
      out.values[o++] = h.values[q];
    }
  return out;
}

template <class T>
hyper_matrix<T> resized(const hyper_matrix<T>& h, index_t nrows, index_t ncols) {
  const hyper_pattern& p = h.p;
  std::size_t nvec = 0, nnz = 0;
  for (index_t k = 0; k < p.nvec() && p.row[k] < nrows; ++k) {
    std::size_t n = 0;
    for (offset_t q = p.ptr[k]; q < p.ptr[k + 1]; ++q) n += p.colidx[q] < ncols;
    nvec += n > 0;
    nnz += n;
  }
  hyper_matrix<T> out;
  out.p.nrows = nrows;
  out.p.ncols = ncols;
  out.p.row = buffer<index_t>(nvec);
  out.p.ptr = buffer<offset_t>(nvec + 1);
  out.p.colidx = buffer<index_t>(nnz);
  out.values = buffer<T>(nnz);
  std::size_t o = 0, r = 0;
  for (index_t k = 0; k < p.nvec() && p.row[k] < nrows; ++k) {
    const std::size_t start = o;
    for (offset_t q = p.ptr[k]; q < p.ptr[k + 1]; ++q)
      if (p.colidx[q] < ncols) {
        out.p.colidx[o] = p.colidx[q];
        out.values[o++] = h.values[q];
      }
    if (o > start) {
      out.p.row[r] = p.row[k];
      out.p.ptr[r++] = static_cast<offset_t>(start);
    }
  }
  out.p.ptr[nvec] = static_cast<offset_t>(nnz);
  return out;
}

}  // namespace tgb::detail
