// tgb-bench: tgb's CUDA mxm and cuSPARSE SpGEMM on the same inputs, timed
// with CUDA events around the whole call (allocation of temporaries and of C
// included), warm-up excluded, median of the repeats.
//
// Pool policy (the same on both sides; set_pool_policy): tgb and the cuSPARSE
// baseline both take every temporary and C with cudaMallocAsync from the
// device's default pool. That pool's release threshold defaults to 0: at every
// synchronization (each repeat ends with one) it unmaps all its free memory,
// so each repeat paid again for mapping everything it allocates.
// cuSPARSE's default SpGEMM asks for 1-14 GB of buffers on the suite, tgb
// mostly for much less, so this tax fell mostly on the baseline: the
// lap2d/blocks6/rmat16/uniform gaps to CuPy (1.5-23 ms) are 1.4-1.7 ms per GB
// of cuSPARSE's peak in the same runs, a constant per-GB cost (inferred from
// those numbers; scripts/gpu-bench.sh measures --pool release against keep
// on the same binary to confirm it). CuPy keeps what it allocated in its
// own memory pool, as any caller that multiplies in a loop does. The default
// here is therefore threshold = UINT64_MAX (keep) for both; --pool release
// restores the old behaviour for both. Between operations the pool is
// trimmed (untimed), so each operation's warm-up fills it from empty.
//
// --spmv (tgb_cuda_mxv, cusparse_spmv): one call per repeat and nothing
// else in the timed region. A product that takes tens of microseconds would
// otherwise be timed mostly by setup that a caller in a loop pays once.
#include <cuda_runtime.h>
#include <cusparse.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include "gpu.hpp"

namespace bench {

namespace {

void ck(cudaError_t e, const char* w) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(w) + ": " + cudaGetErrorString(e));
}

struct events {
  cudaEvent_t a, b;
  events() {
    ck(cudaEventCreate(&a), "event");
    ck(cudaEventCreate(&b), "event");
  }
  ~events() {
    cudaEventDestroy(a);
    cudaEventDestroy(b);
  }
  double ms() {
    ck(cudaEventSynchronize(b), "sync");
    float t = 0;
    ck(cudaEventElapsedTime(&t, a, b), "elapsed");
    return t;
  }
};

cudaMemPool_t default_pool() {
  int dev = 0;
  ck(cudaGetDevice(&dev), "device");
  cudaMemPool_t pool;
  ck(cudaDeviceGetDefaultMemPool(&pool, dev), "default pool");
  return pool;
}

// The default pool's high-water mark: mark() resets it and remembers what is
// in use; peak() is the most in use since, above that.
struct pool_watch {
  cudaMemPool_t pool = default_pool();
  std::uint64_t base = 0;
  void mark() {
    ck(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &base), "pool attr");
    std::uint64_t zero = 0;
    ck(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero), "pool attr");
  }
  std::size_t peak() {
    std::uint64_t high = 0;
    ck(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high), "pool attr");
    return high > base ? std::size_t(high - base) : 0;
  }
};

template <class T>
tgb::Matrix<T> convert(const tgb::Matrix<double>& A) {
  tgb::Matrix<T> out(A.nrows(), A.ncols());
  tgb::apply(out, tgb::no_mask, tgb::no_accum, tgb::identity{}, A);
  return out;
}

// The timing loop of every tgb row: `once(C)` on a fresh nrows x ncols
// device C, a warm-up and then `reps` runs between CUDA events, with the
// resource's high-water mark and cudaMemGetInfo's drop; `last(C)` sees the
// final result.
template <class TC, class Once, class Last>
timing time_tgb(tgb::index_t nrows, tgb::index_t ncols, int reps, Once&& once, Last&& last) {
  timing t;
  events ev;
  pool_watch pw;
  for (int r = -1; r < reps; ++r) {  // r = -1: warm-up
    // A fresh C each run, as a caller writing into a new matrix has (its
    // empty device pattern is made outside the timed region).
    tgb::Matrix<TC> C(nrows, ncols);
    C.to(tgb::backend::cuda);
    ck(cudaDeviceSynchronize(), "sync");
    const std::size_t base = tgb::device_bytes_in_use();
    tgb::reset_device_peak_bytes();
    std::size_t free0 = 0, free1 = 0, total = 0;
    ck(cudaMemGetInfo(&free0, &total), "mem info");
    pw.mark();
    ck(cudaEventRecord(ev.a, nullptr), "record");
    once(C);
    ck(cudaEventRecord(ev.b, nullptr), "record");
    const double ms = ev.ms();
    ck(cudaMemGetInfo(&free1, &total), "mem info");
    t.pool_peak_bytes = std::max(t.pool_peak_bytes, pw.peak());
    if (r >= 0) t.ms.push_back(ms);
    t.peak_bytes = std::max(t.peak_bytes, tgb::device_peak_bytes() - base);
    t.meminfo_bytes = std::max<long long>(t.meminfo_bytes, (long long)free0 - (long long)free1);
    t.nvals = C.nvals();
    if (r == reps - 1) last(C, t);
  }
  t.ran = true;
  return t;
}

