// tgb CUDA backend: row saxpy, the device's Gustavson product over matrices
// in row form (CSR with sorted rows, 32-bit columns). The method for
// hypersparse operands, the ones the storage rule keeps in rows: graphs
// whose 16x16 tiles hold one or two entries, where forming tile pairs costs
// more than the products (docs/design.md, "Row saxpy on the device").
//
// One row of C per group of G threads, rows binned by size so that each bin
// has one kernel configuration (nsparse's idea, Nagasaka et al. 2017; the
// code is tgb's own):
//
//   symbolic (type-independent, src/cuda/row_spgemm.cu): a row's products
//     (A's entries times B's row lengths) bound its entries; bin b takes rows
//     of at most 32 << b products, counted in a shared-memory hash table of
//     64 << b column keys (load at most 1/2) by 8 << b threads. Rows past
//     4,096 products use the largest table and stop counting past 4,096
//     entries: such a row is an overflow, and the product goes back to the
//     tile planner (no global-memory bin yet).
//   scan of the row counts gives C's row pointers; each row keeps its bin
//     (rows past the bins take the largest).
//   numeric (per type and semiring, here): the same walk inserts (column,
//     value) into a table of 64 << b slots,
//     folding with the add monoid by compare-and-swap on the value's bits
//     (any trivially copyable value of at most 8 bytes: every semiring, user
//     ones included); the row's entries move to the front of the table and
//     reach C in column order, by rank (each entry counts the smaller keys)
//     where the block's rows hold at most 32 entries, else by a bitonic sort
//     in shared memory over the next power of two. (Sorting the whole table
//     cost 0.5 ms on luxembourg's 114,599 rows of 3 entries, H100.)
//
// Within a group, teams of W lanes take A's entries, and a team's lanes split
// B's row k (W = the power of two at or above B's mean row length, at most
// 32 and at most G). Two host read-backs: the symbolic bin counts, then C's
// entry count with the numeric bin counts and the overflow flag.
#pragma once

#include <cstring>
#include <type_traits>

#include "tgb/detail/cuda/common.cuh"

