// tgb CUDA backend: the Kronecker product and diagonal matrices and vectors
// (construct.hpp's device side). The patterns are type-independent: entry
// keys (tile key << 8 | local row << 4 | local column) sorted by CUB's radix
// sort and read off by pattern_from_sorted_keys; the typed steps
// (construct.cuh) fill the values and are instantiated at the end.
#include "tgb/detail/cuda/construct.cuh"
#include "tgb/detail/cuda/common.cuh"
#include "tgb/detail/cuda/plan.hpp"
#include "shared.cuh"

namespace tgb::detail::cuda {

namespace {

constexpr int kThreads = 256;

__device__ inline std::uint64_t key_at(index_t i, index_t j, index_t tile_cols) {
  const std::uint64_t tk = std::uint64_t(i >> tile_shift) * std::uint64_t(tile_cols) + std::uint64_t(j >> tile_shift);
  return (tk << 8) | (std::uint64_t(i & 15) << 4) | std::uint64_t(j & 15);
}

// Row and column of each entry of A (a thread a tile), in storage order.
__global__ void k_entry_coords(offset_t nt, const index_t* tile_row, pattern_ref A, index_t* row, index_t* col) {
  for (offset_t t = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; t < nt; t += offset_t(gridDim.x) * blockDim.x) {
    const index_t r0 = tile_row[t] << tile_shift, c0 = index_t(A.tile_col[t]) << tile_shift;
    const offset_t e0 = A.tile_offset[t], e1 = A.tile_offset[t + 1];
    for (int r = 0; r < tile_dim; ++r) {
      const offset_t b = e0 + A.row_ptr[16 * t + r];
      const offset_t e = r == tile_dim - 1 ? e1 : e0 + A.row_ptr[16 * t + r + 1];
      for (offset_t q = b; q < e; ++q) {
        row[q] = r0 + r;
        col[q] = c0 + A.col_idx[q];
      }
    }
  }
}

struct coords {
  device_buffer<index_t> row, col;
};
coords coords_of(const device_pattern& A, stream_t s) {
  coords c{device_buffer<index_t>(A.nnz, s), device_buffer<index_t>(A.nnz, s)};
  const device_buffer<index_t> tr = tile_rows_of(A, s);
  if (A.ntiles)
    k_entry_coords<<<grid_for(A.ntiles, kThreads), kThreads, 0, native(s)>>>(A.ntiles, tr.data(), ref(A),
                                                                              c.row.data(), c.col.data());
  check(cudaGetLastError(), "entry coordinates");
  return c;
}

// Pair x = p * nb + q: (ra[p] * bm + rb[q], ca[p] * bn + cb[q]).
__global__ void k_kron_keys(offset_t n, std::uint64_t nb, const index_t* ra, const index_t* ca, const index_t* rb,
                            const index_t* cb, index_t bm, index_t bn, index_t tile_cols, std::uint64_t* key,
                            std::uint64_t* src) {
  for (offset_t x = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; x < n; x += offset_t(gridDim.x) * blockDim.x) {
    const std::uint64_t p = std::uint64_t(x) / nb, q = std::uint64_t(x) % nb;
    key[x] = key_at(ra[p] * bm + rb[q], ca[p] * bn + cb[q], tile_cols);
    src[x] = std::uint64_t(x);
  }
}

// The diagonal's entries: v's stored indices, in order (keys increase
// with the index along any one diagonal).
__global__ void k_diag_flags(index_t n, const std::uint8_t* present, offset_t* flag) {
  for (index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x; i <= n; i += index_t(gridDim.x) * blockDim.x)
    flag[i] = i < n && present[i] ? 1 : 0;
}
__global__ void k_diag_keys(index_t n, const std::uint8_t* present, const offset_t* at, index_t k, index_t tile_cols,
                            std::uint64_t* key, offset_t* gather) {
  for (index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x; i < n; i += index_t(gridDim.x) * blockDim.x)
    if (present[i]) {
      key[at[i]] = k >= 0 ? key_at(i, i + k, tile_cols) : key_at(i - k, i, tile_cols);
      gather[at[i]] = i;
    }
}

}  // namespace

device_pattern kron_pattern(const device_pattern& A, const device_pattern& B, device_buffer<std::uint64_t>& src,
                            stream_t s) {
  const index_t m = A.nrows * B.nrows, n = A.ncols * B.ncols;  // the caller checked that they fit
  const int key_bits = entry_key_bits(tiles_for(m), tiles_for(n));
  const offset_t total = A.nnz * B.nnz;
  const coords a = coords_of(A, s), b = coords_of(B, s);
  device_buffer<std::uint64_t> key(total, s);
  src = device_buffer<std::uint64_t>(total, s);
  if (total)
    k_kron_keys<<<grid_for(total, kThreads), kThreads, 0, native(s)>>>(
        total, std::uint64_t(B.nnz), a.row.data(), a.col.data(), b.row.data(), b.col.data(), B.nrows, B.ncols,
        tiles_for(n), key.data(), src.data());
  check(cudaGetLastError(), "kronecker");
  sort_pairs(key, src, total, key_bits, s);
  return pattern_from_sorted_keys(m, n, key.data(), total, s);
}

device_pattern diag_pattern(index_t n, const std::uint8_t* present, index_t k, device_buffer<offset_t>& gather,
                            stream_t s) {
  const index_t size = n + (k < 0 ? -k : k);
  entry_key_bits(tiles_for(size), tiles_for(size));
  device_buffer<offset_t> flag(n + 1, s), at(n + 1, s);
  k_diag_flags<<<grid_for(n + 1, kThreads), kThreads, 0, native(s)>>>(n, present, flag.data());
  check(cudaGetLastError(), "diagonal");
  exclusive_sum(flag.data(), at.data(), n + 1, s);
  const offset_t nnz = read_back(at.data() + n, s);
  device_buffer<std::uint64_t> key(nnz, s);
  gather = device_buffer<offset_t>(nnz, s);
  if (n)
    k_diag_keys<<<grid_for(n, kThreads), kThreads, 0, native(s)>>>(n, present, at.data(), k, tiles_for(size),
                                                                    key.data(), gather.data());
  check(cudaGetLastError(), "diagonal");
  return pattern_from_sorted_keys(size, size, key.data(), nnz, s);
}

#define TGB_CUDA_CONSTRUCT(T)                                                                                      \
  template device_tile_matrix<T> kronecker<T>(const device_tile_matrix<T>&, const device_tile_matrix<T>&, int,     \
                                              stream_t);                                                           \
  template device_tile_matrix<T> diag_matrix<T>(const device_vector<T>&, index_t, stream_t);                      \
  template device_vector<T> diag_vector<T>(const device_tile_matrix<T>&, index_t, index_t, stream_t);

TGB_CUDA_CONSTRUCT(bool)
TGB_CUDA_CONSTRUCT(std::int32_t)
TGB_CUDA_CONSTRUCT(std::int64_t)
TGB_CUDA_CONSTRUCT(float)
TGB_CUDA_CONSTRUCT(double)

}  // namespace tgb::detail::cuda
