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
//     synchronizes within its warp only (the kernels: row_numeric.cuh). Rows
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

// A shared bin's block: groups of G lanes, a row each (both passes).
template <int TSIZE, int G>
struct bin_shape {
  static constexpr int block = G < 256 ? 256 : G;
  static constexpr int rows = block / G;  // rows per block
};

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