// The result on the host as fp64 CSR, for checking.
template <class TC>
void fetch(tgb::Matrix<TC>& C, tgb::csr<double>* result, timing* t = nullptr) {
  if (!result) return;
  if (t) t->c_tile_bytes = stored_bytes(C);  // as the device holds it
  C.to(tgb::backend::host);
  tgb::Matrix<double> Cd(C.nrows(), C.ncols());
  tgb::apply(Cd, tgb::no_mask, tgb::no_accum, tgb::identity{}, C);
  *result = Cd.to_csr();
}

tgb::detail::mxm_policy& gpu_policy() {
  static tgb::detail::mxm_policy p;
  return p;
}

template <class TC, class TA, class SR, class Mask>
timing run_tgb(const tgb::Matrix<TA>& A_host, const SR& sr, const Mask& mask_host, bool masked, bool transpose_b,
               int reps, tgb::csr<double>* result) {
  tgb::Matrix<TA> A = A_host;
  A.to(tgb::backend::cuda);
  // The mask is the operand itself where the caller's is (the triangle
  // product: tgb::triangle_count passes L as mask and both operands).
  constexpr bool same_type = std::is_same_v<Mask, tgb::Matrix<TA>>;
  const bool mask_is_a = same_type && static_cast<const void*>(&mask_host) == static_cast<const void*>(&A_host);
  Mask M = mask_is_a ? Mask(0, 0) : mask_host;
  M.to(tgb::backend::cuda);
  const tgb::descriptor d = tgb::descriptor{}.with_transpose_b(transpose_b);
  return time_tgb<TC>(
      A.nrows(), A.nrows(), reps,
      [&](tgb::Matrix<TC>& C) {
        if (!masked) {
          tgb::detail::mxm_cuda(C, tgb::no_mask, tgb::no_accum, sr, A, A, d, gpu_policy());
        } else if constexpr (same_type) {
          tgb::detail::mxm_cuda(C, tgb::structure(mask_is_a ? A : M), tgb::no_accum, sr, A, A, d, gpu_policy());
        } else {
          tgb::detail::mxm_cuda(C, tgb::structure(M), tgb::no_accum, sr, A, A, d, gpu_policy());
        }
      },
      [&](tgb::Matrix<TC>& C, timing& t) { fetch(C, result, &t); });
}

}  // namespace

std::string set_pool_policy(bool keep) {
  cudaMemPool_t pool = default_pool();
  std::uint64_t threshold = keep ? UINT64_MAX : 0;
  ck(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold), "pool release threshold");
  return keep ? "keep (default pool, release threshold UINT64_MAX, trimmed between operations; same for tgb and cuSPARSE)"
              : "release (default pool, release threshold 0: memory unmapped at every sync; same for tgb and cuSPARSE)";
}

void trim_pool() {
  ck(cudaDeviceSynchronize(), "sync");
  ck(cudaMemPoolTrimTo(default_pool(), 0), "pool trim");
}

bool set_gpu_method(const std::string& name) {
  using tgb::detail::mxm_method;
  if (name == "auto") gpu_policy().method = mxm_method::automatic;
  else if (name == "tile") gpu_policy().method = mxm_method::tile_gustavson;
  else if (name == "rows") gpu_policy().method = mxm_method::row_saxpy;
  else if (name == "dot") gpu_policy().method = mxm_method::row_dot;
  else return false;
  return true;
}

void set_gpu_fused_max(double products) { gpu_policy().fused_bins_max_products = products; }
void set_gpu_warp_pair(double products) { gpu_policy().device_warp_pair_products = products; }
void set_gpu_dense_tile(int entries) { gpu_policy().device_dense_tile_threshold = entries; }
void set_gpu_row_ratio(double ratio) {
  gpu_policy().device_routing.row_path = ratio > 0;
  if (ratio > 0) gpu_policy().device_routing.max_products_per_pair = ratio;
}

bool gpu_available() { return tgb::cuda_device_count() > 0; }
std::string gpu_description() { return tgb::cuda_device_description(); }

double gpu_copy_bandwidth() {
  const std::size_t bytes = std::size_t(1) << 30;
  void *a = nullptr, *b = nullptr;
  ck(cudaMalloc(&a, bytes), "malloc");
  ck(cudaMalloc(&b, bytes), "malloc");
  ck(cudaMemset(a, 1, bytes), "memset");
  events ev;
  std::vector<double> ms;
  for (int r = 0; r < 6; ++r) {
    ck(cudaEventRecord(ev.a, nullptr), "record");
    ck(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice), "copy");
    ck(cudaEventRecord(ev.b, nullptr), "record");
    if (r) ms.push_back(ev.ms());
  }
  cudaFree(a);
  cudaFree(b);
  std::sort(ms.begin(), ms.end());
  return 2.0 * bytes / (ms[ms.size() / 2] * 1e-3) / 1e9;
}

