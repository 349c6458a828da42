// tgb CUDA backend: row saxpy's type-independent steps (row_spgemm.cuh):
// product counts and bins, the symbolic hash pass, C's row pointers and the
// numeric bins, with the host's one read-back.
#include "tgb/detail/cuda/row_spgemm.cuh"

#include "tgb/detail/cuda/plan.hpp"

#include <map>
#include <mutex>
#include <tuple>

namespace tgb::detail::cuda::rows {
namespace {

constexpr int kThreads = 256;
constexpr int kSymBins = kNumBins;  // the shared bins, then rows past kMaxEntries products (global, window)
constexpr std::uint8_t kNoBin = 255;
static_assert(kSymBins == kNumBins, "the fill cursors serve both binnings");
// The status words: symbolic bin counts, the largest hub row's products,
// numeric bin counts, C's entry count, the largest global row's entries (all
// read back at once), the global and window bins' row counters; then the
// fill cursors (not read back). The hub products and entries are the global
// bins' (their pools are sized by them).
enum : int {
  kSym = 0,
  kHubProducts = kSymBins,
  kNum = kHubProducts + 1,
  kNnz = kNum + kNumBins,
  kHubEntries = kNnz + 1,
  kNext = kHubEntries + 1,  // the symbolic global bin's row counter, then the window bin's
  kStatus = kNext + 2
};

__device__ inline int bin_of(offset_t x) {  // x >= 1; kBins past the largest bin
  int b = 0;
  while (b < kBins && x > (offset_t(32) << b)) ++b;
  return b;
}

// Adds each block's per-bin counts to the global ones (rank: this thread's
// place among its block's rows of bin b, where base is wanted).
__device__ inline void count_bins(int b, int nb, unsigned long long* global, unsigned long long* base_out,
                                  unsigned* rank_out) {
  __shared__ unsigned cnt[kSymBins];
  __shared__ unsigned long long base[kSymBins];
  if (threadIdx.x < nb) cnt[threadIdx.x] = 0;
  __syncthreads();
  unsigned rank = 0;
  if (b < nb) rank = atomicAdd(&cnt[b], 1u);
  __syncthreads();
  if (threadIdx.x < nb && cnt[threadIdx.x]) base[threadIdx.x] = atomicAdd(&global[threadIdx.x], (unsigned long long)cnt[threadIdx.x]);
  __syncthreads();
  if (b < nb) {
    if (base_out) *base_out = base[b];
    if (rank_out) *rank_out = rank;
  }
}

// Each row's products and symbolic bin; a hub row (past the shared bins)
// leaves its products in nnz[i] for the hub passes: windows of sym_bits
// columns where window_ok says so, else the global bin.
__global__ void k_products(csr_ref A, csr_ref B, std::uint8_t* bin, offset_t* nnz, unsigned long long* status,
                           offset_t sym_bits) {
  const index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x;
  int b = kNoBin;
  if (i < A.nrows) {
    offset_t p = 0;
    const offset_t e1 = A.row_ptr[i + 1];
    for (offset_t e = A.row_ptr[i]; e < e1; ++e) {
      const std::int32_t k = A.col[e];
      p += B.row_ptr[k + 1] - B.row_ptr[k];
    }
    b = p == 0 ? kNoBin : bin_of(p);
    nnz[i] = 0;  // the symbolic bins count their rows'
    if (b == kBins) {
      nnz[i] = p;
      const offset_t bound = p < offset_t(B.ncols) ? p : offset_t(B.ncols);
      if (window_ok(A.row_ptr[i + 1] - A.row_ptr[i], bound, B.ncols, sym_bits)) b = kWindowBin;
      else atomicMax(status + kHubProducts, (unsigned long long)p);
    }
    bin[i] = std::uint8_t(b);
  }
  if (i == 0) nnz[A.nrows] = 0;  // the scan's last slot
  count_bins(b, kSymBins, status + kSym, nullptr, nullptr);
}

// Bin b's rows (from the counts on the device): where they start in the
// list, how many. Thread 0 reads them into the block's shared memory; every
// thread calls this (it synchronizes the block).
struct bin_rows {
  offset_t first, n;
};
__device__ inline bin_rows rows_of_bin(const unsigned long long* counts, int b, bin_rows* shared) {
  if (threadIdx.x == 0) {
    offset_t f = 0;
    for (int c = 0; c < b; ++c) f += offset_t(counts[c]);
    *shared = bin_rows{f, offset_t(counts[b])};
  }
  __syncthreads();
  return *shared;
}

// Lists the rows by bin: bin b's rows from the sum of the counts before b.
__global__ void k_fill(index_t n, const std::uint8_t* bin, int nb, const unsigned long long* counts,
                       unsigned long long* cursor, index_t* list) {
  __shared__ unsigned long long first[kSymBins];
  if (threadIdx.x == 0) {
    unsigned long long f = 0;
    for (int b = 0; b < nb; ++b) {
      first[b] = f;
      f += counts[b];
    }
  }
  const index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x;
  const int b = i < n ? bin[i] : kNoBin;
  unsigned long long base = 0;
  unsigned rank = 0;
  count_bins(b, nb, cursor, &base, &rank);  // its __syncthreads also publish first[]
  if (b < nb) list[first[b] + base + rank] = i;
}

// One block's R rows of a shared bin (rows u0 .. u0 + R - 1 of the bin's
// br.n, groups of G lanes, a table of TSIZE keys a row in `keys_all`): each
// row's distinct columns counted into nnz[i]. Every thread of the block
// calls it (it synchronizes the block); team_log at most log2(G).
template <int TSIZE, int G, int THREADS>
__device__ inline void symbolic_rows(const index_t* list, const bin_rows& br, offset_t u0, const csr_ref& A,
                                     const csr_ref& B, int team_log, offset_t* nnz, std::int32_t* keys_all,
                                     int* count, const long_queue& lq) {
  constexpr int R = THREADS / G;
  const int g = int(threadIdx.x) / G, lane = int(threadIdx.x) % G;
  std::int32_t* keys = keys_all + g * TSIZE;
  for (int x = lane; x < TSIZE; x += G) keys[x] = kEmpty;
  if (lane == 0) count[g] = 0;
  if (threadIdx.x == 0) *lq.n = 0;
  __syncthreads();
  const offset_t u = u0 + g;
  const index_t i = u < br.n ? list[br.first + u] : -1;
  if (i >= 0) {
    for_products<G>(
        A, B, i, lane, team_log,
        [&](std::int32_t j, offset_t, offset_t) {
          bool fresh;
          find_or_insert(keys, TSIZE, j, &fresh);
          if (fresh) atomicAdd(count + g, 1);
        },
        R == 1 ? &lq : nullptr);
  }
  __syncthreads();
  if (i >= 0 && lane == 0) nnz[i] = count[g];
  __syncthreads();  // the tables are free for the next rows
}

// Bin b's rows, R a block: the bin's count is read on the device (the host
// launches every bin that may hold rows without waiting for the counts), and
// a block takes every gridDim.x-th group of R rows.
template <int TSIZE, int G>
__global__ void __launch_bounds__(bin_shape<TSIZE, G>::block)
    k_symbolic(const index_t* list, const unsigned long long* counts, int b, csr_ref A, csr_ref B, int team_log,
               offset_t* nnz) {
  constexpr int T = bin_shape<TSIZE, G>::block, R = bin_shape<TSIZE, G>::rows;
  __shared__ std::int32_t keys_all[R * TSIZE];
  __shared__ int count[R];
  __shared__ offset_t long_e[R == 1 ? kLongWords : 1];
  __shared__ int long_n;
  __shared__ bin_rows mine;
  const long_queue lq{long_e, &long_n};
  const bin_rows br = rows_of_bin(counts, b, &mine);
  for (offset_t u0 = offset_t(blockIdx.x) * R; u0 < br.n; u0 += offset_t(gridDim.x) * R)
    symbolic_rows<TSIZE, G, T>(list, br, u0, A, B, team_log, nnz, keys_all, count, lq);
}

// The eight shared bins in one launch, for small products (their bins' own
// kernels, on side streams, cost more in launches and events than the rows
// take). A unit is one block's rows of one bin: 256 threads in groups of
// min(8 << b, 256) lanes, one to 32 rows; units go largest bin first, and a
// block takes every gridDim.x-th. Static shared memory for the largest bin's
// table (8,192 keys).
constexpr int kFusedThreads = 256;
constexpr int fused_group(int b) { return (8 << b) < kFusedThreads ? (8 << b) : kFusedThreads; }
template <int B_>
__device__ inline void fused_unit(const index_t* list, const bin_rows& br, offset_t unit, const csr_ref& A,
                                  const csr_ref& B, int team_log, offset_t* nnz, std::int32_t* keys, int* count,
                                  const long_queue& lq) {
  constexpr int G = fused_group(B_);
  constexpr int tl_max = ilog2(G);
  symbolic_rows<(64 << B_), G, kFusedThreads>(list, br, unit * (kFusedThreads / G), A, B,
                                              team_log < tl_max ? team_log : tl_max, nnz, keys, count, lq);
}
__global__ void __launch_bounds__(kFusedThreads)
    k_symbolic_fused(const index_t* list, const unsigned long long* counts, csr_ref A, csr_ref B, int team_log,
                     offset_t* nnz) {
  __shared__ std::int32_t keys[64 << (kBins - 1)];
  __shared__ int count[kFusedThreads / 8];
  __shared__ offset_t long_e[kLongWords];
  __shared__ int long_n;
  __shared__ offset_t first[kBins], rows[kBins], unit_end[kBins];  // unit_end: in the order bin 7 ... 0
  const long_queue lq{long_e, &long_n};
  if (threadIdx.x == 0) {
    offset_t f = 0;
    for (int b = 0; b < kBins; ++b) {
      first[b] = f;
      rows[b] = offset_t(counts[b]);
      f += rows[b];
    }
    offset_t u = 0;
    for (int b = kBins - 1; b >= 0; --b) {
      const offset_t per = kFusedThreads / fused_group(b);
      u += (rows[b] + per - 1) / per;
      unit_end[b] = u;
    }
  }
  __syncthreads();
  for (offset_t unit = blockIdx.x; unit < unit_end[0]; unit += gridDim.x) {
    int b = kBins - 1;
    while (unit >= unit_end[b]) --b;
    const offset_t in_bin = unit - (b == kBins - 1 ? 0 : unit_end[b + 1]);
    const bin_rows br{first[b], rows[b]};
    switch (b) {
      case 7: fused_unit<7>(list, br, in_bin, A, B, team_log, nnz, keys, count, lq); break;
      case 6: fused_unit<6>(list, br, in_bin, A, B, team_log, nnz, keys, count, lq); break;
      case 5: fused_unit<5>(list, br, in_bin, A, B, team_log, nnz, keys, count, lq); break;
      case 4: fused_unit<4>(list, br, in_bin, A, B, team_log, nnz, keys, count, lq); break;
      case 3: fused_unit<3>(list, br, in_bin, A, B, team_log, nnz, keys, count, lq); break;
      case 2: fused_unit<2>(list, br, in_bin, A, B, team_log, nnz, keys, count, lq); break;
      case 1: fused_unit<1>(list, br, in_bin, A, B, team_log, nnz, keys, count, lq); break;
      default: fused_unit<0>(list, br, in_bin, A, B, team_log, nnz, keys, count, lq); break;
    }
  }
}
static_assert(kBins == 8, "k_symbolic_fused lists the bins");

// Hub rows (past 4,096 products), one at a time per block, each counted in
// the block's table of the pool (slot keys), sized by the row's bound: its
// products (k_products left them in nnz[i]) or B's columns if fewer.
__global__ void __launch_bounds__(kHubThreads)
    k_symbolic_global(const index_t* list, offset_t n, csr_ref A, csr_ref B, int team_log, offset_t* nnz,
                      std::int32_t* pool, offset_t slot, bool dense_ok, unsigned long long* next) {
  __shared__ index_t row;
  __shared__ int count;
  __shared__ offset_t long_e[kLongWords];
  __shared__ int long_n;
  const long_queue lq{long_e, &long_n};
  std::int32_t* keys = pool + offset_t(blockIdx.x) * slot;
  const int lane = int(threadIdx.x);
  for (;;) {
    if (lane == 0) count = 0;
    const index_t i = next_hub_row(next, list, n, &row, lq);
    if (i < 0) return;
    const offset_t most = nnz[i] < offset_t(B.ncols) ? nnz[i] : offset_t(B.ncols);
    const bool dense = hub_dense(most, B.ncols, dense_ok);
    const int tsize = int(hub_table(most, B.ncols, dense_ok));
    for (int x = lane; x < tsize; x += kHubThreads) keys[x] = kEmpty;
    __syncthreads();  // nnz[i] read, the table cleared
    for_products<kHubThreads>(
        A, B, i, lane, team_log,
        [&](std::int32_t j, offset_t, offset_t) {
          bool fresh;
          find_or_insert(keys, tsize, j, &fresh, dense);
          if (fresh) atomicAdd(&count, 1);
        },
        &lq);
    __syncthreads();
    if (lane == 0) nnz[i] = count;
    __syncthreads();  // the table and `row` are free for the next row
  }
}

// Hub rows in windows: one at a time per block, counted in a shared bitmap
// of `bits` columns (dynamic shared memory), one window of columns at a time.
__global__ void __launch_bounds__(kHubThreads)
    k_symbolic_window(const index_t* list, const unsigned long long* counts, csr_ref A, csr_ref B, int team_log,
                      offset_t* nnz, int bits, unsigned long long* next) {
  __shared__ index_t row;
  __shared__ int count;
  __shared__ offset_t long_e[kLongWords];
  __shared__ int long_n;
  __shared__ bin_rows mine;
  extern __shared__ unsigned words[];
  const long_queue lq{long_e, &long_n};
  const int lane = int(threadIdx.x);
  const int nwords = bits / 32;
  const bin_rows br = rows_of_bin(counts, kWindowBin, &mine);
  for (;;) {
    if (lane == 0) count = 0;
    const index_t i = next_hub_row(next, list + br.first, br.n, &row, lq);
    if (i < 0) return;
    for (offset_t w0 = 0; w0 < B.ncols; w0 += bits) {
      const std::int32_t lo = std::int32_t(w0), hi = std::int32_t(B.ncols - w0 > bits ? w0 + bits : B.ncols);
      for (int x = lane; x < nwords; x += kHubThreads) words[x] = 0;
      if (lane == 0) long_n = 0;
      __syncthreads();
      for_products<kHubThreads>(
          A, B, i, lane, team_log,
          [&](std::int32_t j, offset_t, offset_t) {
            const int x = int(j - lo);
            const unsigned bit = 1u << (x & 31);
            if (!(words[x >> 5] & bit)) atomicOr(words + (x >> 5), bit);
          },
          &lq, col_window{lo, hi});
      __syncthreads();
      int bits_set = 0;
      for (int x = lane; x < nwords; x += kHubThreads) bits_set += __popc(words[x]);
      for (int o = 16; o > 0; o >>= 1) bits_set += __shfl_down_sync(0xffffffffu, bits_set, o);
      if ((lane & 31) == 0 && bits_set) atomicAdd(&count, bits_set);
      __syncthreads();  // the bitmap is read before the next window clears it
    }
    if (lane == 0) nnz[i] = count;
    __syncthreads();  // `row` and `count` are free for the next row
  }
}

// Bin b (rows of more than 16 << b products): launched where B has that
// many entries (a row's products are at most B's entries: the operands'
// rows hold distinct columns, as every row form tgb makes does), on a grid
// that holds at most the rows there can be and what the GPU runs at once.
template <int TSIZE, int G>
void launch_symbolic(int b, const index_t* list, const unsigned long long* counts, const csr_ref& A,
                     const csr_ref& B, int team_log, offset_t* nnz, stream_t s) {
  if (b > 0 && B.nnz <= (offset_t(16) << b)) return;
  using shape = bin_shape<TSIZE, G>;
  const int tl = team_log < ilog2(G) ? team_log : ilog2(G);
  auto kernel = k_symbolic<TSIZE, G>;
  const offset_t groups = (offset_t(A.nrows) + shape::rows - 1) / shape::rows;
  const unsigned grid = resident_blocks(reinterpret_cast<const void*>(kernel), shape::block, 0, groups);
  kernel<<<grid, shape::block, 0, native(s)>>>(list, counts, b, A, B, tl, nnz);
  check(cudaGetLastError(), "row saxpy symbolic");
}

// Each row's numeric bin: its symbolic one (the group's size follows the
// products, which the numeric walk goes through again; binning by entries put
// rows of hundreds of products on 8 lanes: 85 us for ca-GrQc's smallest bin,
// H100), hub rows in the largest shared bin where their entries fit it, else
// in a hub bin (windows of num_cols columns where window_ok says so, else
// the global bin); C's entry count and the global bin's longest row.
__global__ void k_entry_bins(csr_ref A, index_t ncols, const offset_t* row_ptr, std::uint8_t* bin,
                             unsigned long long* status, offset_t num_cols) {
  const index_t n = A.nrows;
  const index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x;
  int b = kNoBin;
  if (i < n) {
    const offset_t len = row_ptr[i + 1] - row_ptr[i];
    b = len == 0 ? kNoBin : len > kMaxEntries ? kGlobalBin : (bin[i] < kBins ? int(bin[i]) : kBins - 1);
    if (b == kGlobalBin && window_ok(A.row_ptr[i + 1] - A.row_ptr[i], len, ncols, num_cols)) b = kWindowBin;
    bin[i] = std::uint8_t(b);
    if (b == kGlobalBin) atomicMax(status + kHubEntries, (unsigned long long)len);
  }
  if (i == 0) status[kNnz] = (unsigned long long)row_ptr[n];
  count_bins(b, kNumBins, status + kNum, nullptr, nullptr);
}

}  // namespace

}  // namespace tgb::detail::cuda::rows

