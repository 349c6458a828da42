// tgb host backend: shared pattern assembly and mask helpers.
#include <algorithm>

#include "tgb/detail/host/mask.hpp"

namespace tgb::detail::host {

void check_mask_shape(index_t mr, index_t mc, index_t nrows, index_t ncols) {
  if (mr != nrows || mc != ncols)
    throw dimension_mismatch("tgb: mask is " + std::to_string(mr) + " x " + std::to_string(mc) + " but the output is " +
                             std::to_string(nrows) + " x " + std::to_string(ncols));
}

bool host_mask::prunes(index_t I, index_t J) const {
  if (!active) return false;
  const offset_t t = find_tile(*pat, I, J);
  if (!complement) {
    if (t < 0) return true;
    for (int r = 0; r < tile_dim; ++r)
      if (bits[16 * t + r]) return false;
    return true;
  }
  if (t < 0) return false;
  // Complemented: pruned only if M fills every position of the tile that lies
  // inside the matrix.
  const row_bits valid = tile::valid_columns(pat->ncols, J * tile_dim);
  const int nr = static_cast<int>(std::min<index_t>(tile_dim, pat->nrows - I * tile_dim));
  for (int r = 0; r < nr; ++r)
    if ((bits[16 * t + r] & valid) != valid) return false;
  return true;
}

tile_pattern assemble_pattern(index_t nrows, index_t ncols, const row_producer& fn) {
  tile_pattern p = tile_pattern::empty(nrows, ncols);
  const index_t tm = p.tile_rows();
  std::vector<std::vector<tile_index_t>> cols(static_cast<std::size_t>(tm));
  std::vector<std::vector<row_bits>> masks(static_cast<std::size_t>(tm));
  bool failed = false;
#pragma omp parallel for schedule(dynamic, 16) if (tm > kParallelRows)
  for (index_t I = 0; I < tm; ++I) {
    try {
      std::vector<tile_index_t>& c = cols[I];
      std::vector<row_bits>& m = masks[I];
      fn(I, c, m);
      // Drop empty tiles in place.
      std::size_t out = 0;
      for (std::size_t k = 0; k < c.size(); ++k) {
        bool any = false;
        for (int r = 0; r < tile_dim; ++r) any |= m[16 * k + r] != 0;
        if (!any) continue;
        if (out != k) {
          c[out] = c[k];
          std::copy(m.begin() + 16 * k, m.begin() + 16 * k + 16, m.begin() + 16 * out);
        }
        ++out;
      }
      c.resize(out);
      m.resize(16 * out);
    } catch (...) {
#pragma omp atomic write
      failed = true;
    }
  }
  if (failed) throw out_of_memory("tgb: out of memory while building a result pattern");
  for (index_t I = 0; I < tm; ++I) p.tile_ptr[I + 1] = p.tile_ptr[I] + static_cast<offset_t>(cols[I].size());
  const offset_t nt = p.tile_ptr[tm];
  p.tile_col = buffer<tile_index_t>(static_cast<std::size_t>(nt));
  p.row_mask = buffer<row_bits>(static_cast<std::size_t>(16 * nt));
  p.tile_offset = buffer<offset_t>(static_cast<std::size_t>(nt) + 1);
  p.tile_offset[0] = 0;
#pragma omp parallel for schedule(dynamic, 64) if (tm > kParallelRows)
  for (index_t I = 0; I < tm; ++I) {
    const offset_t t0 = p.tile_ptr[I];
    std::copy(cols[I].begin(), cols[I].end(), p.tile_col.begin() + t0);
    std::copy(masks[I].begin(), masks[I].end(), p.row_mask.begin() + 16 * t0);
    for (std::size_t k = 0; k < cols[I].size(); ++k) {
      int n = 0;
      for (int r = 0; r < tile_dim; ++r) n += tile::popcount16(masks[I][16 * k + r]);
      p.tile_offset[t0 + k + 1] = n;
    }
  }
  for (offset_t t = 0; t < nt; ++t) p.tile_offset[t + 1] += p.tile_offset[t];
  fill_tiles_from_masks(p);
  return p;
}

void union_tile_cols(const tile_pattern* a, const tile_pattern* b, index_t I, std::vector<tile_index_t>& out) {
  out.clear();
  offset_t pa = a ? a->tile_ptr[I] : 0, ea = a ? a->tile_ptr[I + 1] : 0;
  offset_t pb = b ? b->tile_ptr[I] : 0, eb = b ? b->tile_ptr[I + 1] : 0;
  while (pa < ea || pb < eb) {
    if (pb >= eb || (pa < ea && a->tile_col[pa] < b->tile_col[pb])) out.push_back(a->tile_col[pa++]);
    else if (pa >= ea || b->tile_col[pb] < a->tile_col[pa]) out.push_back(b->tile_col[pb++]);
    else {
      out.push_back(a->tile_col[pa]);
      ++pa, ++pb;
    }
  }
}

}  // namespace tgb::detail::host
