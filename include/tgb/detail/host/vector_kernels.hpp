// tgb host backend: matrix-vector products over a semiring.
//   pull (w = A u):  each tile row's 16 rows take dot products with u,
//     reading only A's entries whose column u stores (u's presence is kept
//     as one 16-bit word per block of 16 indices, ANDed with the tile's row
//     bits), only rows the mask admits, stopping a row early once its sum is
//     terminal (lor, any, min over bool ...);
//   push (w = u' A): only the tile rows whose 16 rows u touches are read;
//     the outputs are split by tile column among the threads, so each output
//     is owned by one thread and folded in increasing k whatever the thread
//     count (results are deterministic).
// A matrix in rows (or hypersparse rows) is read as it is stored, through a
// host::row_list: the pull takes rows in chunks, the push splits the output
// columns among the threads (by_column_parts), so each output is folded in
// increasing k there too.
// A transposed operand is never copied: A' u is the push over A and u' A' the
// pull. `matrix_first` orders the multiply's operands: mul(A(i,k), u(k)) for
// mxv, mul(u(k), A(k,j)) for vxm (it matters for first, second, minus ...).
// Values are cast to the output's type TW before the multiply, as mxm does.
#pragma once

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "tgb/detail/host/row_list.hpp"
#include "tgb/detail/host/threads.hpp"
#include "tgb/detail/host/vector_elementwise.hpp"
#include "tgb/detail/tile_storage.hpp"