namespace tgb::detail::cuda {
row_saxpy_stats& last_row_saxpy_stats() {
  thread_local row_saxpy_stats s;  // per thread: threads on their own streams do not race on it
  return s;
}
}  // namespace tgb::detail::cuda

namespace tgb::detail::cuda::rows {

namespace {
// What the driver says of the device and of a kernel does not change while
// the process runs: asked once per device (cudaDeviceGetAttribute,
// cudaFuncGetAttributes and the occupancy query cost microseconds, and a
// small product makes dozens of these calls).
struct fact_key {
  const void* kernel;
  int device, a, b;
  bool operator<(const fact_key& o) const {
    return std::tie(kernel, device, a, b) < std::tie(o.kernel, o.device, o.a, o.b);
  }
};
template <class F>
long long remembered(const fact_key& k, F&& ask) {
  static std::mutex m;
  static std::map<fact_key, long long> facts;
  {
    const std::lock_guard<std::mutex> lock(m);
    const auto it = facts.find(k);
    if (it != facts.end()) return it->second;
  }
  const long long v = ask();  // outside the lock: it may throw
  const std::lock_guard<std::mutex> lock(m);
  facts[k] = v;
  return v;
}
int current_device() {
  int dev = 0;
  check(cudaGetDevice(&dev), "row saxpy");
  return dev;
}
int device_attribute(cudaDeviceAttr a) {
  const int dev = current_device();
  return int(remembered(fact_key{nullptr, dev, int(a), 0}, [&] {
    int v = 0;
    check(cudaDeviceGetAttribute(&v, a, dev), "row saxpy");
    return (long long)v;
  }));
}
// Shared memory the window kernels keep for their own (scan, queue, counters)
// and the driver's reserve per block, within the window budget.
constexpr std::size_t kWindowOwn = 8 * 1024;
}  // namespace

hub_pool hub_pool_for(offset_t most, index_t ncols, offset_t rows, std::size_t slot_bytes) {
  if (most > (offset_t(1) << 29))
    throw not_implemented("tgb: mxm's row saxpy takes rows of at most 2^29 entries; this one has " +
                          std::to_string(most));
  hub_pool h;
  const int sms = device_attribute(cudaDevAttrMultiProcessorCount);
  const offset_t one_per_sm = rows < offset_t(sms) ? rows : offset_t(sms);
  h.dense_ok = std::size_t(ncols) * slot_bytes * std::size_t(one_per_sm) <= kHubPoolBytes;
  h.table = hub_table(most, ncols, h.dense_ok);
  const std::size_t per = std::size_t(h.table) * slot_bytes;
  offset_t b = offset_t(kHubBlocksPerSm) * sms;
  if (b > rows) b = rows;
  const offset_t fit = offset_t(kHubPoolBytes / per);
  if (b > fit) b = fit;
  h.blocks = unsigned(b < 1 ? 1 : b);
  return h;
}

hub_windows windows_for(index_t ncols, std::size_t slot_bytes, std::size_t bytes) {
  if (bytes == 0) {
    const std::size_t per_sm = std::size_t(device_attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor));
    const std::size_t per_block = std::size_t(device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin));
    bytes = per_sm / 2 < per_block ? per_sm / 2 : per_block;
    bytes = bytes > kWindowOwn ? bytes - kWindowOwn : 0;
  }
  const auto fit = [&](offset_t most, offset_t granule) {
    const offset_t need = (offset_t(ncols) + granule - 1) / granule * granule;
    most = most / granule * granule;
    return most < need ? most : need;
  };
  hub_windows w;
  w.sym_bits = fit(offset_t(bytes) * 8, offset_t(32) * kHubThreads);
  w.num_cols = fit(offset_t(bytes / (slot_bytes + 1)), offset_t(kHubThreads));
  return w;
}

