// dev-only: w = A u (plus_times fp64, u dense) on A in rows, kernel alone,
// CUDA events, median of R launches: the library's row pull
// (launch_vector_product), candidate kernels, cuSPARSE SpMV (default, ALG2).
// Every result checked against cuSPARSE's default.
#include <cusparse.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "suite.hpp"
#include "tgb/detail/cuda/vector.cuh"
#include "tgb/tgb.hpp"

using tgb::index_t;
using tgb::offset_t;
namespace tc = tgb::detail::cuda;
template <class T> using dbuf = tgb::detail::device_buffer<T>;

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::printf("CUDA %s: %s\n", #x, cudaGetErrorString(e_)); std::exit(1); } } while (0)
#define CS(x) do { cusparseStatus_t e_ = (x); if (e_ != CUSPARSE_STATUS_SUCCESS) { std::printf("cuSPARSE %s: %d\n", #x, int(e_)); std::exit(1); } } while (0)

// ---- candidate 1: lane groups of G, U loads a lane in flight ------------------
template <int G, int U, bool MatrixFirst, class T, class Semiring>
__global__ void __launch_bounds__(256) k_groups_unrolled(index_t nrows, const offset_t* __restrict__ rp,
                                                        const std::int32_t* __restrict__ col,
                                                        const T* __restrict__ av, const T* __restrict__ u,
                                                        const std::uint8_t* __restrict__ up, Semiring s,
                                                        T* __restrict__ t, std::uint8_t* __restrict__ tp) {
  const offset_t g = (blockIdx.x * offset_t(blockDim.x) + threadIdx.x) / G;
  const int lane = int(threadIdx.x % G);
  const index_t i = index_t(g);
  T acc{};
  bool has = false;
  if (i < nrows) {
    const offset_t b = rp[i], e = rp[i + 1];
    for (offset_t p = b + lane; p < e; p += offset_t(G) * U) {
      std::int32_t c[U];
      T a[U], x[U];
      bool h[U];
#pragma unroll
      for (int k = 0; k < U; ++k) {
        const offset_t q = p + offset_t(k) * G;
        c[k] = q < e ? col[q] : -1;
        a[k] = q < e && av ? av[q] : T{};
      }
#pragma unroll
      for (int k = 0; k < U; ++k) {
        h[k] = c[k] >= 0 && (!up || up[c[k]]);
        x[k] = h[k] ? u[c[k]] : T{};
      }
#pragma unroll
      for (int k = 0; k < U; ++k) tc::fold_pair(acc, has, tc::vmul<MatrixFirst>(s, a[k], x[k]), h[k], s.add);
    }
  }
  tc::warp_fold_pair(acc, has, s.add, G);
  if (lane == 0 && i < nrows) {
    tp[i] = has;
    t[i] = has ? acc : T{};
  }
}

// ---- candidate 1b: the same with rows past long_len listed for a block each --
template <int U, bool MatrixFirst, class T, class Semiring>
__global__ void __launch_bounds__(256) k_groups_defer(index_t nrows, const offset_t* __restrict__ rp,
                                                     const std::int32_t* __restrict__ col, const T* __restrict__ av,
                                                     const T* __restrict__ u, const std::uint8_t* __restrict__ up,
                                                     Semiring s, int G, offset_t long_len, T* __restrict__ t,
                                                     std::uint8_t* __restrict__ tp, index_t* longs,
                                                     unsigned long long* nlong) {
  const offset_t g = (blockIdx.x * offset_t(blockDim.x) + threadIdx.x) / G;
  const int lane = int(threadIdx.x % G);
  const index_t i = index_t(g);
  T acc{};
  bool has = false, deferred = false;
  if (i < nrows) {
    const offset_t b = rp[i], e = rp[i + 1];
    if (longs && e - b > long_len) {
      if (lane == 0) longs[atomicAdd(nlong, 1ull)] = i;
      deferred = true;
    } else {
      for (offset_t p = b + lane; p < e; p += offset_t(G) * U) {
        std::int32_t c[U];
        T a[U], x[U];
        bool h[U];
#pragma unroll
        for (int k = 0; k < U; ++k) {
          const offset_t q = p + offset_t(k) * G;
          c[k] = q < e ? col[q] : -1;
          a[k] = q < e && av ? av[q] : T{};
        }
#pragma unroll
        for (int k = 0; k < U; ++k) {
          h[k] = c[k] >= 0 && (!up || up[c[k]]);
          x[k] = h[k] ? u[c[k]] : T{};
        }
#pragma unroll
        for (int k = 0; k < U; ++k) tc::fold_pair(acc, has, tc::vmul<MatrixFirst>(s, a[k], x[k]), h[k], s.add);
      }
    }
  }
  tc::warp_fold_pair(acc, has, s.add, G);
  if (lane == 0 && i < nrows && !deferred) {
    tp[i] = has;
    t[i] = has ? acc : T{};
  }
}

int rule_G(index_t n, offset_t nnz) {
  const double mean = n ? double(nnz) / double(n) : 0.0;
  int G = mean <= 4 ? 1 : mean <= 8 ? 2 : 4;
  while (G < 32 && offset_t(n) * G < (offset_t(1) << 17)) G *= 2;
  return G;
}

// ---- tiles: the library's pull with its row's entries U at a time ------------
template <int U, bool Two, bool MatrixFirst, class T, class Semiring>
__global__ void k_pull_tiles_u(tc::pattern_ref A, const T* __restrict__ av, const T* __restrict__ u,
                               Semiring s, T* __restrict__ t, std::uint8_t* __restrict__ tp) {
  const index_t I = (blockIdx.x * index_t(blockDim.x) + threadIdx.x) / 32;
  if (I >= A.tile_rows) return;
  const int lane = threadIdx.x & 31, r = lane & 15, half = lane >> 4;
  const index_t i = I * tgb::tile_dim + r;
  T acc{};
  bool has = false;
  auto span = [&](const tc::tile_row_span& sp, int q) {
    std::uint8_t c[U];
    T a[U], x[U];
    bool h[U];
#pragma unroll
    for (int k = 0; k < U; ++k) {
      h[k] = q + k < sp.q1;
      c[k] = h[k] ? A.col_idx[sp.e0 + q + k] : 0;
      a[k] = h[k] && av ? av[sp.e0 + q + k] : T{};
    }
#pragma unroll
    for (int k = 0; k < U; ++k) x[k] = h[k] ? u[sp.col0 + c[k]] : T{};
#pragma unroll
    for (int k = 0; k < U; ++k) tc::fold_pair(acc, has, tc::vmul<MatrixFirst>(s, a[k], x[k]), h[k], s.add);
  };
  if (i < A.nrows) {
    const offset_t te = A.tile_ptr[I + 1];
    if constexpr (!Two) {
      for (offset_t tt = A.tile_ptr[I] + half; tt < te; tt += 2) {
        const tc::tile_row_span sp = tc::row_in_tile(A, tt, r);
        for (int q = sp.q0; q < sp.q1; q += U) span(sp, q);
      }
    } else {
      for (offset_t tt = A.tile_ptr[I] + half; tt < te; tt += 4) {
        const tc::tile_row_span s0 = tc::row_in_tile(A, tt, r);
        const bool two = tt + 2 < te;
        const tc::tile_row_span s1 = two ? tc::row_in_tile(A, tt + 2, r) : tc::tile_row_span{0, 0, 0, 0};
        for (int q = s0.q0; q < s0.q1; q += U) span(s0, q);
        for (int q = s1.q0; q < s1.q1; q += U) span(s1, q);
      }
    }
  }
  const T other = tc::shfl_down_value(acc, 16);
  const bool other_has = __shfl_down_sync(tc::kFullWarp, int(has), 16) != 0;
  if (half == 0 && i < A.nrows) {
    tc::fold_pair(acc, has, other, other_has, s.add);
    tp[i] = has;
    t[i] = has ? acc : T{};
  }
}

// ---- candidate 2: a warp per 32 rows, their entries staged in shared memory --
// (coalesced loads, K a lane in flight), then each lane folds its row in
// order; a warp whose rows hold more than 32 K entries folds them a row at a
// time across its lanes.
template <int K, bool MatrixFirst, class T, class Semiring>
__global__ void __launch_bounds__(256) k_warp_stream(index_t nrows, const offset_t* __restrict__ rp,
                                                    const std::int32_t* __restrict__ col, const T* __restrict__ av,
                                                    const T* __restrict__ u, const std::uint8_t* __restrict__ up,
                                                    Semiring s, T* __restrict__ t, std::uint8_t* __restrict__ tp) {
  __shared__ T prod[8][32 * K];
  __shared__ std::uint8_t ph[8][32 * K];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const index_t r0 = (index_t(blockIdx.x) * 8 + warp) * 32;
  if (r0 >= nrows) return;
  const index_t r1 = r0 + 32 < nrows ? r0 + 32 : nrows;
  const index_t i = r0 + lane;
  const offset_t b = rp[r0], e = rp[r1];
  const offset_t rb = i < r1 ? rp[i] : e, re = i < r1 ? rp[i + 1] : e;
  T acc{};
  bool has = false;
  if (e - b <= offset_t(32) * K) {
    std::int32_t c[K];
    T a[K], x[K];
    bool h[K];
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const offset_t q = b + lane + offset_t(k) * 32;
      c[k] = q < e ? col[q] : -1;
      a[k] = q < e && av ? av[q] : T{};
    }
#pragma unroll
    for (int k = 0; k < K; ++k) {
      h[k] = c[k] >= 0 && (!up || up[c[k]]);
      x[k] = h[k] ? u[c[k]] : T{};
    }
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const int q = lane + k * 32;
      if (b + q < e) {
        prod[warp][q] = tc::vmul<MatrixFirst>(s, a[k], x[k]);
        ph[warp][q] = h[k];
      }
    }
    __syncwarp();
    for (offset_t q = rb; q < re; ++q) tc::fold_pair(acc, has, prod[warp][q - b], ph[warp][q - b] != 0, s.add);
  } else {
    for (index_t r = r0; r < r1; ++r) {
      T a2{};
      bool h2 = false;
      for (offset_t q = rp[r] + lane, qe = rp[r + 1]; q < qe; q += 32) {
        const std::int32_t c = col[q];
        const bool hh = !up || up[c];
        tc::fold_pair(a2, h2, tc::vmul<MatrixFirst>(s, av ? av[q] : T{}, hh ? u[c] : T{}), hh, s.add);
      }
      tc::warp_fold_pair(a2, h2, s.add);
      a2 = __shfl_sync(tc::kFullWarp, a2, 0);
      h2 = __shfl_sync(tc::kFullWarp, int(h2), 0) != 0;
      if (lane == int(r - r0)) acc = a2, has = h2;
    }
  }
  if (i < r1) {
    tp[i] = has;
    t[i] = has ? acc : T{};
  }
}