namespace tgb::detail::host {

// One 16-bit word per block of 16 elements: bit r set <=> element 16B + r is
// stored (or, for a mask, admitted).
template <class F>
buffer<row_bits> block_words(index_t n, const F& has) {
  const index_t nb = tiles_for(n);
  buffer<row_bits> b(static_cast<std::size_t>(nb));
#pragma omp parallel for schedule(static) if (n >= kParallelVectorPass)
  for (index_t B = 0; B < nb; ++B) {
    const int len = static_cast<int>(std::min<index_t>(tile_dim, n - B * tile_dim));
    unsigned bits = 0;
    for (int r = 0; r < len; ++r) bits |= unsigned(has(B * tile_dim + r) ? 1u : 0u) << r;
    b[B] = row_bits(bits);
  }
  return b;
}

template <bool MatrixFirst, class TW, class Semiring>
inline TW multiply(const Semiring& s, TW a, TW x) {
  if constexpr (MatrixFirst) return static_cast<TW>(s.mul(a, x));
  else return static_cast<TW>(s.mul(x, a));
}

// w(i) = add_k mul(A(i,k), u(k)) (or mul(u(k), A(i,k))) for the rows i of A
// that the mask admits; rows with no product get no entry.
template <class TW, bool MatrixFirst, class TA, class TU, class Semiring, class Mask>
vector_bitmap<TW> mxv_pull(const tile_matrix<TA>& A, const vector_bitmap<TU>& u, const Semiring& s,
                           const Mask& mask) {
  const tile_pattern& p = A.pat;
  vector_bitmap<TW> w(p.nrows);
  if (u.nvals == 0 || p.nnz() == 0) return w;
  const buffer<row_bits> ub = block_words(u.n, [&](index_t k) { return u.present[k] != 0; });
  const index_t tm = p.tile_rows();
  index_t count = 0;
#pragma omp parallel for schedule(dynamic, 16) reduction(+ : count) if (tm > kParallelRows)
  for (index_t I = 0; I < tm; ++I) {
    const int nr = static_cast<int>(std::min<index_t>(tile_dim, p.nrows - I * tile_dim));
    TW acc[tile_dim];
    bool has[tile_dim] = {};
    unsigned open = 0;  // rows still taking products: admitted and not yet terminal
    for (int r = 0; r < nr; ++r)
      if (mask(I * tile_dim + r)) open |= 1u << r;
    for (offset_t t = p.tile_ptr[I]; t < p.tile_ptr[I + 1] && open; ++t) {
      const index_t J = p.tile_col[t];
      const unsigned uw = ub[J];
      if (!uw) continue;
      const auto tr = tile_at(A, t);
      for (unsigned rows = open; rows; rows &= rows - 1) {
        const int r = tile::lowest_bit(rows);
        if (!(tr.row_mask[r] & uw)) continue;
        for (int q = tr.row_begin(r), qe = tr.row_end(r); q < qe; ++q) {
          const int c = tr.col_idx[q];
          if (!((uw >> c) & 1u)) continue;
          const TW v = multiply<MatrixFirst>(s, cast<TW>(tr.values[q]),
                                             cast<TW>(u.values[J * tile_dim + c]));
          if (!has[r]) {
            acc[r] = v;
            has[r] = true;
          } else {
            acc[r] = static_cast<TW>(s.add(acc[r], v));
          }
          if (s.add.is_terminal(acc[r])) {
            open &= ~(1u << r);
            break;
          }
        }
      }
    }
    for (int r = 0; r < nr; ++r) {
      w.present[I * tile_dim + r] = has[r];
      if (has[r]) {
        w.values[I * tile_dim + r] = acc[r];
        ++count;
      }
    }
  }
  w.nvals = count;
  return w;
}

// w(j) = add_k mul(u(k), A(k,j)) (or mul(A(k,j), u(k))) for the columns j of
// A that the mask admits.
template <class TW, bool MatrixFirst, class TA, class TU, class Semiring, class Mask>
vector_bitmap<TW> vxm_push(const tile_matrix<TA>& A, const vector_bitmap<TU>& u, const Semiring& s,
                           const Mask& mask) {
  const tile_pattern& p = A.pat;
  vector_bitmap<TW> w(p.ncols);
  if (u.nvals == 0 || p.nnz() == 0) return w;
  const buffer<row_bits> ub = block_words(u.n, [&](index_t k) { return u.present[k] != 0; });
  // The tile rows u touches, increasing.
  std::vector<index_t> active;
  for (index_t I = 0; I < p.tile_rows(); ++I)
    if (ub[I] && p.tile_ptr[I + 1] > p.tile_ptr[I]) active.push_back(I);
  buffer<row_bits> admitted;
  if constexpr (Mask::active) admitted = block_words(p.ncols, mask);
  // Tile-column ranges, a few per thread (dynamic: the work is uneven).
  const index_t tn = p.tile_cols();
  offset_t touched = 0;
  for (index_t I : active) touched += p.tile_ptr[I + 1] - p.tile_ptr[I];
  const int nthreads = touched > kParallelTiles ? max_threads() : 1;
  const index_t nparts = std::min<index_t>(tn, index_t(nthreads) * 8);
  index_t count = 0;
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : count) if (nparts > 1)
  for (index_t part = 0; part < nparts; ++part) {
    const index_t J0 = tn * part / nparts, J1 = tn * (part + 1) / nparts;
    for (index_t I : active) {
      const tile_index_t* cols = p.tile_col.data();
      const offset_t t0 = std::lower_bound(cols + p.tile_ptr[I], cols + p.tile_ptr[I + 1], tile_index_t(J0)) - cols;
      const unsigned rows_of_u = ub[I];
      for (offset_t t = t0; t < p.tile_ptr[I + 1] && index_t(cols[t]) < J1; ++t) {
        const index_t J = cols[t];
        unsigned allow = 0xFFFFu;
        if constexpr (Mask::active) allow = admitted[J];
        if (!allow) continue;
        const auto tr = tile_at(A, t);
        TW* wv = w.values.data() + J * tile_dim;
        std::uint8_t* wp = w.present.data() + J * tile_dim;
        for (unsigned rows = rows_of_u; rows; rows &= rows - 1) {
          const int r = tile::lowest_bit(rows);
          if (!(tr.row_mask[r] & allow)) continue;
          const TW x = cast<TW>(u.values[I * tile_dim + r]);
          for (int q = tr.row_begin(r), qe = tr.row_end(r); q < qe; ++q) {
            const int c = tr.col_idx[q];
            if (!((allow >> c) & 1u)) continue;
            if (wp[c]) {
              if (s.add.is_terminal(wv[c])) continue;
              wv[c] = static_cast<TW>(s.add(wv[c], multiply<MatrixFirst>(s, cast<TW>(tr.values[q]), x)));
            } else {
              wv[c] = multiply<MatrixFirst>(s, cast<TW>(tr.values[q]), x);
              wp[c] = 1;
              ++count;
            }
          }
        }
      }
    }
  }
  w.nvals = count;
  return w;
}

