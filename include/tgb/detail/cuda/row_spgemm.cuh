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
//     4,096 products (hub rows) take one of two hub bins, a block of
//     kHubThreads threads taking the next hub row from a counter: the
//     window bin, where few windows of B's columns cover them (window_ok),
//     counts a row in a shared-memory bitmap one window at a time; the
//     global bin counts it in a pool of global-memory tables sized by the
//     row's products (at most twice the columns). The shared bins' kernels
//     read their counts on the device; on small products (row_tuning) the
//     eight are one kernel, k_symbolic_fused, whose blocks take units of one
//     bin's rows, so the bins overlap without a launch and a stream each.
//     (The numeric pass keeps a kernel a bin: fused, its register count,
//     the largest bin's, halved the blocks an SM holds; cond-mat-2003 A*A
//     0.56 -> 0.81 ms on the H100.)
//   scan of the row counts gives C's row pointers; each row keeps its bin
//     (hub rows of at most 4,096 entries take the largest shared one; rows
//     past it the global bin).
//   numeric (per type and semiring, here): the same walk inserts (column,
//     value) into a table of 64 << b slots,
//     folding with the add monoid by compare-and-swap on the value's bits
//     (any trivially copyable value of at most 8 bytes: every semiring, user
//     ones included); the row's entries move to the front of the table and
//     reach C in column order, by rank (each entry counts the smaller keys)
//     where the block's rows hold at most kRankMax entries (always in bins
//     0-4), else by a block radix sort (bins 5-7, a row a block). Bins 0-2
//     (at most 32 lanes a row, 128 entries) run k_numeric_small: a group
//     synchronizes within its warp only. Rows
//     past 4,096 entries: the window bin folds a row in shared memory one
//     window of columns at a time (a value and a flag a column; a block scan
//     writes each window's entries to C in column order); the global bin
//     does the same as the shared bins in a pooled global-memory table of
//     twice the row's entries (a block-wide scan moves them to its front,
//     the bitonic sort runs there). A hub row cannot stall the GPU, the
//     pool's size is bounded (kHubPoolBytes) and no row sends the product
//     elsewhere.
//
// Within a group, teams of W lanes take A's entries, and a team's lanes split
// B's row k (W = the power of two at or above B's mean row length, at most
// 32 and at most G); where a row has the whole block, long B rows are queued
// and walked by the block (for_products). One host read-back: the symbolic
// kernels read their bins' counts on the device, and the host reads C's
// entry count with the numeric bin counts (and the largest hub rows') once;
// only rows for the global bin's symbolic tables, sized by the largest of
// them, cost a second.

#pragma once

#include <cstring>
#include <type_traits>

#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>

#include "tgb/detail/cuda/common.cuh"