timing tgb_cuda(op o, const tgb::Matrix<double>& A, const tgb::Matrix<bool>& L, int reps, tgb::csr<double>* result) {
  const tgb::Matrix<bool> none(A.nrows(), A.ncols());
  switch (o) {
    case op::plus_times_fp64: return run_tgb<double>(A, tgb::plus_times, none, false, false, reps, result);
    case op::plus_times_fp32: return run_tgb<float>(convert<float>(A), tgb::plus_times, none, false, false, reps, result);
    case op::min_plus_fp64: return run_tgb<double>(A, tgb::min_plus, none, false, false, reps, result);
    case op::lor_land_bool: return run_tgb<bool>(convert<bool>(A), tgb::lor_land, none, false, false, reps, result);
    case op::aat_fp64: return run_tgb<double>(A, tgb::plus_times, none, false, true, reps, result);
    default: return run_tgb<std::int64_t>(L, tgb::plus_pair, L, true, true, reps, result);
  }
}

timing tgb_cuda_msbfs_step(const tgb::Matrix<bool>& F_host, const tgb::Matrix<bool>& V_host,
                           const tgb::Matrix<bool>& P_host, int reps, tgb::csr<double>* result) {
  tgb::Matrix<bool> F = F_host, V = V_host, P = P_host;
  F.to(tgb::backend::cuda);
  V.to(tgb::backend::cuda);
  P.to(tgb::backend::cuda);
  return time_tgb<bool>(
      F.nrows(), F.ncols(), reps,
      [&](tgb::Matrix<bool>& C) {
        tgb::mxm(C, tgb::complement(tgb::structure(V)), tgb::no_accum, tgb::any_pair, F, P,
                 tgb::descriptor{}.with_replace());
      },
      [&](tgb::Matrix<bool>& C, timing& t) { fetch(C, result, &t); });
}

timing tgb_cuda_convert(const tgb::csr<double>& A, tgb::index_t n, const tgb::Matrix<double>& want, int reps,
                        std::string* check) {
  timing t;
  long long *rp = nullptr, *ci = nullptr;
  double* v = nullptr;
  const std::size_t nnz = A.colidx.size();
  ck(cudaMalloc(&rp, (n + 1) * sizeof(long long)), "malloc");
  ck(cudaMalloc(&ci, std::max<std::size_t>(nnz, 1) * sizeof(long long)), "malloc");
  ck(cudaMalloc(&v, std::max<std::size_t>(nnz, 1) * sizeof(double)), "malloc");
  ck(cudaMemcpy(rp, A.rowptr.data(), (n + 1) * sizeof(long long), cudaMemcpyHostToDevice), "copy");
  ck(cudaMemcpy(ci, A.colidx.data(), nnz * sizeof(long long), cudaMemcpyHostToDevice), "copy");
  ck(cudaMemcpy(v, A.values.data(), nnz * sizeof(double), cudaMemcpyHostToDevice), "copy");
  events ev;
  try {
    for (int r = -1; r < reps; ++r) {
      ck(cudaDeviceSynchronize(), "sync");
      const std::size_t base = tgb::device_bytes_in_use();
      tgb::reset_device_peak_bytes();
      ck(cudaEventRecord(ev.a, nullptr), "record");
      tgb::Matrix<double> D = tgb::Matrix<double>::from_device_csr(n, n, rp, ci, v, tgb::offset_t(nnz));
      ck(cudaEventRecord(ev.b, nullptr), "record");
      const double ms = ev.ms();
      if (r >= 0) t.ms.push_back(ms);
      t.peak_bytes = std::max(t.peak_bytes, tgb::device_peak_bytes() - base);
      t.nvals = D.nvals();
      if (r == reps - 1 && check) {
        D.to(tgb::backend::host);
        const auto& g = D.tiles();
        const auto& w = want.tiles();
        auto same = [](const auto& a, const auto& b) {
          return a.size() == b.size() && std::equal(a.data(), a.data() + a.size(), b.data());
        };
        const bool ok = same(g.pat.tile_ptr, w.pat.tile_ptr) && same(g.pat.tile_col, w.pat.tile_col) &&
                        same(g.pat.tile_offset, w.pat.tile_offset) && same(g.pat.row_ptr, w.pat.row_ptr) &&
                        same(g.pat.row_mask, w.pat.row_mask) && same(g.pat.col_idx, w.pat.col_idx) &&
                        same(g.values, w.values);
        *check = ok ? "ok" : "DIFFERS";
      }
    }
  } catch (...) {
    cudaFree(rp);
    cudaFree(ci);
    cudaFree(v);
    throw;
  }
  cudaFree(rp);
  cudaFree(ci);
  cudaFree(v);
  t.ran = true;
  return t;
}

