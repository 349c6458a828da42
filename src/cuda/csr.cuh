// tgb CUDA backend: a tile pattern's scalar rows (CSR order), for the row
// path, the dot method and export. One warp per tile row: its lanes take 32
// tiles at a time and a warp scan per local row places each tile's part of
// that row, so no thread walks a tile row's tiles one after another (on
// graphs a tile row holds tens to thousands of one- or two-entry tiles, and
// a per-row walk was a chain of dependent loads: 80 us for 5,000 rows of
// ca-GrQc on the H100 at 7be84f2, longer than cuSPARSE's whole product).
#pragma once

#include "tgb/detail/cuda/common.cuh"
#include "tgb/detail/tile/bits.hpp"

namespace tgb::detail::cuda::csr {

inline constexpr int kWarpsPerBlock = 8;

// The 16 row masks of tile t (32 bytes, 32-byte aligned: row_mask is, and
// every tile's masks start at 32 * t bytes).
__device__ inline void load_masks(const row_bits* row_mask, offset_t t, std::uint32_t m[8]) {
  const uint4* p = reinterpret_cast<const uint4*>(row_mask + 16 * t);
  const uint4 lo = p[0], hi = p[1];
  m[0] = lo.x, m[1] = lo.y, m[2] = lo.z, m[3] = lo.w, m[4] = hi.x, m[5] = hi.y, m[6] = hi.z, m[7] = hi.w;
}
__device__ inline int row_count(const std::uint32_t m[8], int r) {
  return tile::popcount16(r & 1 ? m[r >> 1] >> 16 : m[r >> 1] & 0xFFFFu);
}

// Calls f(o, i, j, e) for every entry of tile row I of P: o its CSR position
// (row_ptr: P's scalar row pointers), i its global row, j its global column,
// e its position in P's entry arrays. All 32 lanes of a warp call it with
// the same I; entries of one scalar row reach f in increasing j.
template <class F>
__device__ inline void for_tile_row(const pattern_ref& P, index_t I, const offset_t* row_ptr, F&& f) {
  const int lane = int(threadIdx.x & 31);
  const offset_t t0 = P.tile_ptr[I], t1 = P.tile_ptr[I + 1];
  offset_t base[tile_dim];
#pragma unroll
  for (int r = 0; r < tile_dim; ++r) base[r] = 0;
  for (offset_t c = t0; c < t1; c += 32) {
    const offset_t t = c + lane;
    std::uint32_t m[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    offset_t e0 = 0;
    index_t j0 = 0;
    if (t < t1) {
      load_masks(P.row_mask, t, m);
      e0 = P.tile_offset[t];
      j0 = index_t(P.tile_col[t]) << tile_shift;
    }
    int q = 0;  // entries of this tile in rows before r
#pragma unroll
    for (int r = 0; r < tile_dim; ++r) {
      const int n = row_count(m, r);
      int incl = n;
#pragma unroll
      for (int d = 1; d < 32; d <<= 1) {
        const int y = __shfl_up_sync(0xFFFFFFFFu, incl, d);
        if (lane >= d) incl += y;
      }
      if (n) {
        const index_t i = (I << tile_shift) + r;
        const offset_t o = row_ptr[i] + base[r] + (incl - n);
        for (int x = 0; x < n; ++x) f(o + x, i, j0 + P.col_idx[e0 + q + x], e0 + q + x);
      }
      q += n;
      base[r] += __shfl_sync(0xFFFFFFFFu, incl, 31);
    }
  }
}

// A tile row of at most this many tiles is walked by 16 lanes, one per
// local row, tile after tile (a stencil's or a mesh's three to ten tiles);
// a longer one by a whole warp, 32 tiles at a time (for_tile_row). A warp
// per short tile row left 29 of its lanes idle: 230 us for lap2d's 65,536
// tile rows of three tiles on the H100, longer than the dot products.
inline constexpr offset_t kShortTileRow = 8;

// The same as for_tile_row for a short tile row: lane r (< 16) of a
// half-warp takes local row r through the row's tiles in order.
template <class F>
__device__ inline void for_short_tile_row(const pattern_ref& P, index_t I, int r, const offset_t* row_ptr, F&& f) {
  const index_t i = (I << tile_shift) + r;
  if (i >= P.nrows) return;
  offset_t o = row_ptr[i];
  for (offset_t t = P.tile_ptr[I], t1 = P.tile_ptr[I + 1]; t < t1; ++t) {
    const offset_t e0 = P.tile_offset[t];
    const int q0 = P.row_ptr[16 * t + r];
    const int q1 = r + 1 < tile_dim ? int(P.row_ptr[16 * t + r + 1]) : int(P.tile_offset[t + 1] - e0);
    const index_t j0 = index_t(P.tile_col[t]) << tile_shift;
    for (int q = q0; q < q1; ++q) f(o++, i, j0 + P.col_idx[e0 + q], e0 + q);
  }
}

// Entries of each scalar row (len: nrows entries): short tile rows by
// half-warps, long ones by warps (two launches, each skipping the others).
__global__ void k_lengths(pattern_ref P, offset_t* len);
__global__ void k_lengths_short(pattern_ref P, offset_t* len);

// f(o, i, j, e) over every entry of the long tile rows, one warp per tile
// row; warps stride over the tile rows (a grid of at most kLongBlocks
// blocks: where most tile rows are short, a warp per tile row only to skip
// it cost 22 us for lap2d's 65,536).
inline constexpr unsigned kLongBlocks = 2048;
template <class F>
__global__ void k_for_entries(pattern_ref P, const offset_t* row_ptr, F f) {
  for (index_t I = index_t(blockIdx.x) * kWarpsPerBlock + index_t(threadIdx.x >> 5); I < P.tile_rows;
       I += index_t(gridDim.x) * kWarpsPerBlock)  // whole warps take the same I
    if (P.tile_ptr[I + 1] - P.tile_ptr[I] > kShortTileRow) for_tile_row(P, I, row_ptr, f);
}
// ... and of the short ones, a half-warp per tile row.
template <class F>
__global__ void k_for_entries_short(pattern_ref P, const offset_t* row_ptr, F f) {
  const index_t g = index_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const index_t I = g >> 4;
  if (I >= P.tile_rows || P.tile_ptr[I + 1] - P.tile_ptr[I] > kShortTileRow) return;
  for_short_tile_row(P, I, int(g & 15), row_ptr, f);
}

inline unsigned blocks_for(const device_pattern& p) {
  const index_t b = (index_t(p.tile_rows()) + kWarpsPerBlock - 1) / kWarpsPerBlock;
  return unsigned(b < kLongBlocks ? b : kLongBlocks);
}
inline unsigned short_blocks_for(const device_pattern& p) {
  return unsigned((16 * index_t(p.tile_rows()) + 255) / 256);
}

// Launches f(o, i, j, e) over every entry of p (row_ptr: scalar_row_ptr(p)).
template <class F>
void for_entries(const device_pattern& p, const offset_t* row_ptr, F f, stream_t s) {
  if (p.nnz == 0 || p.tile_rows() == 0) return;
  k_for_entries_short<<<short_blocks_for(p), 256, 0, native(s)>>>(ref(p), row_ptr, f);
  k_for_entries<<<blocks_for(p), 32 * kWarpsPerBlock, 0, native(s)>>>(ref(p), row_ptr, f);
  check(cudaGetLastError(), "CSR order");
}

}  // namespace tgb::detail::cuda::csr
