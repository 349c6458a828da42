// tgb: building the tile layout from sorted rows (CSR or hypersparse), and
// exporting it back.
#include <algorithm>
#include <atomic>
#include <string>
#include <new>
#include <vector>

#include "tgb/detail/tile/spgemm.hpp"
#include "tgb/detail/hyper_storage.hpp"
#include "tgb/detail/row_storage.hpp"
#include "tgb/error.hpp"
#include "tgb/detail/tile_storage.hpp"

namespace tgb {

namespace detail {

void check_dimensions(index_t nrows, index_t ncols) {
  if (nrows < 0 || ncols < 0)
    throw invalid_value("tgb: negative matrix dimension " + std::to_string(nrows) + " x " + std::to_string(ncols));
  if (nrows > max_dimension || ncols > max_dimension)
    throw invalid_value("tgb: matrix dimension " + std::to_string(nrows) + " x " + std::to_string(ncols) +
                        " exceeds the supported maximum of 2^36");
}

tile_pattern tile_pattern::empty(index_t nrows, index_t ncols) {
  check_dimensions(nrows, ncols);
  tile_pattern p;
  p.nrows = nrows;
  p.ncols = ncols;
  p.tile_ptr = buffer<offset_t>(static_cast<std::size_t>(tiles_for(nrows)) + 1, offset_t(0));
  return p;
}

namespace {

// The (up to) 16 rows of one tile row as ranges [cur, end) of the column
// array; rows past the matrix, or not listed, are empty.
struct tile_row_ranges {
  offset_t cur[tile_dim] = {};
  offset_t end[tile_dim] = {};
};

tile_row_ranges csr_ranges(index_t nrows, const offset_t* rowptr, index_t I) {
  tile_row_ranges rr;
  const index_t i0 = I * tile_dim;
  const int nr = static_cast<int>(std::min<index_t>(tile_dim, nrows - i0));
  for (int r = 0; r < nr; ++r) {
    rr.cur[r] = rowptr[i0 + r];
    rr.end[r] = rowptr[i0 + r + 1];
  }
  return rr;
}

// Rows [first, last) of a hypersparse list, all in one tile row.
tile_row_ranges hyper_ranges(const hyper_pattern& h, index_t first, index_t last) {
  tile_row_ranges rr;
  for (index_t k = first; k < last; ++k) {
    const int r = static_cast<int>(h.row[k] & (tile_dim - 1));
    rr.cur[r] = h.ptr[k];
    rr.end[r] = h.ptr[k + 1];
  }
  return rr;
}

// Walks one tile row's sorted rows tile by tile: calls f(J, r,
// position, local_col) for every entry, in tile order.
template <class Col, class F, class G>
void walk_tile_row(tile_row_ranges rr, const Col* colidx, F&& on_entry, G&& on_tile_end) {
  offset_t* cur = rr.cur;
  const offset_t* end = rr.end;
  for (;;) {
    index_t J = -1;
    for (int r = 0; r < tile_dim; ++r)
      if (cur[r] < end[r]) {
        const index_t j = colidx[cur[r]] >> tile_shift;
        if (J < 0 || j < J) J = j;
      }
    if (J < 0) break;
    for (int r = 0; r < tile_dim; ++r)
      while (cur[r] < end[r] && (colidx[cur[r]] >> tile_shift) == J) {
        on_entry(J, r, cur[r], static_cast<int>(colidx[cur[r]] & (tile_dim - 1)));
        ++cur[r];
      }
    on_tile_end(J);
  }
}

// Builds a tile pattern from sorted rows given per tile row: `groups` tile
// rows hold entries, group g is tile row tile_row(g) with rows ranges(g);
// every other tile row is empty.
template <class Col, class TileRow, class Ranges>
tile_pattern pattern_from_groups(index_t nrows, index_t ncols, const Col* colidx, index_t groups,
                                 TileRow&& tile_row, Ranges&& ranges, buffer<offset_t>& perm) {
  tile_pattern p = tile_pattern::empty(nrows, ncols);
  const index_t tm = p.tile_rows();
  offset_t* tile_ptr = p.tile_ptr.data();

  // Pass 1: tiles per tile row.
#pragma omp parallel for schedule(dynamic, 64) if (groups > kParallelRows)
  for (index_t g = 0; g < groups; ++g) {
    offset_t n = 0;
    walk_tile_row(ranges(g), colidx, [](index_t, int, offset_t, int) {}, [&](index_t) { ++n; });
    tile_ptr[tile_row(g) + 1] = n;
  }
  for (index_t I = 0; I < tm; ++I) tile_ptr[I + 1] += tile_ptr[I];
  const offset_t nt = tile_ptr[tm];

  // Pass 2: tile columns, row bits, entries per tile.
  p.tile_col = buffer<tile_index_t>(nt);
  p.row_mask = buffer<row_bits>(16 * nt, row_bits(0));
  p.tile_offset = buffer<offset_t>(nt + 1, offset_t(0));
  p.row_ptr = buffer<std::uint8_t>(16 * nt);
  tile_index_t* tcol = p.tile_col.data();
  row_bits* mask = p.row_mask.data();
  offset_t* toff = p.tile_offset.data();
#pragma omp parallel for schedule(dynamic, 64) if (groups > kParallelRows)
  for (index_t g = 0; g < groups; ++g) {
    offset_t t = tile_ptr[tile_row(g)];
    offset_t n = 0;
    walk_tile_row(
        ranges(g), colidx,
        [&](index_t, int r, offset_t, int c) {
          mask[16 * t + r] = row_bits(mask[16 * t + r] | (1u << c));
          ++n;
        },
        [&](index_t J) {
          tcol[t] = static_cast<tile_index_t>(J);
          toff[t + 1] = n;
          n = 0;
          ++t;
        });
  }
  for (offset_t t = 0; t < nt; ++t) toff[t + 1] += toff[t];

  // Pass 3: level-2 arrays and the permutation into row order.
  fill_tiles_from_masks(p);
  perm = buffer<offset_t>(static_cast<std::size_t>(p.nnz()));
  offset_t* pm = perm.data();
#pragma omp parallel for schedule(dynamic, 64) if (groups > kParallelRows)
  for (index_t g = 0; g < groups; ++g) {
    offset_t t = tile_ptr[tile_row(g)];
    offset_t e = toff[t];
    walk_tile_row(
        ranges(g), colidx, [&](index_t, int, offset_t pos, int) { pm[e++] = pos; }, [&](index_t) { ++t; });
  }
  return p;
}

// The first position of each tile row's run in a hypersparse row list
// (first[g] .. first[g + 1]), one run per tile row that holds entries.
buffer<index_t> tile_row_runs(const hyper_pattern& h) {
  index_t runs = 0;
  for (index_t k = 0; k < h.nvec(); ++k)
    if (k == 0 || (h.row[k] >> tile_shift) != (h.row[k - 1] >> tile_shift)) ++runs;
  buffer<index_t> first(static_cast<std::size_t>(runs) + 1);
  index_t g = 0;
  for (index_t k = 0; k < h.nvec(); ++k)
    if (k == 0 || (h.row[k] >> tile_shift) != (h.row[k - 1] >> tile_shift)) first[g++] = k;
  first[runs] = h.nvec();
  return first;
}

}  // namespace

offset_t count_tiles(const csr_pattern& c) {
  const index_t tm = tiles_for(c.nrows);
  const index_t tcols = tiles_for(c.ncols);
  offset_t total = 0;
  const offset_t* rp = c.rowptr.data();
  const row_col_t* ci = c.colidx.data();
  if (tcols > (index_t(1) << 24) || tm >= (index_t(1) << 32)) {
    // Very wide: the 16-row merge (no per-thread marker of the width).
#pragma omp parallel for schedule(dynamic, 64) reduction(+ : total) if (tm > kParallelRows)
    for (index_t I = 0; I < tm; ++I)
      walk_tile_row(csr_ranges(c.nrows, rp, I), ci, [](index_t, int, offset_t, int) {}, [&](index_t) { ++total; });
    return total;
  }
  // One pass over the entries: a tile column counts the first time a tile
  // row meets it (a per-thread stamp per tile column, the tile row's number).
  bool failed = false;
#pragma omp parallel reduction(+ : total) if (c.nnz() > 65536 && tm > kParallelRows)
  {
    buffer<std::uint32_t> seen;
#pragma omp for schedule(dynamic, 64)
    for (index_t I = 0; I < tm; ++I) {
      const offset_t b = rp[I * tile_dim], e = rp[std::min(c.nrows, (I + 1) * tile_dim)];
      if (b == e) continue;
      if (seen.size() == 0) {
        try {
          seen = buffer<std::uint32_t>(static_cast<std::size_t>(tcols), 0u);
        } catch (...) {
#pragma omp atomic write
          failed = true;
        }
        if (seen.size() == 0) continue;
      }
      const std::uint32_t mark = static_cast<std::uint32_t>(I + 1);
      for (offset_t q = b; q < e; ++q) {
        std::uint32_t& s = seen[static_cast<std::size_t>(ci[q] >> tile_shift)];
        if (s != mark) {
          s = mark;
          ++total;
        }
      }
    }
  }
  if (failed) throw out_of_memory("tgb: out of memory counting tiles");
  return total;
}

namespace {
template <class Col>
tile_pattern pattern_from_sorted_rows(index_t nrows, index_t ncols, const offset_t* rowptr, const Col* colidx,
                                      buffer<offset_t>& perm) {
  return pattern_from_groups(
      nrows, ncols, colidx, tiles_for(nrows), [](index_t g) { return g; },
      [&](index_t g) { return csr_ranges(nrows, rowptr, g); }, perm);
}
}  // namespace

tile_pattern pattern_from_sorted_csr(index_t nrows, index_t ncols, const offset_t* rowptr, const index_t* colidx,
                                     buffer<offset_t>& perm) {
  return pattern_from_sorted_rows(nrows, ncols, rowptr, colidx, perm);
}
tile_pattern pattern_from_sorted_csr(index_t nrows, index_t ncols, const offset_t* rowptr, const std::int32_t* colidx,
                                     buffer<offset_t>& perm) {
  return pattern_from_sorted_rows(nrows, ncols, rowptr, colidx, perm);
}

tile_pattern pattern_from_hyper(const hyper_pattern& h, buffer<offset_t>& perm) {
  const buffer<index_t> first = tile_row_runs(h);
  const index_t* f = first.data();
  return pattern_from_groups(
      h.nrows, h.ncols, h.colidx.data(), static_cast<index_t>(first.size()) - 1,
      [&](index_t g) { return h.row[f[g]] >> tile_shift; }, [&](index_t g) { return hyper_ranges(h, f[g], f[g + 1]); },
      perm);
}

offset_t count_tiles(const hyper_pattern& h) {
  const buffer<index_t> first = tile_row_runs(h);
  const index_t groups = static_cast<index_t>(first.size()) - 1;
  offset_t total = 0;
#pragma omp parallel for schedule(dynamic, 64) reduction(+ : total) if (groups > kParallelRows)
  for (index_t g = 0; g < groups; ++g)
    walk_tile_row(hyper_ranges(h, first[g], first[g + 1]), h.colidx.data(), [](index_t, int, offset_t, int) {},
                  [&](index_t) { ++total; });
  return total;
}

void fill_tiles_from_masks(tile_pattern& p) {
  const offset_t nt = p.ntiles();
  if (p.row_ptr.size() != static_cast<std::size_t>(16 * nt)) p.row_ptr = buffer<std::uint8_t>(16 * nt);
  p.col_idx = buffer<std::uint8_t>(static_cast<std::size_t>(p.nnz()));
  const row_bits* mask = p.row_mask.data();
  std::uint8_t* rp = p.row_ptr.data();
  std::uint8_t* ci = p.col_idx.data();
  const offset_t* toff = p.tile_offset.data();
#pragma omp parallel for schedule(static, 1024) if (nt > kParallelTiles)
  for (offset_t t = 0; t < nt; ++t) {
    tile::row_ptr_from_masks(mask + 16 * t, rp + 16 * t);
    tile::col_idx_from_masks(mask + 16 * t, ci + toff[t]);
  }
}

void pattern_to_csr(const tile_pattern& p, buffer<offset_t>& rowptr, buffer<index_t>& colidx, buffer<offset_t>& src) {
  const index_t tm = p.tile_rows();
  rowptr = buffer<offset_t>(static_cast<std::size_t>(p.nrows) + 1, offset_t(0));
  colidx = buffer<index_t>(static_cast<std::size_t>(p.nnz()));
  src = buffer<offset_t>(static_cast<std::size_t>(p.nnz()));
  offset_t* rp = rowptr.data();
#pragma omp parallel for schedule(dynamic, 64) if (tm > kParallelRows)
  for (index_t I = 0; I < tm; ++I) {
    const int nr = static_cast<int>(std::min<index_t>(tile_dim, p.nrows - I * tile_dim));
    for (int r = 0; r < nr; ++r) {
      offset_t n = 0;
      for (offset_t t = p.tile_ptr[I]; t < p.tile_ptr[I + 1]; ++t) n += tile::popcount16(p.row_mask[16 * t + r]);
      rp[I * tile_dim + r + 1] = n;
    }
  }
  for (index_t i = 0; i < p.nrows; ++i) rp[i + 1] += rp[i];
  index_t* ci = colidx.data();
  offset_t* s = src.data();
#pragma omp parallel for schedule(dynamic, 64) if (tm > kParallelRows)
  for (index_t I = 0; I < tm; ++I) {
    const int nr = static_cast<int>(std::min<index_t>(tile_dim, p.nrows - I * tile_dim));
    for (int r = 0; r < nr; ++r) {
      offset_t out = rp[I * tile_dim + r];
      for (offset_t t = p.tile_ptr[I]; t < p.tile_ptr[I + 1]; ++t) {
        const offset_t base = p.tile_offset[t];
        const int b = p.row_ptr[16 * t + r];
        const int e = r == tile_dim - 1 ? static_cast<int>(p.tile_offset[t + 1] - base) : p.row_ptr[16 * t + r + 1];
        for (int q = b; q < e; ++q) {
          ci[out] = index_t(p.tile_col[t]) * tile_dim + p.col_idx[base + q];
          s[out] = base + q;
          ++out;
        }
      }
    }
  }
}

}  // namespace detail
}  // namespace tgb