// ---- rows (host::row_list) -----------------------------------------------------

// Monoids whose sum can never be terminal in TW: a row's fold may then run
// in several independent partial sums (lanes) instead of one chain, each a
// latency-bound add per entry. The lanes are fixed per row (entry q goes to
// lane q mod 4 of the row's first 4 * (len / 4) entries), so the result does
// not depend on the thread count; a floating-point sum is rounded in that
// order, not left to right (GraphBLAS leaves a monoid's order open;
// SuiteSparse's vectorized kernels reassociate too).
template <class Monoid, class TW>
inline constexpr bool lane_fold_v =
    (std::is_same_v<Monoid, plus_monoid> && !is_bool_v<TW>) ||
    (std::is_same_v<Monoid, times_monoid> && std::is_floating_point_v<TW>);

// The fold of mul over a row's entries [q, qe), q < qe, every column stored.
template <class TW, bool MatrixFirst, class Col, class TA, class TU, class Semiring>
inline TW fold_full_row(const Semiring& s, const Col* col, const TA* val, const TU* uv, offset_t q, offset_t qe) {
  auto v = [&](offset_t e) { return multiply<MatrixFirst>(s, cast<TW>(val[e]), cast<TW>(uv[col[e]])); };
  TW acc;
  if constexpr (lane_fold_v<std::decay_t<decltype(s.add)>, TW>) {
    if (qe - q >= 8) {
      TW l0 = v(q), l1 = v(q + 1), l2 = v(q + 2), l3 = v(q + 3);
      for (q += 4; q + 4 <= qe; q += 4) {
        l0 = static_cast<TW>(s.add(l0, v(q)));
        l1 = static_cast<TW>(s.add(l1, v(q + 1)));
        l2 = static_cast<TW>(s.add(l2, v(q + 2)));
        l3 = static_cast<TW>(s.add(l3, v(q + 3)));
      }
      acc = static_cast<TW>(s.add(static_cast<TW>(s.add(l0, l1)), static_cast<TW>(s.add(l2, l3))));
    } else {
      acc = v(q++);
    }
    for (; q < qe; ++q) acc = static_cast<TW>(s.add(acc, v(q)));
  } else {
    acc = v(q);
    for (++q; q < qe && !s.add.is_terminal(acc); ++q) acc = static_cast<TW>(s.add(acc, v(q)));
  }
  return acc;
}

template <class TW, bool MatrixFirst, bool Full, class Col, class TA, class TU, class Semiring, class Mask>
vector_bitmap<TW> mxv_pull_rows(const row_list<Col, TA>& A, const vector_bitmap<TU>& u, const Semiring& s,
                                const Mask& mask, vector_bitmap<TW>&& w) {
  index_t count = 0;
  // Each thread keeps its own copies of the pointers (in registers: a store
  // through w's presence bytes may alias anything reached through memory).
#pragma omp parallel reduction(+ : count) if (A.entries() > kParallelEntries)
  {
    const row_list<Col, TA> a = A;
    const TU* const uv = u.values.data();
    const std::uint8_t* const up = u.present.data();
    TW* const wv = w.values.data();
    std::uint8_t* const wp = w.present.data();
    const Mask m = mask;
#pragma omp for schedule(dynamic, 256)
    for (index_t k = 0; k < a.nvec; ++k) {
      const index_t i = a.id(k);
      if (!m(i)) continue;
      if constexpr (Full) {
        // Every column stored: the row's fold, no presence test.
        const offset_t q = a.ptr[k], qe = a.ptr[k + 1];
        if (q == qe) continue;
        wv[i] = fold_full_row<TW, MatrixFirst>(s, a.col, a.val, uv, q, qe);
        wp[i] = 1;
        ++count;
        continue;
      }
      TW acc{};
      bool has = false;
      for (offset_t q = a.ptr[k], qe = a.ptr[k + 1]; q < qe; ++q) {
        const index_t c = static_cast<index_t>(a.col[q]);
        if (!up[c]) continue;
        const TW v = multiply<MatrixFirst>(s, cast<TW>(a.val[q]), cast<TW>(uv[c]));
        acc = has ? static_cast<TW>(s.add(acc, v)) : v;
        has = true;
        if (s.add.is_terminal(acc)) break;
      }
      if (has) {
        wv[i] = acc;
        wp[i] = 1;
        ++count;
      }
    }
  }
  w.nvals = count;
  return std::move(w);
}

