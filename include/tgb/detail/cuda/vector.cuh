// tgb CUDA backend: matrix-vector products over a semiring and the vector
// write-back (declared in api.hpp). A vector is a value array and a presence
// byte per element, as on the host.
//   pull (t = A u): one warp per tile row of A; lane r of each half-warp takes
//     row r of every other tile of the tile row, and the halves combine at
//     the end; for A in rows, a group of lanes per row (pull_lanes), each
//     lane four entries a turn, and a shuffle reduction; rows past long_len
//     (hubs) go to a block each or, from kMergeFrom (2^18) entries without a
//     mask, the whole product takes the merge path (every thread the same
//     share of rows and entries). Rows the mask refuses are not computed.
//   push (t = A' u): the same walks over the rows of A that u stores, each
//     product folded into t(j) by an atomic form of the add monoid (native
//     atomics for plus, min and max where the hardware has them, a
//     compare-and-swap loop otherwise, a plain store for any). The order of
//     the folds is not fixed: floating-point sums may differ in the last bits
//     from run to run, as cuSPARSE's transposed SpMV does.
// The multiply's operand order is a template flag: mul(A(i,k), u(k)) for mxv,
// mul(u(k), A(k,j)) for vxm (it matters for first, second, minus ...).
#pragma once

#include <cstring>
#include <type_traits>

#include "tgb/detail/cuda/common.cuh"

namespace tgb::detail::cuda {

template <class T>
__device__ inline T bits_as(std::conditional_t<sizeof(T) == 8, unsigned long long, unsigned> b) {
  T v;
  memcpy(&v, &b, sizeof(T));
  return v;
}
template <class T>
__device__ inline auto as_bits(T v) {
  std::conditional_t<sizeof(T) == 8, unsigned long long, unsigned> b;
  memcpy(&b, &v, sizeof(T));
  return b;
}

// *p = add(*p, x), atomically.
template <class T, class Add>
__device__ inline void atomic_fold(T* p, T x, const Add& add) {
  if constexpr (std::is_same_v<Add, any_monoid>) {
    *p = x;  // any value of those offered will do
  } else if constexpr (std::is_same_v<Add, plus_monoid> && one_of<T, std::int32_t, float, double>) {
    atomicAdd(p, x);
  } else if constexpr (std::is_same_v<Add, plus_monoid> && std::is_same_v<T, std::int64_t>) {
    atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(x));  // two's complement
  } else if constexpr (std::is_same_v<Add, min_monoid> && std::is_same_v<T, std::int32_t>) {
    atomicMin(p, x);
  } else if constexpr (std::is_same_v<Add, max_monoid> && std::is_same_v<T, std::int32_t>) {
    atomicMax(p, x);
  } else if constexpr (std::is_same_v<Add, min_monoid> && std::is_same_v<T, std::int64_t>) {
    atomicMin(reinterpret_cast<long long*>(p), static_cast<long long>(x));
  } else if constexpr (std::is_same_v<Add, max_monoid> && std::is_same_v<T, std::int64_t>) {
    atomicMax(reinterpret_cast<long long*>(p), static_cast<long long>(x));
  } else if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
    using W = std::conditional_t<sizeof(T) == 8, unsigned long long, unsigned>;
    W* a = reinterpret_cast<W*>(p);
    W old = *a, assumed;
    do {
      assumed = old;
      const W next = as_bits<T>(add(bits_as<T>(assumed), x));
      if (next == assumed) return;  // already folded in (min, max, lor ...)
      old = atomicCAS(a, assumed, next);
    } while (old != assumed);
  } else {
    static_assert(sizeof(T) == 1, "device vector values are 1, 4 or 8 bytes");
    // The aligned 32-bit word that holds the byte.
    const auto addr = reinterpret_cast<std::uintptr_t>(p);
    unsigned* a = reinterpret_cast<unsigned*>(addr & ~std::uintptr_t(3));
    const int shift = int(addr & 3) * 8;
    unsigned old = *a, assumed;
    do {
      assumed = old;
      T cur;
      const unsigned char byte = static_cast<unsigned char>(assumed >> shift);
      memcpy(&cur, &byte, 1);
      const T folded = add(cur, x);
      unsigned char nb;
      memcpy(&nb, &folded, 1);
      const unsigned next = (assumed & ~(0xFFu << shift)) | (unsigned(nb) << shift);
      if (next == assumed) return;
      old = atomicCAS(a, assumed, next);
    } while (old != assumed);
  }
}

template <bool MatrixFirst, class T, class Semiring>
__device__ inline T vmul(const Semiring& s, T a, T x) {
  if constexpr (MatrixFirst) return static_cast<T>(s.mul(a, x));
  else return static_cast<T>(s.mul(x, a));
}

// Row r of tile tt: its entries [e0 + q0, e0 + q1) and the tile's first column.
struct tile_row_span {
  offset_t e0;
  int q0, q1;
  index_t col0;
};
__device__ inline tile_row_span row_in_tile(const pattern_ref& A, offset_t tt, int r) {
  const offset_t e0 = A.tile_offset[tt];
  const int q1 = r == tile_dim - 1 ? int(A.tile_offset[tt + 1] - e0) : int(A.row_ptr[16 * tt + r + 1]);
  return tile_row_span{e0, int(A.row_ptr[16 * tt + r]), q1, index_t(A.tile_col[tt]) * tile_dim};
}

