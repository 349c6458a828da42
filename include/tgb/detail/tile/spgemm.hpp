// tgb: per-tile pieces of C = A*B, called by the host loop and the CUDA
// kernels alike. A C tile (I,J) is the sum over K of A(I,K) * B(K,J); these
// routines handle one (A tile, B tile) pair.
#pragma once

#include <type_traits>

#include "tgb/detail/tile/ref.hpp"

namespace tgb::detail::tile {

// Symbolic, one row: C row r gains B's row k for every k stored in A's row r.
// (1,16) A row bits x (16,16) B tile bits -> (1,16) C row bits.
TGB_HD inline row_bits symbolic_row(std::uint32_t a_bits, const row_bits* b_mask) {
  row_bits acc = 0;
  while (a_bits) {
    acc = row_bits(acc | b_mask[lowest_bit(a_bits)]);
    a_bits &= a_bits - 1;
  }
  return acc;
}

// Symbolic: (16,16) A tile bits x (16,16) B tile bits -> OR into C row bits.
TGB_HD inline void symbolic_or(const row_bits* a_mask, const row_bits* b_mask, row_bits* c_mask) {
  for (int r = 0; r < tile_dim; ++r) c_mask[r] = row_bits(c_mask[r] | symbolic_row(a_mask[r], b_mask));
}

// Local row pointers from row bits; returns the tile's entry count.
TGB_HD inline int row_ptr_from_masks(const row_bits* mask, std::uint8_t* row_ptr) {
  int n = 0;
  for (int r = 0; r < tile_dim; ++r) {
    row_ptr[r] = static_cast<std::uint8_t>(n);
    n += popcount16(mask[r]);
  }
  return n;
}

// Local column indices from row bits.
TGB_HD inline void col_idx_from_masks(const row_bits* mask, std::uint8_t* col_idx) {
  int n = 0;
  for (int r = 0; r < tile_dim; ++r) {
    std::uint32_t bits = mask[r];
    while (bits) {
      col_idx[n++] = static_cast<std::uint8_t>(lowest_bit(bits));
      bits &= bits - 1;
    }
  }
}

// Accumulates one product into an accumulator slot. Entries are created on
// first write (no identity start: a single NaN product under min stays NaN,
// as in SuiteSparse); a slot that reached the monoid's terminal value stops
// changing.
template <class Add, class TC>
TGB_HD inline void accumulate(const Add& add, TC& slot, row_bits& written, int j, TC prod) {
  const row_bits bit = row_bits(1u << j);
  if (written & bit) {
    if (!add.is_terminal(slot)) slot = add(slot, prod);
  } else {
    slot = prod;
    written = row_bits(written | bit);
  }
}

// Numeric, one row: accumulates A's row r times B into the slots that
// slot(j) names for C's column j, in increasing k. C's bits (already masked)
// decide which products are kept. (1,16) A row x (16,16) B -> (1,16) C row.
template <class Add, class Mul, class TA, class TB, class Slot>
TGB_HD inline void numeric_row(const Add& add, const Mul& mul, const tile_ref_t<TA>& a, const tile_ref_t<TB>& b,
                               int r, row_bits cm, Slot&& slot, row_bits& written) {
  using TC = std::remove_reference_t<decltype(slot(0))>;
  if (!cm) return;
  for (int p = a.row_begin(r), pe = a.row_end(r); p < pe; ++p) {
    const int k = a.col_idx[p];
    if (!(cm & b.row_mask[k])) continue;
    const TC av = static_cast<TC>(a.values[p]);
    for (int q = b.row_begin(k), qe = b.row_end(k); q < qe; ++q) {
      const int j = b.col_idx[q];
      if (!((cm >> j) & 1u)) continue;
      accumulate(add, slot(j), written, j, mul(av, static_cast<TC>(b.values[q])));
    }
  }
}

// Sparse accumulator: products go straight into C's compressed slots for
// row r (c_row_vals = the row's first slot), found by ranking the column
// among the row's bits.
template <class Add, class Mul, class TC, class TA, class TB>
TGB_HD inline void numeric_sparse_row(const Add& add, const Mul& mul, const tile_ref_t<TA>& a,
                                      const tile_ref_t<TB>& b, int r, row_bits cm, TC* c_row_vals,
                                      row_bits& written) {
  numeric_row(add, mul, a, b, r, cm, [&](int j) -> TC& { return c_row_vals[rank_below(cm, j)]; }, written);
}

// Dense accumulator: a 16-slot array indexed by column, for tiles heavy
// enough that ranking every product costs more than a final compression pass
// (compress_dense_row).
template <class Add, class Mul, class TC, class TA, class TB>
TGB_HD inline void numeric_dense_row(const Add& add, const Mul& mul, const tile_ref_t<TA>& a, const tile_ref_t<TB>& b,
                                     int r, row_bits cm, TC* acc /* (1,16) */, row_bits& written) {
  numeric_row(add, mul, a, b, r, cm, [&](int j) -> TC& { return acc[j]; }, written);
}

// Dense row accumulator -> the row's compressed slots.
template <class TC>
TGB_HD inline void compress_dense_row(row_bits cm, const TC* acc, TC* c_row_vals) {
  int n = 0;
  std::uint32_t bits = cm;
  while (bits) {
    c_row_vals[n++] = acc[lowest_bit(bits)];
    bits &= bits - 1;
  }
}

// Dot product of row ra of tile a and row rb of tile b, where b is a tile of
// op(B)' (its row rb is column rb of op(B)): calls fold(a value, b value) for
// every column k both rows hold, in increasing k, until fold returns true (a
// terminal value); returns whether it stopped there. The dot method's
// per-pair step: the rows' bits find the common columns, their ranks the
// values.
template <class TA, class TB, class F>
TGB_HD inline bool dot_row_pair(const tile_ref_t<TA>& a, int ra, const tile_ref_t<TB>& b, int rb, F&& fold) {
  const std::uint32_t am = a.bits(ra), bm = b.bits(rb);
  std::uint32_t m = am & bm;
  if (!m) return false;
  const TA* av = a.values + a.row_begin(ra);
  const TB* bv = b.values + b.row_begin(rb);
  for (; m; m &= m - 1) {
    const int k = lowest_bit(m);
    if (fold(av[rank_below(row_bits(am), k)], bv[rank_below(row_bits(bm), k)])) return true;
  }
  return false;
}

// Whole-tile forms (the host calls these; a GPU thread calls the row forms).
// (16,16) A x (16,16) B -> (16,16) C, compressed.
template <class Add, class Mul, class TC, class TA, class TB>
TGB_HD inline void numeric_sparse(const Add& add, const Mul& mul, tile_ref_t<TA> a, tile_ref_t<TB> b,
                                  const row_bits* c_mask, const std::uint8_t* c_row_ptr, TC* c_vals,
                                  row_bits* written) {
  for (int r = 0; r < tile_dim; ++r)
    numeric_sparse_row(add, mul, a, b, r, c_mask[r], c_vals + c_row_ptr[r], written[r]);
}

template <class Add, class Mul, class TC, class TA, class TB>
TGB_HD inline void numeric_dense(const Add& add, const Mul& mul, tile_ref_t<TA> a, tile_ref_t<TB> b,
                                 const row_bits* c_mask, TC* acc /* (16,16) row-major */, row_bits* written) {
  for (int r = 0; r < tile_dim; ++r) numeric_dense_row(add, mul, a, b, r, c_mask[r], acc + r * tile_dim, written[r]);
}

// Dense accumulator -> compressed values, in C's bit order.
template <class TC>
TGB_HD inline void compress_dense(const row_bits* c_mask, const TC* acc, TC* c_vals) {
  int n = 0;
  for (int r = 0; r < tile_dim; ++r) {
    std::uint32_t bits = c_mask[r];
    while (bits) {
      c_vals[n++] = acc[r * tile_dim + lowest_bit(bits)];
      bits &= bits - 1;
    }
  }
}

}  // namespace tgb::detail::tile
