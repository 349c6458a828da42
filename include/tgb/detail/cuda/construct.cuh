// tgb CUDA backend: the Kronecker product and diagonal matrices and vectors
// on device operands, typed steps (declared in api.hpp; construct.hpp is the
// host-side entry). The Kronecker pattern is planned once for every type
// (src/cuda/construct.cu); the values are op(a, b) of each pair.
#pragma once

#include "tgb/detail/cuda/assign.cuh"

namespace tgb::detail::cuda {

// Entry e of the Kronecker product takes the pair src[e] = p * nb + q (A's
// entry p, B's entry q).
template <class T>
__global__ void k_kron_values(offset_t n, const std::uint64_t* src, std::uint64_t nb, const T* a, const T* b,
                              coded_op op, T* out) {
  for (offset_t e = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; e < n; e += offset_t(gridDim.x) * blockDim.x) {
    const std::uint64_t x = src[e];
    out[e] = op(a[x / nb], b[x % nb]);
  }
}

template <class T>
device_tile_matrix<T> kronecker(const device_tile_matrix<T>& A, const device_tile_matrix<T>& B, int op_code,
                                stream_t s) {
  device_buffer<std::uint64_t> src;
  device_tile_matrix<T> out;
  out.pat = kron_pattern(A.pat, B.pat, src, s);
  out.values = device_buffer<T>(out.pat.nnz, s);
  if (out.pat.nnz)
    k_kron_values<T><<<grid_for(out.pat.nnz, 256), 256, 0, native(s)>>>(
        out.pat.nnz, src.data(), std::uint64_t(B.pat.nnz), A.values.data(), B.values.data(), coded_op{op_code},
        out.values.data());
  check(cudaGetLastError(), "kronecker values");
  return out;
}

template <class T>
device_tile_matrix<T> diag_matrix(const device_vector<T>& v, index_t k, stream_t s) {
  device_buffer<offset_t> gather;
  device_pattern p = diag_pattern(v.n, v.present.data(), k, gather, s);
  return gathered<T>(std::move(p), gather, v.values.data(), s);
}

// w(i) = A's entry on diagonal k at i (w of the diagonal's length).
template <class T>
__global__ void k_diag_entries(offset_t nt, const index_t* tile_row, pattern_ref A, const T* vals, index_t k,
                               T* w, std::uint8_t* present) {
  for (offset_t t = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; t < nt; t += offset_t(gridDim.x) * blockDim.x) {
    const index_t r0 = tile_row[t] << tile_shift, c0 = index_t(A.tile_col[t]) << tile_shift;
    // Only tiles the diagonal crosses: column - row = k somewhere in it.
    if (c0 + 15 - r0 < k || c0 - (r0 + 15) > k) continue;
    const offset_t e0 = A.tile_offset[t], e1 = A.tile_offset[t + 1];
    for (int r = 0; r < tile_dim; ++r) {
      const offset_t b = e0 + A.row_ptr[16 * t + r];
      const offset_t e = r == tile_dim - 1 ? e1 : e0 + A.row_ptr[16 * t + r + 1];
      for (offset_t q = b; q < e; ++q) {
        const index_t i = r0 + r, j = c0 + A.col_idx[q];
        if (j - i != k) continue;
        const index_t at = k >= 0 ? i : j;
        w[at] = vals[q];
        present[at] = 1;
      }
    }
  }
}

template <class T>
device_vector<T> diag_vector(const device_tile_matrix<T>& A, index_t k, index_t len, stream_t s) {
  device_vector<T> w(len, s);
  w.nvals = -1;  // counted when asked
  if (A.pat.ntiles) {
    const device_buffer<index_t> row = tile_rows_of(A.pat, s);
    k_diag_entries<T><<<grid_for(A.pat.ntiles, 256), 256, 0, native(s)>>>(
        A.pat.ntiles, row.data(), ref(A.pat), A.values.data(), k, w.values.data(), w.present.data());
  }
  check(cudaGetLastError(), "diagonal");
  return w;
}

}  // namespace tgb::detail::cuda