timing tgb_cuda_mxv(const tgb::Matrix<double>& A_host, bool rows_form, bool push, int reps, std::vector<double>* y) {
  timing t;
  try {
    // The form is named, not left to the storage rule: the rule keeps rows
    // for hypersparse matrices, and each column of the table must time the
    // form it is labelled with.
    tgb::Matrix<double> A = A_host;
    A.set_storage(rows_form ? tgb::storage_control::rows : tgb::storage_control::tiles);
    A.to(tgb::backend::cuda);
    const tgb::storage_form want = rows_form ? tgb::storage_form::rows : tgb::storage_form::tiles;
    if (A.form() != want) {
      t.note = std::string("asked for ") + tgb::storage_form_name(want) + ", the device holds " +
               tgb::storage_form_name(A.form());
      return t;
    }
    const tgb::index_t nu = push ? A.nrows() : A.ncols(), nw = push ? A.ncols() : A.nrows();
    std::vector<double> uh(static_cast<std::size_t>(nu));
    for (tgb::index_t i = 0; i < nu; ++i) uh[static_cast<std::size_t>(i)] = spmv_u(i);
    tgb::Vector<double> u = tgb::Vector<double>::from_dense(uh);
    u.to(tgb::backend::cuda);
    const cudaStream_t s = reinterpret_cast<cudaStream_t>(tgb::current_stream());
    events ev;
    pool_watch pw;
    for (int r = -1; r < reps; ++r) {  // r = -1: warm-up
      // A fresh w each run, as time_tgb gives C: mxv allocates its result
      // and replaces w's, so the allocation is inside the call either way.
      tgb::Vector<double> w(nw);
      w.to(tgb::backend::cuda);
      ck(cudaDeviceSynchronize(), "sync");
      const std::size_t base = tgb::device_bytes_in_use();
      tgb::reset_device_peak_bytes();
      std::size_t free0 = 0, free1 = 0, total = 0;
      ck(cudaMemGetInfo(&free0, &total), "mem info");
      pw.mark();
      ck(cudaEventRecord(ev.a, s), "record");
      if (push) tgb::vxm(w, tgb::no_mask, tgb::no_accum, tgb::plus_times, u, A);
      else tgb::mxv(w, tgb::no_mask, tgb::no_accum, tgb::plus_times, A, u);
      ck(cudaEventRecord(ev.b, s), "record");
      const double ms = ev.ms();
      ck(cudaMemGetInfo(&free1, &total), "mem info");
      t.pool_peak_bytes = std::max(t.pool_peak_bytes, pw.peak());
      if (r >= 0) t.ms.push_back(ms);
      t.peak_bytes = std::max(t.peak_bytes, tgb::device_peak_bytes() - base);
      t.meminfo_bytes = std::max<long long>(t.meminfo_bytes, (long long)free0 - (long long)free1);
      t.nvals = w.nvals();
      if (r == reps - 1 && y) {
        w.to(tgb::backend::host);
        y->assign(static_cast<std::size_t>(nw), 0.0);
        const auto [idx, val] = w.extract_tuples();
        for (std::size_t k = 0; k < idx.size(); ++k) (*y)[static_cast<std::size_t>(idx[k])] = val[k];
      }
    }
    t.ran = true;
  } catch (const std::exception& e) {
    t.ran = false;
    t.ms.clear();
    t.note = e.what();
    // A failed launch leaves its error to the next call; the next row starts clean.
    cudaDeviceSynchronize();
    cudaGetLastError();
  }
  return t;
}

big_product past_2_31(int reps) {
  big_product b;
  const tgb::index_t n = 47000, k = 16;
  std::vector<tgb::index_t> r, c;
  for (tgb::index_t i = 0; i < n; ++i)
    for (tgb::index_t j = 0; j < k; ++j) r.push_back(i), c.push_back(j);
  const tgb::Matrix<double> A_host =
      tgb::Matrix<double>::from_coo(n, n, r, c, std::vector<double>(r.size(), 1.0), tgb::no_duplicates);
  b.n = n;
  b.nnz_a = A_host.nvals();
  b.products = n * n * k;
  // cuSPARSE first (its 32-bit indices cannot hold the result).
  try {
    b.cusparse = cusparse(op::aat_fp64, A_host.to_csr(), 1, nullptr);
  } catch (const std::exception& e) {
    b.cusparse.note = e.what();
  }
  ck(cudaDeviceSynchronize(), "sync");
  cudaGetLastError();
  tgb::Matrix<double> A = A_host;
  A.to(tgb::backend::cuda);
  b.tgb = time_tgb<double>(
      n, n, reps,
      [&](tgb::Matrix<double>& C) {
        tgb::mxm(C, tgb::no_mask, tgb::no_accum, tgb::plus_times, A, A, tgb::descriptor{}.with_transpose_b());
      },
      [&](tgb::Matrix<double>& C, timing& t) {  // checked on the device
        const double lo = tgb::reduce(tgb::min_monoid{}, C), hi = tgb::reduce(tgb::max_monoid{}, C);
        const bool ok = C.nvals() == n * n && lo == double(k) && hi == double(k);
        b.check = ok ? "ok" : "DIFFERS";
        if (!ok)
          t.note = "entries " + std::to_string(C.nvals()) + ", min " + std::to_string(lo) + ", max " +
                   std::to_string(hi);
      });
  return b;
}

