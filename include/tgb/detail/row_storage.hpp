// tgb: the row form of a matrix (CSR over scalar rows), the form for the
// hypersparse matrices on which 16x16 tiles cost more than they hold, and the
// one rule that picks a matrix's form. docs/tile-format.md, "Two forms".
//
//   rowptr[nrows + 1]   first entry of each row
//   colidx[nnz]         column of each entry, increasing within a row (32 bits:
//                       a row form has at most kRowMaxCols columns, rows_fit)
//   values[nnz]
//
// A matrix is stored in one form at a time, on the host or on the device.
// Operations that work on tiles read a row-form matrix through a tile copy
// made for the operation (detail::tile_view, detail::device_tile_view); the
// row methods of mxm (row saxpy, row dot), the exports and, on the host,
// mxv/vxm, the reductions and the unmasked transpose, apply, select and
// element-wise operations read the rows themselves (host/row_list.hpp). On the device, rows have the same 32-bit columns
// (device_row_matrix), so a move between host and device copies them as they are.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "tgb/config.hpp"
#include "tgb/detail/buffer.hpp"
#include "tgb/detail/host/threads.hpp"
#include "tgb/detail/tile_storage.hpp"
#include "tgb/error.hpp"

namespace tgb {

// The form a matrix is stored in: tiles, rows (CSR), or hypersparse rows
// (only the non-empty rows listed; host only).
enum class storage_form { tiles, rows, hyper };
// What a matrix's owner asks for (Matrix::set_storage): the rule's choice, or
// one form always (GxB_SPARSITY_CONTROL's counterpart). The choice sticks to
// the matrix: every operation that writes it honours it (on the device,
// hyper means tiles).
enum class storage_control { automatic, tiles, rows, hyper };

inline const char* storage_form_name(storage_form f) {
  return f == storage_form::rows ? "rows" : f == storage_form::hyper ? "hyper" : "tiles";
}

namespace detail {

// A row form's column index: 32 bits, as CSR's in cuSPARSE, so an entry costs
// 4 bytes of index (hypersparse rows keep 64-bit columns: they serve any
// dimension). A matrix, or an operation's view of one, is in rows only where
// its columns fit (rows_fit); wider ones stay in tiles or hypersparse rows.
using row_col_t = std::int32_t;
inline constexpr index_t kRowMaxCols = index_t(std::numeric_limits<row_col_t>::max()) - 1;
inline bool rows_fit(index_t ncols) { return ncols <= kRowMaxCols; }
// Refuses a row form or view of ncols columns that do not fit (the callers'
// choices avoid them; an operation that has no other way reports it).
inline void check_rows_fit(index_t ncols) {
  if (!rows_fit(ncols))
    throw invalid_value("tgb: this operation works on rows of at most " + std::to_string(kRowMaxCols) +
                        " columns; the matrix has " + std::to_string(ncols));
}

// Scalar CSR of a pattern (or of its transpose): rows sorted by column; src[e]
// is the tile-order position of entry e when asked for (empty otherwise, and
// always empty in a stored row form).
struct csr_pattern {
  index_t nrows = 0, ncols = 0;
  buffer<offset_t> rowptr;
  buffer<row_col_t> colidx;
  buffer<offset_t> src;
  offset_t nnz() const { return rowptr.size() ? rowptr[static_cast<std::size_t>(nrows)] : 0; }
  offset_t row_len(index_t i) const { return rowptr[i + 1] - rowptr[i]; }

