// tgb: the two-level 16x16 tile layout of TileSpGEMM (Niu et al., PPoPP'22),
// host-resident. docs/tile-format.md walks through an example.
//
// Level 1 (tiles, CSR over tile rows):
//   tile_ptr[tile_rows + 1]   first tile of each tile row
//   tile_col[ntiles]          tile column of each non-empty tile, increasing per tile row
//   tile_offset[ntiles + 1]   first entry of each tile (64-bit)
// Level 2 (inside each tile, CSR over its 16 local rows):
//   row_ptr[16 * ntiles]      uint8 start of each local row, relative to the tile
//   row_mask[16 * ntiles]     uint16 bit c set <=> local column c stored in that row
//   col_idx[nnz]              uint8 local column, increasing within a local row
//   values[nnz]
#pragma once

#include <cstdint>

#include "tgb/config.hpp"
#include "tgb/detail/buffer.hpp"
#include "tgb/detail/tile/ref.hpp"

namespace tgb::detail {

using tile::row_bits;

// Below these sizes a loop runs on one thread: a parallel region costs more
// than it saves, and many small regions crawl when cores are oversubscribed.
inline constexpr index_t kParallelRows = 64;     // tile rows
inline constexpr offset_t kParallelTiles = 4096;  // tiles, or rows
// Below this many entries a row kernel (mxv, vxm, reduce over rows) runs on
// one thread, and a conversion between forms needs this many too: a parallel
// region costs tens of microseconds to wake the threads
// (OMP_WAIT_POLICY=passive), as much as one thread's gather over 10^5
// entries (PageRank's pull on a mesh of 1.5 * 10^4 vertices), so each of two
// threads should get 64K (an empty 5,000-row matrix put in rows took two
// parallel regions).
inline constexpr offset_t kParallelEntries = offset_t(1) << 17;

inline index_t tiles_for(index_t n) { return (n + tile_dim - 1) >> tile_shift; }

// Everything but the values: independent of the value type, so the symbolic
// phases are compiled once.
struct tile_pattern {
  index_t nrows = 0;
  index_t ncols = 0;
  buffer<offset_t> tile_ptr{1, offset_t(0)};
  buffer<tile_index_t> tile_col;
  buffer<offset_t> tile_offset{1, offset_t(0)};
  buffer<std::uint8_t> row_ptr;
  buffer<row_bits> row_mask;
  buffer<std::uint8_t> col_idx;

  index_t tile_rows() const { return tiles_for(nrows); }
  index_t tile_cols() const { return tiles_for(ncols); }
  offset_t ntiles() const { return tile_ptr[tile_ptr.size() - 1]; }
  offset_t nnz() const { return tile_offset[tile_offset.size() - 1]; }

  // An empty nrows x ncols pattern (all tile rows empty).
  static tile_pattern empty(index_t nrows, index_t ncols);
};

template <class T>
struct tile_matrix {
  tile_pattern pat;
  buffer<T> values;

  void swap(tile_matrix& o) noexcept {
    std::swap(pat, o.pat);
    values.swap(o.values);
  }
};

// Typed view of tile t, for the per-tile routines.
template <class T>
inline tile::tile_ref_t<T> tile_at(const tile_pattern& p, const T* values, offset_t t) {
  const offset_t e = p.tile_offset[t];
  return tile::tile_ref_t<T>{p.row_ptr.data() + 16 * t, p.row_mask.data() + 16 * t, p.col_idx.data() + e,
                             values + e, static_cast<int>(p.tile_offset[t + 1] - e)};
}
template <class T>
inline tile::tile_ref_t<T> tile_at(const tile_matrix<T>& m, offset_t t) {
  return tile_at(m.pat, m.values.data(), t);
}
// A view of "no tile here" (all bits clear).
template <class T>
inline tile::tile_ref_t<T> no_tile() {
  return tile::tile_ref_t<T>{nullptr, nullptr, nullptr, nullptr, 0};
}

// Position of tile column J in tile row I, or -1.
inline offset_t find_tile(const tile_pattern& p, index_t I, index_t J) {
  offset_t lo = p.tile_ptr[I], hi = p.tile_ptr[I + 1];
  while (lo < hi) {
    offset_t mid = lo + (hi - lo) / 2;
    if (index_t(p.tile_col[mid]) < J) lo = mid + 1;
    else hi = mid;
  }
  return (lo < p.tile_ptr[I + 1] && index_t(p.tile_col[lo]) == J) ? lo : offset_t(-1);
}

// Checks that a dimension is representable; throws invalid_value otherwise.
void check_dimensions(index_t nrows, index_t ncols);

// Builds the pattern from CSR arrays whose rows are sorted by column and free
// of duplicates (callers validate). perm[e] is the CSR position of the e-th
// entry in tile order, so values can be gathered by any type. Columns of 64
// bits, or of a row form's 32 (row_col_t).
tile_pattern pattern_from_sorted_csr(index_t nrows, index_t ncols, const offset_t* rowptr,
                                     const index_t* colidx, buffer<offset_t>& perm);
tile_pattern pattern_from_sorted_csr(index_t nrows, index_t ncols, const offset_t* rowptr,
                                     const std::int32_t* colidx, buffer<offset_t>& perm);

// Fills the level-2 arrays (row_ptr, col_idx) of tiles whose row masks are
// set, given tile_offset. Used by every operation that produces bits first.
void fill_tiles_from_masks(tile_pattern& p);

// CSR export of the pattern: rowptr (nrows+1), colidx, and for each CSR
// position the tile-order entry it came from.
void pattern_to_csr(const tile_pattern& p, buffer<offset_t>& rowptr, buffer<index_t>& colidx,
                    buffer<offset_t>& src);

}  // namespace tgb::detail
