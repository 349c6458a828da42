// tgb: the hypersparse row form: counting non-empty rows, sorting triplets
// without an array per row, and converting to and from rows and tiles
// (pattern_from_hyper and count_tiles(hyper_pattern) are in tile_build.cpp,
// beside the tile walk they share).
#include <algorithm>
#include <numeric>

#include "tgb/detail/hyper_storage.hpp"
#include "tgb/error.hpp"

namespace tgb::detail {

namespace {
// The rows of tile row I that hold an entry: the OR of its tiles' row masks.
void tile_row_masks(const tile_pattern& p, index_t I, row_bits (&any)[tile_dim]) {
  for (int r = 0; r < tile_dim; ++r) any[r] = 0;
  for (offset_t t = p.tile_ptr[I]; t < p.tile_ptr[I + 1]; ++t)
    for (int r = 0; r < tile_dim; ++r) any[r] = row_bits(any[r] | p.row_mask[16 * t + r]);
}
}  // namespace

index_t count_nonempty_rows(const csr_pattern& p, index_t limit) {
  index_t n = 0;
  for (index_t i = 0; i < p.nrows && n <= limit; ++i) n += p.rowptr[i + 1] > p.rowptr[i];
  return n;
}

index_t count_nonempty_rows(const tile_pattern& p, index_t limit) {
  index_t n = 0;
  const index_t tm = p.tile_rows();
  for (index_t I = 0; I < tm && n <= limit; ++I) {
    row_bits any[tile_dim];
    tile_row_masks(p, I, any);
    for (int r = 0; r < tile_dim; ++r) n += any[r] != 0;
  }
  return n;
}

void sort_triplets_hyper(const index_t* rows, const index_t* cols, std::size_t n, buffer<index_t>& row,
                         buffer<offset_t>& ptr, buffer<index_t>& colidx, buffer<offset_t>& order) {
  order = buffer<offset_t>(n);
  std::iota(order.begin(), order.end(), offset_t(0));
  auto before = [&](offset_t x, offset_t y) { return rows[x] != rows[y] ? rows[x] < rows[y] : cols[x] < cols[y]; };
  bool sorted = true;
  for (std::size_t k = 1; k < n && sorted; ++k) sorted = !before(static_cast<offset_t>(k), static_cast<offset_t>(k - 1));
  if (!sorted) std::stable_sort(order.begin(), order.end(), before);
  std::size_t nvec = 0;
  for (std::size_t p = 0; p < n; ++p) nvec += p == 0 || rows[order[p]] != rows[order[p - 1]];
  row = buffer<index_t>(nvec);
  ptr = buffer<offset_t>(nvec + 1);
  colidx = buffer<index_t>(n);
  std::size_t s = 0;
  for (std::size_t p = 0; p < n; ++p) {
    if (p == 0 || rows[order[p]] != rows[order[p - 1]]) {
      row[s] = rows[order[p]];
      ptr[s++] = static_cast<offset_t>(p);
    }
    colidx[p] = cols[order[p]];
  }
  ptr[nvec] = static_cast<offset_t>(n);
}

hyper_pattern hyper_of_pattern(csr_pattern&& p, const buffer<index_t>* cmap) {
  hyper_pattern h;
  h.nrows = p.nrows;
  h.ncols = p.ncols;
  list_nonempty_rows(p.nrows, p.rowptr.data(), [](index_t i) { return i; }, h);
  const offset_t nz = p.nnz();
  h.colidx = buffer<index_t>(static_cast<std::size_t>(nz));
  const row_col_t* c = p.colidx.data();
  if (cmap)
    for (offset_t e = 0; e < nz; ++e) h.colidx[e] = (*cmap)[static_cast<std::size_t>(c[e])];
  else
    for (offset_t e = 0; e < nz; ++e) h.colidx[e] = c[e];
  p = csr_pattern();
  return h;
}

csr_pattern rows_of_pattern(hyper_pattern&& h) {
  check_rows_fit(h.ncols);
  csr_pattern p;
  p.nrows = h.nrows;
  p.ncols = h.ncols;
  p.rowptr = buffer<offset_t>(static_cast<std::size_t>(h.nrows) + 1);
  index_t i = 0;
  for (index_t k = 0; k < h.nvec(); ++k) {
    for (; i <= h.row[k]; ++i) p.rowptr[i] = h.ptr[k];
  }
  for (; i <= h.nrows; ++i) p.rowptr[i] = h.nnz();
  const offset_t nz = h.nnz();
  p.colidx = buffer<row_col_t>(static_cast<std::size_t>(nz));
  for (offset_t e = 0; e < nz; ++e) p.colidx[e] = static_cast<row_col_t>(h.colidx[e]);
  h = hyper_pattern();
  return p;
}

hyper_pattern hyper_of_tiles(const tile_pattern& p, buffer<offset_t>& src) {
  const index_t tm = p.tile_rows();
  // Non-empty rows per tile row; a tile row's entries keep their range (tile
  // order and row order both list tile row by tile row).
  buffer<index_t> first(static_cast<std::size_t>(tm) + 1, index_t(0));
#pragma omp parallel for schedule(dynamic, 64) if (tm > kParallelRows)
  for (index_t I = 0; I < tm; ++I) {
    row_bits any[tile_dim];
    tile_row_masks(p, I, any);
    index_t n = 0;
    for (int r = 0; r < tile_dim; ++r) n += any[r] != 0;
    first[I + 1] = n;
  }
  for (index_t I = 0; I < tm; ++I) first[I + 1] += first[I];
  const index_t nvec = first[tm];
  hyper_pattern h;
  h.nrows = p.nrows;
  h.ncols = p.ncols;
  h.row = buffer<index_t>(static_cast<std::size_t>(nvec));
  h.ptr = buffer<offset_t>(static_cast<std::size_t>(nvec) + 1);
  h.colidx = buffer<index_t>(static_cast<std::size_t>(p.nnz()));
  src = buffer<offset_t>(static_cast<std::size_t>(p.nnz()));
#pragma omp parallel for schedule(dynamic, 64) if (tm > kParallelRows)
  for (index_t I = 0; I < tm; ++I) {
    if (first[I + 1] == first[I]) continue;
    index_t k = first[I];
    offset_t out = p.tile_offset[p.tile_ptr[I]];
    for (int r = 0; r < tile_dim; ++r) {
      const offset_t start = out;
      for (offset_t t = p.tile_ptr[I]; t < p.tile_ptr[I + 1]; ++t) {
        const offset_t base = p.tile_offset[t];
        const int b = p.row_ptr[16 * t + r];
        const int e = r == tile_dim - 1 ? static_cast<int>(p.tile_offset[t + 1] - base) : p.row_ptr[16 * t + r + 1];
        for (int q = b; q < e; ++q) {
          h.colidx[out] = index_t(p.tile_col[t]) * tile_dim + p.col_idx[base + q];
          src[out] = base + q;
          ++out;
        }
      }
      if (out > start) {
        h.row[k] = I * tile_dim + r;
        h.ptr[k++] = start;
      }
    }
  }
  h.ptr[nvec] = p.nnz();
  return h;
}

}  // namespace tgb::detail
