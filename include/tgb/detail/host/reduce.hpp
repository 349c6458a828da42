// tgb host backend: reductions. Entries are combined in increasing column
// order, starting from the first stored entry (no identity start), so an
// empty row yields no entry and any/first-style monoids are deterministic.
#pragma once

#include <algorithm>
#include <vector>

#include "tgb/detail/host/row_list.hpp"
#include "tgb/detail/tile_storage.hpp"
#include "tgb/vector.hpp"

namespace tgb::detail::host {

// w(i) = fold of row i of A, for rows with at least one entry.
template <class TW, class TA, class Monoid>
void reduce_rows(const tile_matrix<TA>& A, const Monoid& m, TW* vals, std::uint8_t* present) {
  const tile_pattern& p = A.pat;
  const index_t tm = p.tile_rows();
#pragma omp parallel for schedule(dynamic, 16) if (tm > kParallelRows)
  for (index_t I = 0; I < tm; ++I) {
    TW acc[tile_dim];
    bool has[tile_dim] = {};
    for (offset_t t = p.tile_ptr[I]; t < p.tile_ptr[I + 1]; ++t) {
      const auto tr = tile_at(A, t);
      for (int r = 0; r < tile_dim; ++r)
        for (int q = tr.row_begin(r); q < tr.row_end(r); ++q) {
          const TW v = static_cast<TW>(tr.values[q]);
          if (!has[r]) {
            acc[r] = v;
            has[r] = true;
          } else if (!m.is_terminal(acc[r])) {
            acc[r] = m(acc[r], v);
          }
        }
    }
    const int nr = static_cast<int>(std::min<index_t>(tile_dim, p.nrows - I * tile_dim));
    for (int r = 0; r < nr; ++r) {
      present[I * tile_dim + r] = has[r];
      if (has[r]) vals[I * tile_dim + r] = acc[r];
    }
  }
}

// w(i) = the number of entries of row i, for rows with at least one
// (the row masks' bits: no values read).
template <class TW, class TA>
void count_rows(const tile_matrix<TA>& A, TW* vals, std::uint8_t* present) {
  const tile_pattern& p = A.pat;
  const index_t tm = p.tile_rows();
#pragma omp parallel for schedule(dynamic, 64) if (tm > kParallelRows)
  for (index_t I = 0; I < tm; ++I) {
    offset_t n[tile_dim] = {};
    for (offset_t t = p.tile_ptr[I]; t < p.tile_ptr[I + 1]; ++t)
      for (int r = 0; r < tile_dim; ++r) n[r] += tile::popcount16(p.row_mask[tile_dim * t + r]);
    const int nr = static_cast<int>(std::min<index_t>(tile_dim, p.nrows - I * tile_dim));
    for (int r = 0; r < nr; ++r) {
      present[I * tile_dim + r] = n[r] > 0;
      if (n[r]) vals[I * tile_dim + r] = static_cast<TW>(n[r]);
    }
  }
}

// Fold of n values in storage order; `has` false when there are none.
template <class TS, class TA, class Monoid>
TS reduce_values(const TA* values, std::size_t n, const Monoid& m, bool& has) {
  has = n > 0;
  if (!has) return m.template identity<TS>();
  // Fixed-size chunks combined in order keep the result independent of the
  // thread count.
  const std::size_t chunk = 1 << 16;
  const std::size_t nchunks = (n + chunk - 1) / chunk;
  buffer<TS> part(nchunks);
#pragma omp parallel for schedule(dynamic, 1) if (nchunks > 1)
  for (std::size_t c = 0; c < nchunks; ++c) {
    const std::size_t b = c * chunk, e = std::min(n, b + chunk);
    TS acc = static_cast<TS>(values[b]);
    for (std::size_t k = b + 1; k < e && !m.is_terminal(acc); ++k) acc = m(acc, static_cast<TS>(values[k]));
    part[c] = acc;
  }
  TS acc = part[0];
  for (std::size_t c = 1; c < nchunks && !m.is_terminal(acc); ++c) acc = m(acc, part[c]);
  return acc;
}

// Fold of every entry of A (tiles: in tile order); `has` false when A is empty.
template <class TS, class TA, class Monoid>
TS reduce_all(const tile_matrix<TA>& A, const Monoid& m, bool& has) {
  return reduce_values<TS>(A.values.data(), A.values.size(), m, has);
}

// The row form and hypersparse rows, read in place. present[] starts zeroed.
// w(i) = fold of row i.
template <class TW, class Col, class TA, class Monoid>
void reduce_rows(const row_list<Col, TA>& A, const Monoid& m, TW* vals, std::uint8_t* present) {
#pragma omp parallel for schedule(dynamic, 256) if (A.entries() > kParallelEntries)
  for (index_t k = 0; k < A.nvec; ++k) {
    offset_t q = A.ptr[k];
    const offset_t qe = A.ptr[k + 1];
    if (q == qe) continue;
    TW acc = static_cast<TW>(A.val[q]);
    for (++q; q < qe && !m.is_terminal(acc); ++q) acc = m(acc, static_cast<TW>(A.val[q]));
    vals[A.id(k)] = acc;
    present[A.id(k)] = 1;
  }
}
// w(i) = the number of entries of row i, for rows with at least one.
template <class TW, class Col, class TA>
void count_rows(const row_list<Col, TA>& A, TW* vals, std::uint8_t* present) {
  for (index_t k = 0; k < A.nvec; ++k)
    if (A.ptr[k + 1] > A.ptr[k]) {
      vals[A.id(k)] = static_cast<TW>(A.ptr[k + 1] - A.ptr[k]);
      present[A.id(k)] = 1;
    }
}

// w(j) = fold of column j, entries in increasing row order.
template <class TW, class Col, class TA, class Monoid>
void reduce_cols(const row_list<Col, TA>& A, const Monoid& m, TW* vals, std::uint8_t* present) {
  std::vector<index_t> all(static_cast<std::size_t>(A.nvec));
  for (index_t k = 0; k < A.nvec; ++k) all[k] = k;
  const bool parallel = A.entries() > kParallelEntries && A.entries() >= 16 * A.nvec;  // as vxm_push
  by_column_parts(A, all, parallel, [&](index_t, offset_t first, offset_t last) {
    for (offset_t e = first; e < last; ++e) {
      const index_t j = static_cast<index_t>(A.col[e]);
      const TW v = static_cast<TW>(A.val[e]);
      if (!present[j]) {
        vals[j] = v;
        present[j] = 1;
      } else if (!m.is_terminal(vals[j])) {
        vals[j] = m(vals[j], v);
      }
    }
  });
}

}  // namespace tgb::detail::host
