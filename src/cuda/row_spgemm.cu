// tgb CUDA backend: row saxpy's type-independent steps (row_spgemm.cuh):
// product counts and bins, the symbolic hash pass, C's row pointers and the
// numeric bins, with the two host read-backs.
#include "tgb/detail/cuda/row_spgemm.cuh"

#include "tgb/detail/cuda/plan.hpp"

namespace tgb::detail::cuda::rows {
namespace {

constexpr int kThreads = 256;
constexpr int kSymBins = kNumBins;  // the shared bins, then rows past kMaxEntries products (global, window)
constexpr std::uint8_t kNoBin = 255;
static_assert(kSymBins == kNumBins, "the fill cursors serve both binnings");
// The status words: symbolic bin counts, the largest hub row's products (both
// read back first), numeric bin counts, C's entry count, the largest global
// row's entries (read back second), the global bin's row counter; then the
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
    if (b == kBins) {
      nnz[i] = p;
      const offset_t bound = p < offset_t(B.ncols) ? p : offset_t(B.ncols);
      if (window_ok(A.row_ptr[i + 1] - A.row_ptr[i], bound, B.ncols, sym_bits)) b = kWindowBin;
      else atomicMax(status + kHubProducts, (unsigned long long)p);
    }
    bin[i] = std::uint8_t(b);
  }
  count_bins(b, kSymBins, status + kSym, nullptr, nullptr);
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

template <int TSIZE, int G>
__global__ void __launch_bounds__(bin_shape<TSIZE, G>::block)
    k_symbolic(const index_t* list, offset_t n, csr_ref A, csr_ref B, int team_log, offset_t* nnz) {
  constexpr int R = bin_shape<TSIZE, G>::rows;
  __shared__ std::int32_t keys_all[R * TSIZE];
  __shared__ int count[R];
  __shared__ offset_t long_e[R == 1 ? kLongWords : 1];
  __shared__ int long_n;
  const long_queue lq{long_e, &long_n};
  const int g = int(threadIdx.x) / G, lane = int(threadIdx.x) % G;
  std::int32_t* keys = keys_all + g * TSIZE;
  for (int x = lane; x < TSIZE; x += G) keys[x] = kEmpty;
  if (lane == 0) count[g] = 0;
  if (threadIdx.x == 0) long_n = 0;
  __syncthreads();
  const offset_t u = offset_t(blockIdx.x) * R + g;
  const index_t i = u < n ? list[u] : -1;
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
}

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
    k_symbolic_window(const index_t* list, offset_t n, csr_ref A, csr_ref B, int team_log, offset_t* nnz, int bits,
                      unsigned long long* next) {
  __shared__ index_t row;
  __shared__ int count;
  __shared__ offset_t long_e[kLongWords];
  __shared__ int long_n;
  extern __shared__ unsigned words[];
  const long_queue lq{long_e, &long_n};
  const int lane = int(threadIdx.x);
  const int nwords = bits / 32;
  for (;;) {
    if (lane == 0) count = 0;
    const index_t i = next_hub_row(next, list, n, &row, lq);
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
      int mine = 0;
      for (int x = lane; x < nwords; x += kHubThreads) mine += __popc(words[x]);
      for (int o = 16; o > 0; o >>= 1) mine += __shfl_down_sync(0xffffffffu, mine, o);
      if ((lane & 31) == 0 && mine) atomicAdd(&count, mine);
      __syncthreads();  // the bitmap is read before the next window clears it
    }
    if (lane == 0) nnz[i] = count;
    __syncthreads();  // `row` and `count` are free for the next row
  }
}