namespace tgb::detail::cuda::rows {

inline constexpr int kBins = 8;                 // bin b: rows of at most 32 << b products / entries
inline constexpr int kMaxEntries = 32 << (kBins - 1);  // 4,096
inline constexpr std::int32_t kEmpty = 0x7FFFFFFF;     // no key (sorts last)
inline constexpr int kRankMax = 32;  // rows up to this many entries are ordered by rank, not sorted

// Values this path folds: trivially copyable, at most 8 bytes.
template <class TC>
inline constexpr bool value_fits = std::is_trivially_copyable_v<TC> && sizeof(TC) <= 8;

struct csr_ref {
  index_t nrows = 0, ncols = 0;
  offset_t nnz = 0;
  const offset_t* row_ptr = nullptr;
  const std::int32_t* col = nullptr;
};
template <class T>
csr_ref ref(const device_row_matrix<T>& m) {
  return csr_ref{m.nrows, m.ncols, m.nnz, m.row_ptr.data(), m.col.data()};
}

// The symbolic result: C's row pointers and its rows listed by numeric bin
// (bin b's rows at list[first[b]] .. list[first[b] + count[b]]).
struct row_plan {
  bool overflow = false;  // a row has more than kMaxEntries entries
  offset_t nnz = 0;
  offset_t count[kBins] = {}, first[kBins] = {};
  int team_log = 0;  // log2 of W (lanes per A entry)
  device_buffer<offset_t> row_ptr;
  device_buffer<index_t> list;
};
row_plan plan(const csr_ref& A, const csr_ref& B, stream_t s);

constexpr int ilog2(int x) { return x <= 1 ? 0 : 1 + ilog2(x >> 1); }

// ---- device helpers shared by the two passes ------------------------------
__device__ inline unsigned slot_of(std::int32_t j, int tsize) {
  return (unsigned(j) * 2654435761u) & unsigned(tsize - 1);
}

// The slot of key j in the table (inserted if absent: *fresh says so), or -1
// if the table is full.
__device__ inline int find_or_insert(std::int32_t* tab, int tsize, std::int32_t j, bool* fresh) {
  unsigned h = slot_of(j, tsize);
  for (int probe = 0; probe < tsize; ++probe) {
    const std::int32_t k = tab[h];
    if (k == j) {
      *fresh = false;
      return int(h);
    }
    if (k == kEmpty) {
      const std::int32_t old = atomicCAS(reinterpret_cast<int*>(tab + h), kEmpty, j);
      if (old == kEmpty || old == j) {
        *fresh = old == kEmpty;
        return int(h);
      }
    }
    h = (h + 1) & unsigned(tsize - 1);
  }
  *fresh = false;
  return -1;
}

// Calls f(j, e, q) for every product of row i (e: A's entry, q: B's), the
// lanes of a group split into teams of 1 << team_log.
template <int G, class F>
__device__ inline void for_products(const csr_ref& A, const csr_ref& B, index_t i, int lane, int team_log, F&& f) {
  const int W = 1 << team_log;
  const int teams = G >> team_log;
  const int t = lane >> team_log, w = lane & (W - 1);
  const offset_t a1 = A.row_ptr[i + 1];
  for (offset_t e = A.row_ptr[i] + t; e < a1; e += teams) {
    const std::int32_t k = A.col[e];
    const offset_t b1 = B.row_ptr[k + 1];
    for (offset_t q = B.row_ptr[k] + w; q < b1; q += W) f(B.col[q], e, q);
  }
}

// ---- numeric ---------------------------------------------------------------
template <class TC>
using slot_t = std::conditional_t<(sizeof(TC) <= 4), unsigned int, unsigned long long>;

template <class TC>
__device__ inline slot_t<TC> to_slot(const TC& v) {
  slot_t<TC> s = 0;
  memcpy(&s, &v, sizeof(TC));
  return s;
}
template <class TC>
__device__ inline TC from_slot(slot_t<TC> s) {
  TC v;
  memcpy(&v, &s, sizeof(TC));
  return v;
}

// *p = add(*p, v), by compare-and-swap on the value's bits.
template <class TC, class Add>
__device__ inline void fold(slot_t<TC>* p, const TC& v, const Add& add) {
  slot_t<TC> old = *p;
  for (;;) {
    const slot_t<TC> next = to_slot<TC>(static_cast<TC>(add(from_slot<TC>(old), v)));
    if (next == old) return;
    const slot_t<TC> seen = atomicCAS(p, old, next);
    if (seen == old) return;
    old = seen;
  }
}

template <int TSIZE, int G>
struct bin_shape {
  static constexpr int block = G < 256 ? 256 : G;
  static constexpr int rows = block / G;  // rows per block
};

// The any monoid (any(a, b) = a) keeps, as the host does, the product of the
// smallest k: its slot holds the least A entry (atomicMin), and the value is
// formed once the row is sorted.
template <class Add>
inline constexpr bool is_any = std::is_same_v<Add, any_monoid>;
template <class TC, class Add>
using table_slot_t = std::conditional_t<is_any<Add>, unsigned long long, slot_t<TC>>;

template <int TSIZE, int G, class TC, class Add>
constexpr std::size_t numeric_smem() {
  return std::size_t(bin_shape<TSIZE, G>::rows) * TSIZE * (sizeof(table_slot_t<TC, Add>) + sizeof(std::int32_t));
}

template <int TSIZE, int G, class TC, class TA, class TB, class Add, class Mul>
__global__ void __launch_bounds__(bin_shape<TSIZE, G>::block)
    k_numeric(const index_t* list, offset_t n, csr_ref A, const TA* a_vals, csr_ref B, const TB* b_vals, int team_log,
              const offset_t* c_row_ptr, std::int32_t* c_col, TC* c_vals, Add add, Mul mul) {
  using S = table_slot_t<TC, Add>;
  constexpr int R = bin_shape<TSIZE, G>::rows;
  extern __shared__ __align__(16) unsigned char smem[];
  S* vals_all = reinterpret_cast<S*>(smem);
  std::int32_t* keys_all = reinterpret_cast<std::int32_t*>(vals_all + R * TSIZE);
  const int g = int(threadIdx.x) / G, lane = int(threadIdx.x) % G;
  S* vals = vals_all + g * TSIZE;
  std::int32_t* keys = keys_all + g * TSIZE;
  S zero;
  if constexpr (is_any<Add>) zero = ~0ull;
  else zero = to_slot<TC>(add.template identity<TC>());
  __shared__ int fill[R];  // each row's entries placed so far
  __shared__ int span;     // the block's largest row, rounded up to a power of two
  for (int x = lane; x < TSIZE; x += G) {
    keys[x] = kEmpty;
    vals[x] = zero;
  }
  if (lane == 0) fill[g] = 0;
  if (threadIdx.x == 0) span = 1;
  __syncthreads();
  const offset_t u = offset_t(blockIdx.x) * R + g;
  const index_t i = u < n ? list[u] : -1;
  if (i >= 0) {
    for_products<G>(A, B, i, lane, team_log, [&](std::int32_t j, offset_t e, offset_t q) {
      bool fresh;
      const int h = find_or_insert(keys, TSIZE, j, &fresh);
      if constexpr (is_any<Add>) {
        atomicMin(vals + h, (unsigned long long)e);
      } else {
        const TC v = static_cast<TC>(mul(static_cast<TC>(a_vals[e]), static_cast<TC>(b_vals[q])));
        fold<TC>(vals + h, v, add);
      }
    });
  }
  __syncthreads();
  // The row's entries go to the front of its table (through registers:
  // TSIZE / G slots a lane), and then in column order to C: by rank where
  // every row of the block has at most kRankMax entries, else by a bitonic
  // sort over the block's largest power of two (every group takes the same
  // steps, so the block synchronizes them together).
  constexpr int kPer = TSIZE / G;
  static_assert(kPer * G == TSIZE, "a lane holds TSIZE / G slots");
  std::int32_t rk[kPer];
  S rv[kPer];
#pragma unroll
  for (int q = 0; q < kPer; ++q) {
    rk[q] = keys[lane + q * G];
    rv[q] = vals[lane + q * G];
  }
  const offset_t base = i >= 0 ? c_row_ptr[i] : 0;
  const int len = i >= 0 ? int(c_row_ptr[i + 1] - base) : 0;
  int pow2 = 1;
  while (pow2 < len) pow2 <<= 1;
  if (lane == 0) atomicMax(&span, pow2);
  __syncthreads();
#pragma unroll
  for (int q = 0; q < kPer; ++q) {
    if (rk[q] != kEmpty) {
      const int at = atomicAdd(fill + g, 1);
      keys[at] = rk[q];
      vals[at] = rv[q];
    }
  }
  const int width = span;
  for (int x = len + lane; x < width; x += G) keys[x] = kEmpty;
  __syncthreads();
  auto emit = [&](int from, int to) {
    c_col[base + to] = keys[from];
    if constexpr (is_any<Add>) {
      // The product of A's least entry e with column j of B's row k.
      const offset_t e = offset_t(vals[from]);
      const std::int32_t k = A.col[e], j = keys[from];
      offset_t lo = B.row_ptr[k], hi = B.row_ptr[k + 1];
      while (hi - lo > 1) {
        const offset_t mid = lo + (hi - lo) / 2;
        if (B.col[mid] <= j) lo = mid;
        else hi = mid;
      }
      c_vals[base + to] = static_cast<TC>(mul(static_cast<TC>(a_vals[e]), static_cast<TC>(b_vals[lo])));
    } else {
      c_vals[base + to] = from_slot<TC>(vals[from]);
    }
  };
  if (width <= kRankMax) {
    for (int x = lane; x < len; x += G) {
      const std::int32_t kx = keys[x];
      int r = 0;
      for (int y = 0; y < len; ++y) r += keys[y] < kx ? 1 : 0;
      emit(x, r);
    }
    return;
  }
  for (int k = 2; k <= width; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      for (int x = lane; x < width; x += G) {
        const int y = x ^ j;
        if (y > x) {
          const std::int32_t kx = keys[x], ky = keys[y];
          if ((kx > ky) == ((x & k) == 0)) {
            keys[x] = ky;
            keys[y] = kx;
            const S t = vals[x];
            vals[x] = vals[y];
            vals[y] = t;
          }
        }
      }
      __syncthreads();
    }
  }
  for (int x = lane; x < len; x += G) emit(x, x);
}

