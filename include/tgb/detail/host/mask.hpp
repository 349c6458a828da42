// tgb host backend: a mask reduced to what the tile pipeline needs, the bits
// that let a write through for each tile of M (value masks drop zero
// entries), plus the complement flag.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tgb/detail/row_storage.hpp"
#include "tgb/detail/tile_storage.hpp"
#include "tgb/mask.hpp"

namespace tgb::detail::host {

struct host_mask {
  bool active = false;
  bool complement = false;
  // The tiles' bits (a value mask without its zeros). For a mask stored in
  // rows and built for a row path (make_mask's defer_tiles), made only when
  // a tile path asks: need_tiles() first (not inside a parallel region).
  mutable const tile_pattern* pat = nullptr;
  mutable const row_bits* bits = nullptr;
  mutable buffer<row_bits> owned;
  mutable std::unique_ptr<tile_pattern> owned_pat;  // a row-form mask's tiles
  std::function<void(const host_mask&)> make_tiles;
  void need_tiles() const {
    if (active && !pat) make_tiles(*this);
  }
  // Where the mask matrix is stored in rows: the positions it lists (a value
  // mask without its zeros), for the row paths; null otherwise.
  const csr_pattern* rows() const { return rows_owned ? &owned_rows : rows_ref; }
  const csr_pattern* rows_ref = nullptr;
  csr_pattern owned_rows;
  bool rows_owned = false;

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

// The tile fields of a mask over m (h.pat, h.bits).
template <class T>
void mask_tiles(const host_mask& h, const Matrix<T>& m, bool structural) {
  const T* vals = nullptr;
  buffer<offset_t> perm;  // tile-order entry -> row-form entry, for a mask in rows or hypersparse rows
  if (const csr_matrix<T>* r = m.row_form()) {
    h.owned_pat = std::make_unique<tile_pattern>(
        pattern_from_sorted_csr(r->p.nrows, r->p.ncols, r->p.rowptr.data(), r->p.colidx.data(), perm));
    h.pat = h.owned_pat.get();
    vals = r->values.data();
  } else if (const hyper_matrix<T>* hy = m.hyper_form()) {
    // Tiles for this operation alone (nothing cached in the matrix).
    h.owned_pat = std::make_unique<tile_pattern>(pattern_from_hyper(hy->p, perm));
    h.pat = h.owned_pat.get();
    vals = hy->values.data();
  } else {
    h.pat = &m.tiles().pat;
    vals = m.tiles().values.data();
  }
  if (structural) {
    h.bits = h.pat->row_mask.data();
    return;
  }
  const tile_pattern& p = *h.pat;
  const offset_t nt = p.ntiles();
  h.owned = buffer<row_bits>(static_cast<std::size_t>(16 * nt));
  const offset_t* pm = perm.size() ? perm.data() : nullptr;
#pragma omp parallel for schedule(static, 1024) if (nt > kParallelTiles)
  for (offset_t t = 0; t < nt; ++t) {
    const offset_t base = p.tile_offset[t];
    for (int r = 0; r < tile_dim; ++r) {
      row_bits keep = 0;
      const int q0 = p.row_ptr[16 * t + r];
      const int q1 = r == tile_dim - 1 ? static_cast<int>(p.tile_offset[t + 1] - base) : p.row_ptr[16 * t + r + 1];
      for (int q = q0; q < q1; ++q) {
        const T x = vals[pm ? pm[base + q] : base + q];
        if (x != T(0)) keep = row_bits(keep | (1u << p.col_idx[base + q]));
      }
      h.owned[16 * t + r] = keep;
    }
  }
  h.bits = h.owned.data();
}

// defer_tiles: a mask stored in rows gets its rows now and its tiles only
// when need_tiles() asks (mxm, whose row paths read rows).
template <class T>
host_mask make_mask(const mask_view<Matrix<T>>& v, index_t nrows, index_t ncols, bool defer_tiles = false) {
  const Matrix<T>& m = *v.object;
  check_mask_shape(m.nrows(), m.ncols(), nrows, ncols);
  // The complement of an empty mask admits every position: no mask (with or
  // without replace, nothing lies outside it).
  if (v.complemented && m.nvals() == 0) return host_mask{};
  host_mask h;
  h.active = true;
  h.complement = v.complemented;
  const bool structural = v.structural;
  if (const csr_matrix<T>* r = m.row_form()) {
    if (structural) {
      h.rows_ref = &r->p;
    } else {
      csr_pattern& o = h.owned_rows;
      o = csr_pattern::empty(r->p.nrows, r->p.ncols);
      o.colidx = buffer<row_col_t>(static_cast<std::size_t>(r->p.nnz()));
      offset_t n = 0;
      for (index_t i = 0; i < r->p.nrows; ++i) {
        for (offset_t e = r->p.rowptr[i]; e < r->p.rowptr[i + 1]; ++e)
          if (r->values[e] != T(0)) o.colidx[n++] = r->p.colidx[e];
        o.rowptr[i + 1] = n;
      }
      h.rows_owned = true;
    }
    if (defer_tiles) {
      h.make_tiles = [&m, structural](const host_mask& hm) { mask_tiles(hm, m, structural); };
      return h;
    }
  }
  mask_tiles(h, m, structural);
  return h;
}

inline host_mask make_mask(no_mask_t, index_t, index_t, bool) { return host_mask{}; }

template <class M>
host_mask make_mask(const M& m, index_t nrows, index_t ncols, bool defer_tiles = false) {
  return make_mask(as_mask_view(m), nrows, ncols, defer_tiles);
}

// Builds a pattern tile row by tile row: fn(I, cols, masks) appends the
// tiles of row I (increasing columns, 16 row masks each); empty ones are
// dropped. Rows are produced in parallel.
using row_producer = std::function<void(index_t, std::vector<tile_index_t>&, std::vector<row_bits>&)>;
tile_pattern assemble_pattern(index_t nrows, index_t ncols, const row_producer& fn);

// Tile columns of row I of a and b, merged (a or b may be null).
void union_tile_cols(const tile_pattern* a, const tile_pattern* b, index_t I, std::vector<tile_index_t>& out);

}  // namespace tgb::detail::host