template <int TSIZE, int G>
void launch_symbolic(const index_t* list, offset_t n, const csr_ref& A, const csr_ref& B, int team_log, offset_t* nnz,
                     stream_t s) {
  if (n == 0) return;
  using shape = bin_shape<TSIZE, G>;
  const int tl = team_log < ilog2(G) ? team_log : ilog2(G);
  k_symbolic<TSIZE, G><<<unsigned((n + shape::rows - 1) / shape::rows), shape::block, 0, native(s)>>>(
      list, n, A, B, tl, nnz);
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
int device_attribute(cudaDeviceAttr a) {
  int dev = 0, v = 0;
  check(cudaGetDevice(&dev), "row saxpy");
  check(cudaDeviceGetAttribute(&v, a, dev), "row saxpy");
  return v;
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
  cudaFuncAttributes attr{};
  check(cudaFuncGetAttributes(&attr, kernel), what);
  const std::size_t need = dynamic + attr.sharedSizeBytes;
  if (need <= 48 * 1024) return;  // past 48 KB a block must opt in
  const int limit = device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin);
  if (need > std::size_t(limit))
    throw not_implemented(std::string("tgb: ") + what + " needs " + std::to_string(need) +
                          " bytes of shared memory per block; this GPU gives " + std::to_string(limit));
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(dynamic)), what);
}

unsigned resident_blocks(const void* kernel, int threads, std::size_t dynamic, offset_t rows) {
  int per_sm = 0;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, dynamic), "row saxpy");
  offset_t b = offset_t(per_sm < 1 ? 1 : per_sm) * device_attribute(cudaDevAttrMultiProcessorCount);
  if (b > rows) b = rows;
  return unsigned(b < 1 ? 1 : b);
}

