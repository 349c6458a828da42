// tgb CUDA backend: the type-independent steps of mxm, of the write-back and
// of the transpose. Everything stays on the device; the host reads back only
// the sizes it must allocate by.
#include <cstdlib>
#include <string>

#include "tgb/detail/cuda/common.cuh"
#include "tgb/detail/cuda/plan.hpp"
#include "tgb/detail/cuda/rowpath.cuh"
#include "tgb/detail/tile/elementwise.hpp"
#include "tgb/detail/tile/spgemm.hpp"

namespace tgb::detail::cuda {

namespace {

constexpr int kThreads = 256;

__global__ void k_tile_rows(const offset_t* tile_ptr, index_t tm, offset_t nt, index_t* row) {
  for (offset_t t = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; t < nt; t += offset_t(gridDim.x) * blockDim.x)
    row[t] = last_le(tile_ptr, tm + 1, t);
}

// Pairs of each A tile; none for tile rows the row path takes (route != 0).
__global__ void k_pair_counts(offset_t na, const tile_index_t* a_col, const offset_t* b_tile_ptr,
                              const index_t* a_row, const std::uint8_t* route, offset_t* cnt) {
  for (offset_t a = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; a <= na; a += offset_t(gridDim.x) * blockDim.x)
    cnt[a] = a < na && !(route && route[a_row[a]]) ? b_tile_ptr[a_col[a] + 1] - b_tile_ptr[a_col[a]] : 0;
}

// ---- the row path's planning (rowpath.cuh) --------------------------------

// Entries of each scalar row of B (len[nrows] = 0 for the scan).
__global__ void k_row_lengths(index_t nrows, pattern_ref P, offset_t* len) {
  for (index_t k = blockIdx.x * index_t(blockDim.x) + threadIdx.x; k <= nrows; k += index_t(gridDim.x) * blockDim.x) {
    offset_t n = 0;
    if (k < nrows) {
      const index_t K = k >> tile_shift;
      const int kk = int(k & (tile_dim - 1));
      for (offset_t b = P.tile_ptr[K]; b < P.tile_ptr[K + 1]; ++b) n += tile::popcount16(P.row_mask[16 * b + kk]);
    }
    len[k] = n;
  }
}

// B's entries in CSR order: global column and position in B's values.
__global__ void k_b_fill(index_t nrows, pattern_ref B, const offset_t* row_ptr, index_t* col, offset_t* pos) {
  for (index_t k = blockIdx.x * index_t(blockDim.x) + threadIdx.x; k < nrows; k += index_t(gridDim.x) * blockDim.x)
    for_row_entries(B, k, row_ptr[k], [&](offset_t o, index_t j, offset_t e) {
      col[o] = j;
      pos[o] = e;
    });
}

// Per tile row of A: scalar products, tile pairs, and the span of B's tile
// columns it can reach.
__global__ void k_row_work(offset_t na, const index_t* a_row, pattern_ref A, pattern_ref B, const offset_t* b_row_ptr,
                           unsigned long long* products, unsigned long long* pairs, std::uint32_t* jmin,
                           std::uint32_t* jmax) {
  for (offset_t a = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; a < na; a += offset_t(gridDim.x) * blockDim.x) {
    const index_t I = a_row[a], K = A.tile_col[a];
    const offset_t b0 = B.tile_ptr[K], b1 = B.tile_ptr[K + 1];
    if (b0 == b1) continue;
    unsigned long long f = 0;
    for (offset_t e = A.tile_offset[a]; e < A.tile_offset[a + 1]; ++e) {
      const index_t k = K * tile_dim + A.col_idx[e];
      f += static_cast<unsigned long long>(b_row_ptr[k + 1] - b_row_ptr[k]);
    }
    atomicAdd(products + I, f);
    atomicAdd(pairs + I, static_cast<unsigned long long>(b1 - b0));
    atomicMin(jmin + I, B.tile_col[b0]);
    atomicMax(jmax + I, B.tile_col[b1 - 1]);
  }
}

// Route of each tile row: 0 tile path, 1 + bin the row path, 1 + kBins
// nothing to compute. Row-path rows are appended to their bin's list.
__global__ void k_route(index_t tm, const unsigned long long* products, const unsigned long long* pairs,
                        const std::uint32_t* jmin, const std::uint32_t* jmax, double ratio, std::uint8_t* route,
                        unsigned long long* count, index_t* list) {
  for (index_t I = blockIdx.x * index_t(blockDim.x) + threadIdx.x; I < tm; I += index_t(gridDim.x) * blockDim.x) {
    const unsigned long long f = products[I];
    int r = 0;
    if (f == 0) {
      r = 1 + rowpath::kBins;
    } else if (jmax[I] - jmin[I] <= rowpath::kMaxSpan && double(f) <= ratio * double(pairs[I])) {
      for (int b = 0; b < rowpath::kBins && !r; ++b)
        if (f <= static_cast<unsigned long long>(rowpath::capacity(b))) r = 1 + b;
    }
    route[I] = std::uint8_t(r);
    atomicAdd(count + rowpath::kBins + (r >= 1 && r <= rowpath::kBins ? 1 : 0), f);
    if (r >= 1 && r <= rowpath::kBins) {
      const unsigned long long at = atomicAdd(count + (r - 1), 1ull);
      list[index_t(r - 1) * tm + index_t(at)] = I;
    }
  }
}

struct count_sink {
  offset_t* tiles;
  offset_t* entries;
  index_t I;
  __device__ void totals(int e, int t) {
    if (threadIdx.x == 0) {
      entries[I] = e;
      tiles[I] = t;
    }
  }
};

struct no_add {};  // the symbolic pass folds nothing

template <int Bin>
__global__ void __launch_bounds__(rowpath::shape<Bin>::threads)
    k_row_symbolic(const index_t* list, pattern_ref A, rowpath::csr_ref B, mask_ref M, const std::uint32_t* jmin,
                   const std::uint32_t* jmax, const unsigned long long* products, offset_t* tiles, offset_t* entries) {
  using S = rowpath::shape<Bin>;
  const index_t I = list[blockIdx.x];
  rowpath::row_block<S::threads, S::items, void>(
      A, B, M, I, jmin[I], jmax[I], int(products[I]), [](offset_t, offset_t) { return cub::NullType(); }, no_add{},
      count_sink{tiles, entries, I});
}

// Tiles and entries of each tile row of C from both paths (n[tm] = 0).
__global__ void k_row_totals(index_t tm, const offset_t* c1_tile_ptr, const offset_t* c1_tile_offset,
                             const offset_t* row_tiles, const offset_t* row_entries, offset_t* tiles,
                             offset_t* entries) {
  for (index_t I = blockIdx.x * index_t(blockDim.x) + threadIdx.x; I <= tm; I += index_t(gridDim.x) * blockDim.x) {
    if (I == tm) {
      tiles[I] = 0;
      entries[I] = 0;
      continue;
    }
    const offset_t t0 = c1_tile_ptr[I], t1 = c1_tile_ptr[I + 1];
    tiles[I] = (t1 - t0) + row_tiles[I];
    entries[I] = (c1_tile_offset[t1] - c1_tile_offset[t0]) + row_entries[I];
  }
}

// The tile path's tiles into their places in C.
__global__ void k_place(offset_t n1, index_t tm, pattern_ref C1, const offset_t* tile_ptr, const offset_t* entry_base,
                        tile_index_t* tile_col, offset_t* tile_offset, std::uint8_t* row_ptr, row_bits* row_mask,
                        std::uint8_t* col_idx, offset_t* map) {
  for (offset_t t = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; t < n1; t += offset_t(gridDim.x) * blockDim.x) {
    const index_t I = last_le(C1.tile_ptr, tm + 1, t);
    const offset_t u = tile_ptr[I] + (t - C1.tile_ptr[I]);
    const offset_t e0 = C1.tile_offset[t];
    const offset_t o = entry_base[I] + (e0 - C1.tile_offset[C1.tile_ptr[I]]);
    map[t] = u;
    tile_col[u] = C1.tile_col[t];
    tile_offset[u] = o;
    for (int r = 0; r < tile_dim; ++r) {
      row_ptr[16 * u + r] = C1.row_ptr[16 * t + r];
      row_mask[16 * u + r] = C1.row_mask[16 * t + r];
    }
    for (offset_t e = e0; e < C1.tile_offset[t + 1]; ++e) col_idx[o + (e - e0)] = C1.col_idx[e];
  }
}

// One thread per (A tile, B tile) pair: its C tile key, or `invalid` when
// the mask prunes that C tile (step 1, pruned by the mask's tiles).
__global__ void k_fill_pairs(offset_t npairs, offset_t na, const offset_t* pair_off, const index_t* a_row,
                             const tile_index_t* a_col, const offset_t* b_tile_ptr, const tile_index_t* b_col,
                             index_t c_tile_cols, mask_ref M, const std::uint8_t* mask_flags, index_t m_nrows,
                             std::uint64_t invalid, std::uint64_t* key, std::uint64_t* val) {
  for (offset_t p = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; p < npairs;
       p += offset_t(gridDim.x) * blockDim.x) {
    const offset_t a = last_le(pair_off, na + 1, p);
    const index_t K = a_col[a];
    const offset_t b = b_tile_ptr[K] + (p - pair_off[a]);
    const index_t I = a_row[a], J = b_col[b];
    bool pruned = false;
    if (M.active) {
      const offset_t t = M.tile(I, J);
      // flags: bit 0 some bit admits, bit 1 every position inside the matrix is set
      pruned = M.complement ? (t >= 0 && (mask_flags[t] & 2)) : (t < 0 || !(mask_flags[t] & 1));
    }
    key[p] = pruned ? invalid : std::uint64_t(I) * std::uint64_t(c_tile_cols) + std::uint64_t(J);
    val[p] = (std::uint64_t(a) << 32) | std::uint64_t(b);
  }
  (void)m_nrows;
}

__global__ void k_mask_flags(offset_t nt, const offset_t* tile_ptr, index_t tm, const tile_index_t* tile_col,
                             const row_bits* bits, index_t nrows, index_t ncols, std::uint8_t* flags) {
  for (offset_t t = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; t < nt; t += offset_t(gridDim.x) * blockDim.x) {
    const index_t I = last_le(tile_ptr, tm + 1, t);
    const row_bits valid = tile::valid_columns(ncols, index_t(tile_col[t]) * tile_dim);
    const index_t rows = nrows - I * tile_dim;
    bool any = false, full = true;
    for (int r = 0; r < tile_dim; ++r) {
      any |= bits[16 * t + r] != 0;
      if (r < rows) full &= (bits[16 * t + r] & valid) == valid;
    }
    flags[t] = std::uint8_t((any ? 1 : 0) | (full ? 2 : 0));
  }
}

// Heads of runs of equal keys among the first n (keys below `invalid`).
__global__ void k_heads(offset_t n, const std::uint64_t* key, std::uint64_t invalid, offset_t* head) {
  for (offset_t p = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; p <= n; p += offset_t(gridDim.x) * blockDim.x)
    head[p] = (p < n && key[p] != invalid && (p == 0 || key[p] != key[p - 1])) ? 1 : 0;
}

__global__ void k_scatter_heads(offset_t n, const std::uint64_t* key, const offset_t* head, const offset_t* idx,
                                offset_t* begin, std::uint64_t* ckey) {
  for (offset_t p = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; p < n; p += offset_t(gridDim.x) * blockDim.x)
    if (head[p]) {
      begin[idx[p]] = p;
      ckey[idx[p]] = key[p];
    }
}

// Number of keys below `invalid` in a sorted array.
__global__ void k_count_valid(offset_t n, const std::uint64_t* key, std::uint64_t invalid, offset_t* out) {
  *out = lower_bound(key, n, invalid);
}

__global__ void k_seg_end(offset_t nc, const offset_t* begin, const offset_t* nvalid, offset_t* end) {
  for (offset_t c = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; c < nc; c += offset_t(gridDim.x) * blockDim.x)
    end[c] = c + 1 < nc ? begin[c + 1] : *nvalid;
}

// Step 2, 16 threads per candidate C tile, thread r on local row r: OR of
// B's row bits selected by A's row r over the tile pairs, AND the mask.
__global__ void k_symbolic(offset_t nc, const std::uint64_t* ckey, index_t c_tile_cols, const offset_t* begin,
                           const offset_t* end, const std::uint64_t* pairs, const row_bits* a_mask,
                           const row_bits* b_mask, mask_ref M, row_bits* c_mask, offset_t* count) {
  const offset_t g = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  const offset_t c = g / tile_dim;
  const int r = static_cast<int>(g % tile_dim);
  row_bits bits = 0;
  if (c < nc) {
    for (offset_t p = begin[c]; p < end[c]; ++p) {
      const offset_t a = offset_t(pairs[p] >> 32), b = offset_t(pairs[p] & 0xFFFFFFFFu);
      bits = row_bits(bits | tile::symbolic_row(a_mask[16 * a + r], b_mask + 16 * b));
    }
    if (M.active) {
      const index_t I = index_t(ckey[c] / c_tile_cols), J = index_t(ckey[c] % c_tile_cols);
      bits = row_bits(bits & M.allowed(M.tile(I, J), r));
    }
    c_mask[16 * c + r] = bits;
  }
  const int n = half_warp_sum(c < nc ? tile::popcount16(bits) : 0);
  if (c < nc && r == 0) count[c] = n;
}

// Kept candidates (count > 0) -> tiles: column, row, offset, masks, carries.
__global__ void k_compact(offset_t nc, const std::uint64_t* ckey, index_t tile_cols, const row_bits* cmask,
                          const offset_t* count, const offset_t* keep_idx, const offset_t* off,
                          const offset_t* carry0, const offset_t* carry1, tile_index_t* tile_col, index_t* tile_row,
                          offset_t* tile_offset, row_bits* mask, offset_t* out0, offset_t* out1) {
  for (offset_t c = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; c < nc; c += offset_t(gridDim.x) * blockDim.x) {
    if (count[c] == 0) continue;
    const offset_t t = keep_idx[c];
    tile_col[t] = tile_index_t(ckey[c] % std::uint64_t(tile_cols));
    tile_row[t] = index_t(ckey[c] / std::uint64_t(tile_cols));
    tile_offset[t] = off[c];
    for (int r = 0; r < tile_dim; ++r) mask[16 * t + r] = cmask[16 * c + r];
    if (carry0) out0[t] = carry0[c];
    if (carry1) out1[t] = carry1[c];
  }
}

__global__ void k_tile_ptr(index_t tm, const index_t* tile_row, offset_t nt, offset_t* tile_ptr) {
  for (index_t I = blockIdx.x * index_t(blockDim.x) + threadIdx.x; I <= tm; I += index_t(gridDim.x) * blockDim.x)
    tile_ptr[I] = lower_bound(tile_row, nt, I);
}

__global__ void k_level2(offset_t nt, const row_bits* mask, const offset_t* tile_offset, std::uint8_t* row_ptr,
                         std::uint8_t* col_idx) {
  for (offset_t t = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; t < nt; t += offset_t(gridDim.x) * blockDim.x) {
    tile::row_ptr_from_masks(mask + 16 * t, row_ptr + 16 * t);
    tile::col_idx_from_masks(mask + 16 * t, col_idx + tile_offset[t]);
  }
}

__global__ void k_keep_flags(offset_t nc, const offset_t* count, offset_t* keep) {
  for (offset_t c = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; c <= nc; c += offset_t(gridDim.x) * blockDim.x)
    keep[c] = c < nc && count[c] > 0 ? 1 : 0;
}

__global__ void k_set(offset_t* p, offset_t v) { *p = v; }

// Run heads of sorted keys -> candidate list (key, first position).
void heads_to_candidates(const device_buffer<std::uint64_t>& key, offset_t n, std::uint64_t invalid,
                         device_buffer<std::uint64_t>& ckey, device_buffer<offset_t>& begin, offset_t& nc,
                         stream_t s) {
  device_buffer<offset_t> head(n + 1, s), idx(n + 1, s);
  k_heads<<<grid_for(n + 1, kThreads), kThreads, 0, native(s)>>>(n, key.data(), invalid, head.data());
  exclusive_sum(head.data(), idx.data(), n + 1, s);
  nc = read_back(idx.data() + n, s);
  ckey = device_buffer<std::uint64_t>(nc, s);
  begin = device_buffer<offset_t>(nc, s);
  k_scatter_heads<<<grid_for(n, kThreads), kThreads, 0, native(s)>>>(n, key.data(), head.data(), idx.data(),
                                                                      begin.data(), ckey.data());
  check(cudaGetLastError(), "candidate heads");
}

}  // namespace

device_buffer<index_t> tile_rows_of(const device_pattern& p, stream_t s) {
  device_buffer<index_t> row(p.ntiles, s);
  if (p.ntiles)
    k_tile_rows<<<grid_for(p.ntiles, kThreads), kThreads, 0, native(s)>>>(p.tile_ptr.data(), p.tile_rows(), p.ntiles,
                                                                           row.data());
  check(cudaGetLastError(), "tile rows");
  return row;
}

device_pattern finish_pattern(index_t nrows, index_t ncols, candidates& c, stream_t s) {
  device_pattern p;
  p.nrows = nrows;
  p.ncols = ncols;
  const offset_t nc = c.n;
  device_buffer<offset_t> keep(nc + 1, s), keep_idx(nc + 1, s), cnt(nc + 1, s), off(nc + 1, s);
  k_keep_flags<<<grid_for(nc + 1, kThreads), kThreads, 0, native(s)>>>(nc, c.count.data(), keep.data());
  exclusive_sum(keep.data(), keep_idx.data(), nc + 1, s);
  // Entry offsets over all candidates (empty ones add nothing).
  if (nc) check(cudaMemcpyAsync(cnt.data(), c.count.data(), nc * sizeof(offset_t), cudaMemcpyDeviceToDevice, native(s)), "copy");
  k_set<<<1, 1, 0, native(s)>>>(cnt.data() + nc, 0);
  exclusive_sum(cnt.data(), off.data(), nc + 1, s);
  offset_t sizes[2];
  copy_device_to_host(&sizes[0], keep_idx.data() + nc, sizeof(offset_t), s);
  copy_device_to_host(&sizes[1], off.data() + nc, sizeof(offset_t), s);
  const offset_t nt = sizes[0];
  p.ntiles = nt;
  p.nnz = sizes[1];
  p.tile_col = device_buffer<tile_index_t>(nt, s);
  p.tile_offset = device_buffer<offset_t>(nt + 1, s);
  p.row_mask = device_buffer<row_bits>(16 * nt, s);
  p.row_ptr = device_buffer<std::uint8_t>(16 * nt, s);
  p.col_idx = device_buffer<std::uint8_t>(p.nnz, s);
  p.tile_ptr = device_buffer<offset_t>(tiles_for(nrows) + 1, s);
  device_buffer<index_t> row(nt, s);
  device_buffer<offset_t> out0(c.carry0.data() ? nt : 0, s), out1(c.carry1.data() ? nt : 0, s);
  if (nc)
    k_compact<<<grid_for(nc, kThreads), kThreads, 0, native(s)>>>(
        nc, c.key.data(), tiles_for(ncols), c.mask.data(), c.count.data(), keep_idx.data(), off.data(),
        c.carry0.data(), c.carry1.data(), p.tile_col.data(), row.data(), p.tile_offset.data(), p.row_mask.data(),
        out0.data(), out1.data());
  k_set<<<1, 1, 0, native(s)>>>(p.tile_offset.data() + nt, p.nnz);
  k_tile_ptr<<<grid_for(tiles_for(nrows) + 1, kThreads), kThreads, 0, native(s)>>>(tiles_for(nrows), row.data(), nt,
                                                                                     p.tile_ptr.data());
  if (nt)
    k_level2<<<grid_for(nt, kThreads), kThreads, 0, native(s)>>>(nt, p.row_mask.data(), p.tile_offset.data(),
                                                                  p.row_ptr.data(), p.col_idx.data());
  check(cudaGetLastError(), "finish pattern");
  c.carry0.swap(out0);
  c.carry1.swap(out1);
  return p;
}

namespace {
// Bits 0/1 of each mask tile: "admits something", "admits everything".
device_buffer<std::uint8_t> mask_flags(const mask_arg& M, stream_t s) {
  if (!M.pat) return device_buffer<std::uint8_t>();
  const device_pattern& m = *M.pat;
  device_buffer<std::uint8_t> f(m.ntiles, s);
  if (m.ntiles)
    k_mask_flags<<<grid_for(m.ntiles, kThreads), kThreads, 0, native(s)>>>(
        m.ntiles, m.tile_ptr.data(), m.tile_rows(), m.tile_col.data(), M.bits, m.nrows, m.ncols, f.data());
  check(cudaGetLastError(), "mask flags");
  return f;
}
}  // namespace

product_tuning& tuning() {
  static product_tuning t = [] {
    product_tuning d;
    if (const char* e = std::getenv("TGB_ROW_PATH")) d.row_path = std::string(e) != "0";
    if (const char* e = std::getenv("TGB_ROW_PATH_RATIO")) {
      char* end = nullptr;
      const double x = std::strtod(e, &end);
      if (end != e && x >= 0) d.max_products_per_pair = x;
    }
    if (const char* e = std::getenv("TGB_ROW_PATH_MIN_PAIRS")) {
      char* end = nullptr;
      const long long x = std::strtoll(e, &end, 10);
      if (end != e && x >= 0) d.min_pairs = x;
    }
    return d;
  }();
  return t;
}

namespace {

constexpr double kRowPathMinShare = 0.2;

// Routes the tile rows of A*B (route[I], see k_route) and fills the row
// path's lists; returns the route array, or an empty one when every row
// takes the tile path.
device_buffer<std::uint8_t> route_rows(const device_pattern& A, const device_pattern& B, const index_t* a_row,
                                       product_plan::rows_t& rows, stream_t s) {
  const product_tuning& tun = tuning();
  const index_t tm = A.tile_rows();
  if (!tun.row_path || A.ntiles == 0 || B.ntiles == 0) return {};
  rows.b_row_ptr = scalar_row_ptr(B, s);
  // count: rows per bin, then products of the tile path's rows and of the row path's.
  device_buffer<unsigned long long> products(tm, s), pairs(tm, s), count(rowpath::kBins + 2, s);
  rows.jmin = device_buffer<std::uint32_t>(tm, s);
  rows.jmax = device_buffer<std::uint32_t>(tm, s);
  check(cudaMemsetAsync(products.data(), 0, tm * sizeof(unsigned long long), native(s)), "row work");
  check(cudaMemsetAsync(pairs.data(), 0, tm * sizeof(unsigned long long), native(s)), "row work");
  check(cudaMemsetAsync(count.data(), 0, (rowpath::kBins + 2) * sizeof(unsigned long long), native(s)), "row work");
  check(cudaMemsetAsync(rows.jmin.data(), 0xFF, tm * sizeof(std::uint32_t), native(s)), "row work");
  check(cudaMemsetAsync(rows.jmax.data(), 0, tm * sizeof(std::uint32_t), native(s)), "row work");
  k_row_work<<<grid_for(A.ntiles, kThreads), kThreads, 0, native(s)>>>(A.ntiles, a_row, ref(A), ref(B),
                                                                        rows.b_row_ptr.data(), products.data(),
                                                                        pairs.data(), rows.jmin.data(),
                                                                        rows.jmax.data());
  device_buffer<std::uint8_t> route(tm, s);
  rows.list = device_buffer<index_t>(rowpath::kBins * tm, s);
  k_route<<<grid_for(tm, kThreads), kThreads, 0, native(s)>>>(tm, products.data(), pairs.data(), rows.jmin.data(),
                                                               rows.jmax.data(), tun.max_products_per_pair,
                                                               route.data(), count.data(), rows.list.data());
  check(cudaGetLastError(), "row routing");
  unsigned long long n[rowpath::kBins + 2];
  copy_device_to_host(n, count.data(), sizeof(n), s);
  // Both paths in one product cost a pass that places the tile path's tiles
  // beside the row path's: not worth it for a small share of the products.
  const unsigned long long tile_products = n[rowpath::kBins], row_products = n[rowpath::kBins + 1];
  if (tile_products > 0 && double(row_products) < kRowPathMinShare * double(tile_products + row_products)) {
    rows = product_plan::rows_t{};  // B's CSR and the spans go now, not when mxm returns
    return {};
  }
  for (int b = 0; b < rowpath::kBins; ++b) rows.count[b] = offset_t(n[b]);
  // products as offset_t for the kernels (same bits, never above 2^63).
  rows.products = device_buffer<offset_t>(tm, s);
  check(cudaMemcpyAsync(rows.products.data(), products.data(), tm * sizeof(offset_t), cudaMemcpyDeviceToDevice,
                        native(s)),
        "row work");
  return route;
}

template <int Bin>
void launch_row_symbolic(const product_plan::rows_t& rows, index_t tm, const device_pattern& A, const mask_arg& M,
                         offset_t* tiles, offset_t* entries, stream_t s) {
  if (rows.count[Bin] == 0) return;
  using blk = rowpath::block<rowpath::shape<Bin>::threads, rowpath::shape<Bin>::items, void>;
  // Opt in whatever the size (static + dynamic may pass 48 KB).
  check(cudaFuncSetAttribute(k_row_symbolic<Bin>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(blk::bytes)),
        "row path");
  k_row_symbolic<Bin><<<unsigned(rows.count[Bin]), rowpath::shape<Bin>::threads, blk::bytes, native(s)>>>(
      rows.list.data() + index_t(Bin) * tm, ref(A),
      rowpath::csr_ref{rows.b_row_ptr.data(), rows.b_col.data(), rows.b_pos.data()}, ref(M), rows.jmin.data(),
      rows.jmax.data(), reinterpret_cast<const unsigned long long*>(rows.products.data()), tiles, entries);
  check(cudaGetLastError(), "row path symbolic");
}

}  // namespace

product_plan plan_product(const device_pattern& A, const device_pattern& B, const mask_arg& M, stream_t s) {
  product_plan plan;
  const offset_t na = A.ntiles;
  const index_t ctc = B.tile_cols();
  const index_t tm = A.tile_rows();
  phase(s, "mxm start");
  device_buffer<index_t> a_row = tile_rows_of(A, s);
  // Step 1: every (A tile, B tile) pair of the tile path's rows, keyed by
  // its C tile; pruned pairs get the key `invalid` and sort last. Routing
  // between the paths is only considered for products with many pairs.
  device_buffer<offset_t> cnt(na + 1, s), off(na + 1, s);
  k_pair_counts<<<grid_for(na + 1, kThreads), kThreads, 0, native(s)>>>(na, A.tile_col.data(), B.tile_ptr.data(),
                                                                         a_row.data(), nullptr, cnt.data());
  exclusive_sum(cnt.data(), off.data(), na + 1, s);
  offset_t npairs = read_back(off.data() + na, s);
  device_buffer<std::uint8_t> route;
  if (npairs >= tuning().min_pairs) route = route_rows(A, B, a_row.data(), plan.rows, s);
  if (route.data()) {
    k_pair_counts<<<grid_for(na + 1, kThreads), kThreads, 0, native(s)>>>(na, A.tile_col.data(), B.tile_ptr.data(),
                                                                           a_row.data(), route.data(), cnt.data());
    exclusive_sum(cnt.data(), off.data(), na + 1, s);
    npairs = read_back(off.data() + na, s);
  }
  phase(s, "route rows");
  plan.npairs = npairs;
  const std::uint64_t invalid = std::uint64_t(A.tile_rows()) * std::uint64_t(ctc);
  device_buffer<std::uint64_t> key(npairs, s), val(npairs, s);
  {
    device_buffer<std::uint8_t> flags = mask_flags(M, s);
    if (npairs)
      k_fill_pairs<<<grid_for(npairs, kThreads), kThreads, 0, native(s)>>>(
          npairs, na, off.data(), a_row.data(), A.tile_col.data(), B.tile_ptr.data(), B.tile_col.data(), ctc, ref(M),
          flags.data(), M.pat ? M.pat->nrows : 0, invalid, key.data(), val.data());
    check(cudaGetLastError(), "tile pairs");
  }
  phase(s, "tile pairs");
  cnt = device_buffer<offset_t>();
  off = device_buffer<offset_t>();
  a_row = device_buffer<index_t>();
  sort_pairs(key, val, npairs, bits_for(invalid), s);
  phase(s, "pair sort");
  // Candidate C tiles: runs of equal keys; their pairs come in increasing k
  // (the sort is stable and pairs were made in increasing k).
  candidates c;
  device_buffer<offset_t> begin;
  heads_to_candidates(key, npairs, invalid, c.key, begin, c.n, s);
  device_buffer<offset_t> nvalid(1, s), end(c.n, s);
  k_count_valid<<<1, 1, 0, native(s)>>>(npairs, key.data(), invalid, nvalid.data());
  if (c.n)
    k_seg_end<<<grid_for(c.n, kThreads), kThreads, 0, native(s)>>>(c.n, begin.data(), nvalid.data(), end.data());
  key = device_buffer<std::uint64_t>();
  // Step 2: symbolic on bit masks.
  c.mask = device_buffer<row_bits>(16 * c.n, s);
  c.count = device_buffer<offset_t>(c.n, s);
  if (c.n)
    k_symbolic<<<grid_for(16 * c.n, kThreads), kThreads, 0, native(s)>>>(
        c.n, c.key.data(), ctc, begin.data(), end.data(), val.data(), A.row_mask.data(), B.row_mask.data(), ref(M),
        c.mask.data(), c.count.data());
  check(cudaGetLastError(), "symbolic");
  phase(s, "tile symbolic");
  c.carry0.swap(begin);
  c.carry1.swap(end);
  device_pattern c1 = finish_pattern(A.nrows, B.ncols, c, s);
  phase(s, "tile pattern");
  plan.seg_begin.swap(c.carry0);
  plan.seg_end.swap(c.carry1);
  plan.pairs.swap(val);
  plan.tile_path_tiles = c1.ntiles;
  product_plan::rows_t& rows = plan.rows;
  if (rows.total() == 0) {
    plan.C = std::move(c1);
    return plan;
  }
  // Row path, symbolic: tiles and entries of each of its rows.
  rows.b_col = device_buffer<index_t>(B.nnz, s);
  rows.b_pos = device_buffer<offset_t>(B.nnz, s);
  k_b_fill<<<grid_for(B.nrows, kThreads), kThreads, 0, native(s)>>>(B.nrows, ref(B), rows.b_row_ptr.data(),
                                                                     rows.b_col.data(), rows.b_pos.data());
  device_buffer<offset_t> row_tiles(tm, s), row_entries(tm, s);
  check(cudaMemsetAsync(row_tiles.data(), 0, tm * sizeof(offset_t), native(s)), "row path");
  check(cudaMemsetAsync(row_entries.data(), 0, tm * sizeof(offset_t), native(s)), "row path");
  launch_row_symbolic<0>(rows, tm, A, M, row_tiles.data(), row_entries.data(), s);
  launch_row_symbolic<1>(rows, tm, A, M, row_tiles.data(), row_entries.data(), s);
  launch_row_symbolic<2>(rows, tm, A, M, row_tiles.data(), row_entries.data(), s);
  phase(s, "row symbolic");
  // C: both paths' tile rows side by side.
  device_buffer<offset_t> tiles(tm + 1, s), entries(tm + 1, s);
  device_pattern& C = plan.C;
  C.nrows = A.nrows;
  C.ncols = B.ncols;
  C.tile_ptr = device_buffer<offset_t>(tm + 1, s);
  rows.entry_base = device_buffer<offset_t>(tm + 1, s);
  k_row_totals<<<grid_for(tm + 1, kThreads), kThreads, 0, native(s)>>>(tm, c1.tile_ptr.data(), c1.tile_offset.data(),
                                                                        row_tiles.data(), row_entries.data(),
                                                                        tiles.data(), entries.data());
  exclusive_sum(tiles.data(), C.tile_ptr.data(), tm + 1, s);
  exclusive_sum(entries.data(), rows.entry_base.data(), tm + 1, s);
  offset_t sizes[2];
  copy_device_to_host(&sizes[0], C.tile_ptr.data() + tm, sizeof(offset_t), s);
  copy_device_to_host(&sizes[1], rows.entry_base.data() + tm, sizeof(offset_t), s);
  C.ntiles = sizes[0];
  C.nnz = sizes[1];
  C.tile_col = device_buffer<tile_index_t>(C.ntiles, s);
  C.tile_offset = device_buffer<offset_t>(C.ntiles + 1, s);
  C.row_ptr = device_buffer<std::uint8_t>(16 * C.ntiles, s);
  C.row_mask = device_buffer<row_bits>(16 * C.ntiles, s);
  C.col_idx = device_buffer<std::uint8_t>(C.nnz, s);
  k_set<<<1, 1, 0, native(s)>>>(C.tile_offset.data() + C.ntiles, C.nnz);
  plan.tile_map = device_buffer<offset_t>(c1.ntiles, s);
  if (c1.ntiles)
    k_place<<<grid_for(c1.ntiles, kThreads), kThreads, 0, native(s)>>>(
        c1.ntiles, tm, ref(c1), C.tile_ptr.data(), rows.entry_base.data(), C.tile_col.data(), C.tile_offset.data(),
        C.row_ptr.data(), C.row_mask.data(), C.col_idx.data(), plan.tile_map.data());
  check(cudaGetLastError(), "place tiles");
  phase(s, "merge paths");
  return plan;
}

namespace {

__global__ void k_tile_keys(offset_t nt, const index_t* row, const tile_index_t* col, index_t tile_cols,
                            std::uint64_t* key, offset_t base) {
  for (offset_t t = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; t < nt; t += offset_t(gridDim.x) * blockDim.x)
    key[base + t] = std::uint64_t(row[t]) * std::uint64_t(tile_cols) + col[t];
}

// Bits of each candidate tile (I, J) of a merge of two patterns X and Y,
// 16 threads per tile: combine(row of X's tile, row of Y's tile, I, J, r),
// with the count per tile and the X and Y tile behind it (-1 for none).
template <class Combine>
__global__ void k_merge_bits(offset_t nu, const std::uint64_t* ukey, index_t tile_cols, pattern_ref X, pattern_ref Y,
                             Combine combine, row_bits* out, offset_t* count, offset_t* x_tile, offset_t* y_tile) {
  const offset_t g = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  const offset_t u = g / tile_dim;
  const int r = static_cast<int>(g % tile_dim);
  row_bits bits = 0;
  if (u < nu) {
    const index_t I = index_t(ukey[u] / tile_cols), J = index_t(ukey[u] % tile_cols);
    const offset_t tx = find_tile(X.tile_ptr, X.tile_col, I, J);
    const offset_t ty = find_tile(Y.tile_ptr, Y.tile_col, I, J);
    bits = combine(tx >= 0 ? X.row_mask[16 * tx + r] : row_bits(0), ty >= 0 ? Y.row_mask[16 * ty + r] : row_bits(0),
                   I, J, r);
    out[16 * u + r] = bits;
    if (r == 0) {
      x_tile[u] = tx;
      y_tile[u] = ty;
    }
  }
  const int n = half_warp_sum(u < nu ? tile::popcount16(bits) : 0);
  if (u < nu && r == 0) count[u] = n;
}

// C<M, replace> = accum(C, T): X = C, Y = T.
struct writeback_combine {
  mask_ref M;
  bool has_accum, replace;
  __device__ row_bits operator()(row_bits c, row_bits t, index_t I, index_t J, int r) const {
    return tile::writeback_row_bits(c, t, M.allowed(M.active ? M.tile(I, J) : -1, r), has_accum, replace);
  }
};

// Element-wise union (add) or intersection of A and B.
struct ewise_combine {
  bool add;
  __device__ row_bits operator()(row_bits a, row_bits b, index_t, index_t, int) const {
    return add ? row_bits(a | b) : row_bits(a & b);
  }
};

}  // namespace

// Candidate tiles: the union of the tile positions of C and T.
static candidates union_candidates(const device_pattern& C, const device_pattern& T, stream_t s) {
  const offset_t n = C.ntiles + T.ntiles;
  const index_t tc = C.tile_cols();
  device_buffer<std::uint64_t> key(n, s);
  {
    device_buffer<index_t> crow = tile_rows_of(C, s), trow = tile_rows_of(T, s);
    if (C.ntiles)
      k_tile_keys<<<grid_for(C.ntiles, kThreads), kThreads, 0, native(s)>>>(C.ntiles, crow.data(), C.tile_col.data(),
                                                                             tc, key.data(), 0);
    if (T.ntiles)
      k_tile_keys<<<grid_for(T.ntiles, kThreads), kThreads, 0, native(s)>>>(T.ntiles, trow.data(), T.tile_col.data(),
                                                                             tc, key.data(), C.ntiles);
    check(cudaGetLastError(), "tile keys");
  }
  const std::uint64_t invalid = std::uint64_t(C.tile_rows()) * std::uint64_t(tc);
  sort_keys(key, n, bits_for(invalid), s);
  candidates c;
  device_buffer<offset_t> begin;
  heads_to_candidates(key, n, invalid, c.key, begin, c.n, s);
  c.mask = device_buffer<row_bits>(16 * c.n, s);
  c.count = device_buffer<offset_t>(c.n, s);
  c.carry0 = device_buffer<offset_t>(c.n, s);
  c.carry1 = device_buffer<offset_t>(c.n, s);
  return c;
}

writeback_plan plan_writeback(const device_pattern& C, const device_pattern& T, const mask_arg& M, bool has_accum,
                              bool replace, stream_t s) {
  candidates c = union_candidates(C, T, s);
  if (c.n)
    k_merge_bits<<<grid_for(16 * c.n, kThreads), kThreads, 0, native(s)>>>(
        c.n, c.key.data(), C.tile_cols(), ref(C), ref(T), writeback_combine{ref(M), has_accum, replace}, c.mask.data(),
        c.count.data(), c.carry0.data(), c.carry1.data());
  check(cudaGetLastError(), "write-back bits");
  writeback_plan w;
  w.out = finish_pattern(C.nrows, C.ncols, c, s);
  w.c_tile.swap(c.carry0);
  w.t_tile.swap(c.carry1);
  return w;
}

ewise_plan plan_ewise(const device_pattern& A, const device_pattern& B, bool add, stream_t s) {
  candidates c = union_candidates(A, B, s);
  if (c.n)
    k_merge_bits<<<grid_for(16 * c.n, kThreads), kThreads, 0, native(s)>>>(
        c.n, c.key.data(), A.tile_cols(), ref(A), ref(B), ewise_combine{add}, c.mask.data(), c.count.data(),
        c.carry0.data(), c.carry1.data());
  check(cudaGetLastError(), "element-wise bits");
  ewise_plan w;
  w.out = finish_pattern(A.nrows, A.ncols, c, s);
  w.a_tile.swap(c.carry0);
  w.b_tile.swap(c.carry1);
  return w;
}

device_buffer<offset_t> scalar_row_ptr(const device_pattern& p, stream_t s) {
  device_buffer<offset_t> len(p.nrows + 1, s), ptr(p.nrows + 1, s);
  k_row_lengths<<<grid_for(p.nrows + 1, kThreads), kThreads, 0, native(s)>>>(p.nrows, ref(p), len.data());
  check(cudaGetLastError(), "row lengths");
  exclusive_sum(len.data(), ptr.data(), p.nrows + 1, s);
  return ptr;
}

device_buffer<std::uint64_t> tile_keys(const device_pattern& p, stream_t s) {
  device_buffer<std::uint64_t> key(p.ntiles, s);
  device_buffer<index_t> row = tile_rows_of(p, s);
  if (p.ntiles)
    k_tile_keys<<<grid_for(p.ntiles, kThreads), kThreads, 0, native(s)>>>(p.ntiles, row.data(), p.tile_col.data(),
                                                                           p.tile_cols(), key.data(), 0);
  check(cudaGetLastError(), "tile keys");
  return key;
}

namespace {

// Each entry of A, keyed by its place in A': tile key, then local (row, col).
__global__ void k_transpose_keys(offset_t nt, const index_t* row, pattern_ref A, index_t at_tile_cols,
                                 std::uint64_t* key, std::uint64_t* idx) {
  for (offset_t t = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; t < nt; t += offset_t(gridDim.x) * blockDim.x) {
    const index_t I = row[t], J = A.tile_col[t];
    const std::uint64_t tk = std::uint64_t(J) * std::uint64_t(at_tile_cols) + std::uint64_t(I);
    const offset_t e0 = A.tile_offset[t];
    for (int r = 0; r < tile_dim; ++r) {
      const int b = A.row_ptr[16 * t + r];
      const int e = r == tile_dim - 1 ? int(A.tile_offset[t + 1] - e0) : A.row_ptr[16 * t + r + 1];
      for (int q = b; q < e; ++q) {
        const int c = A.col_idx[e0 + q];
        key[e0 + q] = (tk << 8) | (std::uint64_t(c) << 4) | std::uint64_t(r);
        idx[e0 + q] = std::uint64_t(e0 + q);
      }
    }
  }
}

__global__ void k_tile_heads(offset_t n, const std::uint64_t* key, offset_t* head) {
  for (offset_t e = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; e <= n; e += offset_t(gridDim.x) * blockDim.x)
    head[e] = (e < n && (e == 0 || (key[e] >> 8) != (key[e - 1] >> 8))) ? 1 : 0;
}

__global__ void k_tiles_from_keys(offset_t n, const std::uint64_t* key, const offset_t* head, const offset_t* idx,
                                  index_t tile_cols, tile_index_t* tile_col, index_t* tile_row,
                                  offset_t* tile_offset) {
  for (offset_t e = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; e < n; e += offset_t(gridDim.x) * blockDim.x)
    if (head[e]) {
      const offset_t t = idx[e];
      const std::uint64_t tk = key[e] >> 8;
      tile_col[t] = tile_index_t(tk % std::uint64_t(tile_cols));
      tile_row[t] = index_t(tk / std::uint64_t(tile_cols));
      tile_offset[t] = e;
    }
}

__global__ void k_masks_from_keys(offset_t nt, const std::uint64_t* key, const offset_t* tile_offset, row_bits* mask,
                                  std::uint8_t* row_ptr, std::uint8_t* col_idx) {
  for (offset_t t = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; t < nt; t += offset_t(gridDim.x) * blockDim.x) {
    row_bits m[tile_dim] = {};
    for (offset_t e = tile_offset[t]; e < tile_offset[t + 1]; ++e) {
      const int r = int((key[e] >> 4) & 15), c = int(key[e] & 15);
      m[r] = row_bits(m[r] | (1u << c));
      col_idx[e] = std::uint8_t(c);
    }
    for (int r = 0; r < tile_dim; ++r) mask[16 * t + r] = m[r];
    tile::row_ptr_from_masks(m, row_ptr + 16 * t);
  }
}

}  // namespace

device_pattern pattern_from_sorted_keys(index_t nrows, index_t ncols, const std::uint64_t* key, offset_t n,
                                        stream_t s) {
  const index_t tm = tiles_for(nrows), tc = tiles_for(ncols);
  device_pattern p;
  p.nrows = nrows;
  p.ncols = ncols;
  p.nnz = n;
  device_buffer<offset_t> head(n + 1, s), hidx(n + 1, s);
  k_tile_heads<<<grid_for(n + 1, kThreads), kThreads, 0, native(s)>>>(n, key, head.data());
  exclusive_sum(head.data(), hidx.data(), n + 1, s);
  const offset_t nt = read_back(hidx.data() + n, s);
  p.ntiles = nt;
  p.tile_col = device_buffer<tile_index_t>(nt, s);
  p.tile_offset = device_buffer<offset_t>(nt + 1, s);
  p.row_mask = device_buffer<row_bits>(16 * nt, s);
  p.row_ptr = device_buffer<std::uint8_t>(16 * nt, s);
  p.col_idx = device_buffer<std::uint8_t>(n, s);
  p.tile_ptr = device_buffer<offset_t>(tm + 1, s);
  device_buffer<index_t> row(nt, s);
  if (n)
    k_tiles_from_keys<<<grid_for(n, kThreads), kThreads, 0, native(s)>>>(n, key, head.data(), hidx.data(), tc,
                                                                          p.tile_col.data(), row.data(),
                                                                          p.tile_offset.data());
  k_set<<<1, 1, 0, native(s)>>>(p.tile_offset.data() + nt, n);
  k_tile_ptr<<<grid_for(tm + 1, kThreads), kThreads, 0, native(s)>>>(tm, row.data(), nt, p.tile_ptr.data());
  if (nt)
    k_masks_from_keys<<<grid_for(nt, kThreads), kThreads, 0, native(s)>>>(nt, key, p.tile_offset.data(),
                                                                           p.row_mask.data(), p.row_ptr.data(),
                                                                           p.col_idx.data());
  check(cudaGetLastError(), "pattern from keys");
  return p;
}

device_pattern transpose_pattern(const device_pattern& A, device_buffer<offset_t>& gather, stream_t s) {
  const offset_t n = A.nnz;
  const index_t tm = tiles_for(A.ncols), tc = tiles_for(A.nrows);  // A' tile rows / cols
  const int key_bits = entry_key_bits(tm, tc);  // throws before any work if keys cannot fit
  device_buffer<std::uint64_t> key(n, s), idx(n, s);
  {
    device_buffer<index_t> row = tile_rows_of(A, s);
    if (A.ntiles)
      k_transpose_keys<<<grid_for(A.ntiles, kThreads), kThreads, 0, native(s)>>>(A.ntiles, row.data(), ref(A), tc,
                                                                                  key.data(), idx.data());
    check(cudaGetLastError(), "transpose keys");
  }
  sort_pairs(key, idx, n, key_bits, s);
  device_pattern p = pattern_from_sorted_keys(A.ncols, A.nrows, key.data(), n, s);
  gather = device_buffer<offset_t>(n, s);
  if (n)
    check(cudaMemcpyAsync(gather.data(), idx.data(), n * sizeof(offset_t), cudaMemcpyDeviceToDevice, native(s)),
          "copy");
  return p;
}

}  // namespace tgb::detail::cuda