void allow_shared(const void* kernel, std::size_t dynamic, const char* what) {
  const int dev = current_device();
  const std::size_t own = std::size_t(remembered(fact_key{kernel, dev, -1, 0}, [&] {
    cudaFuncAttributes attr{};
    check(cudaFuncGetAttributes(&attr, kernel), what);
    return (long long)attr.sharedSizeBytes;
  }));
  const std::size_t need = dynamic + own;
  if (need <= 48 * 1024) return;  // past 48 KB a block must opt in
  const int limit = device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin);
  if (need > std::size_t(limit))
    throw not_implemented(std::string("tgb: ") + what + " needs " + std::to_string(need) +
                          " bytes of shared memory per block; this GPU gives " + std::to_string(limit));
  // The opt-in is a ceiling that stays with the kernel: raised when a call
  // needs more than any before, never lowered (a launch under it is fine).
  static std::mutex m;
  static std::map<std::pair<const void*, int>, std::size_t> granted;
  const std::lock_guard<std::mutex> lock(m);
  std::size_t& g = granted[{kernel, dev}];
  if (dynamic <= g) return;
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(dynamic)), what);
  g = dynamic;
}

unsigned resident_blocks(const void* kernel, int threads, std::size_t dynamic, offset_t rows) {
  const int per_sm = int(remembered(fact_key{kernel, current_device(), threads, int(dynamic)}, [&] {
    int v = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&v, kernel, threads, dynamic), "row saxpy");
    return (long long)v;
  }));
  offset_t b = offset_t(per_sm < 1 ? 1 : per_sm) * device_attribute(cudaDevAttrMultiProcessorCount);
  if (b > rows) b = rows;
  return unsigned(b < 1 ? 1 : b);
}