// ---- pull ------------------------------------------------------------------
// Row r of the tiles tt0, tt0 + step, ... before te folded into (acc, has) in
// that order, U entries of a tile's row a turn with their loads in flight
// together (U = 4 for tiles of 4 or more entries a row on average, else 1:
// r66). The pull kernels below differ only in how they share out the tiles.
template <int U, bool MatrixFirst, class T, class Semiring>
__device__ inline void fold_tile_row(const pattern_ref& A, const T* __restrict__ av, const T* __restrict__ u,
                                     const std::uint8_t* __restrict__ up, const Semiring& s, offset_t tt0,
                                     offset_t te, int step, int r, T& acc, bool& has) {
  for (offset_t tt = tt0; tt < te; tt += step) {
    const tile_row_span sp = row_in_tile(A, tt, r);
    for (int q = sp.q0; q < sp.q1; q += U) {
      index_t k[U];
      T a[U], x[U];
      bool h[U];
#pragma unroll
      for (int c = 0; c < U; ++c) {
        h[c] = q + c < sp.q1;
        k[c] = h[c] ? sp.col0 + A.col_idx[sp.e0 + q + c] : 0;
        a[c] = h[c] && av ? av[sp.e0 + q + c] : T{};
      }
#pragma unroll
      for (int c = 0; c < U; ++c) {
        h[c] = h[c] && (!up || up[k[c]]);
        x[c] = h[c] ? u[k[c]] : T{};
      }
#pragma unroll
      for (int c = 0; c < U; ++c) fold_pair(acc, has, vmul<MatrixFirst>(s, a[c], x[c]), h[c], s.add);
    }
  }
}

// One warp per tile row (blocks of 256 threads: 8 tile rows): lane r of each
// half-warp takes row r of every other tile; the halves combine at the end.
template <bool MatrixFirst, int U, class T, class Semiring>
__global__ void k_pull_tiles(pattern_ref A, const T* __restrict__ av, const T* __restrict__ u,
                             const std::uint8_t* __restrict__ up, const std::uint8_t* __restrict__ admit, Semiring s,
                             T* __restrict__ t, std::uint8_t* __restrict__ tp) {
  const index_t I = (blockIdx.x * index_t(blockDim.x) + threadIdx.x) / 32;
  if (I >= A.tile_rows) return;  // whole warps leave together
  const int lane = threadIdx.x & 31, r = lane & 15, half = lane >> 4;
  const index_t i = I * tile_dim + r;
  T acc{};
  bool has = false;
  if (i < A.nrows && (!admit || admit[i]))
    fold_tile_row<U, MatrixFirst>(A, av, u, up, s, A.tile_ptr[I] + half, A.tile_ptr[I + 1], 2, r, acc, has);
  const T other = shfl_down_value(acc, 16);
  const bool other_has = __shfl_down_sync(kFullWarp, int(has), 16) != 0;
  if (half == 0 && i < A.nrows) {
    fold_pair(acc, has, other, other_has, s.add);
    tp[i] = has;
    t[i] = has ? acc : T{};  // every value written: a copy of t reads nothing unset
  }
}

// The same for matrices of few tile rows (too few warps to fill the GPU): a
// block of 16 half-warps per tile row, half-warp h taking every 16th tile from
// the h-th; the 16 partial sums of a row fold in order of h.
template <bool MatrixFirst, class T, class Semiring>
__global__ void __launch_bounds__(256) k_pull_tiles_wide(pattern_ref A, const T* __restrict__ av,
                                                         const T* __restrict__ u, const std::uint8_t* __restrict__ up,
                                                         const std::uint8_t* __restrict__ admit, Semiring s,
                                                         T* __restrict__ t, std::uint8_t* __restrict__ tp) {
  __shared__ T part[16][tile_dim];
  __shared__ std::uint8_t part_has[16][tile_dim];
  const index_t I = blockIdx.x;
  const int r = threadIdx.x & 15, h = threadIdx.x >> 4;
  const index_t i = I * tile_dim + r;
  T acc{};
  bool has = false;
  if (i < A.nrows && (!admit || admit[i]))
    fold_tile_row<4, MatrixFirst>(A, av, u, up, s, A.tile_ptr[I] + h, A.tile_ptr[I + 1], 16, r, acc, has);
  part[h][r] = acc;
  part_has[h][r] = has;
  __syncthreads();
  if (h == 0 && i < A.nrows) {
    for (int o = 1; o < 16; ++o) fold_pair(acc, has, part[o][r], part_has[o][r] != 0, s.add);
    tp[i] = has;
    t[i] = has ? acc : T{};
  }
}

// Below this many tile rows (two warps' worth of tiles each, 4,096 warps in
// all), a tile pull takes a block per tile row (k_pull_tiles_wide).
constexpr index_t kWideTileRowsBelow = 2048;

// Entries a lane of a row pull reads a turn, their loads in flight together.
constexpr int kPullUnroll = 4;