template <class TW, bool MatrixFirst, class Col, class TA, class TU, class Semiring, class Mask>
vector_bitmap<TW> mxv_pull(const row_list<Col, TA>& A, const vector_bitmap<TU>& u, const Semiring& s,
                           const Mask& mask) {
  vector_bitmap<TW> w(A.nrows);
  if (u.nvals == 0 || A.entries() == 0) return w;
  // A full u (PageRank's) skips the presence test.
  return u.nvals == u.n ? mxv_pull_rows<TW, MatrixFirst, true>(A, u, s, mask, std::move(w))
                        : mxv_pull_rows<TW, MatrixFirst, false>(A, u, s, mask, std::move(w));
}

template <class TW, bool MatrixFirst, class Col, class TA, class TU, class Semiring, class Mask>
vector_bitmap<TW> vxm_push(const row_list<Col, TA>& A, const vector_bitmap<TU>& u, const Semiring& s,
                           const Mask& mask) {
  vector_bitmap<TW> w(A.ncols);
  if (u.nvals == 0 || A.entries() == 0) return w;
  // The stored rows u touches, increasing, and their entries.
  std::vector<index_t> active;
  offset_t touched = 0;
  auto take = [&](index_t k) {
    if (u.present[A.id(k)] && A.ptr[k + 1] > A.ptr[k]) {
      active.push_back(k);
      touched += A.ptr[k + 1] - A.ptr[k];
    }
  };
  if (A.ids) {
    for (index_t k = 0; k < A.nvec; ++k) take(k);
  } else {
    // Row k is row k: 8 rows u does not touch are skipped a word at a time.
    const index_t words = A.nvec / 8;
    for (index_t q = 0; q < words; ++q) {
      std::uint64_t word;
      std::memcpy(&word, u.present.data() + 8 * q, 8);
      if (word)
        for (index_t k = 8 * q; k < 8 * q + 8; ++k) take(k);
    }
    for (index_t k = 8 * words; k < A.nvec; ++k) take(k);
  }
  // The column split searches every active row once per part: worth it only
  // where rows are long enough to pay for the searches.
  const bool parallel = touched > kParallelEntries && touched >= 16 * offset_t(active.size());
  by_column_parts(A, active, parallel, [&](index_t k, offset_t first, offset_t last) {
    const TW x = cast<TW>(u.values[A.id(k)]);
    for (offset_t e = first; e < last; ++e) {
      const index_t j = static_cast<index_t>(A.col[e]);
      if (!mask(j)) continue;
      if (w.present[j]) {
        if (s.add.is_terminal(w.values[j])) continue;
        w.values[j] = static_cast<TW>(s.add(w.values[j], multiply<MatrixFirst>(s, cast<TW>(A.val[e]), x)));
      } else {
        w.values[j] = multiply<MatrixFirst>(s, cast<TW>(A.val[e]), x);
        w.present[j] = 1;
      }
    }
  });
  w.recount();
  return w;
}

}  // namespace tgb::detail::host
