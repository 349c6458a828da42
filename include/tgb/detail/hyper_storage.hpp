// tgb: the hypersparse form of a matrix (GraphBLAS's hypersparse CSR): only
// the rows that hold entries are listed, so memory follows the entries, not
// the dimension. docs/tile-format.md, "Hypersparse rows".
//
//   row[nvec]        the non-empty rows, increasing
//   ptr[nvec + 1]    first entry of each listed row
//   colidx[nnz]      column of each entry, increasing within a row
//   values[nnz]
//
// A host form only: operations read a hypersparse matrix through a tile copy
// made for the operation (detail::tile_view), as they read the row form; a
// move to the device stores it in tiles there. The storage rule
// (detail::choose_form) keeps a matrix so when at most one row in 16 has an
// entry, it has kHyperMinRows rows or more, and the form is the smallest.
#pragma once

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
// hypersparse rows; to and from tiles, perm/src map the entries).
hyper_pattern hyper_of_pattern(csr_pattern&& p);
csr_pattern rows_of_pattern(hyper_pattern&& h);
// src[e]: the tile-order position of hypersparse entry e.
hyper_pattern hyper_of_tiles(const tile_pattern& p, buffer<offset_t>& src);
// perm[e]: the hypersparse position of the e-th entry in tile order.
tile_pattern pattern_from_hyper(const hyper_pattern& h, buffer<offset_t>& perm);

template <class T>
hyper_matrix<T> hyper_of(csr_matrix<T>&& r) {
  hyper_matrix<T> h;
  h.p = hyper_of_pattern(std::move(r.p));
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

}  // namespace tgb::detail