// G lanes per row (G a power of two, at most 32), each lane kPullUnroll
// entries a turn (a lane folds its entries in order, e, e + G, ...; then the
// group by a fixed tree). A row longer than long_len (where `longs` is given)
// is left to k_pull_long_rows: its index goes on the list, and a block folds
// it there.
template <bool MatrixFirst, class T, class Semiring>
__global__ void k_pull_rows(index_t nrows, const offset_t* __restrict__ rp, const std::int32_t* __restrict__ col,
                            const T* __restrict__ av, const T* __restrict__ u, const std::uint8_t* __restrict__ up,
                            const std::uint8_t* __restrict__ admit, Semiring s, int G, T* __restrict__ t,
                            std::uint8_t* __restrict__ tp, offset_t long_len, index_t* longs,
                            unsigned long long* nlong) {
  const index_t g = blockIdx.x * index_t(blockDim.x) + threadIdx.x;
  const index_t i = g / G;
  if ((g - (g & 31)) / G >= nrows) return;  // the warp's first row is past the end: the whole warp leaves
  const int lane = int(g % G);
  bool open = i < nrows && (!admit || admit[i]);
  bool deferred = false;
  if (open && longs && rp[i + 1] - rp[i] > long_len) {
    if (lane == 0) longs[atomicAdd(nlong, 1ull)] = i;
    open = false;
    deferred = true;
  }
  T acc{};
  bool has = false;
  if (open) {
    const offset_t ee = rp[i + 1];
    for (offset_t e = rp[i] + lane; e < ee; e += offset_t(G) * kPullUnroll) {
      std::int32_t k[kPullUnroll];
      T a[kPullUnroll], x[kPullUnroll];
      bool h[kPullUnroll];
#pragma unroll
      for (int c = 0; c < kPullUnroll; ++c) {
        const offset_t q = e + offset_t(c) * G;
        k[c] = q < ee ? col[q] : -1;
        a[c] = q < ee && av ? av[q] : T{};
      }
#pragma unroll
      for (int c = 0; c < kPullUnroll; ++c) {
        h[c] = k[c] >= 0 && (!up || up[k[c]]);
        x[c] = h[c] ? u[k[c]] : T{};
      }
#pragma unroll
      for (int c = 0; c < kPullUnroll; ++c) fold_pair(acc, has, vmul<MatrixFirst>(s, a[c], x[c]), h[c], s.add);
    }
  }
  warp_fold_pair(acc, has, s.add, G);
  if (lane == 0 && i < nrows && !deferred) {
    tp[i] = has;
    t[i] = has ? acc : T{};
  }
}

// A block per listed row (256 threads), folded in a fixed order: each thread
// its stride, the warps by shuffles, then the warps in order.
template <bool MatrixFirst, class T, class Semiring>
__global__ void k_pull_long_rows(const offset_t* rp, const std::int32_t* col, const T* av, const T* u,
                                 const std::uint8_t* up, Semiring s, T* t, std::uint8_t* tp, const index_t* longs,
                                 const unsigned long long* nlong) {
  __shared__ T part[8];
  __shared__ int part_has[8];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (unsigned long long x = blockIdx.x; x < *nlong; x += gridDim.x) {
    const index_t i = longs[x];
    T acc{};
    bool has = false;
    for (offset_t e = rp[i] + threadIdx.x, ee = rp[i + 1]; e < ee; e += blockDim.x) {
      const index_t k = col[e];
      if (up && !up[k]) continue;
      const T v = vmul<MatrixFirst>(s, av ? av[e] : T{}, u[k]);
      fold_pair(acc, has, v, true, s.add);
    }
    warp_fold_pair(acc, has, s.add);
    if (lane == 0) {
      part[warp] = acc;
      part_has[warp] = has;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      acc = T{};
      has = false;
      for (int w = 0; w < int(blockDim.x >> 5); ++w) fold_pair(acc, has, part[w], part_has[w] != 0, s.add);
      tp[i] = has;
      t[i] = has ? acc : T{};
    }
    __syncthreads();
  }
}

// ---- pull over rows by merge path -------------------------------------------
// A u for A in rows without a mask, every thread the same share of rows and
// entries whatever their lengths (Merrill and Garland's merge-path SpMV): the
// path through (row ends, entries) of length nrows + nnz is cut into
// kMergeItems items a block, kMergeItems / 256 a thread. A block computes its
// entries' products into shared memory (coalesced, all loads in flight),
// then each thread walks its stretch of the path: a row that starts and ends
// inside it is written at once; the first row it ends waits for what the
// threads before it carried (a segmented scan over the threads' carries,
// keyed by row); the block's own carry goes to a list that
// k_merge_fixup folds into rows that span blocks. Every fold has a fixed
// order for a given matrix, so results repeat exactly.
constexpr int kMergeThreads = 256, kMergePerThread = 8, kMergeItems = kMergeThreads * kMergePerThread;

template <class T>
struct merge_carry {
  index_t row;
  T value;
  int has;
};

// The merge-path coordinate of diagonal d: x rows ended, d - x entries taken.
// One warp searches 32 points a step.
__device__ inline index_t merge_search_warp(const offset_t* rp, index_t nrows, offset_t nnz, offset_t d, int lane) {
  index_t lo = d > nnz ? index_t(d - nnz) : 0, hi = d < offset_t(nrows) ? index_t(d) : nrows;
  // P(x): row x ends before item d (rp[x + 1] + x + 1 <= d); true, then false.
  while (lo < hi) {
    const index_t p = lo + index_t((offset_t(hi - lo) * lane) / 32);
    const bool is_true = rp[p + 1] + offset_t(p) + 1 <= d;
    const unsigned b = __ballot_sync(kFullWarp, is_true);
    const int cnt = __popc(b);
    if (cnt == 0) {
      hi = lo;
    } else {
      const index_t last = __shfl_sync(kFullWarp, p, cnt - 1);
      const index_t stop = cnt < 32 ? __shfl_sync(kFullWarp, p, cnt < 32 ? cnt : 31) : hi;
      lo = last + 1;
      hi = stop;
    }
  }
  return lo;
}

