// tgb host backend: a mask reduced to what the tile pipeline needs, the bits
// that let a write through for each tile of M (value masks drop zero
// entries), plus the complement flag.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "tgb/detail/tile_storage.hpp"
#include "tgb/mask.hpp"

namespace tgb::detail::host {

struct host_mask {
  bool active = false;
  bool complement = false;
  const tile_pattern* pat = nullptr;
  const row_bits* bits = nullptr;
  buffer<row_bits> owned;

  // Bits of tile (I,J) where a write may land.
  void allowed(index_t I, index_t J, row_bits* out) const {
    if (!active) {
      for (int r = 0; r < tile_dim; ++r) out[r] = 0xFFFF;
      return;
    }
    const offset_t t = find_tile(*pat, I, J);
    for (int r = 0; r < tile_dim; ++r) {
      const row_bits m = t >= 0 ? bits[16 * t + r] : row_bits(0);
      out[r] = complement ? row_bits(~m) : m;
    }
  }
  // True when no position of tile (I,J) can be written: the tile-structure
  // pruning of step 1.
  bool prunes(index_t I, index_t J) const;
};

void check_mask_shape(index_t mr, index_t mc, index_t nrows, index_t ncols);

inline host_mask make_mask(no_mask_t, index_t, index_t) { return host_mask{}; }

template <class T>
host_mask make_mask(const mask_view<Matrix<T>>& v, index_t nrows, index_t ncols) {
  const Matrix<T>& m = *v.object;
  check_mask_shape(m.nrows(), m.ncols(), nrows, ncols);
  host_mask h;
  h.active = true;
  h.complement = v.complemented;
  h.pat = &m.tiles().pat;
  if (v.structural) {
    h.bits = h.pat->row_mask.data();
    return h;
  }
  const tile_pattern& p = *h.pat;
  const offset_t nt = p.ntiles();
  h.owned = buffer<row_bits>(static_cast<std::size_t>(16 * nt));
  const T* vals = m.tiles().values.data();
#pragma omp parallel for schedule(static, 1024) if (nt > kParallelTiles)
  for (offset_t t = 0; t < nt; ++t) {
    const auto tr = tile_at(p, vals, t);
    for (int r = 0; r < tile_dim; ++r) {
      row_bits keep = 0;
      for (int q = tr.row_begin(r); q < tr.row_end(r); ++q)
        if (tr.values[q] != T(0)) keep = row_bits(keep | (1u << tr.col_idx[q]));
      h.owned[16 * t + r] = keep;
    }
  }
  h.bits = h.owned.data();
  return h;
}

template <class M>
host_mask make_mask(const M& m, index_t nrows, index_t ncols) {
  return make_mask(as_mask_view(m), nrows, ncols);
}

// Builds a pattern tile row by tile row: fn(I, cols, masks) appends the
// tiles of row I (increasing columns, 16 row masks each); empty ones are
// dropped. Rows are produced in parallel.
using row_producer = std::function<void(index_t, std::vector<tile_index_t>&, std::vector<row_bits>&)>;
tile_pattern assemble_pattern(index_t nrows, index_t ncols, const row_producer& fn);

// Tile columns of row I of a and b, merged (a or b may be null).
void union_tile_cols(const tile_pattern* a, const tile_pattern* b, index_t I, std::vector<tile_index_t>& out);

}  // namespace tgb::detail::host
