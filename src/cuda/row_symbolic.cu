// tgb CUDA backend: the symbolic step of the planner's row path
// (rowpath.cuh): each routed tile row's distinct keys in shared-memory hash
// tables, a dense accumulator, or (hub rows) bitmaps or a sort spread over
// many blocks; then C's pattern with the row path's tile rows beside the tile
// path's. Routing: row_route.cu; the tile path: pipeline.cu.
#include <algorithm>
#include <utility>

#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

#include "tgb/detail/cuda/common.cuh"
#include "tgb/detail/cuda/plan.hpp"
#include "tgb/detail/cuda/rowpath.cuh"
#include "tgb/detail/tile/spgemm.hpp"
#include "row_route.cuh"
#include "shared.cuh"

namespace tgb::detail::cuda {

namespace {

constexpr int kThreads = 256;

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

}  // namespace

void merge_row_path(product_plan& plan, device_pattern& c1, const device_pattern& A, const device_pattern& B,
                    const mask_arg& M, stream_t s) {
  const index_t tm = A.tile_rows();
  product_plan::rows_t& rows = plan.rows;
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
}

}  // namespace tgb::detail::cuda