template <bool MatrixFirst, class T, class Semiring>
__global__ void __launch_bounds__(kMergeThreads)
    k_pull_rows_merge(index_t nrows, offset_t nnz, const offset_t* __restrict__ rp,
                      const std::int32_t* __restrict__ col, const T* __restrict__ av, const T* __restrict__ u,
                      const std::uint8_t* __restrict__ up, Semiring s, T* t, std::uint8_t* tp,
                      merge_carry<T>* block_carry) {
  __shared__ T prod[kMergeItems];
  __shared__ std::uint8_t prod_has[kMergeItems];
  __shared__ offset_t ends[kMergeItems + 1];  // row ends, relative to the block's first entry
  __shared__ index_t coord[2];
  __shared__ merge_carry<T> warp_carry[kMergeThreads / 32];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const offset_t total = offset_t(nrows) + nnz;
  const offset_t D0 = offset_t(blockIdx.x) * kMergeItems, D1 = D0 + kMergeItems < total ? D0 + kMergeItems : total;
  if (warp < 2) {
    const index_t x = merge_search_warp(rp, nrows, nnz, warp == 0 ? D0 : D1, lane);
    if (lane == 0) coord[warp] = x;
  }
  __syncthreads();
  const index_t x0 = coord[0], x1 = coord[1];
  const offset_t y0 = D0 - x0, y1 = D1 - x1;  // the block's entries [y0, y1)
  const index_t nx = x1 - x0;
  const offset_t ny = y1 - y0;
  // Row ends of rows x0 .. x1 (the last one in progress at the block's end).
  for (index_t r = tid; r <= nx; r += kMergeThreads)
    ends[r] = x0 + r < nrows ? rp[x0 + r + 1] - y0 : offset_t(kMergeItems) + 1;
  {
    // Staged in registers, so that the eight column loads, then the eight
    // gathers of u, are in flight together before anything is stored.
    std::int32_t j[kMergePerThread];
    T a[kMergePerThread], x[kMergePerThread];
    bool h[kMergePerThread];
#pragma unroll
    for (int c = 0; c < kMergePerThread; ++c) {
      const offset_t e = tid + offset_t(c) * kMergeThreads;
      j[c] = e < ny ? col[y0 + e] : 0;
      a[c] = e < ny && av ? av[y0 + e] : T{};
    }
#pragma unroll
    for (int c = 0; c < kMergePerThread; ++c) {
      const offset_t e = tid + offset_t(c) * kMergeThreads;
      h[c] = e < ny && (!up || up[j[c]]);
      x[c] = h[c] ? u[j[c]] : T{};
    }
#pragma unroll
    for (int c = 0; c < kMergePerThread; ++c) {
      const offset_t e = tid + offset_t(c) * kMergeThreads;
      if (e < ny) {
        prod[e] = h[c] ? vmul<MatrixFirst>(s, a[c], x[c]) : T{};
        prod_has[e] = h[c];
      }
    }
  }
  __syncthreads();
  // This thread's stretch of the path: items [d, d_end) of the block.
  const offset_t items = D1 - D0, d = offset_t(tid) * kMergePerThread < items ? offset_t(tid) * kMergePerThread : items;
  index_t x = 0;
  {
    index_t lo = d > ny ? index_t(d - ny) : 0, hi = d < offset_t(nx) ? index_t(d) : nx;
    while (lo < hi) {
      const index_t p = (lo + hi) / 2;
      if (ends[p] + offset_t(p) + 1 <= d) lo = p + 1;
      else hi = p;
    }
    x = lo;
  }
  offset_t y = d - x;
  const index_t first_row = x0 + x;
  T acc{};
  bool has = false, ended = false;
  T first_value{};
  bool first_has = false;
  for (offset_t it = d; it < d + kMergePerThread && it < items; ++it) {
    if (ends[x] > y) {
      fold_pair(acc, has, prod[y], prod_has[y] != 0, s.add);
      ++y;
    } else {
      if (!ended) {
        first_value = acc;
        first_has = has;
        ended = true;
      } else {
        tp[x0 + x] = has;
        t[x0 + x] = has ? acc : T{};
      }
      ++x;
      acc = T{};
      has = false;
    }
  }
  // The carries: (row in progress at the end, what this thread folded of it).
  const index_t key = x0 + x;
  T cv = acc;
  bool ch = has;
  // Inclusive segmented scan over the threads' carries, by row.
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    const T ov = shfl_up_value(cv, o);
    const bool oh = __shfl_up_sync(kFullWarp, int(ch), o) != 0;
    const index_t ok = __shfl_up_sync(kFullWarp, key, o);
    if (lane >= o && ok == key) fold_pair_front(ov, oh, cv, ch, s.add);
  }
  if (lane == 31) warp_carry[warp] = merge_carry<T>{key, cv, ch};
  __syncthreads();
  if (tid == 0) {  // the warps' carries, scanned in order (exclusive prefixes kept in place)
    merge_carry<T> run{-1, T{}, 0};
    for (int w = 0; w < kMergeThreads / 32; ++w) {
      merge_carry<T> mine = warp_carry[w];
      const merge_carry<T> before = run;
      if (run.row == mine.row) {
        bool h = mine.has != 0;
        fold_pair_front(run.value, run.has != 0, mine.value, h, s.add);
        mine.has = h;
      }
      run = mine;
      warp_carry[w] = before;
    }
    if (block_carry) block_carry[blockIdx.x] = run;
  }
  __syncthreads();
  if (warp > 0) {
    const merge_carry<T> before = warp_carry[warp];
    if (before.row == key) fold_pair_front(before.value, before.has != 0, cv, ch, s.add);
  }
  // The carry into this thread (the threads before it on its first row).
  T in = shfl_up_value(cv, 1);
  bool in_has = __shfl_up_sync(kFullWarp, int(ch), 1) != 0;
  index_t in_row = __shfl_up_sync(kFullWarp, key, 1);
  if (lane == 0) {
    const merge_carry<T> before = warp > 0 ? warp_carry[warp] : merge_carry<T>{-1, T{}, 0};
    in = before.value;
    in_has = before.has != 0;
    in_row = before.row;
  }
  if (ended) {
    if (in_row == first_row) fold_pair_front(in, in_has, first_value, first_has, s.add);
    tp[first_row] = first_has;
    t[first_row] = first_has ? first_value : T{};
  }
}

