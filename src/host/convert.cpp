// tgb: triplet sorting, CSR validation and transposition of the pattern.
#include <algorithm>
#include <numeric>
#include <string>

#include "tgb/detail/tile/bits.hpp"
#include "tgb/matrix.hpp"

namespace tgb::detail {

void sort_triplets(index_t nrows, const index_t* rows, const index_t* cols, std::size_t n, buffer<offset_t>& rowptr,
                   buffer<row_col_t>& colidx, buffer<offset_t>& order) {
  // Counting sort by row (stable), then each row by (column, position).
  rowptr = buffer<offset_t>(static_cast<std::size_t>(nrows) + 1, offset_t(0));
  for (std::size_t k = 0; k < n; ++k) ++rowptr[rows[k] + 1];
  for (index_t i = 0; i < nrows; ++i) rowptr[i + 1] += rowptr[i];
  order = buffer<offset_t>(n);
  {
    buffer<offset_t> next(static_cast<std::size_t>(nrows) + 1);
    std::copy(rowptr.begin(), rowptr.end(), next.begin());
    for (std::size_t k = 0; k < n; ++k) order[next[rows[k]]++] = static_cast<offset_t>(k);
  }
#pragma omp parallel for schedule(dynamic, 1024) if (nrows > kParallelTiles)
  for (index_t i = 0; i < nrows; ++i) {
    // Indices, not pointers: with no entries order.data() is null, and
    // null + 1 is undefined (found by fuzz_from_coo).
    bool sorted = true;
    for (offset_t p = rowptr[i]; p + 1 < rowptr[i + 1]; ++p)
      if (cols[order[p + 1]] < cols[order[p]]) {
        sorted = false;
        break;
      }
    if (!sorted)
      std::stable_sort(order.data() + rowptr[i], order.data() + rowptr[i + 1],
                       [&](offset_t x, offset_t y) { return cols[x] < cols[y]; });
  }
  colidx = buffer<row_col_t>(n);
  for (std::size_t p = 0; p < n; ++p) colidx[p] = static_cast<row_col_t>(cols[order[p]]);
}

void sort_csr_rows(index_t nrows, index_t, const offset_t* rowptr, buffer<row_col_t>& colidx, buffer<offset_t>& order) {
  const std::size_t n = colidx.size();
  order = buffer<offset_t>(n);
  std::iota(order.begin(), order.end(), offset_t(0));
  bool dup = false;
  index_t dup_row = -1, dup_col = -1;
  for (index_t i = 0; i < nrows; ++i) {
    offset_t* b = order.data() + rowptr[i];
    offset_t* e = order.data() + rowptr[i + 1];
    bool sorted = true;
    for (offset_t p = rowptr[i]; p + 1 < rowptr[i + 1]; ++p)
      if (colidx[p + 1] <= colidx[p]) {
        sorted = false;
        break;
      }
    if (sorted) continue;
    std::stable_sort(b, e, [&](offset_t x, offset_t y) { return colidx[x] < colidx[y]; });
    for (offset_t* p = b; p + 1 < e; ++p)
      if (colidx[p[0]] == colidx[p[1]] && !dup) {
        dup = true;
        dup_row = i;
        dup_col = colidx[p[0]];
      }
  }
  if (dup)
    throw invalid_value("tgb: from_csr: duplicate entry (" + std::to_string(dup_row) + ", " + std::to_string(dup_col) +
                        ")");
  buffer<row_col_t> sorted(n);
  for (std::size_t p = 0; p < n; ++p) sorted[p] = colidx[order[p]];
  colidx.swap(sorted);
}

// Tile by tile: tile (I, J) becomes tile (J, I) with its 16 x 16 bits
// transposed, so no CSR copy and no sort. T's tiles of a tile row come out
// in increasing tile column (A's tile rows are visited in order), and the
// entries of each transposed row in increasing column (A's rows in order).
tile_pattern transpose_pattern(const tile_pattern& a, buffer<offset_t>& gather) {
  const index_t tm = a.tile_rows(), tn = a.tile_cols();
  const offset_t nt = a.ntiles();
  tile_pattern t;
  t.nrows = a.ncols;
  t.ncols = a.nrows;
  t.tile_ptr = buffer<offset_t>(static_cast<std::size_t>(tn) + 1, offset_t(0));
  for (offset_t k = 0; k < nt; ++k) ++t.tile_ptr[a.tile_col[k] + 1];
  for (index_t J = 0; J < tn; ++J) t.tile_ptr[J + 1] += t.tile_ptr[J];
  t.tile_col = buffer<tile_index_t>(static_cast<std::size_t>(nt));
  buffer<offset_t> from(static_cast<std::size_t>(nt));  // the source tile of each tile of T
  {
    buffer<offset_t> next(static_cast<std::size_t>(tn) + 1);
    std::copy(t.tile_ptr.begin(), t.tile_ptr.end(), next.begin());
    for (index_t I = 0; I < tm; ++I)
      for (offset_t k = a.tile_ptr[I]; k < a.tile_ptr[I + 1]; ++k) {
        const offset_t q = next[a.tile_col[k]]++;
        t.tile_col[q] = static_cast<tile_index_t>(I);
        from[q] = k;
      }
  }
  t.tile_offset = buffer<offset_t>(static_cast<std::size_t>(nt) + 1);
  t.tile_offset[0] = 0;
  for (offset_t q = 0; q < nt; ++q)
    t.tile_offset[q + 1] = t.tile_offset[q] + (a.tile_offset[from[q] + 1] - a.tile_offset[from[q]]);
  t.row_ptr = buffer<std::uint8_t>(static_cast<std::size_t>(16 * nt));
  t.row_mask = buffer<row_bits>(static_cast<std::size_t>(16 * nt));
  t.col_idx = buffer<std::uint8_t>(static_cast<std::size_t>(a.nnz()));
  gather = buffer<offset_t>(static_cast<std::size_t>(a.nnz()));
#pragma omp parallel for schedule(static, 256) if (nt > kParallelTiles && a.nnz() >= kParallelEntries)
  for (offset_t q = 0; q < nt; ++q) {
    const offset_t k = from[q], base = a.tile_offset[k], tbase = t.tile_offset[q];
    const row_bits* bits = a.row_mask.data() + 16 * k;
    const std::uint8_t* rp = a.row_ptr.data() + 16 * k;
    const std::uint8_t* ci = a.col_idx.data() + base;
    std::uint32_t tb[tile_dim] = {};
    for (int r = 0; r < tile_dim; ++r)
      for (std::uint32_t x = bits[r]; x; x &= x - 1) tb[tile::lowest_bit(x)] |= 1u << r;
    int cur[tile_dim];
    int start = 0;
    for (int c = 0; c < tile_dim; ++c) {
      t.row_mask[16 * q + c] = static_cast<row_bits>(tb[c]);
      t.row_ptr[16 * q + c] = static_cast<std::uint8_t>(start);
      cur[c] = start;
      start += tile::popcount16(tb[c]);
    }
    for (int r = 0; r < tile_dim; ++r) {
      const int e1 = rp[r] + tile::popcount16(bits[r]);
      for (int e = rp[r]; e < e1; ++e) {
        const int d = cur[ci[e]]++;
        t.col_idx[tbase + d] = static_cast<std::uint8_t>(r);
        gather[tbase + d] = base + e;
      }
    }
  }
  return t;
}

}  // namespace tgb::detail