row_plan plan(const csr_ref& A, const csr_ref& B, std::size_t slot_bytes, std::size_t window_bytes, stream_t s) {
  row_plan p;
  const hub_windows win = windows_for(B.ncols, slot_bytes, window_bytes);
  p.sym_bits = win.sym_bits;
  p.num_cols = win.num_cols;
  const index_t n = A.nrows;
  const double mean = B.nrows ? double(B.nnz) / double(B.nrows) : 0.0;
  while (p.team_log < 5 && double(1 << p.team_log) < mean) ++p.team_log;
  p.row_ptr = device_buffer<offset_t>(n + 1, s);
  if (n == 0) {
    check(cudaMemsetAsync(p.row_ptr.data(), 0, sizeof(offset_t), native(s)), "row saxpy");
    return p;
  }
  device_buffer<unsigned long long> status(kStatus + kSymBins, s);
  check(cudaMemsetAsync(status.data(), 0, status.size() * sizeof(unsigned long long), native(s)), "row saxpy");
  device_buffer<std::uint8_t> bin(n, s);
  device_buffer<offset_t> nnz(n + 1, s);
  check(cudaMemsetAsync(nnz.data(), 0, (n + 1) * sizeof(offset_t), native(s)), "row saxpy");
  p.list = device_buffer<index_t>(n, s);
  unsigned long long* cursor = status.data() + kStatus;
  const unsigned grid = grid_for(n, kThreads);
  k_products<<<grid, kThreads, 0, native(s)>>>(A, B, bin.data(), nnz.data(), status.data(), p.sym_bits);
  check(cudaGetLastError(), "row saxpy products");
  unsigned long long sym[kSymBins + 1];  // and the largest hub row's products
  copy_device_to_host(sym, status.data() + kSym, sizeof sym, s);  // read-back 1
  unsigned long long rows_with_products = 0;
  for (int b = 0; b < kSymBins; ++b) rows_with_products += sym[b];
  if (rows_with_products) {
    k_fill<<<grid, kThreads, 0, native(s)>>>(n, bin.data(), kSymBins, status.data() + kSym, cursor, p.list.data());
    check(cudaGetLastError(), "row saxpy bins");
    offset_t first[kSymBins];
    offset_t f = 0;
    for (int b = 0; b < kSymBins; ++b) {
      first[b] = f;
      f += offset_t(sym[b]);
    }
    const index_t* L = p.list.data();
    offset_t* z = nnz.data();
    const int tl = p.team_log;
    // Hub rows: the global tables (allocated before the bins fan out).
    hub_pool pool;
    device_buffer<std::int32_t> tables;
    if (sym[kGlobalBin]) {
      const offset_t p_most = offset_t(sym[kSymBins]);
      pool = hub_pool_for(p_most < offset_t(B.ncols) ? p_most : offset_t(B.ncols), B.ncols,
                          offset_t(sym[kGlobalBin]), sizeof(std::int32_t));
      tables = device_buffer<std::int32_t>(pool.table * pool.blocks, s);
    }
    const std::size_t bitmap = std::size_t(p.sym_bits / 8);
    if (sym[kWindowBin]) allow_shared(reinterpret_cast<const void*>(k_symbolic_window), bitmap, "row saxpy (window bin)");
    // The bins are independent: one side stream for each bin with rows (none
    // where one bin has them all).
    int busy = 0;
    for (int b = 0; b < kSymBins; ++b) busy += sym[b] ? 1 : 0;
    const fan_out fan(s, busy);
    int next = 0;
    const auto side = [&](int b) { return sym[b] ? fan[next++] : s; };
    if (sym[kWindowBin]) {
      const offset_t rows = offset_t(sym[kWindowBin]);
      const unsigned blocks = resident_blocks(reinterpret_cast<const void*>(k_symbolic_window), kHubThreads, bitmap, rows);
      k_symbolic_window<<<blocks, kHubThreads, bitmap, native(side(kWindowBin))>>>(
          L + first[kWindowBin], rows, A, B, tl, z, int(p.sym_bits), status.data() + kNext + 1);
      check(cudaGetLastError(), "row saxpy symbolic (window bin)");
    }
    if (sym[kGlobalBin]) {
      k_symbolic_global<<<pool.blocks, kHubThreads, 0, native(side(kGlobalBin))>>>(
          L + first[kGlobalBin], offset_t(sym[kGlobalBin]), A, B, tl, z, tables.data(), pool.table, pool.dense_ok,
          status.data() + kNext);
      check(cudaGetLastError(), "row saxpy symbolic (global bin)");
    }
    launch_symbolic<8192, 1024>(L + first[7], offset_t(sym[7]), A, B, tl, z, side(7));
    launch_symbolic<4096, 512>(L + first[6], offset_t(sym[6]), A, B, tl, z, side(6));
    launch_symbolic<2048, 256>(L + first[5], offset_t(sym[5]), A, B, tl, z, side(5));
    launch_symbolic<1024, 128>(L + first[4], offset_t(sym[4]), A, B, tl, z, side(4));
    launch_symbolic<512, 64>(L + first[3], offset_t(sym[3]), A, B, tl, z, side(3));
    launch_symbolic<256, 32>(L + first[2], offset_t(sym[2]), A, B, tl, z, side(2));
    launch_symbolic<128, 16>(L + first[1], offset_t(sym[1]), A, B, tl, z, side(1));
    launch_symbolic<64, 8>(L + first[0], offset_t(sym[0]), A, B, tl, z, side(0));
  }
  exclusive_sum(nnz.data(), p.row_ptr.data(), n + 1, s);
  check(cudaMemsetAsync(cursor, 0, kSymBins * sizeof(unsigned long long), native(s)), "row saxpy");
  k_entry_bins<<<grid, kThreads, 0, native(s)>>>(A, B.ncols, p.row_ptr.data(), bin.data(), status.data(), p.num_cols);
  check(cudaGetLastError(), "row saxpy entry bins");
  k_fill<<<grid, kThreads, 0, native(s)>>>(n, bin.data(), kNumBins, status.data() + kNum, cursor, p.list.data());
  check(cudaGetLastError(), "row saxpy bins");
  unsigned long long st[kStatus];
  copy_device_to_host(st, status.data(), sizeof st, s);  // read-back 2
  row_saxpy_stats& stats = last_row_saxpy_stats();
  const long long runs = stats.runs;
  stats = row_saxpy_stats{};
  stats.runs = runs + 1;
  for (int b = 0; b < kSymBins; ++b) stats.symbolic[b] = (long long)sym[b];
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