// Rows that span blocks: each run of blocks carrying one row folds into it
// (the block that ended the row wrote the rest). A warp per block carry; the
// warp of a run's last block folds the run, 32 blocks a step backwards, then
// across its lanes by a fixed tree.
template <class T, class Semiring>
__global__ void k_merge_fixup(int nblocks, index_t nrows, const merge_carry<T>* carry, Semiring s, T* t,
                              std::uint8_t* tp) {
  const index_t b = (blockIdx.x * index_t(blockDim.x) + threadIdx.x) / 32;
  const int lane = threadIdx.x & 31;
  if (b >= nblocks) return;  // whole warps
  const index_t row = carry[b].row;
  if (row >= nrows || (b + 1 < nblocks && carry[b + 1].row == row)) return;
  T v{};
  bool h = false;
  for (index_t c0 = b;; c0 -= 32) {
    const index_t c = c0 - lane;
    const bool in = c >= 0 && carry[c].row == row;
    if (in) fold_pair_front(carry[c].value, carry[c].has != 0, v, h, s.add);  // earlier blocks in front
    if (!__all_sync(kFullWarp, in)) break;
  }
  warp_fold_pair(v, h, s.add);
  if (lane != 0 || !h) return;
  if (tp[row]) t[row] = static_cast<T>(s.add(v, t[row]));
  else t[row] = v, tp[row] = 1;
}

// ---- push ------------------------------------------------------------------
template <bool MatrixFirst, class T, class Semiring>
__global__ void k_push_tiles(pattern_ref A, const T* av, const T* u, const std::uint8_t* up,
                             const std::uint8_t* admit, Semiring s, T* t, std::uint8_t* tp) {
  const index_t I = (blockIdx.x * index_t(blockDim.x) + threadIdx.x) / 32;
  if (I >= A.tile_rows) return;
  const int lane = threadIdx.x & 31, r = lane & 15, half = lane >> 4;
  const index_t k = I * tile_dim + r;
  const bool has_u = k < A.nrows && up[k];
  if (!__any_sync(kFullWarp, has_u) || !has_u) return;
  const T x = u[k];
  for (offset_t tt = A.tile_ptr[I] + half, te = A.tile_ptr[I + 1]; tt < te; tt += 2) {
    const tile_row_span sp = row_in_tile(A, tt, r);
    for (int q = sp.q0; q < sp.q1; ++q) {
      const offset_t e = sp.e0 + q;
      const index_t j = sp.col0 + A.col_idx[e];
      if (admit && !admit[j]) continue;
      atomic_fold(t + j, vmul<MatrixFirst>(s, av ? av[e] : T{}, x), s.add);
      tp[j] = 1;
    }
  }
}

template <bool MatrixFirst, class T, class Semiring>
__global__ void k_push_rows(index_t nrows, const offset_t* rp, const std::int32_t* col, const T* av, const T* u,
                            const std::uint8_t* up, const std::uint8_t* admit, Semiring s, int G, T* t,
                            std::uint8_t* tp) {
  const index_t g = blockIdx.x * index_t(blockDim.x) + threadIdx.x;
  const index_t k = g / G;
  if (k >= nrows || !up[k]) return;
  const T x = u[k];
  for (offset_t e = rp[k] + int(g % G), ee = rp[k + 1]; e < ee; e += G) {
    const index_t j = col[e];
    if (admit && !admit[j]) continue;
    atomic_fold(t + j, vmul<MatrixFirst>(s, av ? av[e] : T{}, x), s.add);
    tp[j] = 1;
  }
}

template <class T>
__global__ void k_fill(index_t n, T* p, T v) {
  for (index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x; i < n; i += index_t(gridDim.x) * blockDim.x)
    p[i] = v;
}

// A row is long past kLongRow entries, or kLongTurns turns of its group's
// loop; a pull defers long rows to a block each (k_pull_long_rows), or, with
// no mask and kMergeFrom entries or more, takes the merge path.
constexpr offset_t kLongRow = 256, kLongTurns = 16;

// Lanes per row for the push over rows: the mean row length rounded up to a
// power of two, within [1, 32].
inline int lanes_per_row(index_t nrows, offset_t nnz) {
  const double mean = nrows ? double(nnz) / double(nrows) : 0.0;
  int g = 1;
  while (g < 32 && g < mean) g *= 2;
  return g;
}

