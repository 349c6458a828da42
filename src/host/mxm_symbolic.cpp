// tgb host backend: steps 1 and 2 of the tiled mxm (type- and
// semiring-independent, compiled once).
#include <algorithm>

#include "tgb/detail/host/mxm.hpp"

namespace tgb::detail::host {

tile_pattern mxm_symbolic(const tile_pattern& A, const tile_pattern& B, const host_mask& M) {
  return assemble_pattern(A.nrows, B.ncols, [&](index_t I, std::vector<tile_index_t>& cols, std::vector<row_bits>& masks) {
    // Step 1: candidate tile columns, pruned by the mask's tiles.
    for (offset_t ta = A.tile_ptr[I]; ta < A.tile_ptr[I + 1]; ++ta) {
      const index_t K = A.tile_col[ta];
      cols.insert(cols.end(), B.tile_col.data() + B.tile_ptr[K], B.tile_col.data() + B.tile_ptr[K + 1]);
    }
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    if (M.active)
      cols.erase(std::remove_if(cols.begin(), cols.end(), [&](tile_index_t J) { return M.prunes(I, J); }), cols.end());
    if (cols.empty()) return;
    // Step 2: row bits by OR-ing B's row bits, then AND with the mask's.
    masks.assign(16 * cols.size(), row_bits(0));
    for (offset_t ta = A.tile_ptr[I]; ta < A.tile_ptr[I + 1]; ++ta) {
      const index_t K = A.tile_col[ta];
      for (offset_t tb = B.tile_ptr[K]; tb < B.tile_ptr[K + 1]; ++tb) {
        auto pos = std::lower_bound(cols.begin(), cols.end(), B.tile_col[tb]);
        if (pos == cols.end() || *pos != B.tile_col[tb]) continue;
        tile::symbolic_or(&A.row_mask[16 * ta], &B.row_mask[16 * tb], &masks[16 * (pos - cols.begin())]);
      }
    }
    if (M.active) {
      row_bits allowed[tile_dim];
      for (std::size_t k = 0; k < cols.size(); ++k) {
        M.allowed(I, cols[k], allowed);
        for (int r = 0; r < tile_dim; ++r) masks[16 * k + r] &= allowed[r];
      }
    }
  });
}

}  // namespace tgb::detail::host
