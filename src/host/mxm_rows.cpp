// tgb host backend: the type-independent parts of the row paths (scalar CSR
// views of tile patterns, task splitting).
#include <algorithm>
#include <cstring>
#include <string>

#include "tgb/detail/host/mxm_rows.hpp"
#include "tgb/detail/tile/spgemm.hpp"
#include "tgb/error.hpp"

namespace tgb::detail::host {

namespace {

// Row counts from row bits (the pattern's own, or a mask's).
void counts_from_bits(const tile_pattern& p, const row_bits* bits, offset_t* rp) {
  const index_t tm = p.tile_rows();
#pragma omp parallel for schedule(dynamic, 64) if (tm > kParallelRows && p.nnz() >= kParallelEntries)
  for (index_t I = 0; I < tm; ++I) {
    const int nr = static_cast<int>(std::min<index_t>(tile_dim, p.nrows - I * tile_dim));
    offset_t n[tile_dim] = {};
    if (bits == p.row_mask.data()) {
      // The pattern's own rows: their lengths are the differences of row_ptr.
      for (offset_t t = p.tile_ptr[I]; t < p.tile_ptr[I + 1]; ++t) {
        const std::uint8_t* q = p.row_ptr.data() + 16 * t;
        for (int r = 0; r + 1 < tile_dim; ++r) n[r] += q[r + 1] - q[r];
        n[tile_dim - 1] += (p.tile_offset[t + 1] - p.tile_offset[t]) - q[tile_dim - 1];
      }
    } else {
      for (offset_t t = p.tile_ptr[I]; t < p.tile_ptr[I + 1]; ++t)
        for (std::uint32_t rr = nonempty_rows(bits + 16 * t); rr; rr &= rr - 1) {
          const int r = tile::lowest_bit(rr);
          n[r] += bitcount16(bits[16 * t + r]);
        }
    }
    for (int r = 0; r < nr; ++r) rp[I * tile_dim + r + 1] = n[r];
  }
}

// CSR rows of the pattern restricted to `bits` (a subset of its row bits).
// src (the tile-order position of each entry) only where bits are the row bits.
void fill_from_bits(const tile_pattern& p, const row_bits* bits, const offset_t* rp, row_col_t* ci, offset_t* src) {
  const index_t tm = p.tile_rows();
  const bool own = bits == p.row_mask.data();
#pragma omp parallel for schedule(dynamic, 64) if (tm > kParallelRows && p.nnz() >= kParallelEntries)
  for (index_t I = 0; I < tm; ++I) {
    offset_t out[tile_dim];
    const int nr = static_cast<int>(std::min<index_t>(tile_dim, p.nrows - I * tile_dim));
    for (int r = 0; r < nr; ++r) out[r] = rp[I * tile_dim + r];
    for (offset_t t = p.tile_ptr[I]; t < p.tile_ptr[I + 1]; ++t) {
      const index_t j0 = index_t(p.tile_col[t]) * tile_dim;
      const offset_t base = p.tile_offset[t];
      for (std::uint32_t rr = nonempty_rows(bits + 16 * t); rr; rr &= rr - 1) {
        const int r = tile::lowest_bit(rr);
        const row_bits b = bits[16 * t + r];
        if (own) {
          // the row's stored entries, in order
          const int q0 = p.row_ptr[16 * t + r];
          const int q1 = q0 + bitcount16(b);
          for (int q = q0; q < q1; ++q) {
            if (src) src[out[r]] = base + q;
            ci[out[r]++] = static_cast<row_col_t>(j0 + p.col_idx[base + q]);
          }
        } else {
          std::uint32_t x = b;
          while (x) {
            ci[out[r]++] = static_cast<row_col_t>(j0 + tile::lowest_bit(x));
            x &= x - 1;
          }
        }
      }
    }
  }
}

csr_pattern rows_of_bits(const tile_pattern& p, const row_bits* bits, bool want_src) {
  check_rows_fit(p.ncols);
  csr_pattern c;
  c.nrows = p.nrows;
  c.ncols = p.ncols;
  c.rowptr = buffer<offset_t>(static_cast<std::size_t>(p.nrows) + 1, offset_t(0));
  offset_t* rp = c.rowptr.data();
  counts_from_bits(p, bits, rp);
  for (index_t i = 0; i < p.nrows; ++i) rp[i + 1] += rp[i];
  const offset_t nz = rp[p.nrows];
  c.colidx = buffer<row_col_t>(static_cast<std::size_t>(nz));
  if (want_src) c.src = buffer<offset_t>(static_cast<std::size_t>(nz));
  fill_from_bits(p, bits, rp, c.colidx.data(), want_src ? c.src.data() : nullptr);
  return c;
}

}  // namespace

csr_pattern mask_rows(const host_mask& M) { return rows_of_bits(*M.pat, M.bits, false); }

void row_counts(const tile_pattern& p, buffer<offset_t>& out) {
  out = buffer<offset_t>(static_cast<std::size_t>(p.nrows) + 1, offset_t(0));
  counts_from_bits(p, p.row_mask.data(), out.data());
}

void col_counts(const tile_pattern& p, buffer<offset_t>& out) {
  out = buffer<offset_t>(static_cast<std::size_t>(p.ncols), offset_t(0));
  const offset_t nt = p.ntiles();
  for (offset_t t = 0; t < nt; ++t) {
    const index_t j0 = index_t(p.tile_col[t]) * tile_dim;
    for (offset_t e = p.tile_offset[t]; e < p.tile_offset[t + 1]; ++e) ++out[j0 + p.col_idx[e]];
  }
}

void split_tile_rows(const buffer<offset_t>& work, int tasks, std::vector<index_t>& bounds) {
  const index_t tm = static_cast<index_t>(work.size());
  bounds.clear();
  bounds.push_back(0);
  if (tm == 0) {
    bounds.push_back(0);
    return;
  }
  double total = 0;
  for (index_t I = 0; I < tm; ++I) total += double(work[I]);
  tasks = static_cast<int>(std::max<index_t>(1, std::min<index_t>(tasks, tm)));
  const double share = total / tasks;
  double acc = 0;
  for (index_t I = 0; I < tm; ++I) {
    acc += double(work[I]);
    if (acc >= share * double(bounds.size()) && I + 1 < tm && static_cast<int>(bounds.size()) < tasks)
      bounds.push_back(I + 1);
  }
  bounds.push_back(tm);
}

}  // namespace tgb::detail::host

namespace tgb::detail {

csr_pattern csr_of_pattern(const tile_pattern& p, bool transpose, bool want_src) {
  csr_pattern a = host::rows_of_bits(p, p.row_mask.data(), want_src);
  if (!transpose) return a;
  csr_pattern t = transpose_rows(a, want_src);
  // The transpose's sources, as tile-order positions of p.
  if (want_src)
    for (offset_t e = 0; e < t.nnz(); ++e) t.src[e] = a.src[t.src[e]];
  return t;
}

csr_pattern transpose_rows(const csr_pattern& a, bool want_src) {
  // Rows of the transpose, sources increasing (transpose_pattern's order).
  csr_pattern t;
  if (want_src) t.src = buffer<offset_t>(static_cast<std::size_t>(a.nnz()));
  offset_t* const ts = t.src.data();
  if (want_src) transpose_pattern(a, t, [ts](offset_t q, offset_t e) { ts[q] = e; });
  else transpose_pattern(a, t, [](offset_t, offset_t) {});
  return t;
}

}  // namespace tgb::detail