// Lanes per row for the pull over rows: a row of mean length in one turn of
// kPullUnroll entries a lane, at most 4 lanes (16 entries a turn), then
// doubled while the matrix has too few rows to give the GPU kPullThreads
// threads. Measured kernel alone on an H100 (r66, against cuSPARSE SpMV
// CSR): lap2d (5 a row) 1 or 2 lanes, stencil27 (26) and blocks6 (54) 4,
// graphs of 5,000-30,000 rows 16 or 32; one rule for all of them.
constexpr offset_t kPullThreads = offset_t(1) << 17;
inline int pull_lanes(index_t nrows, offset_t nnz) {
  const double mean = nrows ? double(nnz) / double(nrows) : 0.0;
  int g = mean <= kPullUnroll ? 1 : mean <= 2 * kPullUnroll ? 2 : 4;
  while (g < 32 && offset_t(nrows) * g < kPullThreads) g *= 2;
  return g;
}

// The longest row of A (in rows): found once by a kernel and a read-back,
// then kept with the matrix (device_row_matrix::longest).
template <class Off>
__global__ void k_longest_row(index_t n, const Off* __restrict__ rp, unsigned long long* out) {
  Off m = 0;
  for (index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x; i < n; i += index_t(gridDim.x) * blockDim.x)
    m = rp[i + 1] - rp[i] > m ? rp[i + 1] - rp[i] : m;
  for (int o = 16; o > 0; o >>= 1) {
    const Off other = __shfl_down_sync(kFullWarp, m, o);
    m = other > m ? other : m;
  }
  if ((threadIdx.x & 31) == 0) atomicMax(out, static_cast<unsigned long long>(m));
}
template <class T>
offset_t longest_row(const vector_operand<T>& A, stream_t st) {
  if (A.longest) {
    const offset_t known = A.longest->load();
    if (known >= 0) return known;
  }
  device_buffer<unsigned long long> out(1, st);
  device_zero(out.data(), sizeof(unsigned long long), st);
  k_longest_row<<<std::min<unsigned>(grid_for(A.nrows, 256), 1024), 256, 0, native(st)>>>(A.nrows, A.row_ptr,
                                                                                          out.data());
  check(cudaGetLastError(), "longest row");
  const offset_t m = static_cast<offset_t>(out.to_host()[0]);
  if (A.longest) A.longest->store(m);
  return m;
}

// Row-form pulls with long rows, from this many entries and without a mask,
// take the merge path (H100, r52: R-MAT scale 16 and soc-Slashdot0902 1.3-1.4x
// faster than lane groups with long rows deferred; r66: lane groups with
// kPullUnroll loads in flight 1.1-1.9x faster than the merge path on matrices
// without long rows: lap2d, stencil27, blocks6, uniform rows of 8).
constexpr offset_t kMergeFrom = offset_t(1) << 18;

template <bool MatrixFirst, class T, class Semiring>
void launch_vector_product(const vector_operand<T>& A, bool push, const device_vector<T>& u,
                           const std::uint8_t* up, const std::uint8_t* admit, const Semiring& s,
                           device_vector<T>& t, stream_t st) {
  const cudaStream_t cs = native(st);
  if (A.tiles) {
    const pattern_ref p = ref(*A.tiles);
    const unsigned blocks = grid_for(offset_t(p.tile_rows) * 32, 256);
    if (push)
      k_push_tiles<MatrixFirst><<<blocks, 256, 0, cs>>>(p, A.values, u.values.data(), up, admit, s, t.values.data(),
                                                        t.present.data());
    else if (p.tile_rows > 0 && p.tile_rows < kWideTileRowsBelow)
      k_pull_tiles_wide<MatrixFirst><<<unsigned(p.tile_rows), 256, 0, cs>>>(p, A.values, u.values.data(), up, admit,
                                                                           s, t.values.data(), t.present.data());
    else if (A.nnz >= offset_t(4 * tile_dim) * p.ntiles)  // 4 or more entries a row and tile, on average
      k_pull_tiles<MatrixFirst, 4><<<blocks, 256, 0, cs>>>(p, A.values, u.values.data(), up, admit, s,
                                                           t.values.data(), t.present.data());
    else
      k_pull_tiles<MatrixFirst, 1><<<blocks, 256, 0, cs>>>(p, A.values, u.values.data(), up, admit, s,
                                                           t.values.data(), t.present.data());
  } else if (push) {
    const int G = lanes_per_row(A.nrows, A.nnz);
    k_push_rows<MatrixFirst><<<grid_for(offset_t(A.nrows) * G, 256), 256, 0, cs>>>(
        A.nrows, A.row_ptr, A.col, A.values, u.values.data(), up, admit, s, G, t.values.data(), t.present.data());
  } else {
    const int G = pull_lanes(A.nrows, A.nnz);
    const unsigned blocks = grid_for(offset_t(A.nrows) * G, 256);
    const offset_t long_len = std::max<offset_t>(kLongRow, kLongTurns * G * kPullUnroll);
    const offset_t longest = longest_row(A, st);
    if (longest <= long_len) {
      k_pull_rows<MatrixFirst><<<blocks, 256, 0, cs>>>(A.nrows, A.row_ptr, A.col, A.values, u.values.data(), up,
                                                       admit, s, G, t.values.data(), t.present.data(), 0, nullptr,
                                                       nullptr);
    } else if (!admit && A.nnz >= kMergeFrom) {
      const offset_t items = offset_t(A.nrows) + A.nnz;
      const int nb = int((items + kMergeItems - 1) / kMergeItems);
      device_buffer<merge_carry<T>> carry(static_cast<std::size_t>(nb), st);
      k_pull_rows_merge<MatrixFirst><<<nb, kMergeThreads, 0, cs>>>(A.nrows, A.nnz, A.row_ptr, A.col, A.values,
                                                                   u.values.data(), up, s, t.values.data(),
                                                                   t.present.data(), carry.data());
      k_merge_fixup<<<grid_for(offset_t(nb) * 32, 256), 256, 0, cs>>>(nb, A.nrows, carry.data(), s, t.values.data(),
                                                                      t.present.data());
    } else {
      // Rows far past the mean (hubs) would hold their group, and the GPU's
      // tail, for their whole length: a block each folds them instead.
      const offset_t most = A.nnz / long_len + 1;
      device_buffer<index_t> longs(static_cast<std::size_t>(most), st);
      device_buffer<unsigned long long> nlong(1, st);
      device_zero(nlong.data(), sizeof(unsigned long long), st);
      k_pull_rows<MatrixFirst><<<blocks, 256, 0, cs>>>(A.nrows, A.row_ptr, A.col, A.values, u.values.data(), up,
                                                       admit, s, G, t.values.data(), t.present.data(), long_len,
                                                       longs.data(), nlong.data());
      k_pull_long_rows<MatrixFirst><<<unsigned(std::min<offset_t>(most, 1024)), 256, 0, cs>>>(
          A.row_ptr, A.col, A.values, u.values.data(), up, s, t.values.data(), t.present.data(), longs.data(),
          nlong.data());
    }
  }
  check(cudaGetLastError(), push ? "vector product (push)" : "vector product (pull)");
}

