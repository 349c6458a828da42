// tgb CUDA backend: row saxpy's numeric pass (per type and semiring), over
// the plan that row_spgemm.cuh's symbolic pass leaves (the bins, C's row
// pointers; that file's opening comment has the whole method). A kernel per
// bin: the shared bins fold a row's products into a hash table in shared
// memory and write its entries to C in column order; the hub bins fold a
// row in shared-memory windows of columns or in a pooled global table.
#pragma once

#include <cstring>
#include <type_traits>

#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>

#include "tgb/detail/cuda/row_spgemm.cuh"

namespace tgb::detail::cuda::rows {

// Bins of more than 32 lanes a row: blocks whose rows all hold at most this
// many entries order them by rank, not by a sort (measured on the H200,
// r33, against the bitonic sort it had: 32 -> 512 took uniform_2^18x16's
// bin-3 step 5.5 -> 4.3 ms and cond-mat-2003's numeric bins 0.73 -> 0.59 ms).
inline constexpr int kRankMax = 512;

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
__device__ inline void fold_cas(slot_t<TC>* p, const TC& v, const Add& add) {
  slot_t<TC> old = *p;
  for (;;) {
    const slot_t<TC> next = to_slot<TC>(static_cast<TC>(add(from_slot<TC>(old), v)));
    if (next == old) return;
    const slot_t<TC> seen = atomicCAS(p, old, next);
    if (seen == old) return;
    old = seen;
  }
}

// *p = add(*p, v): the hardware's atomics where the monoid and type have one
// (plus on fp64, int32 and int64, min and max on integers, lor and land on
// bool: a hub column that every lane hits costs one atomic a product, not a
// retry loop), else compare-and-swap on the value's bits. Not fp32 plus:
// atom.add.f32 on global memory flushes subnormals to zero (PTX ISA), which
// the host and the shared-memory bins do not.
template <class TC, class Add>
__device__ inline void fold(slot_t<TC>* p, const TC& v, const Add& add) {
  constexpr bool plus = std::is_same_v<Add, plus_monoid>, mn = std::is_same_v<Add, min_monoid>,
                 mx = std::is_same_v<Add, max_monoid>;
  if constexpr (plus && (std::is_same_v<TC, double> || std::is_same_v<TC, std::int32_t>)) {
    atomicAdd(reinterpret_cast<TC*>(p), v);
  } else if constexpr (plus && std::is_same_v<TC, std::int64_t>) {
    atomicAdd(p, static_cast<unsigned long long>(v));  // two's complement: wraps as the host's sum does
  } else if constexpr ((mn || mx) && std::is_same_v<TC, std::int32_t>) {
    if constexpr (mn) atomicMin(reinterpret_cast<int*>(p), v);
    else atomicMax(reinterpret_cast<int*>(p), v);
  } else if constexpr ((mn || mx) && std::is_same_v<TC, std::int64_t>) {
    if constexpr (mn) atomicMin(reinterpret_cast<long long*>(p), static_cast<long long>(v));
    else atomicMax(reinterpret_cast<long long*>(p), static_cast<long long>(v));
  } else if constexpr (std::is_same_v<Add, lor_monoid> && std::is_same_v<TC, bool>) {
    if (v) atomicOr(p, 1u);
  } else if constexpr (std::is_same_v<Add, land_monoid> && std::is_same_v<TC, bool>) {
    if (!v) atomicAnd(p, 0u);
  } else {
    fold_cas<TC>(p, v, add);
  }
}

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

// Folds the product of A's entry e and B's entry q into column j's slot.
template <class TC, class S, class TA, class TB, class Add, class Mul>
__device__ inline void insert_product(std::int32_t* keys, S* vals, int tsize, std::int32_t j, offset_t e, offset_t q,
                                      const TA* a_vals, const TB* b_vals, const Add& add, const Mul& mul,
                                      bool dense = false) {
  bool fresh;
  const int h = find_or_insert(keys, tsize, j, &fresh, dense);
  if constexpr (is_any<Add>) {
    atomicMin(vals + h, (unsigned long long)e);
  } else {
    const TC v = static_cast<TC>(mul(static_cast<TC>(a_vals[e]), static_cast<TC>(b_vals[q])));
    fold<TC>(vals + h, v, add);
  }
}

// C's entry at `at`: column j, the folded value v (for any, the least A
// entry e: the product of e with column j of B's row A.col[e] is formed here).
template <class TC, class Add, class TA, class TB, class Mul, class S>
__device__ inline void emit_entry(std::int32_t j, S v, offset_t at, const csr_ref& A, const TA* a_vals, const csr_ref& B,
                                  const TB* b_vals, std::int32_t* c_col, TC* c_vals, const Mul& mul) {
  c_col[at] = j;
  if constexpr (is_any<Add>) {  // v holds A's entry
    const offset_t e = offset_t(v);
    const std::int32_t k = A.col[e];
    offset_t lo = B.row_ptr[k], hi = B.row_ptr[k + 1];
    while (hi - lo > 1) {
      const offset_t mid = lo + (hi - lo) / 2;
      if (B.col[mid] <= j) lo = mid;
      else hi = mid;
    }
    c_vals[at] = static_cast<TC>(mul(static_cast<TC>(a_vals[e]), static_cast<TC>(b_vals[lo])));
  } else {
    c_vals[at] = from_slot<TC>(v);
  }
}

// Sorts keys[0, width) (a power of two, at least 32; kEmpty last) with their
// values: a bitonic network over lanes lane, lane + G, ... (G a multiple of
// 32). Steps of stride 32 or more go through shared memory, a block barrier
// each; the strides below 32 of each merge pair elements of one warp (x and
// x ^ j share all but their low five bits, and a warp's lanes hold 32
// consecutive x), so they run in registers by shuffles, five steps at one
// load and store. (All through shared memory, with a barrier a step, the
// sort was 80% of soc-Slashdot0902's rows of 2,049 to 4,096 entries: 4.7
// ms of that bin's kernel, H200, ncu, r36.) Every thread of the block takes
// the same steps (they synchronize the block).
template <class S>
__device__ inline void bitonic_sort(std::int32_t* keys, S* vals, int width, int lane, int G) {
  for (int k = 2; k <= width; k <<= 1) {
    int j = k >> 1;
    for (; j >= 32; j >>= 1) {
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
    for (int x = lane; x < width; x += G) {  // whole warps: width and G are multiples of 32
      std::int32_t key = keys[x];
      S val = vals[x];
      const bool up = (x & k) == 0;
      for (int jj = j; jj > 0; jj >>= 1) {
        const std::int32_t other = __shfl_xor_sync(0xffffffffu, key, jj);
        const S other_val = __shfl_xor_sync(0xffffffffu, val, jj);
        const bool lower = (x & jj) == 0;
        if (lower == up ? other < key : other > key) {
          key = other;
          val = other_val;
        }
      }
      keys[x] = key;
      vals[x] = val;
    }
    __syncthreads();
  }
}

template <int TSIZE, int G, class TC, class TA, class TB, class Add, class Mul>
__global__ void __launch_bounds__(bin_shape<TSIZE, G>::block)
    k_numeric(const index_t* list, offset_t n, csr_ref A, const TA* a_vals, csr_ref B, const TB* b_vals, int team_log,
              const offset_t* c_row_ptr, std::int32_t* c_col, TC* c_vals, Add add, Mul mul) {
  static_assert(G > 32, "groups within a warp take k_numeric_small");
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
  __shared__ offset_t long_e[R == 1 ? kLongWords : 1];
  __shared__ int long_n;
  const long_queue lq{long_e, &long_n};
  for (int x = lane; x < TSIZE; x += G) {
    keys[x] = kEmpty;
    vals[x] = zero;
  }
  if (lane == 0) fill[g] = 0;
  if (threadIdx.x == 0) {
    span = 1;
    long_n = 0;
  }
  __syncthreads();
  const offset_t u = offset_t(blockIdx.x) * R + g;
  const index_t i = u < n ? list[u] : -1;
  if (i >= 0) {
    for_products<G>(
        A, B, i, lane, team_log,
        [&](std::int32_t j, offset_t e, offset_t q) {
          insert_product<TC>(keys, vals, TSIZE, j, e, q, a_vals, b_vals, add, mul);
        },
        R == 1 ? &lq : nullptr);
  }
  __syncthreads();
  // The row's entries go to the front of its table (through registers:
  // TSIZE / G slots a lane), and then in column order to C: by rank where
  // every row of the block has at most kRankMax entries, else by a block
  // radix sort.
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
  int mine = 0;  // one atomic a lane for its places, not one an entry
#pragma unroll
  for (int q = 0; q < kPer; ++q) mine += rk[q] != kEmpty ? 1 : 0;
  int at = mine ? atomicAdd(fill + g, mine) : 0;
#pragma unroll
  for (int q = 0; q < kPer; ++q) {
    if (rk[q] != kEmpty) {
      keys[at] = rk[q];
      vals[at] = rv[q];
      ++at;
    }
  }
  const int width = span;  // picks rank or sort; both read only the first len places
  __syncthreads();
  auto emit = [&](int from, int to) {
    emit_entry<TC, Add>(keys[from], vals[from], base + to, A, a_vals, B, b_vals, c_col, c_vals, mul);
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
  // Past kRankMax entries (bins 5-7, a row a block): a block radix sort of
  // the row over the bits B's columns need, in the table's memory (padding
  // keys B.ncols, last). It took soc-Slashdot0902's bin 7 (rows of 2,049 to
  // 4,096 entries) from 4.7 ms with a bitonic sort through shared memory to
  // 2.2 ms (H200, ncu, r36-r38).
  static_assert(R == 1 || TSIZE / 2 <= kRankMax, "blocks of several rows always rank");
  if constexpr (R == 1) {
    constexpr int kItems = TSIZE / 2 / G;
    using sort_t = cub::BlockRadixSort<std::uint32_t, G, kItems, S>;
    static_assert(sizeof(typename sort_t::TempStorage) <= numeric_smem<TSIZE, G, TC, Add>(), "fits the table");
    int bits = 1;
    while ((std::int64_t(1) << bits) <= std::int64_t(B.ncols)) ++bits;
    std::uint32_t sk[kItems];
    S sv[kItems];
#pragma unroll
    for (int c = 0; c < kItems; ++c) {
      const int x = lane * kItems + c;
      sk[c] = x < len ? std::uint32_t(keys[x]) : std::uint32_t(B.ncols);
      sv[c] = x < len ? vals[x] : zero;
    }
    __syncthreads();  // the table's memory becomes the sort's
    sort_t(*reinterpret_cast<typename sort_t::TempStorage*>(smem)).SortBlockedToStriped(sk, sv, 0, bits);
#pragma unroll
    for (int c = 0; c < kItems; ++c) {
      const int x = lane + c * G;
      if (x < len) emit_entry<TC, Add>(std::int32_t(sk[c]), sv[c], base + x, A, a_vals, B, b_vals, c_col, c_vals, mul);
    }
  }
}

// Bins of at most 32 lanes a row (rows of at most 128 entries): a group is
// part of one warp and synchronizes alone (no block barrier: a group whose
// row is done leaves). The entries move to the table's front in slot order
// by ballots (a step reads G slots, then writes at most G places before
// them), and reach C by rank: each entry counts the row's smaller keys, at
// most four entries a lane (the table is at most half full), in one pass of
// broadcast reads over the row's keys. (k_numeric's block barriers in its
// sort and its compaction's atomics on one counter were most of
// uniform_2^20x8's numeric step: 4.7 -> 1.7 ms, H200, ncu, r32.)
template <int TSIZE, int G, class TC, class TA, class TB, class Add, class Mul>
__global__ void __launch_bounds__(bin_shape<TSIZE, G>::block)
    k_numeric_small(const index_t* list, offset_t n, csr_ref A, const TA* a_vals, csr_ref B, const TB* b_vals,
                    int team_log, const offset_t* c_row_ptr, std::int32_t* c_col, TC* c_vals, Add add, Mul mul) {
  static_assert(G <= 32 && 32 % G == 0, "a group within one warp");
  using S = table_slot_t<TC, Add>;
  constexpr int R = bin_shape<TSIZE, G>::rows;
  constexpr int kOut = TSIZE / 2 / G;  // a lane's entries at most
  extern __shared__ __align__(16) unsigned char smem[];
  S* vals_all = reinterpret_cast<S*>(smem);
  std::int32_t* keys_all = reinterpret_cast<std::int32_t*>(vals_all + R * TSIZE);
  const int g = int(threadIdx.x) / G, lane = int(threadIdx.x) % G;
  const offset_t u = offset_t(blockIdx.x) * R + g;
  if (u >= n) return;  // the whole group
  const index_t i = list[u];
  const int shift = int(threadIdx.x & 31u) & ~(G - 1);  // the group's first lane in its warp
  const unsigned gmask = (G == 32 ? 0xffffffffu : ((1u << G) - 1u)) << shift;
  S* vals = vals_all + g * TSIZE;
  std::int32_t* keys = keys_all + g * TSIZE;
  S zero;
  if constexpr (is_any<Add>) zero = ~0ull;
  else zero = to_slot<TC>(add.template identity<TC>());
  for (int x = lane; x < TSIZE; x += G) {
    keys[x] = kEmpty;
    vals[x] = zero;
  }
  __syncwarp(gmask);
  for_products<G>(A, B, i, lane, team_log, [&](std::int32_t j, offset_t e, offset_t q) {
    insert_product<TC>(keys, vals, TSIZE, j, e, q, a_vals, b_vals, add, mul);
  });
  __syncwarp(gmask);
  const offset_t base = c_row_ptr[i];
  const int len = int(c_row_ptr[i + 1] - base);
  const unsigned before = (1u << lane) - 1u;
  int placed = 0;  // the same in every lane of the group
  for (int x0 = 0; x0 < TSIZE && placed < len; x0 += G) {
    const std::int32_t k = keys[x0 + lane];
    const S v = vals[x0 + lane];
    __syncwarp(gmask);  // every lane has read its slot
    const unsigned full = (__ballot_sync(gmask, k != kEmpty) & gmask) >> shift;
    if (k != kEmpty) {
      const int at = placed + __popc(full & before);  // at most x0 + lane: slots read
      keys[at] = k;
      vals[at] = v;
    }
    placed += __popc(full);
  }
  __syncwarp(gmask);
  std::int32_t kx[kOut];
  int rank[kOut];
#pragma unroll
  for (int c = 0; c < kOut; ++c) {
    const int x = lane + c * G;
    kx[c] = x < len ? keys[x] : kEmpty;
    rank[c] = 0;
  }
  for (int y = 0; y < len; ++y) {
    const std::int32_t ky = keys[y];
#pragma unroll
    for (int c = 0; c < kOut; ++c) rank[c] += ky < kx[c] ? 1 : 0;
  }
#pragma unroll
  for (int c = 0; c < kOut; ++c) {
    const int x = lane + c * G;
    if (x < len) emit_entry<TC, Add>(kx[c], vals[x], base + rank[c], A, a_vals, B, b_vals, c_col, c_vals, mul);
  }
}

// The global bin: rows past kMaxEntries entries, one at a time per block,
// each in the block's table of the pool (`slot` slots), the next row taken
// from *next. A block-wide scan over the table, a chunk of kHubThreads slots
// at a time, places the entries in table order: a dense table's order is
// column order, so they go to C at once; a hash table's go to its front (an
// entry's place is at most its slot, and a chunk is read before it is
// written), where the bitonic sort orders them for C.
template <class TC, class TA, class TB, class Add, class Mul>
__global__ void __launch_bounds__(kHubThreads)
    k_numeric_global(const index_t* list, offset_t n, csr_ref A, const TA* a_vals, csr_ref B, const TB* b_vals,
                     int team_log, const offset_t* c_row_ptr, std::int32_t* c_col, TC* c_vals,
                     std::int32_t* pool_keys, table_slot_t<TC, Add>* pool_vals, offset_t slot, bool dense_ok,
                     unsigned long long* next, Add add, Mul mul) {
  using S = table_slot_t<TC, Add>;
  using scan_t = cub::BlockScan<int, kHubThreads>;
  __shared__ typename scan_t::TempStorage scan_tmp;
  __shared__ index_t row;
  __shared__ int placed;
  __shared__ offset_t long_e[kLongWords];
  __shared__ int long_n;
  const long_queue lq{long_e, &long_n};
  std::int32_t* keys = pool_keys + offset_t(blockIdx.x) * slot;
  S* vals = pool_vals + offset_t(blockIdx.x) * slot;
  S zero;
  if constexpr (is_any<Add>) zero = ~0ull;
  else zero = to_slot<TC>(add.template identity<TC>());
  const int lane = int(threadIdx.x);
  for (;;) {
    if (lane == 0) placed = 0;
    const index_t i = next_hub_row(next, list, n, &row, lq);
    if (i < 0) return;
    const offset_t base = c_row_ptr[i];
    const int len = int(c_row_ptr[i + 1] - base);
    const bool dense = hub_dense(len, B.ncols, dense_ok);
    const int tsize = int(hub_table(len, B.ncols, dense_ok));
    for (int x = lane; x < tsize; x += kHubThreads) {
      keys[x] = kEmpty;
      vals[x] = zero;
    }
    __syncthreads();
    for_products<kHubThreads>(
        A, B, i, lane, team_log,
        [&](std::int32_t j, offset_t e, offset_t q) {
          insert_product<TC>(keys, vals, tsize, j, e, q, a_vals, b_vals, add, mul, dense);
        },
        &lq);
    __syncthreads();
    for (int c0 = 0; c0 < tsize; c0 += kHubThreads) {
      const int x = c0 + lane;
      const std::int32_t k = x < tsize ? keys[x] : kEmpty;
      const S v = x < tsize ? vals[x] : zero;
      const int full = k != kEmpty ? 1 : 0;
      int at = 0, chunk = 0;
      scan_t(scan_tmp).ExclusiveSum(full, at, chunk);
      const int from = placed;
      __syncthreads();  // every lane has read its slot and `placed`
      if (full) {
        if (dense) {
          emit_entry<TC, Add>(k, v, base + from + at, A, a_vals, B, b_vals, c_col, c_vals, mul);
        } else {
          keys[from + at] = k;
          vals[from + at] = v;
        }
      }
      if (lane == 0) placed = from + chunk;
      __syncthreads();
    }
    if (!dense) {
      int width = 32;  // bitonic_sort's shuffles need whole warps (len > kMaxEntries here anyway)
      while (width < len) width <<= 1;
      for (int x = len + lane; x < width; x += kHubThreads) keys[x] = kEmpty;
      __syncthreads();
      bitonic_sort(keys, vals, width, lane, kHubThreads);
      for (int x = lane; x < len; x += kHubThreads)
        emit_entry<TC, Add>(keys[x], vals[x], base + x, A, a_vals, B, b_vals, c_col, c_vals, mul);
    }
    __syncthreads();  // the table and `row` are free for the next row
  }
}

// The window bin: hub rows one at a time per block, each folded in shared
// memory one window of `width` columns at a time: a slot and a flag a column
// (dynamic shared memory: width slots, then width flag bytes). A window's
// entries reach C in column order at once: each lane takes width / kHubThreads
// consecutive columns, and a block-wide scan of their counts gives each its
// place after the row's earlier windows.
template <class TC, class TA, class TB, class Add, class Mul>
__global__ void __launch_bounds__(kHubThreads)
    k_numeric_window(const index_t* list, offset_t n, csr_ref A, const TA* a_vals, csr_ref B, const TB* b_vals,
                     int team_log, const offset_t* c_row_ptr, std::int32_t* c_col, TC* c_vals, int width,
                     unsigned long long* next, Add add, Mul mul) {
  using S = table_slot_t<TC, Add>;
  using scan_t = cub::BlockScan<int, kHubThreads>;
  __shared__ typename scan_t::TempStorage scan_tmp;
  __shared__ index_t row;
  __shared__ offset_t placed;
  __shared__ offset_t long_e[kLongWords];
  __shared__ int long_n;
  extern __shared__ __align__(16) unsigned char smem[];
  S* vals = reinterpret_cast<S*>(smem);
  std::uint8_t* flag = reinterpret_cast<std::uint8_t*>(vals + width);
  unsigned* flag_words = reinterpret_cast<unsigned*>(flag);
  const long_queue lq{long_e, &long_n};
  S zero;
  if constexpr (is_any<Add>) zero = ~0ull;
  else zero = to_slot<TC>(add.template identity<TC>());
  const int lane = int(threadIdx.x);
  const int per = width / kHubThreads;  // a lane's columns in the scan
  for (;;) {
    if (lane == 0) placed = 0;
    const index_t i = next_hub_row(next, list, n, &row, lq);
    if (i < 0) return;
    const offset_t base = c_row_ptr[i];
    for (offset_t w0 = 0; w0 < B.ncols; w0 += width) {
      const std::int32_t lo = std::int32_t(w0), hi = std::int32_t(B.ncols - w0 > width ? w0 + width : B.ncols);
      for (int x = lane; x < width; x += kHubThreads) vals[x] = zero;
      for (int x = lane; x < width / 4; x += kHubThreads) flag_words[x] = 0;
      if (lane == 0) long_n = 0;
      __syncthreads();
      for_products<kHubThreads>(
          A, B, i, lane, team_log,
          [&](std::int32_t j, offset_t e, offset_t q) {
            const int x = int(j - lo);
            if (!flag[x]) atomicOr(flag_words + (x >> 2), 1u << (8 * (x & 3)));  // first touch only
            if constexpr (is_any<Add>) {
              atomicMin(vals + x, (unsigned long long)e);
            } else {
              fold<TC>(vals + x, static_cast<TC>(mul(static_cast<TC>(a_vals[e]), static_cast<TC>(b_vals[q]))), add);
            }
          },
          &lq, col_window{lo, hi});
      __syncthreads();
      const int c0 = lane * per;
      int mine = 0;
      for (int x = c0; x < c0 + per; ++x) mine += flag[x];
      int at = 0, total = 0;
      scan_t(scan_tmp).ExclusiveSum(mine, at, total);
      const offset_t to = base + placed + at;
      int k = 0;
      for (int x = c0; x < c0 + per; ++x)
        if (flag[x]) emit_entry<TC, Add>(lo + x, vals[x], to + k++, A, a_vals, B, b_vals, c_col, c_vals, mul);
      __syncthreads();  // every lane has read `placed` and its window
      if (lane == 0) placed += total;
    }
    __syncthreads();  // `row` is free for the next row
  }
}

// A shared bin's kernel: groups within a warp synchronize alone.
template <int TSIZE, int G, class TC, class TA, class TB, class Add, class Mul>
constexpr auto numeric_kernel() {
  if constexpr (G <= 32) return k_numeric_small<TSIZE, G, TC, TA, TB, Add, Mul>;
  else return k_numeric<TSIZE, G, TC, TA, TB, Add, Mul>;
}

template <int TSIZE, int G, class TC, class TA, class TB, class Add, class Mul>
void launch_numeric_bin(const row_plan& p, int b, const csr_ref& A, const TA* av, const csr_ref& B, const TB* bv,
                        std::int32_t* c_col, TC* c_vals, const Add& add, const Mul& mul, stream_t s) {
  if (p.count[b] == 0) return;
  using shape = bin_shape<TSIZE, G>;
  const auto kernel = numeric_kernel<TSIZE, G, TC, TA, TB, Add, Mul>();
  constexpr std::size_t bytes = numeric_smem<TSIZE, G, TC, Add>();
  allow_shared(reinterpret_cast<const void*>(kernel), bytes, "row saxpy");
  const int team_log = p.team_log < ilog2(G) ? p.team_log : ilog2(G);
  const offset_t blocks = (p.count[b] + shape::rows - 1) / shape::rows;
  kernel<<<unsigned(blocks), shape::block, bytes, native(s)>>>(p.list.data() + p.first[b], p.count[b], A, av, B, bv,
                                                               team_log, p.row_ptr.data(), c_col, c_vals, add, mul);
  check(cudaGetLastError(), "row saxpy numeric");
}

// The hub bins' state (allocated before the bins fan out): the global bin's
// pool of tables, and each hub bin's row counter (global, window).
template <class S>
struct global_tables {
  hub_pool pool;
  device_buffer<std::int32_t> keys;
  device_buffer<S> vals;
  device_buffer<unsigned long long> next;
  global_tables(const row_plan& p, index_t ncols, stream_t s) {
    if (p.count[kGlobalBin] == 0 && p.count[kWindowBin] == 0) return;
    next = device_buffer<unsigned long long>(2, s);
    check(cudaMemsetAsync(next.data(), 0, 2 * sizeof(unsigned long long), native(s)), "row saxpy");
    if (p.count[kGlobalBin] == 0) return;
    pool = hub_pool_for(p.hub_entries, ncols, p.count[kGlobalBin], sizeof(std::int32_t) + sizeof(S));
    keys = device_buffer<std::int32_t>(pool.table * pool.blocks, s);
    vals = device_buffer<S>(pool.table * pool.blocks, s);
  }
};

template <class TC, class TA, class TB, class Add, class Mul>
void launch_numeric_global(const row_plan& p, global_tables<table_slot_t<TC, Add>>& g, const csr_ref& A, const TA* av,
                           const csr_ref& B, const TB* bv, std::int32_t* c_col, TC* c_vals, const Add& add,
                           const Mul& mul, stream_t s) {
  const int team_log = p.team_log < ilog2(kHubThreads) ? p.team_log : ilog2(kHubThreads);
  if (p.count[kGlobalBin]) {
    k_numeric_global<TC, TA, TB, Add, Mul><<<g.pool.blocks, kHubThreads, 0, native(s)>>>(
        p.list.data() + p.first[kGlobalBin], p.count[kGlobalBin], A, av, B, bv, team_log, p.row_ptr.data(), c_col,
        c_vals, g.keys.data(), g.vals.data(), g.pool.table, g.pool.dense_ok, g.next.data(), add, mul);
    check(cudaGetLastError(), "row saxpy numeric (global bin)");
  }
}

template <class TC, class TA, class TB, class Add, class Mul>
void launch_numeric_window(const row_plan& p, global_tables<table_slot_t<TC, Add>>& g, const csr_ref& A,
                           const TA* av, const csr_ref& B, const TB* bv, std::int32_t* c_col, TC* c_vals,
                           const Add& add, const Mul& mul, stream_t s) {
  const offset_t rows = p.count[kWindowBin];
  if (rows == 0) return;
  const int team_log = p.team_log < ilog2(kHubThreads) ? p.team_log : ilog2(kHubThreads);
  auto kernel = k_numeric_window<TC, TA, TB, Add, Mul>;
  const std::size_t bytes = std::size_t(p.num_cols) * (sizeof(table_slot_t<TC, Add>) + 1);
  allow_shared(reinterpret_cast<const void*>(kernel), bytes, "row saxpy (window bin)");
  const unsigned blocks = resident_blocks(reinterpret_cast<const void*>(kernel), kHubThreads, bytes, rows);
  kernel<<<blocks, kHubThreads, bytes, native(s)>>>(p.list.data() + p.first[kWindowBin], rows, A, av, B, bv, team_log,
                                                    p.row_ptr.data(), c_col, c_vals, int(p.num_cols),
                                                    g.next.data() + 1, add, mul);
  check(cudaGetLastError(), "row saxpy numeric (window bin)");
}

// C = A * B (unmasked) in row form. The bins are independent: each runs on
// its own side stream.
template <class TC, class TA, class TB, class Add, class Mul>
device_row_matrix<TC> product(const device_row_matrix<TA>& A, const device_row_matrix<TB>& B, const Add& add,
                              const Mul& mul, const row_tuning& tune, stream_t s) {
  const csr_ref a = ref(A), b = ref(B);
  row_plan p = plan(a, b, sizeof(table_slot_t<TC, Add>), tune, s);
  device_row_matrix<TC> C;
  C.nrows = A.nrows;
  C.ncols = B.ncols;
  C.nnz = p.nnz;
  C.col = device_buffer<std::int32_t>(p.nnz, s);
  C.values = device_buffer<TC>(p.nnz, s);
  const TA* av = A.values.data();
  const TB* bv = B.values.data();
  std::int32_t* cc = C.col.data();
  TC* cv = C.values.data();
  global_tables<table_slot_t<TC, Add>> g(p, b.ncols, s);
  {
    // One side stream for each bin with rows (none where one bin has them all).
    int busy = 0;
    for (int x = 0; x < kNumBins; ++x) busy += p.count[x] ? 1 : 0;
    const fan_out fan(s, busy);
    int next = 0;
    const auto side = [&](int x) { return p.count[x] ? fan[next++] : s; };
    launch_numeric_window(p, g, a, av, b, bv, cc, cv, add, mul, side(kWindowBin));  // the longest, first
    launch_numeric_global(p, g, a, av, b, bv, cc, cv, add, mul, side(kGlobalBin));
    launch_numeric_bin<8192, 1024>(p, 7, a, av, b, bv, cc, cv, add, mul, side(7));
    launch_numeric_bin<4096, 512>(p, 6, a, av, b, bv, cc, cv, add, mul, side(6));
    launch_numeric_bin<2048, 256>(p, 5, a, av, b, bv, cc, cv, add, mul, side(5));
    launch_numeric_bin<1024, 128>(p, 4, a, av, b, bv, cc, cv, add, mul, side(4));
    launch_numeric_bin<512, 64>(p, 3, a, av, b, bv, cc, cv, add, mul, side(3));
    launch_numeric_bin<256, 32>(p, 2, a, av, b, bv, cc, cv, add, mul, side(2));
    launch_numeric_bin<128, 16>(p, 1, a, av, b, bv, cc, cv, add, mul, side(1));
    launch_numeric_bin<64, 8>(p, 0, a, av, b, bv, cc, cv, add, mul, side(0));
  }
  C.row_ptr = std::move(p.row_ptr);
  return C;
}

}  // namespace tgb::detail::cuda::rows