row_plan plan(const csr_ref& A, const csr_ref& B, std::size_t slot_bytes, const row_tuning& tune, stream_t s) {
  row_plan p;
  const hub_windows win = windows_for(B.ncols, slot_bytes, tune.window_bytes);
  p.sym_bits = win.sym_bits;
  p.num_cols = win.num_cols;
  const index_t n = A.nrows;
  const double mean = B.nrows ? double(B.nnz) / double(B.nrows) : 0.0;
  while (p.team_log < 5 && double(1 << p.team_log) < mean) ++p.team_log;
  // A small product (A's entries times B's mean row: its products, about)
  // runs the shared bins' symbolic pass as one kernel.
  const bool fused = double(A.nnz) * mean < tune.fused_max_products;
  p.row_ptr = device_buffer<offset_t>(n + 1, s);
  if (n == 0) {
    check(cudaMemsetAsync(p.row_ptr.data(), 0, sizeof(offset_t), native(s)), "row saxpy");
    return p;
  }
  device_buffer<unsigned long long> status(kStatus + kSymBins, s);
  check(cudaMemsetAsync(status.data(), 0, status.size() * sizeof(unsigned long long), native(s)), "row saxpy");
  device_buffer<std::uint8_t> bin(n, s);
  device_buffer<offset_t> nnz(n + 1, s);
  device_buffer<index_t> sym_list(n, s);
  p.list = device_buffer<index_t>(n, s);
  unsigned long long* cursor = status.data() + kStatus;
  const unsigned long long* counts = status.data() + kSym;
  const unsigned grid = grid_for(n, kThreads);
  k_products<<<grid, kThreads, 0, native(s)>>>(A, B, bin.data(), nnz.data(), status.data(), p.sym_bits);
  check(cudaGetLastError(), "row saxpy products");
  k_fill<<<grid, kThreads, 0, native(s)>>>(n, bin.data(), kSymBins, counts, cursor, sym_list.data());
  check(cudaGetLastError(), "row saxpy bins");
  const index_t* L = sym_list.data();
  offset_t* z = nnz.data();
  const int tl = p.team_log;
  // The symbolic bins, without the host knowing their counts: each kernel
  // reads its own. Hub rows exist only where B has more than kMaxEntries
  // entries; the window bin's come now, the global bin's after the read-back
  // (their tables are sized by the largest, known only then).
  const bool windows = B.nnz > kMaxEntries && p.sym_bits > 0;
  const std::size_t bitmap = std::size_t(p.sym_bits / 8);
  const void* window_kernel = reinterpret_cast<const void*>(k_symbolic_window);
  if (windows) allow_shared(window_kernel, bitmap, "row saxpy (window bin)");
  {
    // Side streams: the window bin's and each shared bin's, or the window
    // bin's and the fused kernel's.
    const fan_out fan(s, (fused ? 1 : kBins) + (windows ? 1 : 0));
    if (windows) {
      const unsigned blocks = resident_blocks(window_kernel, kHubThreads, bitmap, offset_t(n));
      k_symbolic_window<<<blocks, kHubThreads, bitmap, native(fan[fused ? 1 : kBins])>>>(L, counts, A, B, tl, z,
                                                                              int(p.sym_bits),
                                                                              status.data() + kNext + 1);
      check(cudaGetLastError(), "row saxpy symbolic (window bin)");
    }
    if (fused) {
      const void* k = reinterpret_cast<const void*>(k_symbolic_fused);
      k_symbolic_fused<<<resident_blocks(k, kFusedThreads, 0, offset_t(n)), kFusedThreads, 0, native(fan[0])>>>(
          L, counts, A, B, tl, z);
      check(cudaGetLastError(), "row saxpy symbolic");
    } else {
      launch_symbolic<8192, 1024>(7, L, counts, A, B, tl, z, fan[7]);
      launch_symbolic<4096, 512>(6, L, counts, A, B, tl, z, fan[6]);
      launch_symbolic<2048, 256>(5, L, counts, A, B, tl, z, fan[5]);
      launch_symbolic<1024, 128>(4, L, counts, A, B, tl, z, fan[4]);
      launch_symbolic<512, 64>(3, L, counts, A, B, tl, z, fan[3]);
      launch_symbolic<256, 32>(2, L, counts, A, B, tl, z, fan[2]);
      launch_symbolic<128, 16>(1, L, counts, A, B, tl, z, fan[1]);
      launch_symbolic<64, 8>(0, L, counts, A, B, tl, z, fan[0]);
    }
  }
  phase(s, "row saxpy: symbolic");
  // C's row pointers, the numeric bins and the one read-back (the status:
  // both passes' bin counts, C's entries, the hub rows' largest).
  unsigned long long st[kStatus];
  const auto to_numeric = [&] {
    exclusive_sum(nnz.data(), p.row_ptr.data(), n + 1, s);
    check(cudaMemsetAsync(cursor, 0, kSymBins * sizeof(unsigned long long), native(s)), "row saxpy");
    k_entry_bins<<<grid, kThreads, 0, native(s)>>>(A, B.ncols, p.row_ptr.data(), bin.data(), status.data(),
                                                   p.num_cols);
    check(cudaGetLastError(), "row saxpy entry bins");
    k_fill<<<grid, kThreads, 0, native(s)>>>(n, bin.data(), kNumBins, status.data() + kNum, cursor, p.list.data());
    check(cudaGetLastError(), "row saxpy bins");
    copy_device_to_host(st, status.data(), sizeof st, s);
  };
  to_numeric();
  phase(s, "row saxpy: row pointers, read-back");
  if (st[kSym + kGlobalBin]) {
    // Hub rows no window covers (rare: B's columns span many windows): count
    // them in the global tables, then the row pointers and numeric bins
    // again (their entry bins are idempotent): a second read-back.
    const offset_t rows = offset_t(st[kSym + kGlobalBin]);
    const offset_t most = offset_t(st[kHubProducts]);
    const hub_pool pool = hub_pool_for(most < offset_t(B.ncols) ? most : offset_t(B.ncols), B.ncols, rows,
                                       sizeof(std::int32_t));
    device_buffer<std::int32_t> tables(pool.table * pool.blocks, s);
    offset_t first = 0;
    for (int b = 0; b < kGlobalBin; ++b) first += offset_t(st[kSym + b]);
    k_symbolic_global<<<pool.blocks, kHubThreads, 0, native(s)>>>(L + first, rows, A, B, tl, z, tables.data(),
                                                                   pool.table, pool.dense_ok, status.data() + kNext);
    check(cudaGetLastError(), "row saxpy symbolic (global bin)");
    check(cudaMemsetAsync(status.data() + kNum, 0, (kNext - kNum) * sizeof(unsigned long long), native(s)),
          "row saxpy");
    to_numeric();
  }
  row_saxpy_stats& stats = last_row_saxpy_stats();
  const long long runs = stats.runs;
  stats = row_saxpy_stats{};
  stats.runs = runs + 1;
  for (int b = 0; b < kSymBins; ++b) stats.symbolic[b] = (long long)st[kSym + b];
  for (int b = 0; b < kNumBins; ++b) stats.numeric[b] = (long long)st[kNum + b];
  p.nnz = offset_t(st[kNnz]);
  p.hub_entries = offset_t(st[kHubEntries]);
  offset_t f = 0;
  for (int b = 0; b < kNumBins; ++b) {
    p.count[b] = offset_t(st[kNum + b]);
    p.first[b] = f;
    f += p.count[b];
  }
  return p;
}

}  // namespace tgb::detail::cuda::rows
