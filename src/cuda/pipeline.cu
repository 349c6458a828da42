// tgb CUDA backend: the type-independent steps of mxm, of the write-back and
// of the transpose. Everything stays on the device; the host reads back only
// the sizes it must allocate by.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <utility>
#include <vector>
#include <string>

#include <cub/block/block_reduce.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include "tgb/detail/cuda/common.cuh"
#include "tgb/detail/cuda/plan.hpp"
#include "tgb/detail/cuda/rowpath.cuh"
#include "shared.cuh"
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

// Per entry of A (16 threads a tile, thread r on local row r): its global
// column, local row, and the length of B's row it meets (len[nnz] = 0 for
// the scan). One thread a tile wrote its entries one by one: 0.5 ms on
// stencil27, H200 r25.
__global__ void k_a_entries(offset_t na, pattern_ref A, const offset_t* b_row_ptr, index_t* a_k, std::uint8_t* a_r,
                            offset_t* len) {
  const offset_t g = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  const offset_t a = g / tile_dim;
  const int r = static_cast<int>(g % tile_dim);
  if (a > na) return;
  if (a == na) {
    if (r == 0) len[A.tile_offset[na]] = 0;
    return;
  }
  const offset_t e0 = A.tile_offset[a];
  const index_t k0 = index_t(A.tile_col[a]) << tile_shift;
  const int q1 = r + 1 < tile_dim ? A.row_ptr[16 * a + r + 1] : int(A.tile_offset[a + 1] - e0);
  for (int q = A.row_ptr[16 * a + r]; q < q1; ++q) {
    const index_t k = k0 + A.col_idx[e0 + q];
    a_k[e0 + q] = k;
    a_r[e0 + q] = std::uint8_t(r);
    len[e0 + q] = b_row_ptr[k + 1] - b_row_ptr[k];
  }
}

// Per tile row of A: tile pairs, and the span of B's tile columns it can reach.
__global__ void k_row_work(offset_t na, const index_t* a_row, pattern_ref A, pattern_ref B,
                           unsigned long long* pairs, std::uint32_t* jmin, std::uint32_t* jmax) {
  for (offset_t a = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; a < na; a += offset_t(gridDim.x) * blockDim.x) {
    const index_t I = a_row[a], K = A.tile_col[a];
    const offset_t b0 = B.tile_ptr[K], b1 = B.tile_ptr[K + 1];
    if (b0 == b1) continue;
    atomicAdd(pairs + I, static_cast<unsigned long long>(b1 - b0));
    atomicMin(jmin + I, B.tile_col[b0]);
    atomicMax(jmax + I, B.tile_col[b1 - 1]);
  }
}

// The routing policy (product_tuning), clamped to what the bins hold.
struct route_params {
  double ratio;
  long long max_shared;
  std::uint32_t dense_tiles;
  double dense_fill;
  long long dense_max;
};

// Counters of the routing (read back once).
enum : int {
  kCntHubs = rowpath::kHub,  // rows per bin come first
  kCntTileProducts = rowpath::kHub + 1,
  kCntRowProducts,
  kCntHubProducts,
  kCntHubWords,
  kCntTilePairs,
  kCntAllPairs,
  kCntRowRows,
  kCnt
};
constexpr std::uint8_t kRouteTile = 0, kRouteNone = 255;  // else 1 + bin

// Route of each tile row (see product_tuning): row-path rows are appended to
// their bin's list and to `all`, get their place in the key scratch, and hub
// rows their product count (hub_f, by hub) and the 32-bit words of a bitmap
// over their span (hub_w: 256 positions a tile column).
__global__ void k_route(index_t tm, pattern_ref A, const offset_t* a_prod, const unsigned long long* pairs,
                        const std::uint32_t* jmin, const std::uint32_t* jmax, route_params prm, std::uint8_t* route,
                        unsigned long long* count, index_t* list, index_t* all, offset_t* key_off, offset_t* hub_f,
                        offset_t* hub_w) {
  for (index_t I = blockIdx.x * index_t(blockDim.x) + threadIdx.x; I < tm; I += index_t(gridDim.x) * blockDim.x) {
    const offset_t f = a_prod[rowpath::row_entry_end(A, I)] - a_prod[rowpath::row_entry_begin(A, I)];
    const unsigned long long p = pairs[I];
    atomicAdd(count + kCntAllPairs, p);
    int bin = -1;
    if (f > 0 && jmax[I] - jmin[I] <= rowpath::kMaxSpan && double(f) <= prm.ratio * double(p)) {
      const std::uint32_t tiles = jmax[I] - jmin[I] + 1;
      const bool dense = tiles <= prm.dense_tiles && f <= prm.dense_max;
      if (dense && (double(f) >= prm.dense_fill * 256.0 * tiles || f > prm.max_shared)) {
        bin = rowpath::kDenseBin;
      } else if (f <= prm.max_shared) {
        for (int b = 0; b < rowpath::kHashBins && bin < 0; ++b)
          if (f <= rowpath::hash_capacity(b)) bin = b;
      } else {
        bin = rowpath::kHub;
      }
    }
    route[I] = f == 0 ? kRouteNone : bin < 0 ? kRouteTile : std::uint8_t(1 + bin);
    if (f > 0 && bin < 0) {
      atomicAdd(count + kCntTileProducts, static_cast<unsigned long long>(f));
      atomicAdd(count + kCntTilePairs, p);
    }
    if (bin >= 0) {
      const unsigned long long at = atomicAdd(count + bin, 1ull);
      list[index_t(bin) * tm + index_t(at)] = I;
      all[atomicAdd(count + kCntRowRows, 1ull)] = I;
      key_off[I] = offset_t(atomicAdd(count + kCntRowProducts, static_cast<unsigned long long>(f)));
      if (bin == rowpath::kHub) {
        hub_f[at] = f;
        hub_w[at] = 8 * offset_t(jmax[I] - jmin[I] + 1);
        atomicAdd(count + kCntHubProducts, static_cast<unsigned long long>(f));
        atomicAdd(count + kCntHubWords, static_cast<unsigned long long>(hub_w[at]));
      }
    }
  }
}

template <int Bin>
__global__ void __launch_bounds__(rowpath::sym_shape<Bin>::threads)
    k_row_symbolic(const index_t* list, pattern_ref A, rowpath::a_ref Ae, rowpath::csr_ref B, mask_ref M,
                   const std::uint32_t* jmin, const std::uint32_t* jmax, std::uint32_t* keys, const offset_t* key_off,
                   offset_t* tiles, offset_t* entries) {
  using S = rowpath::sym_shape<Bin>;
  const index_t I = list[blockIdx.x];
  rowpath::symbolic_hash<S::threads, S::items>(A, Ae, B, M, I, jmin[I], jmax[I], keys + key_off[I], entries + I,
                                               tiles + I);
}

__global__ void __launch_bounds__(rowpath::kDenseThreads)
    k_row_symbolic_dense(const index_t* list, pattern_ref A, rowpath::a_ref Ae, rowpath::csr_ref B, mask_ref M,
                         const std::uint32_t* jmin, std::uint32_t* keys, const offset_t* key_off, offset_t* tiles,
                         offset_t* entries) {
  const index_t I = list[blockIdx.x];
  rowpath::symbolic_dense<rowpath::kDenseThreads, rowpath::kDenseSlots>(A, Ae, B, M, I, jmin[I], keys + key_off[I],
                                                                        entries + I, tiles + I);
}

