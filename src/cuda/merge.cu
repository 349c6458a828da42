// tgb CUDA backend: the type-independent plans of the operations that merge
// two patterns (the write-back C<M, replace> = accum(C, T), element-wise add
// and multiply) and of the transpose. mxm's planner is src/cuda/pipeline.cu.
#include <algorithm>
#include <utility>

#include "tgb/detail/cuda/common.cuh"
#include "tgb/detail/cuda/plan.hpp"
#include "tgb/detail/tile/elementwise.hpp"
#include "tgb/detail/tile/spgemm.hpp"
#include "shared.cuh"

namespace tgb::detail::cuda {

namespace {
constexpr int kThreads = 256;
}  // namespace

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

device_buffer<std::uint64_t> tile_keys(const device_pattern& p, const index_t* row, stream_t s) {
  device_buffer<std::uint64_t> key(p.ntiles, s);
  if (p.ntiles)
    k_tile_keys<<<grid_for(p.ntiles, kThreads), kThreads, 0, native(s)>>>(p.ntiles, row, p.tile_col.data(),
                                                                           p.tile_cols(), key.data(), 0);
  check(cudaGetLastError(), "tile keys");
  return key;
}

device_buffer<std::uint64_t> tile_keys(const device_pattern& p, stream_t s) {
  const device_buffer<index_t> row = tile_rows_of(p, s);
  return tile_keys(p, row.data(), s);
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
      index_t I, J;
      split_tile_key(key[e] >> 8, std::uint64_t(tile_cols), I, J);
      tile_col[t] = tile_index_t(J);
      tile_row[t] = I;
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