  // An nrows x ncols pattern with no entries.
  static csr_pattern empty(index_t nrows, index_t ncols) {
    csr_pattern p;
    p.nrows = nrows;
    p.ncols = ncols;
    p.rowptr = buffer<offset_t>(static_cast<std::size_t>(nrows) + 1, offset_t(0));
    return p;
  }
};

// A matrix in row form (also the row paths' view of a tile matrix).
template <class T>
struct csr_matrix {
  csr_pattern p;
  buffer<T> values;
};

// out[e] = src[idx[e]], cast to T.
template <class T, class Src>
buffer<T> gather_values(const buffer<offset_t>& idx, const Src& src) {
  buffer<T> out(idx.size());
  const std::size_t n = idx.size();
#pragma omp parallel for schedule(static) if (n > 65536)
  for (std::size_t e = 0; e < n; ++e) out[e] = static_cast<T>(src[idx[e]]);
  return out;
}

// The first n elements of b, in a buffer of their own.
template <class T>
buffer<T> prefix_copy(const buffer<T>& b, std::size_t n) {
  buffer<T> out(n);
  for (std::size_t k = 0; k < n; ++k) out[k] = b[k];
  return out;
}

// Bytes of each form: every array, as stored.
inline double tile_form_bytes(index_t nrows, offset_t ntiles, offset_t nnz, std::size_t value_bytes) {
  return double(sizeof(offset_t)) * double(tiles_for(nrows) + 1) +
         double(ntiles) * double(sizeof(tile_index_t) + sizeof(offset_t) + tile_dim + tile_dim * sizeof(row_bits)) +
         double(sizeof(offset_t)) + double(nnz) * double(1 + value_bytes);
}
inline double row_form_bytes(index_t nrows, offset_t nnz, std::size_t value_bytes) {
  return double(sizeof(offset_t)) * double(nrows + 1) + double(nnz) * double(sizeof(row_col_t) + value_bytes);
}

// nvec: the non-empty rows.
inline double hyper_form_bytes(index_t nvec, offset_t nnz, std::size_t value_bytes) {
  return double(sizeof(index_t) + sizeof(offset_t)) * double(nvec) + double(sizeof(offset_t)) +
         double(nnz) * double(sizeof(index_t) + value_bytes);
}

// Hypersparse rows need this many rows (below, a pointer per row costs
// little) and at most one row in kHyperRatio with an entry (GraphBLAS's
// default hyper_switch, 1/16): then a tile copy made for an operation
// costs no more than the hypersparse form itself (8 bytes per 16 rows).
inline constexpr index_t kHyperMinRows = index_t(1) << 16;
inline constexpr index_t kHyperRatio = 16;
// Whether rows with at most nvec non-empty are few enough for the hyper form.
inline bool hyper_rows(index_t nrows, index_t nvec) {
  return nrows >= kHyperMinRows && nvec >= 0 && nvec <= nrows / kHyperRatio;
}

// THE storage rule, used wherever a matrix is stored (construction, reading,
// conversion, every operation's output, a move between host and device): the
// owner's control where it names a form; otherwise the smallest form, tiles
// on a tie, and hypersparse rows only on the host where hyper_rows holds
// (nvec: the non-empty rows, -1 where unknown). Rows only where the columns
// fit 32 bits (rows_fit; past that, tiles, whatever the control). A move
// between host and device keeps the form (hypersparse rows go as tiles).
inline storage_form choose_form(storage_control control, backend where, index_t nrows, index_t ncols, offset_t ntiles,
                                offset_t nnz, std::size_t value_bytes, index_t nvec = -1) {
  if (control == storage_control::rows) return rows_fit(ncols) ? storage_form::rows : storage_form::tiles;
  if (control == storage_control::tiles) return storage_form::tiles;
  if (control == storage_control::hyper) return where == backend::host ? storage_form::hyper : storage_form::tiles;
  const double rb = row_form_bytes(nrows, nnz, value_bytes), tb = tile_form_bytes(nrows, ntiles, nnz, value_bytes);
  if (where == backend::host && hyper_rows(nrows, nvec) && hyper_form_bytes(nvec, nnz, value_bytes) < std::min(rb, tb))
    return storage_form::hyper;
  return rb < tb && rows_fit(ncols) ? storage_form::rows : storage_form::tiles;
}

// Non-empty 16x16 tiles of a CSR pattern with sorted rows: the rule's input
// for a matrix built or computed in row form.
offset_t count_tiles(const csr_pattern& p);

// The CSR of a tile pattern, or of its transpose (src: see csr_pattern); the
// result's columns must fit (rows_fit: throws invalid_value otherwise, which
// the callers' choices never let happen).
csr_pattern csr_of_pattern(const tile_pattern& p, bool transpose, bool want_src);
// The transpose of a row form's pattern; src[e] = the entry of `a` at e.
csr_pattern transpose_rows(const csr_pattern& a, bool want_src);

// A tile matrix (or its transpose) as rows; without values for a product
// that reads none (plus_pair).
template <class T>
csr_matrix<T> csr_of(const tile_matrix<T>& m, bool transpose, bool with_values = true) {
  csr_matrix<T> c;
  c.p = csr_of_pattern(m.pat, transpose, with_values);
  if (!with_values) return c;
  const offset_t nz = c.p.nnz();
  c.values = buffer<T>(static_cast<std::size_t>(nz));
  const offset_t* src = c.p.src.data();
  const T* v = m.values.data();
  T* out = c.values.data();
#pragma omp parallel for schedule(static) if (nz > 65536)
  for (offset_t e = 0; e < nz; ++e) out[e] = v[src[e]];
  c.p.src = buffer<offset_t>();
  return c;
}

// transpose_pattern's counting sort over nb blocks of rows (block b: rows
// first[b] to first[b + 1]), counts of type C. Every bound is read into a
// local first: the counts are stores the compiler cannot tell apart from
// the row pointers, which it would otherwise reload at every entry.
template <class C, class Place>
void transpose_by_blocks(const csr_pattern& a, csr_pattern& t, const Place& place, index_t nb, const index_t* first) {
  const index_t nc = a.ncols;
  buffer<C> count(static_cast<std::size_t>(nb * nc), C(0));
  const offset_t* const rp = a.rowptr.data();
  const row_col_t* const ci = a.colidx.data();
#pragma omp parallel for schedule(static, 1) if (nb > 1)
  for (index_t b = 0; b < nb; ++b) {
    C* const c = count.data() + b * nc;
    const offset_t e0 = rp[first[b]], e1 = rp[first[b + 1]];
    for (offset_t e = e0; e < e1; ++e) ++c[ci[e]];
  }
  offset_t* const tp = t.rowptr.data();
  C* const cnt = count.data();
  offset_t at = 0;
  for (index_t j = 0; j < nc; ++j) {
    for (index_t b = 0; b < nb; ++b) {
      const C k = cnt[b * nc + j];
      cnt[b * nc + j] = static_cast<C>(at);
      at += k;
    }
    tp[j + 1] = at;
  }
  row_col_t* const tc = t.colidx.data();
#pragma omp parallel for schedule(static, 1) if (nb > 1)
  for (index_t b = 0; b < nb; ++b) {
    C* const next = count.data() + b * nc;
    const index_t i0 = first[b], i1 = first[b + 1];
    offset_t e = rp[i0];
    for (index_t i = i0; i < i1; ++i) {
      const offset_t e1 = rp[i + 1];
      for (; e < e1; ++e) {
        const offset_t q = static_cast<offset_t>(next[ci[e]]++);
        tc[q] = static_cast<row_col_t>(i);
        place(q, e);
      }
    }
  }
}

// A row pattern's transpose into t (t's rows and columns; place(q, e) puts
// whatever travels with entry e, its value or its position, at position q of
// the transpose): a counting sort by column, in parallel over blocks of rows
// (each block its own counts per column, blocks in row order, so every row
// of the transpose lists its columns increasing, whatever the thread count).
template <class Place>
void transpose_pattern(const csr_pattern& a, csr_pattern& t, const Place& place) {
  check_rows_fit(a.nrows);
  const index_t nr = a.nrows, nc = a.ncols;
  const offset_t nz = a.nnz();
  t.nrows = nc;
  t.ncols = nr;
  t.rowptr = buffer<offset_t>(static_cast<std::size_t>(nc) + 1, offset_t(0));
  t.colidx = buffer<row_col_t>(static_cast<std::size_t>(nz));
  // Blocks only where the per-block counts (nc each) stay below the entries,
  // and where the transpose's rows are long: each block writes its own run
  // of every row of t, so a block boundary falls inside every row, and rows
  // shorter than a few cache lines had the threads writing the same lines
  // (4elt, 11.6 entries a row: 640 us on two threads against 400 on one).
  // From 512K entries the scatter itself outweighs those shared lines
  // whatever the row lengths (rmat16, 954k entries, 14.6 a row: 3.9 ms on
  // one thread, 1.5-1.8 on two).
  const offset_t per_col = nz / std::max<index_t>(nc, 1);
  const bool blocks = nz > 65536 && (per_col >= 32 || nz >= (offset_t(1) << 19));
  const index_t nb = blocks ? std::max<index_t>(1, std::min<index_t>(host::max_threads(), per_col)) : 1;
  buffer<index_t> first(static_cast<std::size_t>(nb) + 1);  // block b: rows first[b] to first[b + 1]
  for (index_t b = 0; b <= nb; ++b)
    first[b] = b == nb ? nr
                       : static_cast<index_t>(std::upper_bound(a.rowptr.data(), a.rowptr.data() + nr + 1, nz * b / nb) -
                                              a.rowptr.data()) - 1;
  first[0] = 0;
  // Counts and positions are 32-bit where the entries allow (half the
  // cache footprint of the per-column arrays).
  if (nz < (offset_t(1) << 31)) transpose_by_blocks<std::uint32_t>(a, t, place, nb, first.data());
  else transpose_by_blocks<offset_t>(a, t, place, nb, first.data());
}

// A row form's transpose, with its values unless with_values is false.
template <class T>
csr_matrix<T> transpose_csr(const csr_matrix<T>& m, bool with_values = true) {
  csr_matrix<T> t;
  if (with_values) t.values = buffer<T>(static_cast<std::size_t>(m.p.nnz()));
  T* const tv = t.values.data();
  const T* const mv = m.values.data();
  if (with_values) transpose_pattern(m.p, t.p, [tv, mv](offset_t q, offset_t e) { tv[q] = mv[e]; });
  else transpose_pattern(m.p, t.p, [](offset_t, offset_t) {});
  return t;
}

// The tile form of a row form.
template <class T>
tile_matrix<T> tiles_of(const csr_matrix<T>& r) {
  tile_matrix<T> t;
  buffer<offset_t> perm;
  t.pat = pattern_from_sorted_csr(r.p.nrows, r.p.ncols, r.p.rowptr.data(), r.p.colidx.data(), perm);
  t.values = gather_values<T>(perm, r.values);
  return t;
}

}  // namespace detail
}  // namespace tgb