namespace tgb::detail::cuda::rows {

inline constexpr int kBins = 8;                 // bin b: rows of at most 32 << b products / entries
inline constexpr int kMaxEntries = 32 << (kBins - 1);  // 4,096
inline constexpr int kGlobalBin = kBins;        // hub rows in global-memory tables
inline constexpr int kWindowBin = kBins + 1;    // hub rows in shared-memory windows
inline constexpr int kNumBins = kBins + 2;      // both passes: the shared bins, then the two hub bins
inline constexpr int kHubThreads = 512;         // threads of a global-bin block
// The most a global bin's pool of tables takes (fewer blocks past it; at
// least one table, whatever its size).
inline constexpr std::size_t kHubPoolBytes = std::size_t(256) << 20;
inline constexpr std::int32_t kEmpty = 0x7FFFFFFF;     // no key (sorts last)
// Bins of more than 32 lanes a row: blocks whose rows all hold at most this
// many entries order them by rank, not by a sort (measured on the H200,
// r33, against the bitonic sort it had: 32 -> 512 took uniform_2^18x16's
// bin-3 step 5.5 -> 4.3 ms and cond-mat-2003's numeric bins 0.73 -> 0.59 ms).
inline constexpr int kRankMax = 512;

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
// (bin b's rows at list[first[b]] .. list[first[b] + count[b]]; the global
// bin's largest row hub_entries long), and the windows' widths it binned by.
struct row_plan {
  offset_t nnz = 0;
  offset_t count[kNumBins] = {}, first[kNumBins] = {};
  offset_t hub_entries = 0;
  offset_t sym_bits = 0, num_cols = 0;  // hub_windows
  int team_log = 0;  // log2 of W (lanes per A entry)
  device_buffer<offset_t> row_ptr;
  device_buffer<index_t> list;
};
// The knobs (from mxm_policy): the windows' shared memory (hub_window_bytes;
// 0: automatic), and the products (about) below which the shared bins'
// symbolic pass is one kernel (fused_bins_max_products).
struct row_tuning {
  std::size_t window_bytes = 0;
  double fused_max_products = 0;
};
// slot_bytes: the numeric pass's value slot.
row_plan plan(const csr_ref& A, const csr_ref& B, std::size_t slot_bytes, const row_tuning& tune, stream_t s);

constexpr int ilog2(int x) { return x <= 1 ? 0 : 1 + ilog2(x >> 1); }

// A hub row's table (global memory), for a row of at most `most` entries:
// dense (the slot of column j is j, and the table's order is column order)
// where the pool allows dense tables and B's columns are at most 16 times
// `most`, else a hash table of the power of two at or above 2 * most (at
// least 64) slots. Either way the size grows with `most`, so a pool's tables
// are sized by its largest row.
__host__ __device__ inline bool hub_dense(offset_t most, index_t ncols, bool dense_ok) {
  return dense_ok && offset_t(ncols) <= 16 * most;
}
__host__ __device__ inline offset_t hub_table(offset_t most, index_t ncols, bool dense_ok) {
  if (hub_dense(most, ncols, dense_ok)) return offset_t(ncols);
  offset_t t = 64;
  while (t < 2 * most) t <<= 1;
  return t;
}

// A global bin's pool for `rows` rows of at most `most` entries: tables of
// hub_table(most) slots (slot_bytes a slot); blocks = how many tables (and
// blocks) the pool bound allows. Dense tables are allowed where one for
// every SM fits the bound (a graph of millions of columns keeps hash tables
// rather than running its hub rows on a few blocks).
struct hub_pool {
  offset_t table = 0;
  unsigned blocks = 0;
  bool dense_ok = false;
};
hub_pool hub_pool_for(offset_t most, index_t ncols, offset_t rows, std::size_t slot_bytes);
// The global bins' block count per SM (four blocks of kHubThreads fill one).
inline constexpr int kHubBlocksPerSm = 4;

// Hub rows in shared-memory windows: a hub row whose columns span few
// windows is folded in shared memory one window of columns at a time (the
// block walks A's row once a window, cutting each B row to it by binary
// search) instead of in a global table, where every product is a global
// atomic and hub columns collide (R-MAT, Slashdot: the global bin was most
// of the product). A row takes windows where those walks cost little against
// its entries: windows x (A's row length) <= kWindowWalks x its bound.
inline constexpr int kWindowWalks = 4;
__host__ __device__ inline bool window_ok(offset_t a_len, offset_t bound, index_t ncols, offset_t width) {
  if (width <= 0) return false;
  const offset_t windows = (offset_t(ncols) + width - 1) / width;
  return windows * a_len <= kWindowWalks * bound;
}
// The windows' widths: the symbolic pass's bitmap (bits, a multiple of
// kHubThreads words) and the numeric pass's columns (a value slot of
// slot_bytes and a one-byte flag each; a multiple of kHubThreads), each in
// at most `bytes` of shared memory (0: what lets two blocks share an SM, less
// the kernels' own), no wider than B's columns need. 0: no window fits.
struct hub_windows {
  offset_t sym_bits = 0, num_cols = 0;
};
hub_windows windows_for(index_t ncols, std::size_t slot_bytes, std::size_t bytes);
// Lets `kernel` take `dynamic` bytes of shared memory (opting in past 48 KB
// with its own); not_implemented where the GPU has fewer. `what` names the
// step in errors.
void allow_shared(const void* kernel, std::size_t dynamic, const char* what);
// How many blocks of `threads` with `dynamic` bytes of shared memory the GPU
// holds at once (at most `rows`, at least one).
unsigned resident_blocks(const void* kernel, int threads, std::size_t dynamic, offset_t rows);

// ---- device helpers shared by the two passes ------------------------------
__device__ inline unsigned slot_of(std::int32_t j, int tsize) {
  return (unsigned(j) * 2654435761u) & unsigned(tsize - 1);
}

// The slot of key j in the table (inserted if absent: *fresh says so), or -1
// if the table is full. A dense table's slot is j.
__device__ inline int find_or_insert(std::int32_t* tab, int tsize, std::int32_t j, bool* fresh, bool dense = false) {
  if (dense) {
    if (tab[j] == j) {
      *fresh = false;
    } else {
      *fresh = atomicCAS(reinterpret_cast<int*>(tab + j), kEmpty, j) == kEmpty;
    }
    return int(j);
  }
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

// Where one row has the whole block: A's entries whose B row is long, kept
// in shared memory for the whole block to walk after the teams are done
// (e: up to kLongQueue of them, then their B rows' first places, then the
// exclusive sums of their lengths, kLongQueue + 1, then the scan's warp
// totals: kLongWords in all; *n: how many, 0 on entry and on exit).
inline constexpr int kLongQueue = 256;
inline constexpr int kLongWords = 3 * kLongQueue + 1 + kLongQueue / 32;
struct long_queue {
  offset_t* e;
  int* n;
};

// A global bin's next row for this block (thread 0 takes it from *next into
// the block's shared *row; -1: none left), with the block's long-row queue
// emptied. Every thread calls it; it synchronizes the block.
__device__ inline index_t next_hub_row(unsigned long long* next, const index_t* list, offset_t n, index_t* row,
                                       const long_queue& lq) {
  if (threadIdx.x == 0) {
    const unsigned long long u = atomicAdd(next, 1ull);
    *row = u < (unsigned long long)n ? list[u] : -1;
    *lq.n = 0;
  }
  __syncthreads();
  return *row;
}

// Columns [lo, hi) of C's row: a hub row's window (window kernels), or all.
struct col_window {
  std::int32_t lo = 0, hi = 0x7FFFFFFF;
};
// The first q in [b0, b1) with col[q] >= x (col sorted there).
__device__ inline offset_t lower_bound(const std::int32_t* col, offset_t b0, offset_t b1, std::int32_t x) {
  while (b0 < b1) {
    const offset_t mid = b0 + (b1 - b0) / 2;
    if (col[mid] < x) b0 = mid + 1;
    else b1 = mid;
  }
  return b0;
}
// B's row k cut to the window's columns: [*b0, *b1).
__device__ inline void clip(const csr_ref& B, std::int32_t k, const col_window& win, offset_t* b0, offset_t* b1) {
  *b0 = B.row_ptr[k];
  *b1 = B.row_ptr[k + 1];
  if (win.lo > 0) *b0 = lower_bound(B.col, *b0, *b1, win.lo);
  if (win.hi < B.ncols) *b1 = lower_bound(B.col, *b0, *b1, win.hi);
}

// Calls f(j, e, q) for every product of row i (e: A's entry, q: B's) whose
// column j is in the window, the lanes of a group split into teams of
// 1 << team_log. A team reads a short B row whole and skips the columns
// outside the window (a binary search is a chain of dependent loads: in
// windows it cost more than the products); it cuts a longer one by binary
// search.
//
// With a queue (the group is the block, and every thread calls this), A's
// row goes in chunks of kLongQueue entries: the teams walk the short B rows
// and queue the long ones (at least max(G / 8, 4 W) entries), then every
// queued row is cut to the window by one thread (the searches side by side),
// and all G lanes walk the queued rows as one sequence, a lane every G-th
// product. On skewed graphs a team would otherwise walk a hub's row of
// thousands while the others wait at the block's barrier (R-MAT's hub rows).
template <int G, class F>
__device__ inline void for_products(const csr_ref& A, const csr_ref& B, index_t i, int lane, int team_log, F&& f,
                                    const long_queue* lq = nullptr, const col_window& win = col_window{}) {
  const int W = 1 << team_log;
  const int teams = G >> team_log;
  const int t = lane >> team_log, w = lane & (W - 1);
  const offset_t long_min = G / 8 > 4 * W ? G / 8 : 4 * W;
  const bool cut = win.lo > 0 || win.hi < B.ncols;
  // The team walk of A's entries [e0, e1); long rows queued where there is a
  // queue (true: this lane queued one).
  const auto teams_walk = [&](offset_t e0, offset_t e1) {
    bool queued = false;
    for (offset_t e = e0 + t; e < e1; e += teams) {
      const std::int32_t k = A.col[e];
      offset_t b0 = B.row_ptr[k], b1 = B.row_ptr[k + 1];
      if (G >= kLongQueue && lq && b1 - b0 >= long_min) {
        if (w == 0) {
          lq->e[atomicAdd(lq->n, 1)] = e;  // at most kLongQueue a chunk
          queued = true;
        }
        continue;
      }
      if (cut && b1 - b0 > 4 * W) clip(B, k, win, &b0, &b1);
      for (offset_t q = b0 + w; q < b1; q += W) {
        const std::int32_t j = B.col[q];
        if (j >= win.hi) break;
        if (j >= win.lo) f(j, e, q);
      }
    }
    return queued;
  };
  const offset_t a0 = A.row_ptr[i], a1 = A.row_ptr[i + 1];
  if (G < kLongQueue || !lq) {  // a queue's rows are cut by one thread each: groups of at least kLongQueue
    teams_walk(a0, a1);
    return;
  }
  offset_t* from = lq->e + kLongQueue;
  offset_t* pre = from + kLongQueue;    // kLongQueue + 1 exclusive sums
  offset_t* warp_sum = pre + kLongQueue + 1;
  for (offset_t c0 = a0; c0 < a1; c0 += kLongQueue) {
    const bool queued = teams_walk(c0, a1 - c0 > kLongQueue ? c0 + kLongQueue : a1);
    if (!__syncthreads_or(queued)) continue;  // nothing queued (the usual chunk): one barrier
    const int m = *lq->n;
    offset_t len = 0;
    if (lane < m) {
      offset_t b1;
      clip(B, A.col[lq->e[lane]], win, from + lane, &b1);
      len = b1 - from[lane];
    }
    // The queued lengths' inclusive sums: in each warp, then across the
    // (kLongQueue / 32) warps.
    offset_t v = len;
    for (int o = 1; o < 32; o <<= 1) {
      const offset_t u = __shfl_up_sync(0xffffffffu, v, o);
      if ((lane & 31) >= o) v += u;
    }
    if (lane < kLongQueue && (lane & 31) == 31) warp_sum[lane >> 5] = v;
    __syncthreads();
    if (lane < kLongQueue) {
      for (int x = 0; x < (lane >> 5); ++x) v += warp_sum[x];
      pre[lane + 1] = v;
    }
    if (lane == 0) {
      pre[0] = 0;
      *lq->n = 0;  // every lane has read m
    }
    __syncthreads();
    const offset_t total = pre[m];
    int x = 0;
    for (offset_t p = lane; p < total; p += G) {
      while (p >= pre[x + 1]) ++x;
      const offset_t q = from[x] + (p - pre[x]);
      f(B.col[q], lq->e[x], q);
    }
    __syncthreads();  // the queue is free for the next chunk
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