// Multiplies whose operands commute need one operand order only, and first
// with the order flipped is second: each semiring of the catalogue then
// compiles its kernels once (a user's multiply keeps both orders).
template <class Mul>
inline constexpr bool mul_commutes = one_of<Mul, times, plus, min, max, pair, land, lor, lxor, eq, ne>;
template <class Mul> struct mul_flipped { using type = void; };
template <> struct mul_flipped<first> { using type = second; };
template <> struct mul_flipped<second> { using type = first; };

template <class T, class Semiring>
void run_vector_product(const vector_operand<T>& A, bool push, bool matrix_first, const device_vector<T>& u,
                        const std::uint8_t* up, const std::uint8_t* admit, const Semiring& s, device_vector<T>& t, stream_t st) {
  using Mul = typename Semiring::mul_type;
  using Flip = typename mul_flipped<Mul>::type;
  if constexpr (mul_commutes<Mul>) {
    launch_vector_product<true>(A, push, u, up, admit, s, t, st);
  } else if (matrix_first) {
    launch_vector_product<true>(A, push, u, up, admit, s, t, st);
  } else if constexpr (!std::is_void_v<Flip>) {
    launch_vector_product<true>(A, push, u, up, admit, semiring<typename Semiring::add_type, Flip>{s.add, Flip{}},
                                t, st);
  } else {
    launch_vector_product<false>(A, push, u, up, admit, s, t, st);
  }
}

template <class T, class Semiring>
device_vector<T> vector_product(const vector_operand<T>& A, bool push, bool matrix_first, const device_vector<T>& u,
                                const std::uint8_t* admit, const Semiring& s, stream_t st,
                                device_vector<T>* reuse) {  // (declared in api.hpp, reuse defaulting to null)
  const index_t n = push ? A.ncols : A.nrows;
  device_vector<T> t;
  t.n = n;
  // The push folds one-byte values by compare-and-swap on their aligned
  // 32-bit word: its array is rounded up so that the last word lies inside it
  // (and the padding is filled with the rest).
  const std::size_t alloc =
      push && sizeof(T) < 4 ? (static_cast<std::size_t>(n) + 3) / 4 * 4 : static_cast<std::size_t>(n);
  // The caller's w, whose contents t replaces whole: its arrays are borrowed
  // instead of allocated (no allocation, no free: a few microseconds of a
  // small product), and handed back if anything throws (an allocation fails
  // before the first write into them). Only arrays of this stream: they are
  // freed on the stream they were made on, which must follow these writes.
  const bool borrow = reuse && reuse->n == n && reuse->values.size() == alloc &&
                      reuse->present.size() == static_cast<std::size_t>(n) && reuse->values.stream() == st &&
                      reuse->present.stream() == st;
  if (borrow) {
    t.values.swap(reuse->values);
    t.present.swap(reuse->present);
  } else {
    t.values = device_buffer<T>(alloc, st);
    t.present = device_buffer<std::uint8_t>(static_cast<std::size_t>(n), st);
  }
  try {
    if (n == 0) {
      t.nvals = 0;
      return t;
    }
    if (push || A.nnz == 0 || A.nrows == 0 || u.nvals == 0) {
      device_zero(t.present.data(), t.present.size(), st);
      if (A.nnz == 0 || A.nrows == 0 || u.nvals == 0) {
        device_zero(t.values.data(), t.values.size() * sizeof(T), st);  // a copy reads nothing unset
        t.nvals = 0;
        return t;
      }
      k_fill<<<std::min<unsigned>(grid_for(n, 256), 4096), 256, 0, native(st)>>>(
          index_t(t.values.size()), t.values.data(), s.add.template identity<T>());  // the padding too
      check(cudaGetLastError(), "vector fill");
    }
    // A u with every u(k) stored reads no presence bytes (push reads u's
    // own rows and needs them).
    const std::uint8_t* up = !push && u.nvals == u.n ? nullptr : u.present.data();
    run_vector_product(A, push, matrix_first, u, up, admit, s, t, st);
  } catch (...) {
    if (borrow) {
      t.values.swap(reuse->values);
      t.present.swap(reuse->present);
      reuse->nvals = -1;  // as they were, or (a CUDA error after a launch) rewritten in part
    }
    throw;
  }
  return t;
}