template <int TSIZE, int G, class TC, class TA, class TB, class Add, class Mul>
void launch_numeric_bin(const row_plan& p, int b, const csr_ref& A, const TA* av, const csr_ref& B, const TB* bv,
                        std::int32_t* c_col, TC* c_vals, const Add& add, const Mul& mul, stream_t s) {
  if (p.count[b] == 0) return;
  using shape = bin_shape<TSIZE, G>;
  auto kernel = k_numeric<TSIZE, G, TC, TA, TB, Add, Mul>;
  constexpr std::size_t bytes = numeric_smem<TSIZE, G, TC, Add>();
  // Past 48 KB of shared memory (dynamic plus the kernel's own counters) a
  // block must opt in.
  if (bytes + 1024 > 48 * 1024) {
    int dev = 0, limit = 0;
    check(cudaGetDevice(&dev), "row saxpy");
    check(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev), "row saxpy");
    if (bytes > std::size_t(limit))
      throw not_implemented("tgb: mxm's row saxpy needs " + std::to_string(bytes) +
                            " bytes of shared memory per block; this GPU gives " + std::to_string(limit));
    check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)), "row saxpy");
  }
  const int team_log = p.team_log < ilog2(G) ? p.team_log : ilog2(G);
  const offset_t blocks = (p.count[b] + shape::rows - 1) / shape::rows;
  kernel<<<unsigned(blocks), shape::block, bytes, native(s)>>>(p.list.data() + p.first[b], p.count[b], A, av, B, bv,
                                                               team_log, p.row_ptr.data(), c_col, c_vals, add, mul);
  check(cudaGetLastError(), "row saxpy numeric");
}

