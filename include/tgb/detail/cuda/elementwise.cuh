// tgb CUDA backend: apply, select, the element-wise union and intersection,
// and the reductions. Patterns come from the type-independent planners in
// merge.cu; the kernels here fill values with the per-tile routines of
// detail/tile/elementwise.hpp, 16 threads per tile (one per row).
#pragma once

#include "tgb/detail/cuda/mxm.cuh"

namespace tgb::detail::cuda {

template <class TC, class TA>
__global__ void k_apply(offset_t n, const TA* a, coded_unary f, TC* c) {
  for (offset_t e = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; e < n; e += offset_t(gridDim.x) * blockDim.x)
    c[e] = cast<TC>(f(a[e]));
}

template <class TC, class TA>
device_tile_matrix<TC> apply(const device_tile_matrix<TA>& A, const coded_unary& f, stream_t s) {
  device_tile_matrix<TC> T;
  T.pat = clone_pattern(A.pat, s);
  T.values = device_buffer<TC>(A.pat.nnz, s);
  if (A.pat.nnz)
    k_apply<TC, TA><<<grid_for(A.pat.nnz, 256), 256, 0, native(s)>>>(A.pat.nnz, A.values.data(), f, T.values.data());
  check(cudaGetLastError(), "apply");
  return T;
}

// apply_index: 16 threads a tile, thread r on row r (tile::apply_index_row,
// the host's routine), the operator by code (coded_index_value).
template <class TC, class TA>
__global__ void k_apply_index(offset_t nt, pattern_ref A, const index_t* tile_row, const TA* vals, int code,
                              coded_scalar thunk, TC* out) {
  const offset_t g = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  const offset_t t = g / tile_dim;
  const int r = static_cast<int>(g % tile_dim);
  if (t >= nt) return;
  tile::apply_index_row(tile_of(A, vals, t), r, tile_row[t] * tile_dim, index_t(A.tile_col[t]) * tile_dim,
                        coded_index_value<TC>{code}, thunk, out + A.tile_offset[t]);
}

template <class TC, class TA>
device_tile_matrix<TC> apply_index(const device_tile_matrix<TA>& A, int code, const coded_scalar& thunk, stream_t s) {
  device_tile_matrix<TC> T;
  T.pat = clone_pattern(A.pat, s);
  T.values = device_buffer<TC>(A.pat.nnz, s);
  const offset_t nt = A.pat.ntiles;
  if (nt) {
    device_buffer<index_t> row = tile_rows_of(A.pat, s);
    k_apply_index<TC, TA><<<grid_for(16 * nt, 256), 256, 0, native(s)>>>(nt, ref(A.pat), row.data(), A.values.data(),
                                                                         code, thunk, T.values.data());
  }
  check(cudaGetLastError(), "apply_index");
  return T;
}

// (16 threads per tile) the bits select keeps, and their count per tile.
template <class T>
__global__ void k_select_bits(offset_t nt, pattern_ref A, const index_t* tile_row, const T* vals, coded_select pred,
                              coded_scalar thunk, row_bits* out, offset_t* count, offset_t* src) {
  const offset_t g = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  const offset_t t = g / tile_dim;
  const int r = static_cast<int>(g % tile_dim);
  row_bits bits = 0;
  if (t < nt) {
    bits = tile::select_row_bits(tile_of(A, vals, t), r, tile_row[t] * tile_dim, index_t(A.tile_col[t]) * tile_dim,
                                 pred, thunk);
    out[16 * t + r] = bits;
    if (r == 0) src[t] = t;
  }
  const int n = half_warp_sum(t < nt ? tile::popcount16(bits) : 0);
  if (t < nt && r == 0) count[t] = n;
}

template <class T>
__global__ void k_select_values(offset_t nt, pattern_ref out, const offset_t* src, pattern_ref A, const T* a_vals,
                                T* o_vals) {
  const offset_t g = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  const offset_t u = g / tile_dim;
  const int r = static_cast<int>(g % tile_dim);
  if (u >= nt) return;
  tile::select_row_values(tile_of(A, a_vals, src[u]), r, out.row_mask[16 * u + r],
                          o_vals + out.tile_offset[u] + out.row_ptr[16 * u + r]);
}

template <class T>
device_tile_matrix<T> select(const device_tile_matrix<T>& A, const coded_select& pred, const coded_scalar& thunk,
                             stream_t s) {
  const offset_t nt = A.pat.ntiles;
  candidates c;
  c.n = nt;
  c.key = tile_keys(A.pat, s);
  c.mask = device_buffer<row_bits>(16 * nt, s);
  c.count = device_buffer<offset_t>(nt, s);
  c.carry0 = device_buffer<offset_t>(nt, s);
  {
    device_buffer<index_t> row = tile_rows_of(A.pat, s);
    if (nt)
      k_select_bits<T><<<grid_for(16 * nt, 256), 256, 0, native(s)>>>(nt, ref(A.pat), row.data(), A.values.data(),
                                                                      pred, thunk, c.mask.data(), c.count.data(),
                                                                      c.carry0.data());
    check(cudaGetLastError(), "select bits");
  }
  device_tile_matrix<T> R;
  R.pat = finish_pattern(A.pat.nrows, A.pat.ncols, c, s);
  R.values = device_buffer<T>(R.pat.nnz, s);
  if (R.pat.ntiles)
    k_select_values<T><<<grid_for(16 * R.pat.ntiles, 256), 256, 0, native(s)>>>(
        R.pat.ntiles, ref(R.pat), c.carry0.data(), ref(A.pat), A.values.data(), R.values.data());
  check(cudaGetLastError(), "select values");
  return R;
}

// 16 threads an output tile, thread r on row r: the host's per-row routines
// (mode 2, the union with fill values: tile::union_row_values).
template <class T>
__global__ void k_ewise_values(offset_t nt, pattern_ref out, const offset_t* a_tile, const offset_t* b_tile,
                               pattern_ref A, const T* a_vals, pattern_ref B, const T* b_vals, coded_op op,
                               int mode, T alpha, T beta, T* o_vals) {
  const offset_t g = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  const offset_t u = g / tile_dim;
  const int r = static_cast<int>(g % tile_dim);
  if (u >= nt) return;
  const tile::tile_ref_t<T> none{nullptr, nullptr, nullptr, nullptr, 0};
  const auto at = a_tile[u] >= 0 ? tile_of(A, a_vals, a_tile[u]) : none;
  const auto bt = b_tile[u] >= 0 ? tile_of(B, b_vals, b_tile[u]) : none;
  T* row = o_vals + out.tile_offset[u] + out.row_ptr[16 * u + r];
  if (mode == 2) tile::union_row_values<T, T>(at, bt, r, op, alpha, beta, out.row_mask[16 * u + r], row);
  else tile::ewise_row_values(at, bt, r, op, out.row_mask[16 * u + r], row);
}

template <class T>
device_tile_matrix<T> ewise(const device_tile_matrix<T>& A, const device_tile_matrix<T>& B, int op_code, int mode,
                            T alpha, T beta, stream_t s) {
  ewise_plan p = plan_ewise(A.pat, B.pat, mode != 0, s);
  device_tile_matrix<T> R;
  R.pat = std::move(p.out);
  R.values = device_buffer<T>(R.pat.nnz, s);
  if (R.pat.ntiles)
    k_ewise_values<T><<<grid_for(16 * R.pat.ntiles, 256), 256, 0, native(s)>>>(
        R.pat.ntiles, ref(R.pat), p.a_tile.data(), p.b_tile.data(), ref(A.pat), A.values.data(), ref(B.pat),
        B.values.data(), coded_op{op_code}, mode, alpha, beta, R.values.data());
  check(cudaGetLastError(), "element-wise values");
  return R;
}

// One thread per matrix row: folds the row across its tile row.
template <class T>
__global__ void k_reduce_rows(index_t nrows, pattern_ref A, const T* vals, coded_monoid m, T* out,
                              std::uint8_t* present) {
  for (index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x; i < nrows; i += index_t(gridDim.x) * blockDim.x) {
    const index_t I = i / tile_dim;
    const int r = static_cast<int>(i % tile_dim);
    T acc = m.template identity<T>();
    bool any = false;
    for (offset_t t = A.tile_ptr[I]; t < A.tile_ptr[I + 1]; ++t) {
      const auto a = tile_of(A, vals, t);
      for (int p = a.row_begin(r), pe = a.row_end(r); p < pe; ++p) {
        acc = any ? m(acc, a.values[p]) : a.values[p];
        any = true;
      }
    }
    out[i] = acc;
    present[i] = any;
  }
}

template <class T>
void reduce_rows(const device_tile_matrix<T>& A, const coded_monoid& m, T* values, std::uint8_t* present,
                 stream_t s) {
  const index_t n = A.pat.nrows;
  if (n == 0) return;
  device_buffer<T> v(n, s);
  device_buffer<std::uint8_t> p(n, s);
  k_reduce_rows<T><<<grid_for(n, 256), 256, 0, native(s)>>>(n, ref(A.pat), A.values.data(), m, v.data(), p.data());
  check(cudaGetLastError(), "reduce rows");
  copy_device_to_host(values, v.data(), n * sizeof(T), s);
  copy_device_to_host(present, p.data(), n * sizeof(std::uint8_t), s);
}

template <class T>
struct monoid_fn {
  coded_monoid m;
  __device__ T operator()(const T& a, const T& b) const { return m(a, b); }
};

template <class T>
T reduce_all(const device_tile_matrix<T>& A, const coded_monoid& m, stream_t s) {
  const T init = m.template identity<T>();
  const offset_t n = A.pat.nnz;
  if (n == 0) return init;
  // any's identity absorbs (any(identity, x) is the identity): any stored
  // value is its answer, and every value here is stored.
  if (m.code == monoid_code<any_monoid>::value) return read_back(A.values.data(), s);
  device_buffer<T> out(1, s);
  with_temp(s, [&](void* t, std::size_t& b) {
    return cub::DeviceReduce::Reduce(t, b, A.values.data(), out.data(), n, monoid_fn<T>{m}, init, native(s));
  });
  return read_back(out.data(), s);
}

}  // namespace tgb::detail::cuda