// ---- masks and the write-back ----------------------------------------------
template <class U>
__global__ void k_vector_admits(index_t n, const std::uint8_t* p, const U* v, bool structural, bool complement,
                                std::uint8_t* out) {
  for (index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x; i < n; i += index_t(gridDim.x) * blockDim.x) {
    const bool stored = p[i] && (structural || v[i] != U(0));
    out[i] = stored != complement;
  }
}

template <class U>
device_buffer<std::uint8_t> vector_admits(const device_vector<U>& m, bool structural, bool complement, stream_t s) {
  device_buffer<std::uint8_t> out(static_cast<std::size_t>(m.n), s);
  if (m.n) {
    k_vector_admits<U><<<std::min<unsigned>(grid_for(m.n, 256), 4096), 256, 0, native(s)>>>(
        m.n, m.present.data(), m.values.data(), structural, complement, out.data());
    check(cudaGetLastError(), "vector mask");
  }
  return out;
}

template <class T>
__global__ void k_vector_writeback(index_t n, const T* w, const std::uint8_t* wp, const T* t, const std::uint8_t* tp,
                                   const std::uint8_t* admit, coded_op accum, bool has_accum, bool replace, T* o,
                                   std::uint8_t* op) {
  for (index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x; i < n; i += index_t(gridDim.x) * blockDim.x) {
    const bool hw = wp[i], ht = tp[i];
    T v{};
    bool has = false;
    if (!admit || admit[i]) {
      if (has_accum) {
        has = hw || ht;
        if (hw && ht) v = accum(w[i], t[i]);
        else if (hw) v = w[i];
        else if (ht) v = t[i];
      } else {
        has = ht;
        if (ht) v = t[i];
      }
    } else if (!replace && hw) {
      has = true;
      v = w[i];
    }
    op[i] = has;
    o[i] = v;
  }
}

// The result is written over t's own arrays: position i reads w(i), t(i)
// and admit(i) before it writes, so nothing is allocated.
template <class T>
device_vector<T> vector_writeback(const device_vector<T>& w, const std::uint8_t* admit, int accum_code, bool replace,
                                  device_vector<T>&& t, bool t_within_mask, stream_t s) {
  const bool has_accum = accum_code >= 0;
  if (!has_accum && (!admit || (replace && t_within_mask))) return std::move(t);
  device_vector<T> out = std::move(t);
  out.nvals = -1;
  if (w.n) {
    k_vector_writeback<T><<<std::min<unsigned>(grid_for(w.n, 256), 4096), 256, 0, native(s)>>>(
        w.n, w.values.data(), w.present.data(), out.values.data(), out.present.data(), admit, coded_op{accum_code},
        has_accum, replace, out.values.data(), out.present.data());
    check(cudaGetLastError(), "vector write-back");
  } else {
    out.nvals = 0;
  }
  return out;
}

// w<admit, replace>(all) = accum(w, src) in place: src is u's arrays, or x
// at every position (up null; no x: has_x false). Position i reads w(i),
// src(i) and admit(i) before it writes, so w may be u or the mask.
template <class T>
__global__ void k_vector_assign_all(index_t n, T* w, std::uint8_t* wp, const T* u, const std::uint8_t* up, T x,
                                    bool has_x, const std::uint8_t* admit, coded_op accum, bool has_accum,
                                    bool replace) {
  for (index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x; i < n; i += index_t(gridDim.x) * blockDim.x) {
    const bool hw = wp[i];
    if (admit && !admit[i]) {
      if (replace && hw) wp[i] = 0;
      continue;
    }
    const bool hs = up ? up[i] != 0 : has_x;
    if (hs) {
      const T v = up ? u[i] : x;
      w[i] = has_accum && hw ? accum(w[i], v) : v;
      wp[i] = 1;
    } else if (!has_accum && hw) {
      wp[i] = 0;
    }
  }
}
template <class T>
void vector_assign_all(device_vector<T>& w, const device_vector<T>* u, const T* x, const std::uint8_t* admit,
                       int accum_code, bool replace, stream_t s) {
  if (!w.n) return;
  k_vector_assign_all<T><<<std::min<unsigned>(grid_for(w.n, 256), 4096), 256, 0, native(s)>>>(
      w.n, w.values.data(), w.present.data(), u ? u->values.data() : nullptr, u ? u->present.data() : nullptr,
      x ? *x : T{}, x != nullptr, admit, coded_op{accum_code}, accum_code >= 0, replace);
  w.nvals = -1;
  check(cudaGetLastError(), "vector assign");
}

}  // namespace tgb::detail::cuda