namespace {
void cs(cusparseStatus_t s, const char* w) {
  if (s != CUSPARSE_STATUS_SUCCESS) throw std::runtime_error(std::string(w) + ": " + cusparseGetErrorString(s));
}
}  // namespace

timing cusparse(op o, const tgb::csr<double>& A, int reps, tgb::csr<double>* result) {
  timing t;
  if (o != op::plus_times_fp64 && o != op::plus_times_fp32 && o != op::aat_fp64) {
    t.note = "cuSPARSE has no such semiring";
    return t;
  }
  const bool f32 = o == op::plus_times_fp32;
  const bool aat = o == op::aat_fp64;
  const cudaDataType vt = f32 ? CUDA_R_32F : CUDA_R_64F;
  const std::size_t vs = f32 ? 4 : 8;
  const long long n = static_cast<long long>(A.rowptr.size()) - 1, nnz = static_cast<long long>(A.colidx.size());
  if (nnz >= (1LL << 31)) {
    t.note = "more than 2^31 entries: cuSPARSE's 32-bit indices cannot hold A";
    return t;
  }
  std::vector<int> rp(A.rowptr.begin(), A.rowptr.end()), ci(A.colidx.begin(), A.colidx.end());
  std::vector<float> vf(A.values.begin(), A.values.end());
  int *d_rp, *d_ci;
  void* d_v;
  ck(cudaMalloc(&d_rp, rp.size() * 4), "malloc");
  ck(cudaMalloc(&d_ci, std::max<std::size_t>(ci.size(), 1) * 4), "malloc");
  ck(cudaMalloc(&d_v, std::max<std::size_t>(nnz, 1) * vs), "malloc");
  ck(cudaMemcpy(d_rp, rp.data(), rp.size() * 4, cudaMemcpyHostToDevice), "copy");
  ck(cudaMemcpy(d_ci, ci.data(), ci.size() * 4, cudaMemcpyHostToDevice), "copy");
  ck(cudaMemcpy(d_v, f32 ? static_cast<const void*>(vf.data()) : A.values.data(), nnz * vs, cudaMemcpyHostToDevice),
     "copy");
  // The fastest correct call, as CuPy makes it (cupyx.cusparse.spgemm):
  // 32-bit indices (half the index traffic of 64-bit; cuSPARSE's SpGEMM is
  // tuned for them), CUSPARSE_SPGEMM_DEFAULT (ALG2/ALG3 trade speed for
  // memory; ALG3 only on insufficient resources, below), one handle made
  // once outside the timed region (CuPy caches its handle per device), the
  // host-side descriptors made outside it too, and every device buffer (the
  // two work buffers and C's arrays) from the same stream-ordered pool as
  // tgb's, under the same policy (set_pool_policy).
  cusparseHandle_t h;
  cs(cusparseCreate(&h), "create");
  cs(cusparseSetStream(h, nullptr), "set stream");
  cusparseSpMatDescr_t a;
  cs(cusparseCreateCsr(&a, n, n, nnz, d_rp, d_ci, d_v, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                       CUSPARSE_INDEX_BASE_ZERO, vt),
     "csr");
  const double alpha = 1, beta = 0;
  const float alphaf = 1, betaf = 0;
  const void* pa = f32 ? static_cast<const void*>(&alphaf) : &alpha;
  const void* pb = f32 ? static_cast<const void*>(&betaf) : &beta;
  const auto opn = CUSPARSE_OPERATION_NON_TRANSPOSE;
  // cusparseSpGEMM takes no transposed operand: A' is formed (csr2csc) inside
  // the timed region, as tgb forms it inside its call.
  cusparseSpGEMMAlg_t alg = CUSPARSE_SPGEMM_DEFAULT;
  events ev;
  pool_watch pw;
  try {
    for (int r = -1; r < reps; ++r) {
      std::vector<void*> bufs;
      auto alloc = [&](std::size_t bytes) {
        void* p = nullptr;
        cudaError_t e = cudaMallocAsync(&p, std::max<std::size_t>(bytes, 1), nullptr);
        if (e == cudaErrorMemoryAllocation) {
          // The kept pool may hold freed blocks that do not fit this request:
          // hand them back and try once more (said in the note; tgb's
          // resource has no such retry, so this only favours cuSPARSE).
          cudaGetLastError();
          ck(cudaStreamSynchronize(nullptr), "sync");
          ck(cudaMemPoolTrimTo(pw.pool, 0), "pool trim");
          if (t.note.find("pool trimmed") == std::string::npos) t.note += (t.note.empty() ? "" : "; ") + std::string("pool trimmed after an out-of-memory");
          e = cudaMallocAsync(&p, std::max<std::size_t>(bytes, 1), nullptr);
        }
        ck(e, "malloc");
        bufs.push_back(p);
        return p;
      };
      cusparseSpMatDescr_t c, bt = nullptr;
      cs(cusparseCreateCsr(&c, n, n, 0, nullptr, nullptr, nullptr, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                           CUSPARSE_INDEX_BASE_ZERO, vt),
         "csr C");
      cusparseSpGEMMDescr_t sd;
      cs(cusparseSpGEMM_createDescr(&sd), "descr");
      std::size_t b1 = 0, b2 = 0, b3 = 0, bt_bytes = 0, live = 0, peak = 0;
      ck(cudaDeviceSynchronize(), "sync");
      std::size_t free0 = 0, total = 0;
      ck(cudaMemGetInfo(&free0, &total), "mem info");
      pw.mark();
      ck(cudaEventRecord(ev.a, nullptr), "record");
      cusparseSpMatDescr_t b = a;
      if (aat) {
        int* t_rp = static_cast<int*>(alloc((n + 1) * 4));
        int* t_ci = static_cast<int*>(alloc(nnz * 4));
        void* t_v = alloc(nnz * vs);
        std::size_t tb = 0;
        cs(cusparseCsr2cscEx2_bufferSize(h, n, n, nnz, d_v, d_rp, d_ci, t_v, t_rp, t_ci, vt, CUSPARSE_ACTION_NUMERIC,
                                         CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, &tb),
           "csr2csc size");
        void* tbuf = alloc(tb);
        cs(cusparseCsr2cscEx2(h, n, n, nnz, d_v, d_rp, d_ci, t_v, t_rp, t_ci, vt, CUSPARSE_ACTION_NUMERIC,
                              CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, tbuf),
           "csr2csc");
        bt_bytes = (n + 1) * 4 + nnz * (4 + vs);
        live = bt_bytes + tb;
        peak = live;
        cs(cusparseCreateCsr(&bt, n, n, nnz, t_rp, t_ci, t_v, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                             CUSPARSE_INDEX_BASE_ZERO, vt),
           "csr A'");
        b = bt;
      }
      // CUSPARSE_STATUS_INSUFFICIENT_RESOURCES from the default algorithm (in
      // any phase): start again, untimed so far, with the memory-bounded one.
      auto retry_alg3 = [&](cusparseStatus_t st, const char* phase) {
        if (st != CUSPARSE_STATUS_INSUFFICIENT_RESOURCES || alg == CUSPARSE_SPGEMM_ALG3) return false;
        ck(cudaDeviceSynchronize(), "sync");
        for (void* p : bufs) cudaFreeAsync(p, nullptr);
        cusparseSpGEMM_destroyDescr(sd);
        cusparseDestroySpMat(c);
        if (bt) cusparseDestroySpMat(bt);
        alg = CUSPARSE_SPGEMM_ALG3;
        t.note = std::string("default algorithm: CUSPARSE_STATUS_INSUFFICIENT_RESOURCES in ") + phase +
                 "; timed with CUSPARSE_SPGEMM_ALG3";
        return true;
      };
      cusparseStatus_t st0 = cusparseSpGEMM_workEstimation(h, opn, opn, pa, a, b, pb, c, vt, alg, sd, &b1, nullptr);
      if (retry_alg3(st0, "workEstimation")) {
        --r;
        continue;
      }
      cs(st0, "workEstimation size");
      void* buf1 = alloc(b1);
      st0 = cusparseSpGEMM_workEstimation(h, opn, opn, pa, a, b, pb, c, vt, alg, sd, &b1, buf1);
      if (retry_alg3(st0, "workEstimation")) {
        --r;
        continue;
      }
      cs(st0, "workEstimation");
      void* buf2 = nullptr;
      if (alg == CUSPARSE_SPGEMM_ALG3) {
        // The memory-bounded algorithm: size its buffers by estimateMemory.
        cs(cusparseSpGEMM_estimateMemory(h, opn, opn, pa, a, b, pb, c, vt, alg, sd, 0.2f, &b3, nullptr, nullptr),
           "estimateMemory");
        void* buf3 = alloc(b3);
        cs(cusparseSpGEMM_estimateMemory(h, opn, opn, pa, a, b, pb, c, vt, alg, sd, 0.2f, &b3, buf3, &b2),
           "estimateMemory");
        peak = std::max(peak, bt_bytes + b1 + b3);
        buf2 = alloc(b2);
        cs(cusparseSpGEMM_compute(h, opn, opn, pa, a, b, pb, c, vt, alg, sd, &b2, buf2), "compute");
      } else {
        cusparseStatus_t st = cusparseSpGEMM_compute(h, opn, opn, pa, a, b, pb, c, vt, alg, sd, &b2, nullptr);
        if (retry_alg3(st, "compute")) {
          --r;
          continue;
        }
        cs(st, "compute size");
        buf2 = alloc(b2);
        cs(cusparseSpGEMM_compute(h, opn, opn, pa, a, b, pb, c, vt, alg, sd, &b2, buf2), "compute");
      }
      int64_t cr, cc, cn;
      cs(cusparseSpMatGetSize(c, &cr, &cc, &cn), "size");
      void* c_rp = alloc((n + 1) * 4);
      void* c_ci = alloc(std::max<int64_t>(cn, 1) * 4);
      void* c_v = alloc(std::max<int64_t>(cn, 1) * vs);
      cs(cusparseCsrSetPointers(c, c_rp, c_ci, c_v), "set pointers");
      cs(cusparseSpGEMM_copy(h, opn, opn, pa, a, b, pb, c, vt, alg, sd), "copy");
      ck(cudaEventRecord(ev.b, nullptr), "record");
      const double ms = ev.ms();
      std::size_t free1 = 0;
      ck(cudaMemGetInfo(&free1, &total), "mem info");
      t.pool_peak_bytes = std::max(t.pool_peak_bytes, pw.peak());
      if (r >= 0) t.ms.push_back(ms);
      peak = std::max(peak, live + b1 + b2 + std::size_t(n + 1) * 4 + std::size_t(cn) * (4 + vs));
      t.peak_bytes = std::max(t.peak_bytes, peak);
      t.meminfo_bytes = std::max<long long>(t.meminfo_bytes, (long long)free0 - (long long)free1);
      t.nvals = cn;
      if (r == reps - 1 && result) {
        std::vector<int> orp(n + 1), oci(cn);
        std::vector<double> ov(cn);
        std::vector<float> ovf(f32 ? cn : 0);
        ck(cudaMemcpy(orp.data(), c_rp, (n + 1) * 4, cudaMemcpyDeviceToHost), "copy back");
        ck(cudaMemcpy(oci.data(), c_ci, cn * 4, cudaMemcpyDeviceToHost), "copy back");
        if (f32) {
          ck(cudaMemcpy(ovf.data(), c_v, cn * 4, cudaMemcpyDeviceToHost), "copy back");
          std::copy(ovf.begin(), ovf.end(), ov.begin());
        } else {
          ck(cudaMemcpy(ov.data(), c_v, cn * 8, cudaMemcpyDeviceToHost), "copy back");
        }
        result->rowptr.assign(orp.begin(), orp.end());
        result->colidx.assign(oci.begin(), oci.end());
        result->values = ov;
      }
      for (void* p : bufs) cudaFreeAsync(p, nullptr);
      cusparseSpGEMM_destroyDescr(sd);
      cusparseDestroySpMat(c);
      if (bt) cusparseDestroySpMat(bt);
    }
    t.ran = !t.ms.empty();
  } catch (const std::exception& e) {
    t.note = e.what();
  }
  cusparseDestroySpMat(a);
  cusparseDestroy(h);
  cudaFree(d_rp);
  cudaFree(d_ci);
  cudaFree(d_v);
  return t;
}

