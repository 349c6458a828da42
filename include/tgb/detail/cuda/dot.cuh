// tgb CUDA backend: the dot method of mxm, for masks much sparser than the
// product (the masked triangle product C<L> = L plus_pair L' is its home).
// Every entry (i, j) the mask admits is the dot product of row i of op(A)
// and row j of op(B)', its terms folded in increasing k. Over a mask in
// tiles the operands are read as tiles (k_tile_dot: common tile columns,
// then common bits); over a mask in rows, as rows (k_row_dot: a merge, or a
// search where one row is much longer). Only the mask's positions are ever
// formed: no tile pairs, no hash tables, no scratch beyond a value per mask
// entry and its tile's row bits (tiles) or a flag (rows). C's pattern is the
// mask's, less the entries whose dot found no term (found_pattern). The same
// rule as on the host (mxm_method.hpp) picks it.
#pragma once

#include "tgb/detail/cuda/common.cuh"
#include "tgb/detail/cuda/plan.hpp"
#include "tgb/detail/cuda/row_spgemm.cuh"
#include "tgb/detail/cuda/rowpath.cuh"
#include "tgb/detail/tile/spgemm.hpp"

namespace tgb::detail::cuda::dot {

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

// The dot over tiles: G threads per mask tile t = (I, J) (G = 4 or 16, by
// the mask's entries per tile), each taking kTileDotPer of the tile's
// entries at a time (entry q: thread q % G), its local row found among the
// tile's row starts (one 16-byte load). The threads walk tile row I of A and
// tile row J of Bt together by tile column (merge_rows over tile_col); for
// each common tile K, each entry (r, s) folds the columns that A's row r and
// Bt's row s share in tile K (tile::dot_row_pair: the rows' bits, then
// ranks). Terms come in increasing K, then k: increasing column, as the host
// folds them. A found entry writes its value and sets its bit in the tile's
// row words in shared memory. (Before, a CSR view of each operand, 60-80 us
// of lap2d's triangle product on the H100 and rebuilt every call, and four
// threads a mask row merging each entry's whole rows: the triangle product
// on lap2d, stencil27, blocks6 and bcsstk33 took 1.5-2.0x this one's time,
// H200 r84. Sixteen threads on lap2d's L, 10.7 entries a tile: 108 us for
// its 2.1M entries, most threads walking the tile rows for one entry, r86.)
inline constexpr int kTileDotPer = 4;
inline constexpr int kTileDotThreads = 256;
// Mask tiles of at most this many entries on average take 4 threads a tile
// (one round of 4 x kTileDotPer entries walks the tile rows once); denser
// ones 16. (At 24, stencil27's L, 17.5 a tile in two rounds of four
// threads, took 0.56 ms against 0.44-0.48 with 16 threads, H100 r87.)
inline constexpr double kTileDotFewEntries = 16.0;
// out[e] for each mask entry e whose dot found a term; bits[16 t + r] and
// count[t]: the row bits and number of those entries in mask tile t (C's
// pattern: found_pattern).
template <int G, class TC, class TA, class TB, class Add, class Mul>
__global__ void __launch_bounds__(kTileDotThreads)
    k_tile_dot(pattern_ref M, const index_t* tile_row, const row_bits* allowed, pattern_ref A, const TA* a_vals,
               pattern_ref Bt, const TB* b_vals, Add add, Mul mul, TC* out, row_bits* bits, offset_t* count) {
  static_assert(G == 4 || G == 8 || G == 16, "G threads a tile, within a half-warp");
  __shared__ unsigned found[16 * (kTileDotThreads / G)];  // 16 row words per tile: its found bits
  const offset_t g = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  const offset_t t = g / G;
  const int lane = int(g % G);
  unsigned* my = found + 16 * (threadIdx.x / G);  // this tile's 16 words
  for (int r = lane; r < tile_dim; r += G) my[r] = 0;
  __syncwarp();
  if (t < M.ntiles) {  // no warp-wide operation until the end
    const offset_t e0 = M.tile_offset[t];
    const int n = int(M.tile_offset[t + 1] - e0);
    const uint4 rw = reinterpret_cast<const uint4*>(M.row_ptr)[t];  // the 16 row starts
    const auto start = [&](int r) {
      const unsigned w = r < 4 ? rw.x : r < 8 ? rw.y : r < 12 ? rw.z : rw.w;
      return int((w >> (8 * (r & 3))) & 0xFFu);
    };
    const index_t I = tile_row[t], J = index_t(M.tile_col[t]);
    const offset_t a0 = A.tile_ptr[I], a1 = A.tile_ptr[I + 1];
    const offset_t b0 = Bt.tile_ptr[J], b1 = Bt.tile_ptr[J + 1];
    constexpr int kRound = G * kTileDotPer;
    for (int q0 = lane; q0 < n; q0 += kRound) {
      int row[kTileDotPer], col[kTileDotPer];
      bool open[kTileDotPer], hit[kTileDotPer];
      TC acc[kTileDotPer];
#pragma unroll
      for (int u = 0; u < kTileDotPer; ++u) {
        const int q = q0 + u * G;
        int r = 0;  // the last row whose first entry is at or before q
#pragma unroll
        for (int step = 8; step > 0; step >>= 1)
          if (start(r + step) <= q) r += step;
        row[u] = r;
        col[u] = q < n ? int(M.col_idx[e0 + q]) : 0;
        open[u] = q < n && ((allowed[16 * t + r] >> col[u]) & 1u);
        hit[u] = false;
        acc[u] = TC{};
      }
      merge_rows(A.tile_col, a0, a1, Bt.tile_col, b0, b1, [&](offset_t x, offset_t y) {
        const auto at = tile_of(A, a_vals, x);
        const auto bt = tile_of(Bt, b_vals, y);
        bool any = false;
#pragma unroll
        for (int u = 0; u < kTileDotPer; ++u) {
          if (!open[u]) continue;
          const bool stop = tile::dot_row_pair(at, row[u], bt, col[u], [&](const TA& a, const TB& b) {
            const TC v = rowpath::opaque(TC(mul(static_cast<TC>(a), static_cast<TC>(b))));
            acc[u] = hit[u] ? TC(add(acc[u], v)) : v;
            hit[u] = true;
            return add.is_terminal(acc[u]);
          });
          if (stop) open[u] = false;
          any = any || open[u];
        }
        return !any;  // every entry of this thread terminal or closed
      });
#pragma unroll
      for (int u = 0; u < kTileDotPer; ++u)
        if (hit[u]) {
          out[e0 + q0 + u * G] = acc[u];
          atomicOr(my + row[u], 1u << col[u]);
        }
    }
  }
  __syncwarp();
  int total = 0;
  for (int r = lane; r < tile_dim; r += G) total += __popc(my[r]);
  for (int o = G / 2; o > 0; o >>= 1) total += __shfl_xor_sync(0xFFFFFFFFu, total, o, G);
  if (t < M.ntiles) {
    for (int r = lane; r < tile_dim; r += G) bits[16 * t + r] = row_bits(my[r]);
    if (lane == 0) count[t] = total;
  }
}

// C's values: 16 threads per tile t' of C (thread r on local row r), from
// mask tile map[t']'s entries in that row whose bit C's row keeps.
template <class T>
__global__ void k_scatter_found(pattern_ref C, const offset_t* map, pattern_ref M, const T* in, T* out) {
  const offset_t g = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  const offset_t tc = g / tile_dim;
  const int r = int(g % tile_dim);
  if (tc >= C.ntiles) return;
  const std::uint32_t cb = C.row_mask[16 * tc + r];
  if (!cb) return;
  const auto m = tile_of(M, in, map[tc]);  // the mask tile's found values, in its entries' places
  T* dst = out + C.tile_offset[tc] + C.row_ptr[16 * tc + r];
  int n = 0;
  for (int q = m.row_begin(r), qe = m.row_end(r); q < qe; ++q)
    if ((cb >> m.col_idx[q]) & 1u) dst[n++] = m.values[q];
}

// T<M> = A * Bt' by dot products: A holds op(A), Bt holds op(B)' (so row j
// of Bt is column j of op(B)). M must be given and not complemented.
template <class TC, class TA, class TB, class Semiring>
device_tile_matrix<TC> product(const mask_arg& M, const Semiring& sr, const device_tile_matrix<TA>& A,
                               const device_tile_matrix<TB>& Bt, stream_t s) {
  const device_pattern& m = *M.pat;
  device_buffer<TC> vals(m.nnz, s);
  device_buffer<row_bits> bits(16 * m.ntiles, s);
  device_buffer<offset_t> count(m.ntiles, s), map;
  const device_buffer<index_t> tile_row = tile_rows_of(m, s);
  if (m.ntiles) {
    const auto launch = [&](auto kernel, int threads_a_tile) {
      kernel<<<grid_for(threads_a_tile * m.ntiles, kTileDotThreads), kTileDotThreads, 0, native(s)>>>(
          cuda::ref(m), tile_row.data(), M.bits, cuda::ref(A.pat), A.values.data(), cuda::ref(Bt.pat),
          Bt.values.data(), sr.add, sr.mul, vals.data(), bits.data(), count.data());
    };
    using Add = std::decay_t<decltype(sr.add)>;
    using Mul = std::decay_t<decltype(sr.mul)>;
    if (double(m.nnz) <= kTileDotFewEntries * double(m.ntiles)) launch(k_tile_dot<4, TC, TA, TB, Add, Mul>, 4);
    else launch(k_tile_dot<16, TC, TA, TB, Add, Mul>, 16);
  }
  check(cudaGetLastError(), "dot products");
  device_tile_matrix<TC> T;
  T.pat = found_pattern(m, tile_row.data(), bits, count, map, s);
  T.values = device_buffer<TC>(T.pat.nnz, s);
  if (T.pat.nnz)
    k_scatter_found<<<grid_for(16 * T.pat.ntiles, kTileDotThreads), kTileDotThreads, 0, native(s)>>>(
        cuda::ref(T.pat), map.data(), cuda::ref(m), vals.data(), T.values.data());
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
