// tgb: per-tile pieces of C = A*B, called by the host loop and the CUDA
// kernels alike. A C tile (I,J) is the sum over K of A(I,K) * B(K,J); these
// routines handle one (A tile, B tile) pair.
#pragma once

#include "tgb/detail/tile/ref.hpp"

namespace tgb::detail::tile {

// Symbolic: (16,16) A tile bits x (16,16) B tile bits -> OR into C row bits.
// C row r gains B's row k for every k stored in A's row r.
TGB_HD inline void symbolic_or(const row_bits* a_mask, const row_bits* b_mask, row_bits* c_mask) {
  for (int r = 0; r < tile_dim; ++r) {
    std::uint32_t bits = a_mask[r];
    row_bits acc = c_mask[r];
    while (bits) {
      acc |= b_mask[lowest_bit(bits)];
      bits &= bits - 1;
    }
    c_mask[r] = acc;
  }
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

// Numeric, sparse accumulator: products go straight into C's compressed
// slots, found by ranking the column among the row's bits. C's bits (already
// masked) decide which products are kept.
// (16,16) A x (16,16) B -> (16,16) C, compressed.
template <class Add, class Mul, class TC, class TA, class TB>
TGB_HD inline void numeric_sparse(const Add& add, const Mul& mul, tile_ref_t<TA> a, tile_ref_t<TB> b,
                                  const row_bits* c_mask, const std::uint8_t* c_row_ptr, TC* c_vals,
                                  row_bits* written) {
  for (int r = 0; r < tile_dim; ++r) {
    const row_bits cm = c_mask[r];
    if (!cm) continue;
    for (int p = a.row_begin(r), pe = a.row_end(r); p < pe; ++p) {
      const int k = a.col_idx[p];
      if (!(cm & b.row_mask[k])) continue;
      const TC av = static_cast<TC>(a.values[p]);
      for (int q = b.row_begin(k), qe = b.row_end(k); q < qe; ++q) {
        const int j = b.col_idx[q];
        if (!((cm >> j) & 1u)) continue;
        const int slot = c_row_ptr[r] + rank_below(cm, j);
        accumulate(add, c_vals[slot], written[r], j, mul(av, static_cast<TC>(b.values[q])));
      }
    }
  }
}

// Numeric, dense accumulator: a 16x16 array indexed by (row, column), for
// tiles heavy enough that ranking every product costs more than a final
// compression pass (see compress_dense).
template <class Add, class Mul, class TC, class TA, class TB>
TGB_HD inline void numeric_dense(const Add& add, const Mul& mul, tile_ref_t<TA> a, tile_ref_t<TB> b,
                                 const row_bits* c_mask, TC* acc /* (16,16) row-major */,
                                 row_bits* written) {
  for (int r = 0; r < tile_dim; ++r) {
    const row_bits cm = c_mask[r];
    if (!cm) continue;
    for (int p = a.row_begin(r), pe = a.row_end(r); p < pe; ++p) {
      const int k = a.col_idx[p];
      if (!(cm & b.row_mask[k])) continue;
      const TC av = static_cast<TC>(a.values[p]);
      for (int q = b.row_begin(k), qe = b.row_end(k); q < qe; ++q) {
        const int j = b.col_idx[q];
        if (!((cm >> j) & 1u)) continue;
        accumulate(add, acc[r * tile_dim + j], written[r], j, mul(av, static_cast<TC>(b.values[q])));
      }
    }
  }
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