timing cusparse_spmv(const tgb::csr<double>& A, int reps, std::vector<double>* y, bool alg2) {
  timing t;
  const long long nrows = static_cast<long long>(A.rowptr.size()) - 1, nnz = static_cast<long long>(A.colidx.size());
  long long ncols = nrows;
  for (tgb::index_t c : A.colidx) ncols = std::max<long long>(ncols, (long long)c + 1);
  if (nnz >= (1LL << 31) || nrows >= (1LL << 31) || ncols >= (1LL << 31)) {
    t.note = "past 2^31: cuSPARSE's 32-bit indices cannot hold A";
    return t;
  }
  int *d_rp = nullptr, *d_ci = nullptr;
  double *d_v = nullptr, *d_x = nullptr, *d_y = nullptr;
  void* buf = nullptr;
  cusparseHandle_t h = nullptr;
  cusparseSpMatDescr_t a = nullptr;
  cusparseDnVecDescr_t x = nullptr, yv = nullptr;
  try {
    std::vector<int> rp(A.rowptr.begin(), A.rowptr.end()), ci(A.colidx.begin(), A.colidx.end());
    std::vector<double> xh(static_cast<std::size_t>(ncols));
    for (long long j = 0; j < ncols; ++j) xh[static_cast<std::size_t>(j)] = spmv_u(j);
    ck(cudaMalloc(&d_rp, rp.size() * 4), "malloc");
    ck(cudaMalloc(&d_ci, std::max<std::size_t>(ci.size(), 1) * 4), "malloc");
    ck(cudaMalloc(&d_v, std::max<long long>(nnz, 1) * 8), "malloc");
    ck(cudaMalloc(&d_x, std::max<long long>(ncols, 1) * 8), "malloc");
    ck(cudaMalloc(&d_y, std::max<long long>(nrows, 1) * 8), "malloc");
    ck(cudaMemcpy(d_rp, rp.data(), rp.size() * 4, cudaMemcpyHostToDevice), "copy");
    ck(cudaMemcpy(d_ci, ci.data(), ci.size() * 4, cudaMemcpyHostToDevice), "copy");
    ck(cudaMemcpy(d_v, A.values.data(), nnz * 8, cudaMemcpyHostToDevice), "copy");
    ck(cudaMemcpy(d_x, xh.data(), ncols * 8, cudaMemcpyHostToDevice), "copy");
    // The call a library caller makes in a loop (an iterative solver, CuPy's
    // csr_matrix @ vector): one handle, the descriptors, the work buffer and
    // the analysis made once, outside the timed region, on tgb's stream so
    // that both sides' events see the same queue.
    const cudaStream_t s = reinterpret_cast<cudaStream_t>(tgb::current_stream());
    cs(cusparseCreate(&h), "create");
    cs(cusparseSetStream(h, s), "set stream");
    cs(cusparseCreateCsr(&a, nrows, ncols, nnz, d_rp, d_ci, d_v, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                         CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F),
       "csr");
    cs(cusparseCreateDnVec(&x, ncols, d_x, CUDA_R_64F), "dense x");
    cs(cusparseCreateDnVec(&yv, nrows, d_y, CUDA_R_64F), "dense y");
    const double alpha = 1, beta = 0;
    const auto opn = CUSPARSE_OPERATION_NON_TRANSPOSE;
    const cusparseSpMVAlg_t alg = alg2 ? CUSPARSE_SPMV_CSR_ALG2 : CUSPARSE_SPMV_ALG_DEFAULT;
    std::size_t bytes = 0;
    cs(cusparseSpMV_bufferSize(h, opn, &alpha, a, x, &beta, yv, CUDA_R_64F, alg, &bytes), "buffer size");
    ck(cudaMalloc(&buf, std::max<std::size_t>(bytes, 1)), "malloc");
#if CUSPARSE_VERSION >= 12300
    // CUDA 12.4+ (cuSPARSE 12.3): the per-matrix analysis, paid once as a
    // repeated caller pays it.
    cs(cusparseSpMV_preprocess(h, opn, &alpha, a, x, &beta, yv, CUDA_R_64F, alg, buf), "preprocess");
#else
    t.note = "no cusparseSpMV_preprocess before CUDA 12.4";
#endif
    events ev;
    pool_watch pw;
    for (int r = -1; r < reps; ++r) {  // r = -1: warm-up
      ck(cudaDeviceSynchronize(), "sync");
      std::size_t free0 = 0, free1 = 0, total = 0;
      ck(cudaMemGetInfo(&free0, &total), "mem info");
      pw.mark();
      ck(cudaEventRecord(ev.a, s), "record");
      cs(cusparseSpMV(h, opn, &alpha, a, x, &beta, yv, CUDA_R_64F, alg, buf), "SpMV");
      ck(cudaEventRecord(ev.b, s), "record");
      const double ms = ev.ms();
      ck(cudaMemGetInfo(&free1, &total), "mem info");
      t.pool_peak_bytes = std::max(t.pool_peak_bytes, pw.peak());
      if (r >= 0) t.ms.push_back(ms);
      t.meminfo_bytes = std::max<long long>(t.meminfo_bytes, (long long)free0 - (long long)free1);
    }
    // Nothing is allocated inside the call: what it needs beyond A and u is
    // its work buffer and y, both made before it (tgb allocates its w inside).
    t.peak_bytes = bytes + std::size_t(nrows) * 8;
    t.nvals = nrows;
    if (y) {
      y->assign(static_cast<std::size_t>(nrows), 0.0);
      ck(cudaMemcpy(y->data(), d_y, nrows * 8, cudaMemcpyDeviceToHost), "copy back");
    }
    t.ran = true;
  } catch (const std::exception& e) {
    t.ran = false;
    t.ms.clear();
    t.note = e.what();
    cudaDeviceSynchronize();
    cudaGetLastError();
  }
  if (x) cusparseDestroyDnVec(x);
  if (yv) cusparseDestroyDnVec(yv);
  if (a) cusparseDestroySpMat(a);
  if (h) cusparseDestroy(h);
  cudaFree(buf);
  cudaFree(d_rp);
  cudaFree(d_ci);
  cudaFree(d_v);
  cudaFree(d_x);
  cudaFree(d_y);
  return t;
}

stopwatch::stopwatch(bool gpu) {
  if (!gpu || !gpu_available()) return;
  cudaEvent_t a, b;
  ck(cudaEventCreate(&a), "event");
  ck(cudaEventCreate(&b), "event");
  a_ = a;
  b_ = b;
}
stopwatch::~stopwatch() {
  if (a_) cudaEventDestroy(static_cast<cudaEvent_t>(a_));
  if (b_) cudaEventDestroy(static_cast<cudaEvent_t>(b_));
}
void stopwatch::start() {
  if (a_) ck(cudaEventRecord(static_cast<cudaEvent_t>(a_), reinterpret_cast<cudaStream_t>(tgb::current_stream())),
             "record");
  t0_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
double stopwatch::stop_ms() {
  if (!a_)
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count() - t0_;
  ck(cudaEventRecord(static_cast<cudaEvent_t>(b_), reinterpret_cast<cudaStream_t>(tgb::current_stream())), "record");
  ck(cudaEventSynchronize(static_cast<cudaEvent_t>(b_)), "sync");
  float t = 0;
  ck(cudaEventElapsedTime(&t, static_cast<cudaEvent_t>(a_), static_cast<cudaEvent_t>(b_)), "elapsed");
  return t;
}

}  // namespace bench