// Hub product g (among all hubs' products): its hub h, its tile row I, its
// row key, and whether the mask admits it.
__device__ inline std::uint32_t hub_product_key(offset_t g, index_t nh, const offset_t* hub_off,
                                                const index_t* hub_list, const pattern_ref& A,
                                                const rowpath::a_ref& Ae, const rowpath::csr_ref& B,
                                                const mask_ref& M, const std::uint32_t* jmin, index_t& h,
                                                bool& admitted) {
  h = index_t(last_le(hub_off, offset_t(nh), g));
  const index_t I = hub_list[h];
  const offset_t e0 = rowpath::row_entry_begin(A, I), e1 = rowpath::row_entry_end(A, I);
  const rowpath::product_at x = rowpath::locate(Ae, B, e0, e1, Ae.prod[e0] + (g - hub_off[h]));
  const std::uint32_t k = rowpath::make_key(B.col[x.b], x.r, jmin[I]);
  rowpath::mask_cache mc;
  admitted = rowpath::admitted(M, I, jmin[I], k, mc);
  return k;
}

// Hub rows: every product keyed (hub << 32 | row key), or `invalid` where the
// mask rejects it; val = its index among the hubs' products.
__global__ void k_hub_products(offset_t n, index_t nh, const offset_t* hub_off, const index_t* hub_list,
                               pattern_ref A, rowpath::a_ref Ae, rowpath::csr_ref B, mask_ref M,
                               const std::uint32_t* jmin, std::uint64_t invalid, std::uint64_t* key,
                               std::uint64_t* val) {
  for (offset_t g = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; g < n; g += offset_t(gridDim.x) * blockDim.x) {
    index_t h;
    bool ok;
    const std::uint32_t k = hub_product_key(g, nh, hub_off, hub_list, A, Ae, B, M, jmin, h, ok);
    key[g] = ok ? (std::uint64_t(h) << 32) | k : invalid;
    val[g] = std::uint64_t(g);
  }
}

// Per hub h (and h = nh): the rank of its first distinct key.
__global__ void k_hub_first(index_t nh, offset_t n, const std::uint64_t* key, const offset_t* rank, offset_t* first) {
  for (index_t h = blockIdx.x * index_t(blockDim.x) + threadIdx.x; h <= nh; h += index_t(gridDim.x) * blockDim.x)
    first[h] = rank[lower_bound(key, n, std::uint64_t(h) << 32)];
}

// Each distinct key of a hub row into the key scratch; tiles and entries.
__global__ void k_hub_finish(offset_t n, index_t nh, const std::uint64_t* key, const offset_t* head,
                             const offset_t* rank, const offset_t* first, const index_t* hub_list,
                             const offset_t* key_off, std::uint32_t* keys, offset_t* tiles, offset_t* entries) {
  for (offset_t q = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; q < n; q += offset_t(gridDim.x) * blockDim.x) {
    if (!head[q]) continue;
    const index_t h = index_t(key[q] >> 32), I = hub_list[h];
    const offset_t rk = rank[q] - first[h];
    keys[key_off[I] + rk] = std::uint32_t(key[q]);
    if (rk == 0 || (key[q - 1] >> 8) != (key[q] >> 8))
      atomicAdd(reinterpret_cast<unsigned long long*>(tiles + I), 1ull);
    if (rk == 0) entries[I] = first[h + 1] - first[h];
  }
}

// Bitmap hubs: each admitted product sets its key's bit in its hub's bitmap
// (words woff[h] .. woff[h + 1]). Any number of blocks share a hub.
__global__ void k_hub_mark(offset_t n, index_t nh, const offset_t* hub_off, const index_t* hub_list, pattern_ref A,
                           rowpath::a_ref Ae, rowpath::csr_ref B, mask_ref M, const std::uint32_t* jmin,
                           const offset_t* woff, std::uint32_t* bits) {
  for (offset_t g = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; g < n; g += offset_t(gridDim.x) * blockDim.x) {
    index_t h;
    bool ok;
    const std::uint32_t k = hub_product_key(g, nh, hub_off, hub_list, A, Ae, B, M, jmin, h, ok);
    if (ok) atomicOr(bits + woff[h] + (k >> 5), 1u << (k & 31));
  }
}

// Set bits per tile column of the bitmaps (8 words; cnt[ng] = 0 for the scan).
__global__ void k_group_counts(offset_t ng, const std::uint32_t* bits, offset_t* cnt) {
  for (offset_t g = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; g <= ng; g += offset_t(gridDim.x) * blockDim.x) {
    int n = 0;
    if (g < ng)
      for (int i = 0; i < 8; ++i) n += __popc(bits[8 * g + i]);
    cnt[g] = n;
  }
}

// Each set bit of a hub's bitmap is a key (its index in the bitmap), in
// increasing order into the key scratch; a tile column (8 words) with a bit
// is a tile; the first tile column of a hub writes its entry count. One
// thread per tile column (rank: set bits before each tile column).
__global__ void k_hub_bitmap_keys(offset_t ng, index_t nh, const offset_t* woff, const std::uint32_t* bits,
                                  const offset_t* rank, const index_t* hub_list, const offset_t* key_off,
                                  std::uint32_t* keys, offset_t* tiles, offset_t* entries) {
  for (offset_t g = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; g < ng; g += offset_t(gridDim.x) * blockDim.x) {
    const offset_t w = 8 * g;
    const index_t h = index_t(last_le(woff, offset_t(nh), w));
    const index_t I = hub_list[h];
    const offset_t lw = w - woff[h], g0 = woff[h] / 8;
    if (lw == 0) entries[I] = rank[woff[h + 1] / 8] - rank[g0];
    if (rank[g + 1] == rank[g]) continue;
    atomicAdd(reinterpret_cast<unsigned long long*>(tiles + I), 1ull);
    std::uint32_t* out = keys + key_off[I] + (rank[g] - rank[g0]);
    for (int i = 0; i < 8; ++i) {
      std::uint32_t b = bits[w + i];
      while (b) {
        const int j = __ffs(b) - 1;
        *out++ = std::uint32_t(lw + i) * 32u + std::uint32_t(j);
        b &= b - 1;
      }
    }
  }
}

// C's tiles of the row-path rows from their sorted keys, in chunks of
// kChunk keys so that a hub row's keys spread over many blocks (one block a
// row took 0.4 ms on cond-mat-2003 and 17 ms on R-MAT 16, H100): chunks are
// counted per row, their tile heads (where the tile column changes) counted
// and scanned, then each chunk's block writes its tiles; each head's thread
// gathers its tile's row masks.
constexpr int kPatternThreads = 256;
constexpr offset_t kChunk = 4 * kPatternThreads;

// Chunks of each row-path row (cnt[nall] = 0 for the scan).
__global__ void k_chunk_counts(offset_t nall, const index_t* all, const offset_t* entry_base, offset_t* cnt) {
  for (offset_t x = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; x <= nall; x += offset_t(gridDim.x) * blockDim.x) {
    offset_t n = 0;
    if (x < nall) n = entry_base[all[x] + 1] - entry_base[all[x]];
    cnt[x] = (n + kChunk - 1) / kChunk;
  }
}

// Chunk g (of at most nchunks; chunk_off: each row's first chunk): its row
// x in `all` and its first key q0 in that row, or false past the last.
__device__ inline bool chunk_of(offset_t g, offset_t nall, const offset_t* chunk_off, offset_t& x, offset_t& q0) {
  if (g >= chunk_off[nall]) return false;
  x = last_le(chunk_off, nall + 1, g);
  q0 = (g - chunk_off[x]) * kChunk;
  return true;
}