// C = A * B (unmasked) in row form; where a row of C would hold more than
// kMaxEntries entries, *overflow is set and C is left empty (the caller takes
// another method).
template <class TC, class TA, class TB, class Add, class Mul>
device_row_matrix<TC> product(const device_row_matrix<TA>& A, const device_row_matrix<TB>& B, const Add& add,
                              const Mul& mul, bool* overflow, stream_t s) {
  const csr_ref a = ref(A), b = ref(B);
  row_plan p = plan(a, b, s);
  device_row_matrix<TC> C;
  *overflow = p.overflow;
  if (p.overflow) return C;
  C.nrows = A.nrows;
  C.ncols = B.ncols;
  C.nnz = p.nnz;
  C.col = device_buffer<std::int32_t>(p.nnz, s);
  C.values = device_buffer<TC>(p.nnz, s);
  const TA* av = A.values.data();
  const TB* bv = B.values.data();
  launch_numeric_bin<64, 8>(p, 0, a, av, b, bv, C.col.data(), C.values.data(), add, mul, s);
  launch_numeric_bin<128, 16>(p, 1, a, av, b, bv, C.col.data(), C.values.data(), add, mul, s);
  launch_numeric_bin<256, 32>(p, 2, a, av, b, bv, C.col.data(), C.values.data(), add, mul, s);
  launch_numeric_bin<512, 64>(p, 3, a, av, b, bv, C.col.data(), C.values.data(), add, mul, s);
  launch_numeric_bin<1024, 128>(p, 4, a, av, b, bv, C.col.data(), C.values.data(), add, mul, s);
  launch_numeric_bin<2048, 256>(p, 5, a, av, b, bv, C.col.data(), C.values.data(), add, mul, s);
  launch_numeric_bin<4096, 512>(p, 6, a, av, b, bv, C.col.data(), C.values.data(), add, mul, s);
  launch_numeric_bin<8192, 1024>(p, 7, a, av, b, bv, C.col.data(), C.values.data(), add, mul, s);
  C.row_ptr = std::move(p.row_ptr);
  return C;
}

}  // namespace tgb::detail::cuda::rows

namespace tgb::detail::cuda {
// The method rule's quantities (mxm_method.hpp) on row forms: A holds op(A)'s
// rows, Bt op(B)''s, M the mask's (one read-back).
mxm_work product_work_rows(const rows::csr_ref& A, const rows::csr_ref& Bt, const rows::csr_ref& M, stream_t s);
// C's row pointers from the dot's found flags over a mask in rows (found:
// nnz + 1 slots; dest receives their exclusive scan); *total = C's entries.
device_buffer<offset_t> rows_from_found(const offset_t* m_row_ptr, index_t nrows, offset_t nnz,
                                        device_buffer<offset_t>& found, device_buffer<offset_t>& dest,
                                        offset_t* total, stream_t s);
}  // namespace tgb::detail::cuda
