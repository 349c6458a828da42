// tgb CUDA backend: scalar row pointers and CSR views of tile patterns
// (csr.cuh has the per-tile-row warp walk they share with export).
#include "csr.cuh"

#include "tgb/detail/cuda/plan.hpp"

namespace tgb::detail::cuda {
namespace csr {

// The lengths of tile row I's 16 scalar rows, by a whole warp.
__device__ inline void long_row_lengths(pattern_ref P, index_t I, offset_t* len) {
  const int lane = int(threadIdx.x & 31);
  offset_t sum[tile_dim];
#pragma unroll
  for (int r = 0; r < tile_dim; ++r) sum[r] = 0;
  const offset_t t1 = P.tile_ptr[I + 1];
  for (offset_t t = P.tile_ptr[I] + lane; t < t1; t += 32) {
    std::uint32_t m[8];
    load_masks(P.row_mask, t, m);
#pragma unroll
    for (int r = 0; r < tile_dim; ++r) sum[r] += row_count(m, r);
  }
  offset_t mine = 0;
#pragma unroll
  for (int r = 0; r < tile_dim; ++r) {
    offset_t v = sum[r];
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) v += __shfl_xor_sync(0xFFFFFFFFu, v, d);
    if (lane == r) mine = v;
  }
  const index_t i = (I << tile_shift) + lane;
  if (lane < tile_dim && i < P.nrows) len[i] = mine;
}

__global__ void k_lengths(pattern_ref P, offset_t* len) {
  for (index_t I = index_t(blockIdx.x) * kWarpsPerBlock + index_t(threadIdx.x >> 5); I < P.tile_rows;
       I += index_t(gridDim.x) * kWarpsPerBlock)  // whole warps take the same I
    if (P.tile_ptr[I + 1] - P.tile_ptr[I] > kShortTileRow) long_row_lengths(P, I, len);  // else k_lengths_short's
}

__global__ void k_lengths_short(pattern_ref P, offset_t* len) {
  const index_t g = index_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const index_t I = g >> 4;
  const int r = int(g & 15);
  if (I >= P.tile_rows) return;
  const offset_t t0 = P.tile_ptr[I], t1 = P.tile_ptr[I + 1];
  const index_t i = (I << tile_shift) + r;
  if (t1 - t0 > kShortTileRow || i >= P.nrows) return;
  offset_t n = 0;
  for (offset_t t = t0; t < t1; ++t) n += tile::popcount16(P.row_mask[16 * t + r]);
  len[i] = n;
}

}  // namespace csr

device_buffer<offset_t> scalar_row_ptr(const device_pattern& p, stream_t s) {
  device_buffer<offset_t> len(p.nrows + 1, s), ptr(p.nrows + 1, s);
  check(cudaMemsetAsync(len.data() + p.nrows, 0, sizeof(offset_t), native(s)), "row lengths");
  if (p.tile_rows()) {
    csr::k_lengths_short<<<csr::short_blocks_for(p), 256, 0, native(s)>>>(ref(p), len.data());
    csr::k_lengths<<<csr::blocks_for(p), 32 * csr::kWarpsPerBlock, 0, native(s)>>>(ref(p), len.data());
  }
  check(cudaGetLastError(), "row lengths");
  exclusive_sum(len.data(), ptr.data(), p.nrows + 1, s);
  return ptr;
}

namespace {
struct store_col_pos {
  index_t* col;
  offset_t* pos;
  __device__ void operator()(offset_t o, index_t, index_t j, offset_t e) const {
    col[o] = j;
    if (pos) pos[o] = e;
  }
};
}  // namespace

void csr_fill(const device_pattern& p, const offset_t* row_ptr, index_t* col, offset_t* pos, stream_t s) {
  csr::for_entries(p, row_ptr, store_col_pos{col, pos}, s);
}

csr_pattern csr_of(const device_pattern& p, stream_t s, bool positions) {
  csr_pattern c;
  c.row_ptr = scalar_row_ptr(p, s);
  c.col = device_buffer<index_t>(p.nnz, s);
  if (positions) c.pos = device_buffer<offset_t>(p.nnz, s);
  csr_fill(p, c.row_ptr.data(), c.col.data(), c.pos.data(), s);
  return c;
}

}  // namespace tgb::detail::cuda