// Tile heads of each chunk (heads[g] for g < nchunks; 0 past the last).
__global__ void __launch_bounds__(kPatternThreads)
    k_chunk_heads(offset_t nchunks, offset_t nall, const index_t* all, const offset_t* chunk_off,
                  const std::uint32_t* keys, const offset_t* key_off, const offset_t* entry_base, offset_t* heads) {
  using reduce_t = cub::BlockReduce<int, kPatternThreads>;
  __shared__ typename reduce_t::TempStorage tmp;
  const offset_t g = blockIdx.x;
  offset_t x, q0;
  if (!chunk_of(g, nall, chunk_off, x, q0)) {
    if (threadIdx.x == 0 && g < nchunks) heads[g] = 0;
    return;
  }
  const index_t I = all[x];
  const offset_t n = entry_base[I + 1] - entry_base[I];
  const std::uint32_t* rk = keys + key_off[I];
  int h = 0;
  for (offset_t q = q0 + threadIdx.x; q < n && q < q0 + kChunk; q += kPatternThreads)
    h += (q == 0 || (rk[q - 1] >> 8) != (rk[q] >> 8)) ? 1 : 0;
  h = reduce_t(tmp).Sum(h);
  if (threadIdx.x == 0) heads[g] = h;
}

__global__ void __launch_bounds__(kPatternThreads)
    k_row_pattern(offset_t nall, const index_t* all, const offset_t* chunk_off, const offset_t* head_off,
                  const std::uint32_t* jmin, const std::uint32_t* keys, const offset_t* key_off,
                  const offset_t* tile_ptr, const offset_t* entry_base, tile_index_t* tile_col,
                  offset_t* tile_offset, std::uint8_t* row_ptr, row_bits* row_mask, std::uint8_t* col_idx) {
  using scan_t = cub::BlockScan<int, kPatternThreads>;
  __shared__ typename scan_t::TempStorage scan;
  const offset_t g = blockIdx.x;
  offset_t x, q0;
  if (!chunk_of(g, nall, chunk_off, x, q0)) return;
  const index_t I = all[x];
  const offset_t c0 = entry_base[I], n = entry_base[I + 1] - c0, t0 = tile_ptr[I];
  const std::uint32_t* rk = keys + key_off[I];
  const std::uint32_t jm = jmin[I];
  offset_t carry = head_off[g] - head_off[chunk_off[x]];  // the row's tiles in earlier chunks
  const offset_t qend = q0 + kChunk < n ? q0 + kChunk : n;
  for (offset_t base = q0; base < qend; base += kPatternThreads) {
    const offset_t q = base + threadIdx.x;
    std::uint32_t key = 0;
    int head = 0;
    if (q < qend) {
      key = rk[q];
      head = (q == 0 || (rk[q - 1] >> 8) != (key >> 8)) ? 1 : 0;
      col_idx[c0 + q] = std::uint8_t(key & 15);
    }
    int rank, total;
    scan_t(scan).ExclusiveSum(head, rank, total);
    if (head) {
      const offset_t t = t0 + carry + rank;
      tile_col[t] = tile_index_t(jm + (key >> 8));
      tile_offset[t] = c0 + q;
      if (q + 1 >= n || (rk[q + 1] >> 8) != (key >> 8)) {
        // A one-entry tile (uniform 2^20 x 8: 67 million of them): its masks
        // and pointers built in registers and stored as 16-byte vectors;
        // byte and half-word stores at a 32-byte stride across the warp
        // cost several times the bandwidth (H100: 18.6 -> 1.8 ms there).
        const int rr = int((key >> 4) & 15);
        const std::uint32_t bit = 1u << ((key & 15) + 16 * (rr & 1));
        std::uint32_t w[8], p[4];
#pragma unroll
        for (int i = 0; i < 8; ++i) w[i] = (rr >> 1) == i ? bit : 0u;
#pragma unroll
        for (int i = 0; i < 4; ++i) {  // row pointers: 0 up to row rr, 1 after it
          std::uint32_t x = 0;
#pragma unroll
          for (int b = 0; b < 4; ++b) x |= (4 * i + b > rr ? 1u : 0u) << (8 * b);
          p[i] = x;
        }
        static_assert(sizeof(row_bits) == 2, "two row masks a word");
        uint4* rm = reinterpret_cast<uint4*>(row_mask + 16 * t);  // 32 bytes a tile, 256-byte aligned base
        rm[0] = make_uint4(w[0], w[1], w[2], w[3]);
        rm[1] = make_uint4(w[4], w[5], w[6], w[7]);
        *reinterpret_cast<uint4*>(row_ptr + 16 * t) = make_uint4(p[0], p[1], p[2], p[3]);
      } else {
        row_bits m[tile_dim] = {};
        for (offset_t u = q; u < n && (rk[u] >> 8) == (key >> 8); ++u)
          m[(rk[u] >> 4) & 15] = row_bits(m[(rk[u] >> 4) & 15] | (1u << (rk[u] & 15)));
        for (int r = 0; r < tile_dim; ++r) row_mask[16 * t + r] = m[r];
        tile::row_ptr_from_masks(m, row_ptr + 16 * t);
      }
    }
    carry += total;
    __syncthreads();  // scan storage reused
  }
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

// Tile rows of at most this many pairs on average, none past kRowSortMaxRow,
// sort them by a segmented sort within each row; else one radix sort over
// (I, J) does. Measured (H200, A*A): lap2d, 9 pairs a row, 1.33 -> 1.24 ms;
// stencil27, 484 a row, 5.0 -> 5.7 ms (CUB sorts a segment past a warp's
// share with a block of its own). A row past kRowSortMaxRow would leave
// shared memory for passes over global memory, one block for the whole row.
constexpr offset_t kRowSortMaxPairs = 64;
constexpr offset_t kRowSortMaxRow = 2048;

// st[0] = the pairs (pair_off[na]); st[1] = the most pairs of one tile row
// (st zeroed before).
__global__ void k_pair_stats(index_t tm, const offset_t* a_tile_ptr, const offset_t* pair_off, offset_t na,
                             offset_t* st) {
  const index_t I = blockIdx.x * index_t(blockDim.x) + threadIdx.x;
  unsigned long long n = I < tm ? static_cast<unsigned long long>(pair_off[a_tile_ptr[I + 1]] -
                                                                  pair_off[a_tile_ptr[I]])
                                : 0ull;
  for (int o = 16; o > 0; o >>= 1) {
    const unsigned long long m = __shfl_xor_sync(0xFFFFFFFFu, n, o);
    n = m > n ? m : n;
  }
  if ((threadIdx.x & 31) == 0 && n) atomicMax(reinterpret_cast<unsigned long long*>(st + 1), n);
  if (I == 0) st[0] = pair_off[na];
}

// Eight threads per A tile, over its (A tile, B tile) pairs: each pair's C
// tile key, or `invalid` when the mask prunes that C tile (step 1, pruned
// by the mask's tiles). (A thread a pair, finding its A tile by binary
// search, took 0.23 ms on stencil27, H200 r25.)
constexpr int kPairLanes = 8;
__global__ void k_fill_pairs(offset_t na, const offset_t* pair_off, const index_t* a_row, const tile_index_t* a_col,
                             const offset_t* b_tile_ptr, const tile_index_t* b_col, index_t c_tile_cols, mask_ref M,
                             const std::uint8_t* mask_flags, std::uint64_t invalid, std::uint64_t* key,
                             std::uint32_t* key_j, std::uint64_t* val) {
  const offset_t g = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  const offset_t a = g / kPairLanes;
  if (a >= na) return;
  const offset_t p0 = pair_off[a], n = pair_off[a + 1] - p0;
  if (n == 0) return;
  const index_t I = a_row[a];
  const offset_t b0 = b_tile_ptr[a_col[a]];
  for (offset_t i = g % kPairLanes; i < n; i += kPairLanes) {
    const offset_t b = b0 + i;
    const index_t J = b_col[b];
    bool pruned = false;
    if (M.active) {
      const offset_t t = M.tile(I, J);
      // flags: bit 0 some bit admits, bit 1 every position inside the matrix is set
      pruned = M.complement ? (t >= 0 && (mask_flags[t] & 2)) : (t < 0 || !(mask_flags[t] & 1));
    }
    if (key_j) key_j[p0 + i] = std::uint32_t(J);  // unmasked: sorted within the tile row
    else key[p0 + i] = pruned ? invalid : std::uint64_t(I) * std::uint64_t(c_tile_cols) + std::uint64_t(J);
    val[p0 + i] = (std::uint64_t(a) << 32) | std::uint64_t(b);
  }
}

// First pair of each tile row (its first A tile's), I = 0 .. tm.
__global__ void k_row_pair_off(index_t tm, const offset_t* a_tile_ptr, const offset_t* pair_off, offset_t* seg) {
  for (index_t I = blockIdx.x * index_t(blockDim.x) + threadIdx.x; I <= tm; I += index_t(gridDim.x) * blockDim.x)
    seg[I] = pair_off[a_tile_ptr[I]];
}

// Pairs sorted by J within their tile row -> their C tile keys.
__global__ void k_pair_keys(offset_t n, const std::uint32_t* key_j, const std::uint64_t* val, const index_t* a_row,
                            index_t c_tile_cols, std::uint64_t* key) {
  for (offset_t p = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; p < n; p += offset_t(gridDim.x) * blockDim.x)
    key[p] = std::uint64_t(a_row[offset_t(val[p] >> 32)]) * std::uint64_t(c_tile_cols) + key_j[p];
}

// Tile rows of at most kWarpRowPairs pairs, unmasked (the by-row case of
// step 1): one warp a tile row sorts its pairs by J in registers, a bitonic
// sort over the lanes on (J, position), so that equal J keep their k order
// (stable), and counts its distinct J, the row's candidate C tiles. With
// k_row_candidates after a scan of the counts, it does what the segmented
// sort, the keys and the run heads did in nine launches (lap2d's A*A: 25
// pairs a tile row, about 150 of 1,060 us, H100 ncu r98).
constexpr int kWarpRowPairs = 32;
__global__ void k_sort_row_pairs(index_t tm, const offset_t* seg, const std::uint32_t* kj, const std::uint64_t* val,
                                 std::uint32_t* kj_out, std::uint64_t* val_out, offset_t* row_cand) {
  const index_t I = index_t((blockIdx.x * offset_t(blockDim.x) + threadIdx.x) >> 5);
  const int lane = static_cast<int>(threadIdx.x & 31u);
  if (I > tm) return;  // whole warps leave together
  if (I == tm) {       // the scan's last slot
    if (lane == 0) row_cand[tm] = 0;
    return;
  }
  const offset_t s0 = seg[I];
  const int n = static_cast<int>(seg[I + 1] - s0);
  std::uint64_t k = lane < n ? (std::uint64_t(kj[s0 + lane]) << 32) | std::uint32_t(lane) : ~std::uint64_t(0);
  const std::uint64_t v = lane < n ? val[s0 + lane] : 0;
  for (int size = 2; size <= 32; size <<= 1)
    for (int stride = size >> 1; stride > 0; stride >>= 1) {
      const std::uint64_t o = __shfl_xor_sync(0xFFFFFFFFu, k, stride);
      const bool keep_min = ((lane & size) == 0) == ((lane & stride) == 0);
      k = keep_min ? (o < k ? o : k) : (o > k ? o : k);
    }
  const std::uint64_t vs = __shfl_sync(0xFFFFFFFFu, v, static_cast<int>(k & 31u));
  const std::uint32_t J = std::uint32_t(k >> 32);
  const std::uint32_t prev = __shfl_up_sync(0xFFFFFFFFu, J, 1);
  const unsigned heads = __ballot_sync(0xFFFFFFFFu, lane < n && (lane == 0 || J != prev));
  if (lane < n) {
    kj_out[s0 + lane] = J;
    val_out[s0 + lane] = vs;
  }
  if (lane == 0) row_cand[I] = __popc(heads);
}

// The candidates of the sorted tile rows: key I * c_tile_cols + J, and the
// run [begin, end) of its pairs; coff = the scan of k_sort_row_pairs' counts.
__global__ void k_row_candidates(index_t tm, const offset_t* seg, const std::uint32_t* kj, index_t c_tile_cols,
                                 const offset_t* coff, std::uint64_t* ckey, offset_t* begin, offset_t* end) {
  const index_t I = index_t((blockIdx.x * offset_t(blockDim.x) + threadIdx.x) >> 5);
  const int lane = static_cast<int>(threadIdx.x & 31u);
  if (I >= tm) return;
  const offset_t s0 = seg[I];
  const int n = static_cast<int>(seg[I + 1] - s0);
  const std::uint32_t J = lane < n ? kj[s0 + lane] : 0;
  const std::uint32_t prev = __shfl_up_sync(0xFFFFFFFFu, J, 1);
  const bool head = lane < n && (lane == 0 || J != prev);
  const unsigned heads = __ballot_sync(0xFFFFFFFFu, head);
  if (!head) return;
  const unsigned after = lane == 31 ? 0u : heads & ~((2u << lane) - 1u);
  const offset_t c = coff[I] + __popc(heads & ((1u << lane) - 1u));
  ckey[c] = std::uint64_t(I) * std::uint64_t(c_tile_cols) + J;
  begin[c] = s0 + lane;
  end[c] = s0 + (after ? __ffs(static_cast<int>(after)) - 1 : n);
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

// Number of keys below `invalid` in a sorted array.
__global__ void k_count_valid(offset_t n, const std::uint64_t* key, std::uint64_t invalid, offset_t* out) {
  *out = lower_bound(key, n, invalid);
}

__global__ void k_seg_end(offset_t nc, const offset_t* begin, const offset_t* nvalid, offset_t* end) {
  for (offset_t c = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; c < nc; c += offset_t(gridDim.x) * blockDim.x)
    end[c] = c + 1 < nc ? begin[c + 1] : *nvalid;
}

// Step 2, 16 threads per candidate C tile (one half-warp), thread r on
// local row r: OR of B's row bits selected by A's row r over the tile pairs,
// AND the mask. The pairs come 16 at a time (for_each_pair); per pair
// thread r stages B's row r in shared memory, so that A's row bits and B's
// rows load side by side (a thread reading its pair, then A's row, then the
// B rows it selects took 162 us of lap2d's A*A and 592 of stencil27's, H200
// r84).
__global__ void k_symbolic(offset_t nc, const std::uint64_t* ckey, index_t c_tile_cols, const offset_t* begin,
                           const offset_t* end, const std::uint64_t* pairs, const row_bits* a_mask,
                           const row_bits* b_mask, mask_ref M, row_bits* c_mask, offset_t* count) {
  __shared__ row_bits b_rows[kThreads];
  const offset_t g = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  const offset_t c = g / tile_dim;
  const int r = static_cast<int>(g % tile_dim);
  row_bits bits = 0;
  if (c < nc) {  // a candidate's 16 threads are one half-warp
    const unsigned half = 0xFFFFu << (threadIdx.x & 16u);
    const row_bits* staged = b_rows + (threadIdx.x & ~15u);
    for_each_pair(pairs, begin[c], end[c], half, r, [&](offset_t a, offset_t b) {
      __syncwarp(half);  // the previous pair's rows have been read
      b_rows[threadIdx.x] = b_mask[16 * b + r];
      const std::uint32_t ka = a_mask[16 * a + r];
      __syncwarp(half);
      bits = row_bits(bits | tile::symbolic_row(ka, staged));
    });
    if (M.active) {
      index_t I, J;
      split_tile_key(ckey[c], std::uint64_t(c_tile_cols), I, J);
      bits = row_bits(bits & M.allowed(M.tile(I, J), r));
    }
    c_mask[16 * c + r] = bits;
  }
  const int n = half_warp_sum(c < nc ? tile::popcount16(bits) : 0);
  if (c < nc && r == 0) count[c] = n;
}

// Kept candidates (count > 0) -> tiles: column, row, offset, carries, and
// each row's bits, start and column indices, 16 threads a candidate, thread
// r on local row r (its bits, the row starts by a scan over the half-warp,
// its columns written from its bits). One kernel: a thread a candidate
// copying its 16 rows' bits, then 16 threads a tile reading them back for
// the starts and columns, took 122 + 67 us of lap2d's A*A and 170 + 100 of
// stencil27's (H200 r84, ncu). No grid-stride loop: grid_for's 2^31 blocks
// cover any candidate count here, as for k_a_entries and k_fill_pairs; a
// candidate's 16 threads are one half-warp, and leave together.
__global__ void k_compact(offset_t nc, const std::uint64_t* ckey, index_t tile_cols, const row_bits* cmask,
                          const offset_t* count, const offset_t* keep_idx, const offset_t* off,
                          const offset_t* carry0, const offset_t* carry1, tile_index_t* tile_col, index_t* tile_row,
                          offset_t* tile_offset, row_bits* mask, std::uint8_t* row_ptr, std::uint8_t* col_idx,
                          offset_t* out0, offset_t* out1) {
  const offset_t g = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  const offset_t c = g / tile_dim;
  const int r = static_cast<int>(g % tile_dim);
  if (c >= nc || count[c] == 0) return;
  const unsigned half = 0xFFFFu << (threadIdx.x & 16u);  // this candidate's half-warp
  const offset_t t = keep_idx[c], e0 = off[c];
  std::uint32_t bits = cmask[16 * c + r];
  mask[16 * t + r] = row_bits(bits);
  const int n = tile::popcount16(bits);
  int incl = n;
  for (int o = 1; o < tile_dim; o <<= 1) {
    const int v = __shfl_up_sync(half, incl, o, tile_dim);
    if (r >= o) incl += v;
  }
  const int first = incl - n;
  row_ptr[16 * t + r] = static_cast<std::uint8_t>(first);
  std::uint8_t* out = col_idx + e0 + first;
  while (bits) {
    *out++ = static_cast<std::uint8_t>(tile::lowest_bit(bits));
    bits &= bits - 1;
  }
  if (r == 0) {
    index_t I, J;
    split_tile_key(ckey[c], std::uint64_t(tile_cols), I, J);
    tile_col[t] = tile_index_t(J);
    tile_row[t] = I;
    tile_offset[t] = e0;
    if (carry0) out0[t] = carry0[c];
    if (carry1) out1[t] = carry1[c];
  }
}

__global__ void k_keep_flags(offset_t nc, const offset_t* count, offset_t* keep) {
  for (offset_t c = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; c <= nc; c += offset_t(gridDim.x) * blockDim.x)
    keep[c] = c < nc && count[c] > 0 ? 1 : 0;
}

// The kept candidates and the entries, side by side for one read-back; off
// (an exclusive scan of count over nc) gets its total at off[nc].
__global__ void k_finish_sizes(offset_t nc, const offset_t* keep_idx, const offset_t* count, offset_t* off,
                               offset_t* sizes) {
  const offset_t total = nc ? off[nc - 1] + count[nc - 1] : 0;
  off[nc] = total;
  sizes[0] = keep_idx[nc];
  sizes[1] = total;
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
  device_buffer<offset_t> keep(nc + 1, s), keep_idx(nc + 1, s), off(nc + 1, s), both(2, s);
  k_keep_flags<<<grid_for(nc + 1, kThreads), kThreads, 0, native(s)>>>(nc, c.count.data(), keep.data());
  exclusive_sum(keep.data(), keep_idx.data(), nc + 1, s);
  // Entry offsets over all candidates (empty ones add nothing); one read-back
  // for both sizes.
  if (nc) exclusive_sum(c.count.data(), off.data(), nc, s);
  k_finish_sizes<<<1, 1, 0, native(s)>>>(nc, keep_idx.data(), c.count.data(), off.data(), both.data());
  check(cudaGetLastError(), "finish pattern");
  offset_t sizes[2];
  copy_device_to_host(sizes, both.data(), sizeof(sizes), s);
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
    k_compact<<<grid_for(16 * nc, kThreads), kThreads, 0, native(s)>>>(
        nc, c.key.data(), tiles_for(ncols), c.mask.data(), c.count.data(), keep_idx.data(), off.data(),
        c.carry0.data(), c.carry1.data(), p.tile_col.data(), row.data(), p.tile_offset.data(), p.row_mask.data(),
        p.row_ptr.data(), p.col_idx.data(), out0.data(), out1.data());
  k_set<<<1, 1, 0, native(s)>>>(p.tile_offset.data() + nt, p.nnz);
  k_tile_ptr<<<grid_for(tiles_for(nrows) + 1, kThreads), kThreads, 0, native(s)>>>(tiles_for(nrows), row.data(), nt,
                                                                                     p.tile_ptr.data());
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

product_stats& last_product_stats() {
  static product_stats st;
  return st;
}

namespace {

constexpr double kRowPathMinShare = 0.2;

// Whether the current GPU gives a block the shared memory the row path's
// largest blocks ask for: the largest symbolic bin and the dense bin's
// numeric block for 8-byte values (104 KB). Hopper and the A100 do; GPUs of
// 99 KB (sm_86, sm_89, sm_120) or 64 KB (sm_75) per block keep every tile row
// on the tile path instead of failing at launch. Read once per device.
// (Value types of 9 to 16 bytes need up to 172 KB: launch_row_numeric checks.)
bool row_path_fits_device() {
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) return false;
  static std::mutex m;
  static std::vector<int> known;  // per device: -1 unknown, 0 no, 1 yes
  std::lock_guard<std::mutex> lock(m);
  if (known.size() <= std::size_t(dev)) known.resize(std::size_t(dev) + 1, -1);
  if (known[dev] < 0) {
    int limit = 0;
    if (cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess) {
      cudaGetLastError();
      limit = 0;
    }
    using big = rowpath::hash_block<rowpath::sym_shape<rowpath::kHashBins - 1>::threads,
                                    rowpath::sym_shape<rowpath::kHashBins - 1>::items>;
    const std::size_t need = std::max<std::size_t>(big::bytes, rowpath::numeric_bytes<double>(rowpath::kDenseSlots));
    known[dev] = std::size_t(limit) >= need ? 1 : 0;
  }
  return known[dev] == 1;
}

// Routes the tile rows of A*B (route[I], see k_route) and fills the row
// path's lists, with one read-back. Returns the route array, or an empty one
// when every row takes the tile path; npairs: the tile path's pairs (-1 if
// routing did not run).
device_buffer<std::uint8_t> route_rows(const device_pattern& A, const device_pattern& B, const index_t* a_row,
                                       product_plan::rows_t& rows, offset_t& npairs, stream_t s) {
  const product_tuning& tun = tuning();
  const index_t tm = A.tile_rows();
  npairs = -1;
  last_product_stats() = product_stats{};
  if (!tun.row_path || A.ntiles == 0 || B.ntiles == 0 || !row_path_fits_device()) return {};
  rows.b_row_ptr = scalar_row_ptr(B, s);
  {
    device_buffer<offset_t> len(A.nnz + 1, s);
    rows.a_k = device_buffer<index_t>(A.nnz, s);
    rows.a_r = device_buffer<std::uint8_t>(A.nnz, s);
    rows.a_prod = device_buffer<offset_t>(A.nnz + 1, s);
    k_a_entries<<<grid_for(16 * (A.ntiles + 1), kThreads), kThreads, 0, native(s)>>>(
        A.ntiles, ref(A), rows.b_row_ptr.data(), rows.a_k.data(), rows.a_r.data(), len.data());
    check(cudaGetLastError(), "row work");
    exclusive_sum(len.data(), rows.a_prod.data(), A.nnz + 1, s);
  }
  device_buffer<unsigned long long> pairs(tm, s), count(kCnt, s);
  rows.jmin = device_buffer<std::uint32_t>(tm, s);
  rows.jmax = device_buffer<std::uint32_t>(tm, s);
  check(cudaMemsetAsync(pairs.data(), 0, tm * sizeof(unsigned long long), native(s)), "row work");
  check(cudaMemsetAsync(count.data(), 0, kCnt * sizeof(unsigned long long), native(s)), "row work");
  check(cudaMemsetAsync(rows.jmin.data(), 0xFF, tm * sizeof(std::uint32_t), native(s)), "row work");
  check(cudaMemsetAsync(rows.jmax.data(), 0, tm * sizeof(std::uint32_t), native(s)), "row work");
  k_row_work<<<grid_for(A.ntiles, kThreads), kThreads, 0, native(s)>>>(A.ntiles, a_row, ref(A), ref(B), pairs.data(),
                                                                        rows.jmin.data(), rows.jmax.data());
  device_buffer<std::uint8_t> route(tm, s);
  rows.list = device_buffer<index_t>((rowpath::kBins + 1) * tm, s);
  rows.all = device_buffer<index_t>(tm, s);
  rows.key_off = device_buffer<offset_t>(tm, s);
  device_buffer<offset_t> hub_f(tm + 1, s), hub_w(tm + 1, s);
  route_params prm;
  prm.ratio = tun.max_products_per_pair;
  prm.max_shared = std::min<long long>(tun.max_shared_products, rowpath::hash_capacity(rowpath::kHashBins - 1));
  prm.dense_tiles = std::uint32_t(std::clamp(tun.dense_max_tiles, 0, rowpath::kDenseSlots / 256));
  prm.dense_fill = tun.dense_min_fill;
  prm.dense_max = tun.dense_max_products;
  k_route<<<grid_for(tm, kThreads), kThreads, 0, native(s)>>>(tm, ref(A), rows.a_prod.data(), pairs.data(),
                                                               rows.jmin.data(), rows.jmax.data(), prm, route.data(),
                                                               count.data(), rows.list.data(), rows.all.data(),
                                                               rows.key_off.data(), hub_f.data(), hub_w.data());
  check(cudaGetLastError(), "row routing");
  unsigned long long n[kCnt];
  copy_device_to_host(n, count.data(), sizeof(n), s);
  // Both paths in one product cost a pass that places the tile path's tiles
  // beside the row path's: not worth it for a small share of the products.
  const unsigned long long tile_products = n[kCntTileProducts], row_products = n[kCntRowProducts];
  if ((long long)n[kCntAllPairs] < tun.min_pairs || row_products == 0 ||
      (tile_products > 0 && double(row_products) < kRowPathMinShare * double(tile_products + row_products))) {
    rows = product_plan::rows_t{};  // B's CSR and the spans go now, not when mxm returns
    npairs = offset_t(n[kCntAllPairs]);
    return {};
  }
  npairs = offset_t(n[kCntTilePairs]);
  static_assert(rowpath::kHub < 8, "product_stats holds the bins");
  for (int b = 0; b <= rowpath::kHub; ++b) {
    rows.count[b] = offset_t(n[b]);
    last_product_stats().rows[b] = (long long)n[b];
  }
  last_product_stats().row_path = true;
  if (tracing())
    std::fprintf(stderr,
                 "tgb trace: row path: rows per bin %llu %llu %llu %llu %llu %llu dense %llu hubs %llu; products: "
                 "row %llu (hubs %llu) tile %llu\n",
                 n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7], row_products, n[kCntHubProducts], tile_products);
  rows.nall = offset_t(n[kCntRowRows]);
  rows.key_total = offset_t(row_products);
  rows.hub_products = offset_t(n[kCntHubProducts]);
  const offset_t nh = rows.count[rowpath::kHub];
  if (nh) {
    k_set<<<1, 1, 0, native(s)>>>(hub_f.data() + nh, 0);
    rows.hub_off = device_buffer<offset_t>(nh + 1, s);
    exclusive_sum(hub_f.data(), rows.hub_off.data(), nh + 1, s);
    // Bitmaps for the hubs when their bits are few next to their products
    // and they fit the budget; the sort otherwise.
    const double words = double(n[kCntHubWords]);
    rows.hub_bitmap = tun.hub_bitmap && words * 32.0 <= tun.hub_bits_per_product * double(rows.hub_products) &&
                      words * 4.0 <= double(tun.hub_bitmap_max_bytes);
    if (rows.hub_bitmap) {
      rows.hub_words = offset_t(n[kCntHubWords]);
      k_set<<<1, 1, 0, native(s)>>>(hub_w.data() + nh, 0);
      rows.hub_woff = device_buffer<offset_t>(nh + 1, s);
      exclusive_sum(hub_w.data(), rows.hub_woff.data(), nh + 1, s);
    }
  }
  return route;
}

template <int Bin>
void launch_row_symbolic(const product_plan::rows_t& rows, index_t tm, const device_pattern& A, const mask_arg& M,
                         offset_t* tiles, offset_t* entries, stream_t s) {
  if (rows.count[Bin] == 0) return;
  using S = rowpath::sym_shape<Bin>;
  using blk = rowpath::hash_block<S::threads, S::items>;
  // Opt in whatever the size (static + dynamic may pass 48 KB).
  check(cudaFuncSetAttribute(k_row_symbolic<Bin>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(blk::bytes)),
        "row path");
  k_row_symbolic<Bin><<<unsigned(rows.count[Bin]), S::threads, blk::bytes, native(s)>>>(
      rows.list.data() + index_t(Bin) * tm, ref(A),
      rowpath::a_ref{rows.a_prod.data(), rows.a_k.data(), rows.a_r.data()},
      rowpath::csr_ref{rows.b_row_ptr.data(), rows.b_col.data(), rows.b_pos.data()}, ref(M), rows.jmin.data(),
      rows.jmax.data(), rows.keys.data(), rows.key_off.data(), tiles, entries);
  check(cudaGetLastError(), "row path symbolic");
}

template <int... Bins>
void launch_hash_symbolic(std::integer_sequence<int, Bins...>, const product_plan::rows_t& rows, index_t tm,
                          const device_pattern& A, const mask_arg& M, offset_t* tiles, offset_t* entries, stream_t s) {
  (launch_row_symbolic<Bins>(rows, tm, A, M, tiles, entries, s), ...);
}

// Hub rows: their products sorted by (hub, key) over all hubs at once.
void hub_symbolic(product_plan::rows_t& rows, index_t tm, const device_pattern& A, const mask_arg& M,
                  offset_t* tiles, offset_t* entries, stream_t s) {
  const offset_t nh = rows.count[rowpath::kHub], n = rows.hub_products;
  if (nh == 0) return;
  const index_t* hub_list = rows.list.data() + index_t(rowpath::kHub) * tm;
  if (rows.hub_bitmap) {
    const offset_t nw = rows.hub_words;
    rows.hub_bits = device_buffer<std::uint32_t>(nw, s);
    check(cudaMemsetAsync(rows.hub_bits.data(), 0, nw * sizeof(std::uint32_t), native(s)), "hub bitmap");
    k_hub_mark<<<grid_for(n, kThreads), kThreads, 0, native(s)>>>(
        n, index_t(nh), rows.hub_off.data(), hub_list, ref(A),
        rowpath::a_ref{rows.a_prod.data(), rows.a_k.data(), rows.a_r.data()},
        rowpath::csr_ref{rows.b_row_ptr.data(), rows.b_col.data(), rows.b_pos.data()}, ref(M), rows.jmin.data(),
        rows.hub_woff.data(), rows.hub_bits.data());
    check(cudaGetLastError(), "hub bitmap");
    const offset_t ng = nw / 8;  // tile columns: every hub's span is whole tile columns
    device_buffer<offset_t> cnt(ng + 1, s);
    rows.hub_rank = device_buffer<offset_t>(ng + 1, s);
    k_group_counts<<<grid_for(ng + 1, kThreads), kThreads, 0, native(s)>>>(ng, rows.hub_bits.data(), cnt.data());
    exclusive_sum(cnt.data(), rows.hub_rank.data(), ng + 1, s);
    k_hub_bitmap_keys<<<grid_for(ng, kThreads), kThreads, 0, native(s)>>>(
        ng, index_t(nh), rows.hub_woff.data(), rows.hub_bits.data(), rows.hub_rank.data(), hub_list,
        rows.key_off.data(), rows.keys.data(), tiles, entries);
    check(cudaGetLastError(), "hub keys");
    return;
  }
  const int end_bit = 32 + bits_for(static_cast<unsigned long long>(nh));
  rows.hub_invalid = end_bit >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << end_bit) - 1;
  rows.hub_key = device_buffer<std::uint64_t>(n, s);
  rows.hub_val = device_buffer<std::uint64_t>(n, s);
  k_hub_products<<<grid_for(n, kThreads), kThreads, 0, native(s)>>>(
      n, index_t(nh), rows.hub_off.data(), hub_list, ref(A),
      rowpath::a_ref{rows.a_prod.data(), rows.a_k.data(), rows.a_r.data()},
      rowpath::csr_ref{rows.b_row_ptr.data(), rows.b_col.data(), rows.b_pos.data()}, ref(M), rows.jmin.data(),
      rows.hub_invalid, rows.hub_key.data(), rows.hub_val.data());
  check(cudaGetLastError(), "hub products");
  // Stable: each run of equal keys keeps increasing product index (k).
  sort_pairs(rows.hub_key, rows.hub_val, n, end_bit, s);
  device_buffer<offset_t> head(n + 1, s);
  rows.hub_rank = device_buffer<offset_t>(n + 1, s);
  rows.hub_first = device_buffer<offset_t>(nh + 1, s);
  k_heads<<<grid_for(n + 1, kThreads), kThreads, 0, native(s)>>>(n, rows.hub_key.data(), rows.hub_invalid,
                                                                  head.data());
  exclusive_sum(head.data(), rows.hub_rank.data(), n + 1, s);
  k_hub_first<<<grid_for(nh + 1, kThreads), kThreads, 0, native(s)>>>(index_t(nh), n, rows.hub_key.data(),
                                                                       rows.hub_rank.data(), rows.hub_first.data());
  k_hub_finish<<<grid_for(n, kThreads), kThreads, 0, native(s)>>>(
      n, index_t(nh), rows.hub_key.data(), head.data(), rows.hub_rank.data(), rows.hub_first.data(), hub_list,
      rows.key_off.data(), rows.keys.data(), tiles, entries);
  check(cudaGetLastError(), "hub keys");
}

device_pattern empty_pattern(index_t nrows, index_t ncols, stream_t s) {
  device_pattern p;
  p.nrows = nrows;
  p.ncols = ncols;
  p.tile_ptr = device_buffer<offset_t>(tiles_for(nrows) + 1, s);
  p.tile_offset = device_buffer<offset_t>(1, s);
  check(cudaMemsetAsync(p.tile_ptr.data(), 0, (tiles_for(nrows) + 1) * sizeof(offset_t), native(s)), "pattern");
  check(cudaMemsetAsync(p.tile_offset.data(), 0, sizeof(offset_t), native(s)), "pattern");
  return p;
}

}  // namespace