struct result {
  std::string name;
  double ms = NAN;
  long bad = -1;
};

int main(int argc, char** argv) {
  const int reps = 30;
  std::vector<std::pair<std::string, std::function<tgb::Matrix<double>()>>> mats = {
      {"lap2d_1024", [] { return bench::laplacian_2d(1024).build(); }},
      {"stencil27_64", [] { return bench::stencil_27(64).build(); }},
      {"blocks6_120k", [] { return bench::banded_blocks(120000, 6, 9).build(); }},
      {"rmat16_ef8", [] { return bench::rmat(16, 8).build(); }},
      {"uniform_2^20x8", [] { return bench::uniform_random(index_t(1) << 20, 8).build(); }}};
  for (int a = 1; a < argc; ++a) {
    std::string f = argv[a];
    mats.push_back({f.substr(f.rfind('/') + 1), [f] { return tgb::io::read_graph<double>(f, tgb::io::duplicates::keep_first); }});
  }
  cusparseHandle_t h;
  CS(cusparseCreate(&h));
  const tgb::stream_t st = tgb::current_stream();
  const cudaStream_t cs = reinterpret_cast<cudaStream_t>(st);
  CS(cusparseSetStream(h, cs));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  std::printf("%-22s %9s %10s  %s\n", "matrix", "nrows", "nnz", "kernel ms (bad entries vs cuSPARSE default)");
  for (auto& [name, make] : mats) {
    tgb::Matrix<double> M = make();
    tgb::csr<double> c = M.to_csr();
    const index_t n = M.nrows(), m = M.ncols();
    const offset_t nnz = offset_t(c.colidx.size());
    std::vector<offset_t> rp64(c.rowptr.begin(), c.rowptr.end());
    std::vector<int> rp32(c.rowptr.begin(), c.rowptr.end());
    std::vector<std::int32_t> col(c.colidx.begin(), c.colidx.end());
    std::vector<double> uh(static_cast<std::size_t>(m));
    for (index_t j = 0; j < m; ++j) uh[j] = 1.0 + double(j % 7) * 0.25;
    auto rp = dbuf<offset_t>::from_host(rp64.data(), rp64.size(), st);
    auto rpi = dbuf<int>::from_host(rp32.data(), rp32.size(), st);
    auto cl = dbuf<std::int32_t>::from_host(col.data(), col.size(), st);
    auto av = dbuf<double>::from_host(c.values.data(), c.values.size(), st);
    tgb::detail::device_vector<double> u;
    u.n = m;
    u.nvals = m;
    u.values = dbuf<double>::from_host(uh.data(), uh.size(), st);
    u.present = dbuf<std::uint8_t>(static_cast<std::size_t>(m), st);
    CK(cudaMemsetAsync(u.present.data(), 1, m, cs));
    tgb::detail::device_vector<double> t;
    t.n = n;
    t.values = dbuf<double>(static_cast<std::size_t>(n), st);
    t.present = dbuf<std::uint8_t>(static_cast<std::size_t>(n), st);
    dbuf<double> y(static_cast<std::size_t>(n), st);
    // cuSPARSE
    cusparseSpMatDescr_t A;
    cusparseDnVecDescr_t X, Y;
    CS(cusparseCreateCsr(&A, n, m, nnz, rpi.data(), cl.data(), av.data(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                         CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    CS(cusparseCreateDnVec(&X, m, u.values.data(), CUDA_R_64F));
    CS(cusparseCreateDnVec(&Y, n, y.data(), CUDA_R_64F));
    const double one = 1, zero = 0;
    std::vector<double> ref;
    auto time_it = [&](const std::function<void()>& f) {
      std::vector<float> ms;
      for (int r = -2; r < reps; ++r) {
        CK(cudaEventRecord(e0, cs));
        f();
        CK(cudaEventRecord(e1, cs));
        CK(cudaEventSynchronize(e1));
        float x;
        CK(cudaEventElapsedTime(&x, e0, e1));
        if (r >= 0) ms.push_back(x);
      }
      std::sort(ms.begin(), ms.end());
      return double(ms[ms.size() / 2]);
    };
    std::vector<result> out;
    for (cusparseSpMVAlg_t alg : {CUSPARSE_SPMV_ALG_DEFAULT, CUSPARSE_SPMV_CSR_ALG2}) {
      std::size_t bytes = 0;
      CS(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y, CUDA_R_64F, alg, &bytes));
      void* buf = nullptr;
      CK(cudaMalloc(&buf, bytes + 1));
      CS(cusparseSpMV_preprocess(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y, CUDA_R_64F, alg, buf));
      result r;
      r.name = alg == CUSPARSE_SPMV_ALG_DEFAULT ? "cusparse" : "cs_alg2";
      r.ms = time_it([&] {
        CS(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, A, X, &zero, Y, CUDA_R_64F, alg, buf));
      });
      CK(cudaStreamSynchronize(cs));
      auto yh = y.to_host();
      if (ref.empty()) ref.assign(yh.data(), yh.data() + n);
      r.bad = 0;
      for (index_t i = 0; i < n; ++i) r.bad += std::fabs(yh[i] - ref[i]) > 1e-9 * (1 + std::fabs(ref[i]));
      out.push_back(r);
      cudaFree(buf);
    }
    // Tolerance per row: 1e-12 of sum |a u|.
    std::vector<double> tol(static_cast<std::size_t>(n), 0.0);
    for (index_t i = 0; i < n; ++i)
      for (offset_t p = rp64[i]; p < rp64[i + 1]; ++p) tol[i] += std::fabs(c.values[p] * uh[col[p]]);
    auto check = [&](result& r) {
      CK(cudaStreamSynchronize(cs));
      auto tv = t.values.to_host();
      auto tp = t.present.to_host();
      r.bad = 0;
      for (index_t i = 0; i < n; ++i) {
        const bool want = rp64[i + 1] > rp64[i];
        if (bool(tp[i]) != want || (want && std::fabs(tv[i] - ref[i]) > 1e-12 * tol[i] + 1e-300)) ++r.bad;
      }
    };
    tc::vector_operand<double> op;
    op.row_ptr = rp.data();
    op.col = cl.data();
    op.nrows = n;
    op.ncols = m;
    op.nnz = nnz;
    op.values = av.data();
    const tgb::semiring<tgb::plus_monoid, tgb::times> s{};
    std::atomic<offset_t> cache{-1};
    op.longest = &cache;
    {
      result r{"tgb"};
      r.ms = time_it([&] { tc::launch_vector_product<true>(op, false, u, nullptr, nullptr, s, t, st); });
      check(r);
      out.push_back(r);
    }
    {
      // The whole call, as tgb-bench --spmv times it: A in rows on the device.
      tgb::Matrix<double> Ar = M;
      Ar.set_storage(tgb::storage_control::rows);
      Ar.to(tgb::backend::cuda);
      tgb::Vector<double> uu = tgb::Vector<double>::from_dense(std::vector<double>(uh.begin(), uh.end()));
      uu.to(tgb::backend::cuda);
      for (int form = 0; form < 2; ++form) {
        tgb::Matrix<double> At = M;
        At.set_storage(tgb::storage_control::tiles);
        At.to(tgb::backend::cuda);
        const tgb::Matrix<double>& AA = form ? At : Ar;
        std::vector<float> ms;
        std::vector<double> host_us;
        for (int rr = -2; rr < reps; ++rr) {
          tgb::Vector<double> w(n);
          w.to(tgb::backend::cuda);
          CK(cudaDeviceSynchronize());
          CK(cudaEventRecord(e0, cs));
          const auto h0 = std::chrono::steady_clock::now();
          tgb::mxv(w, tgb::no_mask, tgb::no_accum, tgb::plus_times, AA, uu);
          const auto h1 = std::chrono::steady_clock::now();
          CK(cudaEventRecord(e1, cs));
          if (rr >= 0) host_us.push_back(std::chrono::duration<double, std::micro>(h1 - h0).count());
          CK(cudaEventSynchronize(e1));
          float x;
          CK(cudaEventElapsedTime(&x, e0, e1));
          if (rr >= 0) ms.push_back(x);
        }
        std::sort(ms.begin(), ms.end());
        std::sort(host_us.begin(), host_us.end());
        result r{std::string(form ? "call_tiles" : "call_rows") + "(host " + std::to_string(int(host_us[host_us.size() / 2])) + "us)"};
        r.ms = ms[ms.size() / 2];
        r.bad = 0;
        out.push_back(r);
      }
    }
    const unsigned nb8 = unsigned((n + 255) / 256);
#define GROUPS(G, U)                                                                                          \
  {                                                                                                           \
    result r{"g" #G "u" #U};                                                                                  \
    const unsigned blocks = unsigned((offset_t(n) * G + 255) / 256);                                          \
    r.ms = time_it([&] {                                                                                      \
      k_groups_unrolled<G, U, true><<<blocks, 256, 0, cs>>>(n, rp.data(), cl.data(), av.data(), u.values.data(), \
                                                            nullptr, s, t.values.data(), t.present.data());   \
    });                                                                                                       \
    check(r);                                                                                                 \
    out.push_back(r);                                                                                         \
  }
    GROUPS(1, 4) GROUPS(2, 4) GROUPS(4, 4) GROUPS(8, 4) GROUPS(16, 4) GROUPS(32, 4) GROUPS(16, 2) GROUPS(32, 2)
    const int G = rule_G(n, nnz);
    {
      result r{"rule" + std::to_string(G)};
      const unsigned blocks = unsigned((offset_t(n) * G + 255) / 256);
      r.ms = time_it([&] {
        k_groups_defer<4, true><<<blocks, 256, 0, cs>>>(n, rp.data(), cl.data(), av.data(), u.values.data(), nullptr, s,
                                                        G, 0, t.values.data(), t.present.data(), nullptr, nullptr);
      });
      check(r);
      out.push_back(r);
    }
    for (offset_t L : {offset_t(256), offset_t(1024), offset_t(4096)}) {
      result r{"defer" + std::to_string(L)};
      const unsigned blocks = unsigned((offset_t(n) * G + 255) / 256);
      const offset_t most = nnz / L + 1;
      dbuf<index_t> longs(static_cast<std::size_t>(most), st);
      dbuf<unsigned long long> nlong(1, st);
      r.ms = time_it([&] {
        CK(cudaMemsetAsync(nlong.data(), 0, sizeof(unsigned long long), cs));
        k_groups_defer<4, true><<<blocks, 256, 0, cs>>>(n, rp.data(), cl.data(), av.data(), u.values.data(), nullptr, s,
                                                        G, L, t.values.data(), t.present.data(), longs.data(),
                                                        nlong.data());
        tc::k_pull_long_rows<true><<<unsigned(std::min<offset_t>(most, 1024)), 256, 0, cs>>>(
            rp.data(), cl.data(), av.data(), u.values.data(), nullptr, s, t.values.data(), t.present.data(),
            longs.data(), nlong.data());
      });
      check(r);
      out.push_back(r);
    }
    {
      // The tile form of the same matrix.
      tgb::Matrix<double> Mt = M;
      Mt.set_storage(tgb::storage_control::tiles);
      Mt.to(tgb::backend::cuda);
      auto dop = tgb::detail::device_operand_of(Mt);
      tc::vector_operand<double> to = tc::vector_operand_of<double>(dop, true);
      if (to.tiles) {
        const tc::pattern_ref p = tc::ref(*to.tiles);
        const unsigned blocks = tc::grid_for(offset_t(p.tile_rows) * 32, 256);
        result r0{"tiles"};
        r0.ms = time_it([&] { tc::launch_vector_product<true>(to, false, u, nullptr, nullptr, s, t, st); });
        check(r0);
        out.push_back(r0);
#define TILES(U, TWO, NAME)                                                                                    \
  {                                                                                                            \
    result r{NAME};                                                                                            \
    r.ms = time_it([&] {                                                                                       \
      k_pull_tiles_u<U, TWO, true><<<blocks, 256, 0, cs>>>(p, to.values, u.values.data(), s, t.values.data(),  \
                                                           t.present.data());                                  \
    });                                                                                                        \
    check(r);                                                                                                  \
    out.push_back(r);                                                                                          \
  }
        TILES(1, false, "t_u1") TILES(2, false, "t_u2") TILES(4, false, "t_u4") TILES(2, true, "t2_u2") TILES(4, true, "t2_u4")
      }
    }
#define STREAM(K)                                                                                             \
  {                                                                                                           \
    result r{"ws" #K};                                                                                        \
    r.ms = time_it([&] {                                                                                      \
      k_warp_stream<K, true><<<nb8, 256, 0, cs>>>(n, rp.data(), cl.data(), av.data(), u.values.data(), nullptr, s, \
                                                 t.values.data(), t.present.data());                          \
    });                                                                                                       \
    check(r);                                                                                                 \
    out.push_back(r);                                                                                         \
  }
    STREAM(8)
    std::printf("%-22s %9lld %10lld ", name.c_str(), (long long)n, (long long)nnz);
    for (auto& r : out) std::printf(" %s %.4f%s", r.name.c_str(), r.ms, r.bad ? (" BAD" + std::to_string(r.bad)).c_str() : "");
    std::printf("  (mean row %.1f, G=%d)\n", double(nnz) / double(n ? n : 1), tc::lanes_per_row(n, nnz));
    std::fflush(stdout);
    cusparseDestroySpMat(A);
    cusparseDestroyDnVec(X);
    cusparseDestroyDnVec(Y);
  }
  cusparseDestroy(h);
}
