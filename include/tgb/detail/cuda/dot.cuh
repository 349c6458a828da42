// tgb CUDA backend: the dot method of mxm, for masks much sparser than the
// product (the masked triangle product C<L> = L plus_pair L' is its home).
// For every entry (i, j) the mask admits, one thread merges row i of op(A)
// with row j of op(B)' (both in CSR: csr_of), folding the matching terms in
// increasing k; where one row is much shorter it searches the other
// instead. Only the mask's positions are ever formed: no tile pairs, no hash
// tables, no scratch beyond a value and a flag per mask entry. C's pattern
// is the mask's, less the entries whose dot found no term (found_pattern).
// The same rule as on the host (mxm_method.hpp) picks it.
#pragma once

#include "tgb/detail/cuda/common.cuh"
#include "tgb/detail/cuda/plan.hpp"
#include "tgb/detail/cuda/row_spgemm.cuh"
#include "tgb/detail/cuda/rowpath.cuh"

namespace tgb::detail::cuda::dot {

// Rows of one operand in CSR, as the kernels read them (the row path's view).
using rows_ref = rowpath::csr_ref;
inline rows_ref ref(const csr_pattern& c) { return rows_ref{c.row_ptr.data(), c.col.data(), c.pos.data()}; }

// A row is searched instead of merged when it is this many times longer
// than the other.
inline constexpr offset_t kSearchRatio = 8;

// Calls fold(x, y) for every x in [pa, ea) and y in [pb, eb) with equal
// columns (both ranges sorted), in increasing column, until fold returns
// true (a terminal value). Merges, or searches the longer range where one is
// kSearchRatio times the other.
template <class CA, class CB, class F>
__device__ inline void merge_rows(const CA* acol, offset_t pa, offset_t ea, const CB* bcol, offset_t pb, offset_t eb,
                                  F&& fold) {
  if (pa >= ea || pb >= eb) return;
  if ((ea - pa) * kSearchRatio < eb - pb) {
    for (; pa < ea && pb < eb; ++pa) {
      const CB k = CB(acol[pa]);
      pb += lower_bound(bcol + pb, eb - pb, k);
      if (pb < eb && bcol[pb] == k && fold(pa, pb++)) return;
    }
  } else if ((eb - pb) * kSearchRatio < ea - pa) {
    for (; pb < eb && pa < ea; ++pb) {
      const CA k = CA(bcol[pb]);
      pa += lower_bound(acol + pa, ea - pa, k);
      if (pa < ea && acol[pa] == k && fold(pa++, pb)) return;
    }
  } else {
    index_t ka = index_t(acol[pa]), kb = index_t(bcol[pb]);
    for (;;) {
      if (ka < kb) {
        if (++pa == ea) return;
        ka = index_t(acol[pa]);
      } else if (kb < ka) {
        if (++pb == eb) return;
        kb = index_t(bcol[pb]);
      } else {
        if (fold(pa, pb) || ++pa == ea || ++pb == eb) return;
        ka = index_t(acol[pa]);
        kb = index_t(bcol[pb]);
      }
    }
  }
}

// One dot product's fold: the first term taken as it is, the rest added;
// term() says whether the value is terminal (the merge stops there). Each
// product is stored before it is added, so no multiply-add is fused.
template <class TC, class Add, class Mul>
struct dot_fold {
  const Add& add;
  const Mul& mul;
  TC acc{};
  bool hit = false;
  template <class TA, class TB>
  __device__ bool term(const TA& a, const TB& b) {
    const TC v = rowpath::opaque(TC(mul(static_cast<TC>(a), static_cast<TC>(b))));
    if (!hit) {
      acc = v;
      hit = true;
    } else {
      acc = add(acc, v);
    }
    return add.is_terminal(acc);
  }
};

// kDotLanes threads per local row r of each mask tile t (tile_row: t's tile
// row), each taking every kDotLanes-th entry of the row: for each entry (i,
// j) the mask admits, the dot product of row i of A and row j of Bt (=
// column j of op(B)); out[e] and found[e] (0 or 1) for every entry e. (A
// thread per entry found its tile, tile row and local row by three binary
// searches: 131 us for lap2d's 2.1M entries on the H100; one thread per
// local row did up to 16 dot products one after another in dense tiles.)
inline constexpr int kDotLanes = 4;
template <class TC, class TA, class TB, class Add, class Mul>
__global__ void k_dot(pattern_ref M, const index_t* tile_row, const row_bits* allowed, rows_ref A, const TA* a_vals,
                      rows_ref Bt, const TB* b_vals, Add add, Mul mul, TC* out, offset_t* found) {
  const offset_t g = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  const offset_t t = g / (16 * kDotLanes);
  const int r = int(g / kDotLanes % 16), lane = int(g % kDotLanes);
  if (t >= M.ntiles) return;
  const offset_t e0 = M.tile_offset[t];
  const int q0 = M.row_ptr[16 * t + r];
  const int q1 = r + 1 < tile_dim ? int(M.row_ptr[16 * t + r + 1]) : int(M.tile_offset[t + 1] - e0);
  if (q0 + lane >= q1) return;  // no entry for this lane: leave before reading the rows
  const index_t i = (tile_row[t] << tile_shift) + r, j0 = index_t(M.tile_col[t]) << tile_shift;
  const row_bits ok = allowed[16 * t + r];
  const offset_t pa = A.row_ptr[i], ea = A.row_ptr[i + 1];
  for (int q = q0 + lane; q < q1; q += kDotLanes) {
    const offset_t e = e0 + q;
    const int c = M.col_idx[e];
    dot_fold<TC, Add, Mul> f{add, mul};
    if ((ok >> c) & 1u) {
      const index_t j = j0 + c;
      merge_rows(A.col, pa, ea, Bt.col, Bt.row_ptr[j], Bt.row_ptr[j + 1],
                 [&](offset_t x, offset_t y) { return f.term(a_vals[A.pos[x]], b_vals[Bt.pos[y]]); });
    }
    out[e] = f.acc;
    found[e] = f.hit ? 1 : 0;
  }
}

template <class T>
__global__ void k_scatter_found(offset_t n, const offset_t* found, const offset_t* dest, const T* in, T* out) {
  for (offset_t e = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; e < n; e += offset_t(gridDim.x) * blockDim.x)
    if (found[e]) out[dest[e]] = in[e];
}

// T<M> = A * Bt' by dot products: A holds op(A), Bt holds op(B)' (so row j
// of Bt is column j of op(B)). M must be given and not complemented.
template <class TC, class TA, class TB, class Semiring>
device_tile_matrix<TC> product(const mask_arg& M, const Semiring& sr, const device_tile_matrix<TA>& A,
                               const device_tile_matrix<TB>& Bt, stream_t s) {
  const device_pattern& m = *M.pat;
  constexpr int kThreads = 256;
  const csr_pattern a = csr_of(A.pat, s);
  csr_pattern b_own;
  const csr_pattern* b = &b_own;
  if constexpr (std::is_same_v<TA, TB>) {
    if (&A == &Bt) b = &a;  // C<L> = L * L': one view serves both
  }
  if (b == &b_own) b_own = csr_of(Bt.pat, s);
  device_buffer<TC> vals(m.nnz, s);
  device_buffer<offset_t> found(m.nnz, s);
  if (m.nnz) {
    const device_buffer<index_t> tile_row = tile_rows_of(m, s);
    k_dot<TC, TA, TB><<<grid_for(16 * kDotLanes * m.ntiles, kThreads), kThreads, 0, native(s)>>>(
        cuda::ref(m), tile_row.data(), M.bits, ref(a), A.values.data(), ref(*b), Bt.values.data(), sr.add, sr.mul,
        vals.data(), found.data());
  }
  check(cudaGetLastError(), "dot products");
  device_tile_matrix<TC> T;
  T.pat = found_pattern(m, found, s);
  T.values = device_buffer<TC>(T.pat.nnz, s);
  if (T.pat.nnz) {
    // Each found entry's place among C's: scanned only where C has entries.
    device_buffer<offset_t> dest(m.nnz, s);
    exclusive_sum(found.data(), dest.data(), m.nnz, s);
    k_scatter_found<<<grid_for(m.nnz, kThreads), kThreads, 0, native(s)>>>(m.nnz, found.data(), dest.data(),
                                                                          vals.data(), T.values.data());
  }
  check(cudaGetLastError(), "dot values");
  return T;
}

// The same over a mask in rows, with op(A) and op(B)' in rows: one thread per
// mask entry, its row by binary search; C comes out in rows.
template <class TC, class TA, class TB, class Add, class Mul>
__global__ void k_row_dot(mask_arg M, rows::csr_ref A, const TA* a_vals, rows::csr_ref Bt, const TB* b_vals, Add add,
                          Mul mul, TC* out, offset_t* found) {
  for (offset_t e = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; e < M.nnz;
       e += offset_t(gridDim.x) * blockDim.x) {
    dot_fold<TC, Add, Mul> f{add, mul};
    if (!M.ok || M.ok[e]) {
      const index_t i = index_t(last_le(M.row_ptr, offset_t(M.nrows), e));
      const index_t j = M.col[e];
      merge_rows(A.col, A.row_ptr[i], A.row_ptr[i + 1], Bt.col, Bt.row_ptr[j], Bt.row_ptr[j + 1],
                 [&](offset_t x, offset_t y) { return f.term(a_vals[x], b_vals[y]); });
    }
    out[e] = f.acc;
    found[e] = f.hit ? 1 : 0;
  }
}

template <class T>
__global__ void k_scatter_found_rows(offset_t n, const offset_t* found, const offset_t* dest, const std::int32_t* col,
                                     const T* in, std::int32_t* c_col, T* out) {
  for (offset_t e = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; e < n; e += offset_t(gridDim.x) * blockDim.x)
    if (found[e]) {
      c_col[dest[e]] = col[e];
      out[dest[e]] = in[e];
    }
}

// T<M> = A * Bt' in rows, for a mask in rows that is not complemented (A:
// op(A)'s rows, Bt: op(B)''s).
template <class TC, class TA, class TB, class Semiring>
device_row_matrix<TC> product_rows(const mask_arg& M, const Semiring& sr, const device_row_matrix<TA>& A,
                                   const device_row_matrix<TB>& Bt, stream_t s) {
  constexpr int kThreads = 256;
  device_buffer<TC> vals(M.nnz, s);
  device_buffer<offset_t> found(M.nnz + 1, s);
  if (M.nnz)
    k_row_dot<TC, TA, TB><<<grid_for(M.nnz, kThreads), kThreads, 0, native(s)>>>(
        M, rows::ref(A), A.values.data(), rows::ref(Bt), Bt.values.data(), sr.add, sr.mul, vals.data(), found.data());
  check(cudaGetLastError(), "row dot products");
  device_row_matrix<TC> T;
  T.nrows = M.nrows;
  T.ncols = M.ncols;
  device_buffer<offset_t> dest;
  T.row_ptr = rows_from_found(M.row_ptr, M.nrows, M.nnz, found, dest, &T.nnz, s);
  T.col = device_buffer<std::int32_t>(T.nnz, s);
  T.values = device_buffer<TC>(T.nnz, s);
  if (T.nnz)
    k_scatter_found_rows<<<grid_for(M.nnz, kThreads), kThreads, 0, native(s)>>>(
        M.nnz, found.data(), dest.data(), M.col, vals.data(), T.col.data(), T.values.data());
  check(cudaGetLastError(), "row dot values");
  return T;
}

}  // namespace tgb::detail::cuda::dot