product_plan plan_product(const device_pattern& A, const device_pattern& B, const mask_arg& M, stream_t s,
                          bool row_path_ok) {
  product_plan plan;
  const offset_t na = A.ntiles;
  const index_t ctc = B.tile_cols();
  const index_t tm = A.tile_rows();
  phase(s, "plan start");
  device_buffer<index_t> a_row = tile_rows_of(A, s);
  // Step 1: every (A tile, B tile) pair of the tile path's rows, keyed by
  // its C tile; pruned pairs get the key `invalid` and sort last. The pairs
  // are counted first over every tile row: routing passes over A's entries
  // and B's rows before its read-back (0.2 ms on luxembourg, H100 at
  // 45f2a6c), so products under min_pairs, where it cannot pay, skip it.
  offset_t npairs = -1;
  device_buffer<std::uint8_t> route;
  device_buffer<offset_t> cnt(na + 1, s), off(na + 1, s);
  auto count_pairs = [&] {
    k_pair_counts<<<grid_for(na + 1, kThreads), kThreads, 0, native(s)>>>(na, A.tile_col.data(), B.tile_ptr.data(),
                                                                           a_row.data(), route.data(), cnt.data());
    exclusive_sum(cnt.data(), off.data(), na + 1, s);
  };
  count_pairs();
  // One read-back: the pairs, and the most pairs of one tile row.
  offset_t stats[2];
  {
    device_buffer<offset_t> st(2, s);
    check(cudaMemsetAsync(st.data(), 0, 2 * sizeof(offset_t), native(s)), "pair counts");
    k_pair_stats<<<grid_for(tm, kThreads), kThreads, 0, native(s)>>>(tm, A.tile_ptr.data(), off.data(), na,
                                                                       st.data());
    check(cudaGetLastError(), "pair counts");
    copy_device_to_host(stats, st.data(), sizeof(stats), s);
  }
  const offset_t all_pairs = stats[0], row_pairs_max = stats[1];
  if (row_path_ok && all_pairs >= tuning().min_pairs) {
    // Routing's one read-back gives the bins' sizes and the tile path's pairs.
    route = route_rows(A, B, a_row.data(), plan.rows, npairs, s);
    if (route.size()) count_pairs();
  }
  if (npairs < 0) npairs = all_pairs;
  phase(s, "route rows");
  plan.npairs = npairs;
  device_pattern c1;
  if (npairs == 0) {  // no tile path: no read-backs for it
    c1 = empty_pattern(A.nrows, B.ncols, s);
    a_row = device_buffer<index_t>();
  } else {
  const std::uint64_t invalid = std::uint64_t(A.tile_rows()) * std::uint64_t(ctc);
  // Pairs come in A's tile order, so by tile row: unmasked (no pruned pairs
  // to move past the end), a segmented sort by J within each tile row does
  // what the sort by (I, J) does, on 4-byte keys, where the rows hold few
  // pairs (kRowSortMaxPairs on average, none past kRowSortMaxRow); a warp
  // a tile row sorts them where none holds more than kWarpRowPairs.
  const bool by_row = !M.pat && npairs < offset_t(INT32_MAX) && tm < index_t(INT32_MAX) &&
                      npairs <= kRowSortMaxPairs * offset_t(tm) && row_pairs_max <= kRowSortMaxRow;
  const bool by_warp = by_row && row_pairs_max <= kWarpRowPairs;
  device_buffer<std::uint64_t> key(by_warp ? 0 : npairs, s), val(npairs, s);
  candidates c;
  device_buffer<offset_t> begin, end;
  if (by_row) {
    device_buffer<std::uint32_t> kj(npairs, s), kj2(npairs, s);
    device_buffer<std::uint64_t> v2(npairs, s);
    device_buffer<offset_t> seg(tm + 1, s);
    k_fill_pairs<<<grid_for(kPairLanes * na, kThreads), kThreads, 0, native(s)>>>(
        na, off.data(), a_row.data(), A.tile_col.data(), B.tile_ptr.data(), B.tile_col.data(), ctc, ref(M), nullptr,
        invalid, nullptr, kj.data(), val.data());
    k_row_pair_off<<<grid_for(tm + 1, kThreads), kThreads, 0, native(s)>>>(tm, A.tile_ptr.data(), off.data(),
                                                                          seg.data());
    check(cudaGetLastError(), "tile pairs");
    phase(s, "tile pairs");
    if (by_warp) {
      device_buffer<offset_t> rc(tm + 1, s), coff(tm + 1, s);
      k_sort_row_pairs<<<grid_for(32 * (offset_t(tm) + 1), kThreads), kThreads, 0, native(s)>>>(
          tm, seg.data(), kj.data(), val.data(), kj2.data(), v2.data(), rc.data());
      check(cudaGetLastError(), "pair sort");
      exclusive_sum(rc.data(), coff.data(), tm + 1, s);
      c.n = read_back(coff.data() + tm, s);
      c.key = device_buffer<std::uint64_t>(c.n, s);
      begin = device_buffer<offset_t>(c.n, s);
      end = device_buffer<offset_t>(c.n, s);
      if (c.n)
        k_row_candidates<<<grid_for(32 * offset_t(tm), kThreads), kThreads, 0, native(s)>>>(
            tm, seg.data(), kj2.data(), ctc, coff.data(), c.key.data(), begin.data(), end.data());
      check(cudaGetLastError(), "candidates");
    } else {
      with_temp(s, [&](void* t, std::size_t& b) {
        return cub::DeviceSegmentedSort::StableSortPairs(t, b, kj.data(), kj2.data(), val.data(), v2.data(),
                                                         int(npairs), int(tm), seg.data(), seg.data() + 1, native(s));
      });
      k_pair_keys<<<grid_for(npairs, kThreads), kThreads, 0, native(s)>>>(npairs, kj2.data(), v2.data(),
                                                                           a_row.data(), ctc, key.data());
      check(cudaGetLastError(), "pair keys");
    }
    val.swap(v2);
    cnt = device_buffer<offset_t>();
    off = device_buffer<offset_t>();
    a_row = device_buffer<index_t>();
  } else {
    {
      device_buffer<std::uint8_t> flags = mask_flags(M, s);
      k_fill_pairs<<<grid_for(kPairLanes * na, kThreads), kThreads, 0, native(s)>>>(
          na, off.data(), a_row.data(), A.tile_col.data(), B.tile_ptr.data(), B.tile_col.data(), ctc, ref(M),
          flags.data(), invalid, key.data(), nullptr, val.data());
      check(cudaGetLastError(), "tile pairs");
    }
    phase(s, "tile pairs");
    cnt = device_buffer<offset_t>();
    off = device_buffer<offset_t>();
    a_row = device_buffer<index_t>();
    sort_pairs(key, val, npairs, bits_for(invalid), s);
  }
  phase(s, "pair sort");
  // Candidate C tiles: runs of equal keys; their pairs come in increasing k
  // (the sort is stable and pairs were made in increasing k).
  if (!by_warp) {
    heads_to_candidates(key, npairs, invalid, c.key, begin, c.n, s);
    device_buffer<offset_t> nvalid(1, s);
    end = device_buffer<offset_t>(c.n, s);
    k_count_valid<<<1, 1, 0, native(s)>>>(npairs, key.data(), invalid, nvalid.data());
    if (c.n)
      k_seg_end<<<grid_for(c.n, kThreads), kThreads, 0, native(s)>>>(c.n, begin.data(), nvalid.data(), end.data());
  }
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
  c1 = finish_pattern(A.nrows, B.ncols, c, s);
  phase(s, "tile pattern");
  plan.seg_begin.swap(c.carry0);
  plan.seg_end.swap(c.carry1);
  plan.pairs.swap(val);
  }
  plan.tile_path_tiles = c1.ntiles;
  product_plan::rows_t& rows = plan.rows;
  if (rows.total() == 0) {
    plan.C = std::move(c1);
    return plan;
  }
  // Row path, symbolic: each row's sorted keys, tiles and entries.
  rows.b_col = device_buffer<index_t>(B.nnz, s);
  rows.b_pos = device_buffer<offset_t>(B.nnz, s);
  csr_fill(B, rows.b_row_ptr.data(), rows.b_col.data(), rows.b_pos.data(), s);
  rows.a_is_b = &A == &B;
  if (!rows.a_is_b) {
    csr_pattern a = csr_of(A, s);
    rows.a_row_ptr.swap(a.row_ptr);
    rows.a_col.swap(a.col);
    rows.a_pos.swap(a.pos);
  }
  rows.keys = device_buffer<std::uint32_t>(rows.key_total, s);
  device_buffer<offset_t> row_tiles(tm, s), row_entries(tm, s);
  check(cudaMemsetAsync(row_tiles.data(), 0, tm * sizeof(offset_t), native(s)), "row path");
  check(cudaMemsetAsync(row_entries.data(), 0, tm * sizeof(offset_t), native(s)), "row path");
  launch_hash_symbolic(std::make_integer_sequence<int, rowpath::kHashBins>{}, rows, tm, A, M, row_tiles.data(),
                       row_entries.data(), s);
  if (rows.count[rowpath::kDenseBin]) {
    k_row_symbolic_dense<<<unsigned(rows.count[rowpath::kDenseBin]), rowpath::kDenseThreads, 0, native(s)>>>(
        rows.list.data() + index_t(rowpath::kDenseBin) * tm, ref(A),
        rowpath::a_ref{rows.a_prod.data(), rows.a_k.data(), rows.a_r.data()},
        rowpath::csr_ref{rows.b_row_ptr.data(), rows.b_col.data(), rows.b_pos.data()}, ref(M), rows.jmin.data(),
        rows.keys.data(), rows.key_off.data(), row_tiles.data(), row_entries.data());
    check(cudaGetLastError(), "row path dense symbolic");
  }
  hub_symbolic(rows, tm, A, M, row_tiles.data(), row_entries.data(), s);
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
  phase(s, "merge: sizes, allocation");
  if (c1.ntiles)
    k_place<<<grid_for(c1.ntiles, kThreads), kThreads, 0, native(s)>>>(
        c1.ntiles, tm, ref(c1), C.tile_ptr.data(), rows.entry_base.data(), C.tile_col.data(), C.tile_offset.data(),
        C.row_ptr.data(), C.row_mask.data(), C.col_idx.data(), plan.tile_map.data());
  check(cudaGetLastError(), "place tiles");
  if (rows.nall) {
    // Chunks: at most one more per row than C's entries fill (no read-back).
    const offset_t nall = rows.nall, nchunks = C.nnz / kChunk + nall;
    device_buffer<offset_t> cnt(nall + 1, s), chunk_off(nall + 1, s), heads(nchunks + 1, s), head_off(nchunks + 1, s);
    k_chunk_counts<<<grid_for(nall + 1, kThreads), kThreads, 0, native(s)>>>(nall, rows.all.data(),
                                                                            rows.entry_base.data(), cnt.data());
    exclusive_sum(cnt.data(), chunk_off.data(), nall + 1, s);
    check(cudaMemsetAsync(heads.data() + nchunks, 0, sizeof(offset_t), native(s)), "row path pattern");
    k_chunk_heads<<<unsigned(nchunks), kPatternThreads, 0, native(s)>>>(nchunks, nall, rows.all.data(),
                                                                        chunk_off.data(), rows.keys.data(),
                                                                        rows.key_off.data(), rows.entry_base.data(),
                                                                        heads.data());
    exclusive_sum(heads.data(), head_off.data(), nchunks + 1, s);
    k_row_pattern<<<unsigned(nchunks), kPatternThreads, 0, native(s)>>>(
        nall, rows.all.data(), chunk_off.data(), head_off.data(), rows.jmin.data(), rows.keys.data(),
        rows.key_off.data(), C.tile_ptr.data(), rows.entry_base.data(), C.tile_col.data(), C.tile_offset.data(),
        C.row_ptr.data(), C.row_mask.data(), C.col_idx.data());
  }
  check(cudaGetLastError(), "row path pattern");
  phase(s, "merge paths");
  return plan;
}

}  // namespace tgb::detail::cuda
