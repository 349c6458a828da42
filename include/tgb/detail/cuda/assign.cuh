// tgb CUDA backend: extract, assign and subassign on device matrices, typed
// steps (declared in api.hpp). The patterns and where each entry's value
// comes from are planned once for every type (src/cuda/assign.cu); these
// copy the values, merge the assigned region into C with the element-wise
// union (elementwise.cuh) and, for subassign, write the region back through
// the relabeled mask (mxm.cuh's write-back).
#pragma once

#include "tgb/detail/cuda/elementwise.cuh"

namespace tgb::detail::cuda {

template <class T>
__global__ void k_fill_value(offset_t n, T x, T* out) {
  for (offset_t e = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; e < n; e += offset_t(gridDim.x) * blockDim.x)
    out[e] = x;
}

// A matrix of pattern p whose entry e takes src[gather[e]].
template <class T>
device_tile_matrix<T> gathered(device_pattern&& p, const device_buffer<offset_t>& gather, const T* src, stream_t s) {
  device_tile_matrix<T> out;
  out.pat = std::move(p);
  out.values = device_buffer<T>(out.pat.nnz, s);
  if (out.pat.nnz)
    k_gather<<<grid_for(out.pat.nnz, 256), 256, 0, native(s)>>>(out.pat.nnz, gather.data(), src,
                                                                 out.values.data());
  check(cudaGetLastError(), "gather values");
  return out;
}

template <class T>
device_tile_matrix<T> extract(const device_tile_matrix<T>& A, const index_source& I, index_t m, const index_source& J,
                              index_t n, stream_t s) {
  device_buffer<offset_t> gather;
  device_pattern p = extract_pattern(A.pat, I, m, J, n, gather, s);
  return gathered<T>(std::move(p), gather, A.values.data(), s);
}

// The source of an assignment in C's shape (m x n): A relabeled (A(k, l) at
// (I(k), J(l))), or x at every position of I x J, or nothing.
template <class T>
device_tile_matrix<T> region_source(index_t m, index_t n, const device_tile_matrix<T>* A, const T* x,
                                    const index_source& I, index_t ni, const index_source& J, index_t nj,
                                    stream_t s) {
  device_tile_matrix<T> src;
  if (A) {
    device_buffer<offset_t> gather;
    device_pattern p = scatter_pattern(A->pat, nullptr, I, J, m, n, gather, s);
    return gathered<T>(std::move(p), gather, A->values.data(), s);
  }
  src.pat = x ? grid_pattern(I, ni, J, nj, m, n, s) : empty_device_pattern(m, n, s);
  src.values = device_buffer<T>(src.pat.nnz, s);
  if (src.pat.nnz)
    k_fill_value<T><<<grid_for(src.pat.nnz, 256), 256, 0, native(s)>>>(src.pat.nnz, *x, src.values.data());
  check(cudaGetLastError(), "assign values");
  return src;
}

// C's entries inside the region I x J (inside), or outside it.
template <class T>
device_tile_matrix<T> region_part(const device_tile_matrix<T>& C, const index_source& I, index_t ni,
                                  const index_source& J, index_t nj, bool inside, stream_t s) {
  device_buffer<offset_t> gather;
  device_pattern p = cut_pattern(C.pat, I, ni, J, nj, inside, gather, s);
  return gathered<T>(std::move(p), gather, C.values.data(), s);
}

template <class T>
device_tile_matrix<T> assign_region(const device_tile_matrix<T>& C, const device_tile_matrix<T>* A, const T* x,
                                    const index_source& I, index_t ni, const index_source& J, index_t nj,
                                    int accum_code, stream_t s) {
  device_tile_matrix<T> src = region_source<T>(C.pat.nrows, C.pat.ncols, A, x, I, ni, J, nj, s);
  if (accum_code >= 0) return ewise<T>(C, src, accum_code, 1, T{}, T{}, s);
  // No accumulator: C's entries outside the region, then the source's (the
  // two are disjoint: the operator is never applied).
  return ewise<T>(region_part<T>(C, I, ni, J, nj, false, s), src, op_code<first>::value, 1, T{}, T{}, s);
}

template <class T>
device_tile_matrix<T> subassign_region(const device_tile_matrix<T>& C, const device_tile_matrix<T>* A, const T* x,
                                       const index_source& I, index_t ni, const index_source& J, index_t nj,
                                       const mask_arg& M, int accum_code, bool replace, stream_t s) {
  device_tile_matrix<T> src = region_source<T>(C.pat.nrows, C.pat.ncols, A, x, I, ni, J, nj, s);
  // The mask's admitted entries relabeled into C's positions: a structure.
  device_pattern mr;
  mask_arg in_c;
  if (M.given()) {
    device_buffer<offset_t> unused;
    mr = scatter_pattern(*M.pat, M.bits, I, J, C.pat.nrows, C.pat.ncols, unused, s);
    in_c.pat = &mr;
    in_c.bits = mr.row_mask.data();
    in_c.complement = M.complement;
  }
  // Inside the region, C(I,J)<M, replace> = accum(C(I,J), source): C's
  // entries there written back through the relabeled mask; outside the
  // region neither holds an entry, so the complement and replace act inside
  // it alone. Outside, C's entries as they are.
  device_tile_matrix<T> w = writeback<T>(region_part<T>(C, I, ni, J, nj, true, s), in_c, accum_code, replace,
                                         std::move(src), false, s);
  return ewise<T>(region_part<T>(C, I, ni, J, nj, false, s), w, op_code<first>::value, 1, T{}, T{}, s);
}

}  // namespace tgb::detail::cuda
