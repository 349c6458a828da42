// tgb: a non-owning view of one 16x16 tile with its values, for the per-tile
// routines (host and device).
#pragma once

#include <cstdint>

#include "tgb/detail/tile/bits.hpp"

namespace tgb::detail::tile {

template <class T>
struct tile_ref_t {
  const std::uint8_t* row_ptr;  // 16 local row starts
  const row_bits* row_mask;     // 16 row bit masks
  const std::uint8_t* col_idx;  // the tile's local columns
  const T* values;              // the tile's values
  int nnz;
  TGB_HD bool present() const { return row_mask != nullptr; }
  TGB_HD row_bits bits(int r) const { return row_mask ? row_mask[r] : row_bits(0); }
  TGB_HD int row_begin(int r) const { return row_ptr[r]; }
  TGB_HD int row_end(int r) const { return r == tile_dim - 1 ? nnz : row_ptr[r + 1]; }
  // Value at (r, c) if stored; `found` says whether it is.
  TGB_HD T at(int r, int c, bool& found) const {
    found = row_mask && ((row_mask[r] >> c) & 1u);
    return found ? values[row_ptr[r] + rank_below(row_mask[r], c)] : T();
  }
};

}  // namespace tgb::detail::tile
