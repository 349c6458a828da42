// tgb-bench: tgb against cuSPARSE (GPU) and SuiteSparse:GraphBLAS (host) on
// the same inputs, in one process. Every result is checked against its
// baseline before its time is reported; medians of repeated runs, warm-up
// excluded; peak memory of each implementation.
//
//   tgb-bench [--reps N] [--host-reps N] [--json FILE] [--large] [--only NAMES] [--ops OPS]
//             [--no-host] [--no-gpu] [--threads N] [--algorithms [--no-mcl] [--vector-only]]
//             [--data DIR] [--write-mtx DIR] [--pool keep|release] [--host-check-max P]
//             [--gpu-method M] [--gpu-fused-max P] [--gpu-warp-pair P] [--gpu-dense-tile N]
//             [--gpu-row-ratio R] [--spmv] [FILE.mtx ...]
// --algorithms runs the graph algorithms (bench/algorithms.cpp) instead of
// the products, on the generated power-law graph and the files given;
// --vector-only keeps only BFS, Bellman-Ford, delta-stepping, PageRank,
// connected components, betweenness from 64 sources, the local clustering
// coefficient and the 4-truss (on the host also SuiteSparse running the same
// formulation).
// --spmv runs w = A u (plus_times, fp64) instead of the products, on the same
// suite (--only, --large, --data, the files given; rectangular files too):
// tgb's device mxv with A as tiles and as rows, tgb's vxm push over A' (the
// same w), cuSPARSE SpMV (CSR, 32-bit indices) with the default algorithm
// and CSR_ALG2. Each result is checked against cuSPARSE's default (the host
// product where that fails), per element within 1e-9 of sum |a_ij u_j|;
// one row per matrix of median ms, the GB/s of the fastest tgb pull and the
// ratio fastest cuSPARSE / fastest tgb pull, then its geometric mean.
// --data DIR adds the real graphs of the default suite (real_graphs below)
// from DIR (a copy of ../shared/data); a missing one is reported and skipped.
// --write-mtx DIR writes every selected suite matrix (generated and real, as
// the bench sees it) to DIR/NAME.mtx (coordinate real general, 1-based, rows
// sorted; for OpSparse, spECK and scripts/cupy-check.py) and DIR/NAME.csr.bin
// (the same CSR, binary: see write_suite_files), then exits without timing.
// --pool: the device pool policy of both tgb and cuSPARSE (bench/gpu.cu).
// --gpu-method auto|tile|rows|dot forces mxm's device method;
// --gpu-fused-max P sets mxm_policy::fused_bins_max_products.
// --gpu-warp-pair P sets mxm_policy::device_warp_pair_products.
// --gpu-dense-tile N sets mxm_policy::device_dense_tile_threshold.
// --gpu-row-ratio R sets mxm_policy::device_routing.max_products_per_pair
// (0: no tile row takes the planner's row path).
// --host-check-max P: min_plus, lor_land and the masked triangle product are
// checked against tgb's host backend only where their product count is at
// most P (the host reference is slow on hypersparse tiles); above it
// min_plus and lor_land are checked for C's pattern against cuSPARSE's
// plus_times C (the same structure: cuSPARSE keeps numerical zeros), and the
// triangle product is marked unchecked.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <charconv>
#include <system_error>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <numeric>
#include <random>
#include <sstream>

#include "algorithms.hpp"
#include "gpu.hpp"
#include "suite.hpp"

#if defined(TGB_BENCH_GRAPHBLAS)
extern "C" {
#include <GraphBLAS.h>
}
#include <dlfcn.h>
#include <stdlib.h>
#endif

using namespace tgb;
using namespace bench;

namespace {

struct options {
  int reps = 10, host_reps = 10, threads = 0;
  bool large = false, host = true, gpu = true, algorithms = false, mcl = true, vector_only = false, pool_keep = true, spmv = false;
  std::string json, only, ops, data, write_mtx;
  double host_check_max = INFINITY;
  std::vector<std::string> files;
};

// --only A,B,...: the names containing any of these.
bool selected(const std::string& only, const std::string& name) {
  if (only.empty()) return true;
  std::stringstream ss(only);
  for (std::string part; std::getline(ss, part, ',');)
    if (!part.empty() && name.find(part) != std::string::npos) return true;
  return false;
}

double median(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

template <class F>
std::vector<double> host_times(int reps, F&& f) {
  std::vector<double> ms;
  for (int r = -1; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    const double t = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (r >= 0) ms.push_back(t);
  }
  return ms;
}

// Same pattern (each row compared as a set of columns) and values within
// rel_tol (pattern_only: the values are not compared). Rows in parallel,
// nothing copied but a row that is not sorted: the results of the largest
// matrices have 10^8 entries, and this runs three times per matrix.
std::string compare(const csr<double>& got, const csr<double>& want, double rel_tol, bool pattern_only = false) {
  if (got.rowptr != want.rowptr) return "row pointers differ";
  const long long nrows = static_cast<long long>(want.rowptr.size()) - 1;
  long long first_bad = nrows;  // the first row that differs
  std::string why;
#pragma omp parallel
  {
    std::vector<std::pair<index_t, double>> g, w;
#pragma omp for schedule(dynamic, 4096)
    for (long long i = 0; i < nrows; ++i) {
      const offset_t b = want.rowptr[i], e = want.rowptr[i + 1];
      auto load = [&](const csr<double>& c, std::vector<std::pair<index_t, double>>& v) {
        v.clear();
        for (offset_t p = b; p < e; ++p) v.push_back({c.colidx[p], c.values[p]});
        if (!std::is_sorted(v.begin(), v.end(), [](const auto& x, const auto& y) { return x.first < y.first; }))
          std::sort(v.begin(), v.end());
      };
      load(got, g);
      load(want, w);
      std::string msg;
      // Floating-point sums in another order differ by rounding relative to
      // the magnitudes summed, not to the (possibly cancelled) result: scale
      // the tolerance by the largest value of the row.
      double scale = 1.0;
      for (const auto& x : w) scale = std::max(scale, std::fabs(x.second));
      for (std::size_t k = 0; k < w.size() && msg.empty(); ++k) {
        if (g[k].first != w[k].first) msg = "column indices differ (row " + std::to_string(i) + ")";
        else if (!pattern_only && !(std::fabs(g[k].second - w[k].second) <= rel_tol * scale) &&
                 !(std::isnan(g[k].second) && std::isnan(w[k].second)))
          msg = "value at row " + std::to_string(i) + ": " + std::to_string(g[k].second) + " vs " +
                std::to_string(w[k].second);
      }
      if (!msg.empty()) {
#pragma omp critical(tgb_bench_compare)
        if (i < first_bad) first_bad = i, why = msg;
      }
    }
  }
  return why;
}

struct row {
  std::string matrix, op, impl, check, note;
  long long n = 0, nnz_a = 0, products = 0, nnz_c = 0;
  std::vector<double> ms;
  double peak_mb = NAN, floor_ms = NAN, convert_ms = NAN, convert_gpu_ms = NAN, meminfo_mb = NAN;
  double baseline_ms = NAN;
  double pool_peak_mb = NAN;
  // *_tile_bytes: the stored form's bytes (tiles or rows; the JSON keys keep their first names).
  long long a_tile_bytes = 0, a_csr_bytes = 0, c_tile_bytes = 0, c_csr_bytes = 0;
};

std::vector<row> rows;
std::ofstream json_out;

std::string json_escape(const std::string& in) {
  std::string out;
  for (char ch : in) {
    if (ch == '"' || ch == '\\') out += '\\', out += ch;
    else if (static_cast<unsigned char>(ch) < 0x20) out += ' ';
    else out += ch;
  }
  return out;
}

void emit(const row& r) {
  rows.push_back(r);
  const double med = median(r.ms);
  const double gflops = r.ms.empty() ? NAN : 2.0 * double(r.products) / (med * 1e-3) / 1e9;
  const double lo = r.ms.empty() ? NAN : *std::min_element(r.ms.begin(), r.ms.end());
  const double hi = r.ms.empty() ? NAN : *std::max_element(r.ms.begin(), r.ms.end());
  char line[512];
  std::snprintf(line, sizeof line, "%-16s %-15s %-11s %12lld %10.3f %8.3f-%-8.3f %8.2f %9.1f %8.3f %7s %s %s",
                r.matrix.c_str(), r.op.c_str(), r.impl.c_str(), r.nnz_c, med, lo, hi, gflops, r.peak_mb, r.floor_ms,
                std::isnan(r.baseline_ms) ? "" : (std::to_string(r.baseline_ms / med).substr(0, 5) + "x").c_str(),
                r.check.c_str(), r.note.c_str());
  std::cout << line << std::endl;
  if (json_out) {
    std::ostringstream js;
    js << "{\"matrix\":\"" << r.matrix << "\",\"op\":\"" << r.op << "\",\"impl\":\"" << r.impl << "\",\"n\":" << r.n
       << ",\"nnz_a\":" << r.nnz_a << ",\"products\":" << r.products << ",\"nnz_c\":" << r.nnz_c
       << ",\"median_ms\":" << (r.ms.empty() ? 0.0 : med) << ",\"min_ms\":" << (r.ms.empty() ? 0.0 : lo)
       << ",\"max_ms\":" << (r.ms.empty() ? 0.0 : hi) << ",\"runs\":" << r.ms.size()
       << ",\"gflops\":" << (r.ms.empty() ? 0.0 : gflops) << ",\"peak_mb\":" << (std::isnan(r.peak_mb) ? 0.0 : r.peak_mb)
       << ",\"meminfo_mb\":" << (std::isnan(r.meminfo_mb) ? 0.0 : r.meminfo_mb) << ",\"bytes_floor_ms\":" << (std::isnan(r.floor_ms) ? 0.0 : r.floor_ms)
       << ",\"csr_to_tile_ms\":" << (std::isnan(r.convert_ms) ? 0.0 : r.convert_ms)
       << ",\"csr_to_tile_gpu_ms\":" << (std::isnan(r.convert_gpu_ms) ? 0.0 : r.convert_gpu_ms)
       << ",\"pool_peak_mb\":" << (std::isnan(r.pool_peak_mb) ? 0.0 : r.pool_peak_mb)
       << ",\"a_tile_bytes\":" << r.a_tile_bytes << ",\"a_csr_bytes\":" << r.a_csr_bytes
       << ",\"c_tile_bytes\":" << r.c_tile_bytes << ",\"c_csr_bytes\":" << r.c_csr_bytes << ",\"check\":\"" << r.check
       << "\",\"note\":\"" << json_escape(r.note) << "\"}\n";
    json_out << js.str() << std::flush;
  }
}

#if defined(TGB_BENCH_GRAPHBLAS)
// The file the GraphBLAS calls resolve to, symbolic links followed (the Debian library or the
// PyPI wheel's, which scripts/bench-host.sh puts first on the library path), and its major
// version read from the name (libgraphblas[-hash].so.MAJOR.MINOR.PATCH; 0 where unknown).
std::string graphblas_library() {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void*>(&GrB_mxm), &info) || !info.dli_fname) return "unknown";
  char* real = realpath(info.dli_fname, nullptr);
  const std::string path = real ? real : info.dli_fname;
  std::free(real);
  return path;
}

int grb_lib_major(const std::string& lib) {
  const auto at = lib.rfind(".so.");
  return at == std::string::npos ? 0 : std::atoi(lib.c_str() + at + 4);
}

GrB_Matrix to_grb(const csr<double>& a, index_t n, index_t ncols = -1) {
  GrB_Matrix g;
  GrB_Matrix_new(&g, GrB_FP64, n, ncols < 0 ? n : ncols);
  std::vector<GrB_Index> I(a.colidx.size() + 1), J(a.colidx.size() + 1);
  for (index_t i = 0; i < n; ++i)
    for (offset_t p = a.rowptr[i]; p < a.rowptr[i + 1]; ++p) I[p] = i, J[p] = a.colidx[p];
  std::vector<double> X(a.values);
  X.push_back(0);
  GrB_Matrix_build_FP64(g, I.data(), J.data(), X.data(), a.colidx.size(), GrB_FIRST_FP64);
  GrB_Matrix_wait(g, GrB_MATERIALIZE);
  return g;
}

// SuiteSparse's row: `run(C)` into a fresh nrows x ncols C of `type`, timed
// over `reps` runs; its entry count checked against want_nnz.
template <class F>
row grb_row(row g, GrB_Type type, index_t nrows, index_t ncols, int reps, long long want_nnz, F&& run) {
  g.impl = "suitesparse";
  GrB_Matrix gC = nullptr;
  g.ms = host_times(reps, [&] {
    if (gC) GrB_Matrix_free(&gC);
    GrB_Matrix_new(&gC, type, nrows, ncols);
    run(gC);
    GrB_Matrix_wait(gC, GrB_MATERIALIZE);
  });
  GrB_Index nv = 0;
  GrB_Matrix_nvals(&nv, gC);
  g.nnz_c = nv;
  g.check = (long long)nv == want_nnz ? "ok" : "DIFFERS";
  GrB_Matrix_free(&gC);
  return g;
}
#endif

void run_matrix(const std::string& name, const Matrix<double>& A0, const options& o, double bw) {
  // CSR -> tile conversion, timed on its own.
  const csr<double> Acsr = A0.to_csr();
  const index_t n = A0.nrows();
  Matrix<double> A;
  std::vector<double> conv = host_times(3, [&] { A = Matrix<double>::from_csr(n, n, Acsr.rowptr, Acsr.colidx, Acsr.values); });
  long long products = 0;
  for (index_t i = 0; i < n; ++i)
    for (offset_t p = Acsr.rowptr[i]; p < Acsr.rowptr[i + 1]; ++p)
      products += Acsr.rowptr[Acsr.colidx[p] + 1] - Acsr.rowptr[Acsr.colidx[p]];
  const Matrix<bool> S = undirected_pattern(A);
  Matrix<bool> L(n, n);
  select(L, no_mask, no_accum, tril{}, S, -1);
  const csr<bool> Lc = L.to_csr();
  long long aat_products = 0;  // A * A': the squared column counts
  {
    std::vector<long long> colcount(n, 0);
    for (index_t c : Acsr.colidx) ++colcount[c];
    for (long long x : colcount) aat_products += x * x;
  }
  long long tri_products = 0;  // L * L' restricted to L: an upper bound, for GFLOPS
  for (index_t i = 0; i < n; ++i)
    for (offset_t p = Lc.rowptr[i]; p < Lc.rowptr[i + 1]; ++p) tri_products += Lc.rowptr[i + 1] - Lc.rowptr[i];
  // One MS-BFS step from 256 sources (fixed seed): F holds the sources'
  // out-neighbours (level 1), V the sources and F; the step finds level 2.
  const index_t nsrc = std::min<index_t>(256, n);
  Matrix<bool> P(n, n), F(nsrc, n), V(nsrc, n);
  long long bfs_products = 0;
  {
    apply(P, no_mask, no_accum, one{}, A);
    std::mt19937_64 rng(256);
    std::vector<index_t> all(n);
    std::iota(all.begin(), all.end(), index_t(0));
    std::shuffle(all.begin(), all.end(), rng);
    std::vector<index_t> fr, fc, vr, vc;
    for (index_t s = 0; s < nsrc; ++s) {
      const index_t v = all[s];
      vr.push_back(s), vc.push_back(v);
      for (offset_t p = Acsr.rowptr[v]; p < Acsr.rowptr[v + 1]; ++p) {
        const index_t k = Acsr.colidx[p];
        if (k == v) continue;  // the source is visited at level 0
        fr.push_back(s), fc.push_back(k);
        vr.push_back(s), vc.push_back(k);
        bfs_products += Acsr.rowptr[k + 1] - Acsr.rowptr[k];
      }
    }
    F = Matrix<bool>::from_coo(nsrc, n, fr, fc, std::vector<bool>(fr.size(), true), first{});
    V = Matrix<bool>::from_coo(nsrc, n, vr, vc, std::vector<bool>(vr.size(), true), first{});
  }
  const long long a_tile = static_cast<long long>(stored_bytes(A));
  const long long a_csr = static_cast<long long>(csr32_bytes(n, A.nvals(), sizeof(double)));
  std::printf("# %s: n %lld, nnz %lld, tiles %lld (%.1f entries/tile), products %lld, CSR->tile (host) %.2f ms\n",
              name.c_str(), (long long)n, (long long)A.nvals(), (long long)A.ntiles(),
              A.ntiles() ? double(A.nvals()) / A.ntiles() : 0.0, products, median(conv));
  std::printf("# %s: stored A: tgb %lld bytes, 32-bit CSR fp64 %lld bytes (4*(n+1) + 12*nnz): %.2fx\n", name.c_str(),
              a_tile, a_csr, a_csr ? double(a_tile) / a_csr : 0.0);
  // cuSPARSE's plus_times C, kept for the pattern check of min_plus and
  // lor_land where the host reference is skipped (--host-check-max).
  csr<double> plus_times_pattern;
  bool have_plus_times_pattern = false;
  // The same conversion on the GPU, from CSR arrays already in device memory.
  double gpu_conv = NAN;
  if (o.gpu && gpu_available()) {
    std::string check;
    try {
      const timing tc = tgb_cuda_convert(Acsr, n, A, o.reps, &check);
      gpu_conv = median(tc.ms);
      std::printf("# %s: CSR->tile on the GPU (device arrays in, from_device_csr) %.3f ms (min %.3f), peak %.1f MB, %s\n",
                  name.c_str(), gpu_conv, *std::min_element(tc.ms.begin(), tc.ms.end()), tc.peak_bytes / 1048576.0,
                  check == "ok" ? "same tiles as the host's" : "DIFFERS from the host's tiles");
    } catch (const std::exception& e) {
      std::printf("# %s: CSR->tile on the GPU FAILED: %s\n", name.c_str(), e.what());
    }
  }

  const op ops[] = {op::plus_times_fp64, op::plus_times_fp32, op::aat_fp64, op::min_plus_fp64, op::lor_land_bool,
                    op::triangles, op::msbfs_step};
  for (op w : ops) {
    if (!selected(o.ops, op_name(w))) continue;
    row base;
    base.matrix = name;
    base.op = op_name(w);
    base.n = n;
    base.nnz_a = A.nvals();
    base.products = w == op::triangles    ? tri_products
                    : w == op::aat_fp64   ? aat_products
                    : w == op::msbfs_step ? bfs_products
                                          : products;
    base.convert_ms = median(conv);
    base.convert_gpu_ms = gpu_conv;
    base.a_tile_bytes = a_tile;
    base.a_csr_bytes = a_csr;
    // Value bytes of C in this operation (for its CSR size).
    const std::size_t c_value_bytes = w == op::plus_times_fp32                              ? 4
                                      : (w == op::lor_land_bool || w == op::msbfs_step) ? 1
                                                                                          : 8;
    const long long c_rows = w == op::msbfs_step ? nsrc : n;
    long long host_c_tile = 0;
    // Host reference result (also tgb's host timing).
    csr<double> host_result;
    std::vector<double> host_ms;
    auto host_run = [&]() {
      switch (w) {
        case op::plus_times_fp64:
        case op::plus_times_fp32: {
          Matrix<double> C(n, n);
          host_ms = host_times(o.host ? o.host_reps : 0, [&] { C = Matrix<double>(n, n); mxm(C, no_mask, no_accum, plus_times, A, A); });
          host_result = C.to_csr();
          host_c_tile = static_cast<long long>(stored_bytes(C));
          break;
        }
        case op::aat_fp64: {
          Matrix<double> C(n, n);
          host_ms = host_times(o.host ? o.host_reps : 0, [&] {
            C = Matrix<double>(n, n);
            mxm(C, no_mask, no_accum, plus_times, A, A, descriptor{}.with_transpose_b());
          });
          host_result = C.to_csr();
          host_c_tile = static_cast<long long>(stored_bytes(C));
          break;
        }
        case op::min_plus_fp64: {
          Matrix<double> C(n, n);
          host_ms = host_times(o.host ? o.host_reps : 0, [&] { C = Matrix<double>(n, n); mxm(C, no_mask, no_accum, min_plus, A, A); });
          host_result = C.to_csr();
          host_c_tile = static_cast<long long>(stored_bytes(C));
          break;
        }
        case op::lor_land_bool: {
          Matrix<bool> Ab(n, n), C(n, n);
          apply(Ab, no_mask, no_accum, identity{}, A);
          host_ms = host_times(o.host ? o.host_reps : 0, [&] { C = Matrix<bool>(n, n); mxm(C, no_mask, no_accum, lor_land, Ab, Ab); });
          host_c_tile = static_cast<long long>(stored_bytes(C));
          Matrix<double> Cd(n, n);
          apply(Cd, no_mask, no_accum, identity{}, C);
          host_result = Cd.to_csr();
          break;
        }
        case op::msbfs_step: {
          Matrix<bool> C(nsrc, n);
          host_ms = host_times(o.host ? o.host_reps : 0, [&] {
            C = Matrix<bool>(nsrc, n);
            mxm(C, complement(structure(V)), no_accum, any_pair, F, P, descriptor{}.with_replace());
          });
          host_c_tile = static_cast<long long>(stored_bytes(C));
          Matrix<double> Cd(nsrc, n);
          apply(Cd, no_mask, no_accum, identity{}, C);
          host_result = Cd.to_csr();
          break;
        }
        default: {
          Matrix<std::int64_t> C(n, n);
          host_ms = host_times(o.host ? o.host_reps : 0, [&] {
            C = Matrix<std::int64_t>(n, n);
            mxm(C, structure(L), no_accum, plus_pair, L, L, descriptor{}.with_transpose_b());
          });
          host_c_tile = static_cast<long long>(stored_bytes(C));
          Matrix<double> Cd(n, n);
          apply(Cd, no_mask, no_accum, identity{}, C);
          host_result = Cd.to_csr();
        }
      }
    };
    // Without --no-host tgb's host result is the reference; with it, the
    // products cuSPARSE computes are checked against cuSPARSE instead (the
    // host backend is slow on hypersparse tiles).
    const bool cusparse_checks = w == op::plus_times_fp64 || w == op::plus_times_fp32 || w == op::aat_fp64;
    const bool gpu_on = o.gpu && gpu_available();
    // --host-check-max: the GPU-only run skips the host reference of the big
    // semiring products (see the top of this file).
    const bool host_capped = !o.host && gpu_on && !cusparse_checks && double(base.products) > o.host_check_max;
    const bool need_host = o.host || (!(gpu_on && cusparse_checks) && !host_capped);
    if (need_host) host_run();
    long long host_nnz = static_cast<long long>(host_result.colidx.size());
    auto floor_ms = [&](long long nnz_c) {
      const double bytes = 2.0 * (double(n + 1) * 8 + double(A.nvals()) * 12) + double(n + 1) * 8 + double(nnz_c) * 12;
      return bw > 0 ? bytes / (bw * 1e9) * 1e3 : NAN;
    };
    base.floor_ms = floor_ms(host_nnz);

    double gpu_base = NAN;
    if (gpu_on) {
      csr<double> cs_result;
      trim_pool();  // each implementation's warm-up starts from the same empty pool
      timing c = cusparse(w, Acsr, o.reps, &cs_result);
      if (c.ran) {
        row r = base;
        r.impl = "cusparse";
        r.ms = c.ms;
        r.nnz_c = c.nvals;
        r.peak_mb = c.peak_bytes / 1048576.0;
        r.meminfo_mb = c.meminfo_bytes / 1048576.0;
        r.pool_peak_mb = c.pool_peak_bytes / 1048576.0;
        r.c_csr_bytes = static_cast<long long>(csr32_bytes(c_rows, c.nvals, c_value_bytes));
        if (w == op::plus_times_fp64) {
          plus_times_pattern = cs_result;
          have_plus_times_pattern = true;
        }
        const std::string diff =
            need_host ? compare(cs_result, host_result, w == op::plus_times_fp32 ? 1e-4 : 1e-9) : "";
        r.check = need_host ? (diff.empty() ? "ok" : "DIFFERS") : "reference";
        r.note = diff.empty() ? c.note : diff;
        if (!need_host) {
          host_result = cs_result;
          host_nnz = c.nvals;
          base.floor_ms = r.floor_ms = floor_ms(host_nnz);
        }
        gpu_base = median(c.ms);
        emit(r);
      } else if (w == op::triangles) {
        // The triangle target's yardstick: cuSPARSE's unmasked L * L' (fp64,
        // L' formed by csr2csc inside the timed region). It computes another
        // product (every position, not those in L), so it is not checked and
        // the speed-up column of tgb's row reads against it.
        csr<double> Ld;
        Ld.rowptr = Lc.rowptr;
        Ld.colidx = Lc.colidx;
        Ld.values.assign(Lc.colidx.size(), 1.0);
        csr<double> unused;
        trim_pool();
        timing u = cusparse(op::aat_fp64, Ld, o.reps, &unused);
        row r = base;
        r.impl = "cusparse-LLt";
        r.check = "n/a";
        r.note = u.ran ? "unmasked L*L' (all positions), the yardstick of the masked product" : u.note;
        if (u.ran) {
          r.ms = u.ms;
          r.nnz_c = u.nvals;
          r.peak_mb = u.peak_bytes / 1048576.0;
          gpu_base = median(u.ms);
        }
        emit(r);
      } else if (!c.note.empty() && w != op::min_plus_fp64 && w != op::lor_land_bool && w != op::triangles &&
                 w != op::msbfs_step) {
        row r = base;
        r.impl = "cusparse";
        r.note = c.note;
        emit(r);
      }
      csr<double> t_result;
      row r = base;
      r.impl = "tgb-cuda";
      try {
        trim_pool();
        timing t = w == op::msbfs_step ? tgb_cuda_msbfs_step(F, V, P, o.reps, &t_result)
                                       : tgb_cuda(w, A, L, o.reps, &t_result);
        r.ms = t.ms;
        r.nnz_c = t.nvals;
        r.peak_mb = t.peak_bytes / 1048576.0;
        r.meminfo_mb = t.meminfo_bytes / 1048576.0;
        r.pool_peak_mb = t.pool_peak_bytes / 1048576.0;
        r.c_tile_bytes = static_cast<long long>(t.c_tile_bytes);
        r.c_csr_bytes = static_cast<long long>(csr32_bytes(c_rows, t.nvals, c_value_bytes));
        if (host_capped) {
          r.floor_ms = floor_ms(t.nvals);
          const bool pattern_op = w == op::min_plus_fp64 || w == op::lor_land_bool;
          if (pattern_op && have_plus_times_pattern) {
            const std::string diff = compare(t_result, plus_times_pattern, 0.0, true);
            r.check = diff.empty() ? "pattern-ok" : "DIFFERS";
            r.note = diff.empty() ? "host reference skipped (products > --host-check-max); pattern checked against "
                                    "cuSPARSE's plus_times C"
                                  : "pattern against cuSPARSE's plus_times C: " + diff;
          } else {
            r.check = "unchecked";
            r.note = "host reference skipped (products > --host-check-max)";
          }
        } else if (!need_host && host_nnz == 0 && t.nvals > 0 && host_result.rowptr.empty()) {
          // --no-host and cuSPARSE could not compute it: nothing to check against.
          r.check = "unchecked";
          r.note = "no reference (cuSPARSE failed, host skipped)";
        } else {
          const std::string diff = compare(t_result, host_result, w == op::plus_times_fp32 ? 1e-4 : 1e-9);
          r.check = diff.empty() ? "ok" : "DIFFERS";
          r.note = diff;
        }
        r.baseline_ms = gpu_base;
      } catch (const std::exception& e) {
        r.check = "FAILED";
        r.note = e.what();
      }
      emit(r);
    }
    if (o.host && w != op::plus_times_fp32) {
      row r = base;
      r.impl = "tgb-host";
      r.ms = host_ms;
      r.nnz_c = host_nnz;
      r.c_tile_bytes = host_c_tile;
      r.c_csr_bytes = static_cast<long long>(csr32_bytes(c_rows, host_nnz, c_value_bytes));
      r.check = "reference";
#if defined(TGB_BENCH_GRAPHBLAS)
      if (w == op::plus_times_fp64 || w == op::triangles || w == op::aat_fp64 || w == op::min_plus_fp64 ||
          w == op::lor_land_bool) {
        row g = base;
        GrB_Matrix gA = to_grb(w == op::triangles ? [&] {
          Matrix<double> Ld(n, n);
          apply(Ld, no_mask, no_accum, identity{}, L);
          return Ld.to_csr();
        }() : Acsr, n);
        GrB_Descriptor d = nullptr;
        if (w == op::aat_fp64) {
          GrB_Descriptor_new(&d);
          GrB_Descriptor_set(d, GrB_INP1, GrB_TRAN);
        }
        if (w == op::triangles) {
          GrB_Descriptor_new(&d);
          GrB_Descriptor_set(d, GrB_INP1, GrB_TRAN);
          GrB_Descriptor_set(d, GrB_MASK, GrB_STRUCTURE);
        }
        // lor_land: A's fp64 values cast to bool by GraphBLAS (x != 0), as
        // tgb's own cast does.
        const GrB_Type ctype = w == op::triangles ? GrB_INT64 : w == op::lor_land_bool ? GrB_BOOL : GrB_FP64;
        const GrB_Semiring sr = w == op::triangles       ? GxB_PLUS_PAIR_INT64
                                : w == op::min_plus_fp64 ? GrB_MIN_PLUS_SEMIRING_FP64
                                : w == op::lor_land_bool ? GrB_LOR_LAND_SEMIRING_BOOL
                                                         : GrB_PLUS_TIMES_SEMIRING_FP64;
        g = grb_row(g, ctype, n, n, o.host_reps, host_nnz, [&](GrB_Matrix gC) {
          GrB_mxm(gC, w == op::triangles ? gA : nullptr, nullptr, sr, gA, gA, d);
        });
        GrB_Matrix_free(&gA);
        if (d) GrB_Descriptor_free(&d);
        emit(g);
        r.baseline_ms = median(g.ms);
      }
      if (w == op::msbfs_step) {
        row g = base;
        auto dbl = [&](const Matrix<bool>& b) {
          Matrix<double> d(b.nrows(), b.ncols());
          apply(d, no_mask, no_accum, identity{}, b);
          return d.to_csr();
        };
        GrB_Matrix gF = to_grb(dbl(F), nsrc, n), gV = to_grb(dbl(V), nsrc, n), gP = to_grb(dbl(P), n, n);
        GrB_Descriptor d = nullptr;
        GrB_Descriptor_new(&d);
        GrB_Descriptor_set(d, GrB_MASK, GrB_COMP);
        GrB_Descriptor_set(d, GrB_MASK, GrB_STRUCTURE);  // both: !structure(V)
        GrB_Descriptor_set(d, GrB_OUTP, GrB_REPLACE);
        g = grb_row(g, GrB_BOOL, nsrc, n, o.host_reps, host_nnz,
                    [&](GrB_Matrix gC) { GrB_mxm(gC, gV, nullptr, GxB_ANY_PAIR_BOOL, gF, gP, d); });
        GrB_Matrix_free(&gF);
        GrB_Matrix_free(&gV);
        GrB_Matrix_free(&gP);
        GrB_Descriptor_free(&d);
        emit(g);
        r.baseline_ms = median(g.ms);
      }
#endif
      emit(r);
    }
  }
}

// --spmv (see the top of this file).
using suite_list = std::vector<std::pair<std::string, std::function<Matrix<double>()>>>;

struct spmv_summary {
  std::vector<std::pair<std::string, double>> best, tiles, rows, rule;  // (matrix, cuSPARSE ms / tgb ms)
  long long mismatches = 0;
};

// Elements of `got` farther from `want` than rel_tol * scale: a sum taken in
// another order differs by rounding relative to the magnitudes summed
// (sum |a_ij u_j|), not to the result, which cancels to near 0 in the
// Laplacian's rows. Returns the first such element, "" if none.
std::string compare_spmv(const std::vector<double>& got, const std::vector<double>& want,
                         const std::vector<double>& scale, double rel_tol, long long* bad) {
  *bad = 0;
  if (got.size() != want.size())
    return "size " + std::to_string(got.size()) + " vs " + std::to_string(want.size());
  std::string why;
  for (std::size_t i = 0; i < want.size(); ++i) {
    const bool ok = std::fabs(got[i] - want[i]) <= rel_tol * scale[i] || (std::isnan(got[i]) && std::isnan(want[i]));
    if (ok) continue;
    if (!(*bad)++)
      why = "element " + std::to_string(i) + ": " + std::to_string(got[i]) + " vs " + std::to_string(want[i]);
  }
  return why;
}

void run_spmv(const std::string& name, const Matrix<double>& A, const options& o, const std::string& device,
              spmv_summary& sum) {
  const csr<double> Acsr = A.to_csr();
  const long long nrows = A.nrows(), ncols = A.ncols(), nnz = A.nvals();
  // The host product: the tolerance's scale, and the reference where cuSPARSE fails.
  std::vector<double> host_y(nrows, 0.0), scale(nrows, 0.0);
  for (long long i = 0; i < nrows; ++i)
    for (offset_t p = Acsr.rowptr[i]; p < Acsr.rowptr[i + 1]; ++p) {
      const double x = Acsr.values[p] * spmv_u(Acsr.colidx[p]);
      host_y[i] += x;
      scale[i] += std::fabs(x);
    }
  // vxm computes u' A: over A' that is (A u)', the same w as the pull's, so
  // all five columns are checked against one reference and time one product.
  Matrix<double> At(A.ncols(), A.nrows());
  transpose(At, no_mask, no_accum, A);

  struct impl_run {
    const char* name;
    timing t;
    std::vector<double> y;
    std::string check = "not run";
  };
  impl_run cs{"cusparse", {}, {}}, cs2{"cusparse-alg2", {}, {}}, tiles{"tgb-tiles", {}, {}}, rws{"tgb-rows", {}, {}},
      push{"tgb-push", {}, {}};
  auto guarded = [&](impl_run& r, auto&& f) {
    try {
      trim_pool();  // each warm-up starts from the same empty pool
      r.t = f(&r.y);
    } catch (const std::exception& e) {
      r.t = timing{};
      r.t.note = e.what();
    }
  };
  // cuSPARSE first, as the products' rows run it first.
  guarded(cs, [&](std::vector<double>* y) { return cusparse_spmv(Acsr, o.reps, y, false); });
  guarded(cs2, [&](std::vector<double>* y) { return cusparse_spmv(Acsr, o.reps, y, true); });
  guarded(tiles, [&](std::vector<double>* y) { return tgb_cuda_mxv(A, false, false, o.reps, y); });
  guarded(rws, [&](std::vector<double>* y) { return tgb_cuda_mxv(A, true, false, o.reps, y); });
  guarded(push, [&](std::vector<double>* y) { return tgb_cuda_mxv(At, false, true, o.reps, y); });

  const std::vector<double>& ref = cs.t.ran ? cs.y : host_y;
  std::string note = cs.t.ran ? "" : "reference: host product (cuSPARSE default did not run)";
  if (cs.t.ran) cs.check = "reference";
  int bad_impls = 0;
  for (impl_run* r : {&cs2, &tiles, &rws, &push}) {
    if (!r->t.ran) continue;
    long long bad = 0;
    const std::string why = compare_spmv(r->y, ref, scale, 1e-9, &bad);
    r->check = why.empty() ? "ok" : "MISMATCH";
    if (!why.empty()) {
      ++bad_impls;
      ++sum.mismatches;
      std::printf("# %s %s: MISMATCH against %s: %lld of %lld elements, first %s\n", name.c_str(), r->name,
                  cs.t.ran ? "cuSPARSE default" : "the host product", bad, nrows, why.c_str());
    }
  }
  for (impl_run* r : {&cs, &cs2, &tiles, &rws, &push})
    if (!r->t.note.empty()) std::printf("# %s %s: %s%s\n", name.c_str(), r->name, r->t.ran ? "" : "not run: ", r->t.note.c_str());

  // A mismatching result is no candidate for the fastest.
  auto usable = [](const impl_run& r) { return r.t.ran && !r.t.ms.empty() && r.check != "MISMATCH"; };
  auto fastest = [&](std::initializer_list<const impl_run*> rs) {
    double best = NAN;
    for (const impl_run* r : rs)
      if (usable(*r) && !(median(r->t.ms) >= best)) best = median(r->t.ms);
    return best;
  };
  const double tgb_ms = fastest({&tiles, &rws}), cs_ms = fastest({&cs, &cs2});
  const double bytes = double(nnz) * 12 + double(nrows) * 16 + double(ncols) * 8;
  const double gbps = bytes / (tgb_ms * 1e-3) / 1e9;
  const double ratio = cs_ms / tgb_ms;
  // The form tgb's storage rule keeps A in: what a caller gets without set_storage.
  const bool rule_rows = A.row_form() != nullptr;
  const impl_run& by_rule = rule_rows ? rws : tiles;
  const double rule_ratio = usable(by_rule) ? cs_ms / median(by_rule.t.ms) : NAN;
  if (!std::isnan(rule_ratio)) sum.rule.push_back({name, rule_ratio});
  if (!std::isnan(ratio)) {
    sum.best.push_back({name, ratio});
    if (usable(tiles)) sum.tiles.push_back({name, cs_ms / median(tiles.t.ms)});
    if (usable(rws)) sum.rows.push_back({name, cs_ms / median(rws.t.ms)});
  }
  auto ms_text = [](const impl_run& r) {
    char b[32];
    if (!r.t.ran || r.t.ms.empty()) return std::string("-");
    std::snprintf(b, sizeof b, "%.4f", median(r.t.ms));
    return std::string(b);
  };
  auto num = [](const char* fmt, double x) {
    char b[32];
    if (std::isnan(x)) return std::string("-");
    std::snprintf(b, sizeof b, fmt, x);
    return std::string(b);
  };
  const std::string check = bad_impls ? "MISMATCH(" + std::to_string(bad_impls) + ")" : "ok";
  std::printf("%-18s %10lld %11lld %10s %10s %10s %10s %10s %8s %8s %6s %8s  %s\n", name.c_str(), nrows, nnz,
              ms_text(tiles).c_str(), ms_text(rws).c_str(), ms_text(push).c_str(), ms_text(cs).c_str(),
              ms_text(cs2).c_str(), num("%.1f", gbps).c_str(), num("%.3f", ratio).c_str(),
              rule_rows ? "rows" : "tiles", num("%.3f", rule_ratio).c_str(), check.c_str());
  std::fflush(stdout);
  if (json_out) {
    std::ostringstream js;
    js << "{\"section\":\"spmv\",\"matrix\":\"" << json_escape(name) << "\",\"device\":\"" << json_escape(device)
       << "\",\"op\":\"mxv_plus_times_f64\",\"nrows\":" << nrows << ",\"ncols\":" << ncols << ",\"nnz\":" << nnz
       << ",\"runs\":" << o.reps;
    for (const impl_run* r : {&tiles, &rws, &push, &cs, &cs2}) {
      std::string k = r->name;
      std::replace(k.begin(), k.end(), '-', '_');
      const bool ran = r->t.ran && !r->t.ms.empty();
      js << ",\"" << k << "_median_ms\":" << (ran ? median(r->t.ms) : 0.0) << ",\"" << k
         << "_min_ms\":" << (ran ? *std::min_element(r->t.ms.begin(), r->t.ms.end()) : 0.0) << ",\"" << k
         << "_peak_mb\":" << r->t.peak_bytes / 1048576.0 << ",\"" << k
         << "_pool_peak_mb\":" << r->t.pool_peak_bytes / 1048576.0 << ",\"" << k << "_check\":\"" << r->check
         << "\",\"" << k << "_note\":\"" << json_escape(r->t.note) << "\"";
    }
    js << ",\"rule_form\":\"" << (rule_rows ? "rows" : "tiles") << "\",\"rule_ratio\":"
       << (std::isnan(rule_ratio) ? 0.0 : rule_ratio);
    js << ",\"bytes\":" << bytes << ",\"gbps\":" << (std::isnan(gbps) ? 0.0 : gbps)
       << ",\"ratio\":" << (std::isnan(ratio) ? 0.0 : ratio) << ",\"check\":\"" << check << "\",\"note\":\""
       << json_escape(note) << "\"}\n";
    json_out << js.str() << std::flush;
  }
}

int run_spmv_suite(const suite_list& suite, const options& o) {
  if (!(o.gpu && gpu_available())) {
    std::printf("# --spmv: no GPU (%s)\n", o.gpu ? gpu_description().c_str() : "--no-gpu");
    return 1;
  }
  const std::string device = gpu_description();
  std::printf("# spmv: w = A u, plus_times fp64, u dense (1 + (i %% 7) / 4); median ms of %d runs, warm-up "
              "excluded; tgb push = vxm over A'; GB/s = (12 nnz + 16 nrows + 8 ncols) bytes / fastest tgb pull; "
              "cs/tgb = fastest cuSPARSE / fastest tgb pull\n",
              o.reps);
  std::printf("%-18s %10s %11s %10s %10s %10s %10s %10s %8s %8s %6s %8s  %s\n", "matrix", "nrows", "nnz",
              "tiles_ms", "rows_ms", "push_ms", "cs_ms", "cs_alg2_ms", "GB/s", "cs/tgb", "rule", "cs/rule", "check");
  spmv_summary sum;
  for (const auto& [name, make] : suite) {
    if (!selected(o.only, name)) continue;
    try {
      const Matrix<double> A = make();
      run_spmv(name, A, o, device, sum);
    } catch (const std::exception& e) {
      std::printf("# %s: %s\n", name.c_str(), e.what());
    }
  }
  auto geomean = [](const std::vector<std::pair<std::string, double>>& v) {
    double s = 0;
    for (const auto& x : v) s += std::log(x.second);
    return v.empty() ? NAN : std::exp(s / v.size());
  };
  std::printf("\n# spmv summary (cuSPARSE / tgb, > 1 is tgb faster)\n");
  if (!sum.best.empty()) {
    const auto worst = *std::min_element(sum.best.begin(), sum.best.end(),
                                         [](const auto& a, const auto& b) { return a.second < b.second; });
    std::printf("# fastest cuSPARSE / fastest tgb pull: geomean %.3fx over %zu matrices, worst %.3fx (%s)\n",
                geomean(sum.best), sum.best.size(), worst.second, worst.first.c_str());
  } else {
    std::printf("# fastest cuSPARSE / fastest tgb pull: no matrix with both\n");
  }
  std::printf("# fastest cuSPARSE / tgb tiles: geomean %.3fx over %zu matrices\n", geomean(sum.tiles), sum.tiles.size());
  std::printf("# fastest cuSPARSE / tgb rows: geomean %.3fx over %zu matrices\n", geomean(sum.rows), sum.rows.size());
  std::printf("# fastest cuSPARSE / tgb in the storage rule's form: geomean %.3fx over %zu matrices\n",
              geomean(sum.rule), sum.rule.size());
  std::printf("# MISMATCH: %lld\n", sum.mismatches);
#if defined(TGB_BENCH_GRAPHBLAS)
  GrB_finalize();
#endif
  return 0;
}

// The name of a matrix file: its base name without .gz, .mtx, .txt, .csv.
std::string file_stem(const std::string& path) {
  std::string b = path.substr(path.find_last_of('/') + 1);
  for (const char* ext : {".gz", ".mtx", ".txt", ".csv", ".tsv"}) {
    const std::string e = ext;
    if (b.size() > e.size() && b.compare(b.size() - e.size(), e.size(), e) == 0) b.resize(b.size() - e.size());
  }
  return b;
}

bool file_exists(const std::string& p) { return std::ifstream(p).good(); }

// The real graphs of the default suite (issue 13), read from --data DIR (a
// copy of ../shared/data): the first file found of each entry. An undirected
// entry becomes pattern(A + A') without self-loops, values 1.
struct real_graph {
  const char* name;
  std::vector<const char*> files;
  bool undirected;
};
const std::vector<real_graph>& real_graphs() {
  static const std::vector<real_graph> g = {
      {"ca-GrQc", {"ca-GrQc.mtx"}, false},
      {"soc-Slashdot0902", {"soc-Slashdot0902.mtx", "soc-Slashdot0902.txt", "soc-Slashdot0902.txt.gz"}, true},
      {"email-Eu-core", {"email-Eu-core.mtx", "email-Eu-core.csv"}, false},
      {"luxembourg", {"luxembourg.mtx"}, false},
      {"hep-th", {"hep-th.mtx"}, false},
      {"cond-mat-2003", {"cond-mat-2003.mtx"}, false},
      {"4elt", {"4elt.mtx"}, false},
      {"bcsstk33", {"bcsstk33.mtx"}, false},
  };
  return g;
}

Matrix<double> load_graph(const std::string& path, bool undirected) {
  Matrix<double> A = io::read_graph<double>(path, io::duplicates::keep_first);
  if (!undirected) return A;
  const Matrix<bool> S = undirected_pattern(A);
  Matrix<double> D(S.nrows(), S.ncols());
  apply(D, no_mask, no_accum, identity{}, S);
  return D;
}

// DIR/NAME.mtx: coordinate real general, 1-based, each row's columns
// increasing, values in the shortest form that reads back exactly.
// DIR/NAME.csr.bin: the same CSR, little-endian: 8 bytes "TGBCSR01", int64
// n, int64 nnz, int32 rowptr[n+1], int32 colidx[nnz], float64 values[nnz]
// (scripts/cupy-check.py reads it without a Matrix Market parser).
void write_suite_files(const std::string& dir, const std::string& name, const Matrix<double>& A) {
  csr<double> c = A.to_csr();
  const long long n = A.nrows(), nnz = static_cast<long long>(c.colidx.size());
  if (nnz >= (1LL << 31)) throw std::runtime_error(name + ": more than 2^31 entries, not written");
  std::vector<std::int32_t> rp(n + 1), ci(nnz);
  std::vector<double> v(nnz);
  for (long long i = 0; i < n; ++i) {
    std::vector<std::pair<index_t, double>> rowv;
    for (offset_t p = c.rowptr[i]; p < c.rowptr[i + 1]; ++p) rowv.push_back({c.colidx[p], c.values[p]});
    std::sort(rowv.begin(), rowv.end());
    rp[i] = static_cast<std::int32_t>(c.rowptr[i]);
    for (std::size_t k = 0; k < rowv.size(); ++k) {
      ci[c.rowptr[i] + k] = static_cast<std::int32_t>(rowv[k].first);
      v[c.rowptr[i] + k] = rowv[k].second;
    }
  }
  rp[n] = static_cast<std::int32_t>(nnz);
  const std::string mtx = dir + "/" + name + ".mtx", bin = dir + "/" + name + ".csr.bin";
  {
    std::FILE* f = std::fopen(mtx.c_str(), "wb");
    if (!f) throw std::runtime_error(mtx + ": cannot open for writing");
    std::fprintf(f, "%%%%MatrixMarket matrix coordinate real general\n%% tgb-bench suite matrix %s\n%lld %lld %lld\n",
                 name.c_str(), n, n, nnz);
    std::string buf;
    buf.reserve(1 << 20);
    char tmp[96];  // two 64-bit integers and a shortest double: at most 20 + 20 + 24 characters
    char* const end = tmp + sizeof tmp - 1;  // room for each separator
    const auto put = [&](char* at, auto x, char sep) {
      const auto r = std::to_chars(at, end, x);
      if (r.ec != std::errc()) throw std::runtime_error(mtx + ": a number did not fit the line buffer");
      *r.ptr = sep;
      return r.ptr + 1;
    };
    for (long long i = 0; i < n; ++i)
      for (long long p = rp[i]; p < rp[i + 1]; ++p) {
        char* e = put(tmp, i + 1, ' ');
        e = put(e, (long long)ci[p] + 1, ' ');
        e = put(e, v[p], '\n');  // shortest round-trip form
        buf.append(tmp, e);
        if (buf.size() > (1 << 20)) {
          std::fwrite(buf.data(), 1, buf.size(), f);
          buf.clear();
        }
      }
    std::fwrite(buf.data(), 1, buf.size(), f);
    if (std::fclose(f) != 0) throw std::runtime_error(mtx + ": write failed");
  }
  {
    std::FILE* f = std::fopen(bin.c_str(), "wb");
    if (!f) throw std::runtime_error(bin + ": cannot open for writing");
    const long long hdr[2] = {n, nnz};
    bool ok = std::fwrite("TGBCSR01", 1, 8, f) == 8 && std::fwrite(hdr, 8, 2, f) == 2 &&
              std::fwrite(rp.data(), 4, rp.size(), f) == rp.size() &&
              std::fwrite(ci.data(), 4, ci.size(), f) == ci.size() && std::fwrite(v.data(), 8, v.size(), f) == v.size();
    ok = (std::fclose(f) == 0) && ok;
    if (!ok) throw std::runtime_error(bin + ": write failed");
  }
}

}  // namespace

namespace bench {
const char* op_name(op o) {
  switch (o) {
    case op::plus_times_fp64: return "plus_times_f64";
    case op::plus_times_fp32: return "plus_times_f32";
    case op::min_plus_fp64: return "min_plus_f64";
    case op::lor_land_bool: return "lor_land_bool";
    case op::aat_fp64: return "AAt_plus_times";
    case op::msbfs_step: return "msbfs_step256";
    default: return "tri_masked";
  }
}
}  // namespace bench

int main(int argc, char** argv) {
  options o;
  for (int k = 1; k < argc; ++k) {
    const std::string a = argv[k];
    auto next = [&]() -> std::string {
      if (k + 1 >= argc) {
        std::fprintf(stderr, "tgb-bench: %s needs a value\n", a.c_str());
        std::exit(1);
      }
      return argv[++k];
    };
    if (a == "--reps") o.reps = std::max(1, std::atoi(next().c_str()));
    else if (a == "--host-reps") o.host_reps = std::max(1, std::atoi(next().c_str()));
    else if (a == "--json") o.json = next();
    else if (a == "--large") o.large = true;
    else if (a == "--only") o.only = next();
    else if (a == "--ops") o.ops = next();
    else if (a == "--no-host") o.host = false;
    else if (a == "--no-gpu") o.gpu = false;
    else if (a == "--threads") o.threads = std::atoi(next().c_str());
    else if (a == "--algorithms") o.algorithms = true;
    else if (a == "--no-mcl") o.mcl = false;
    else if (a == "--vector-only") o.vector_only = true;
    else if (a == "--spmv") o.spmv = true;
    else if (a == "--data") o.data = next();
    else if (a == "--gpu-method") {
      const std::string v = next();
      if (!set_gpu_method(v)) {
        std::fprintf(stderr, "tgb-bench: --gpu-method takes auto, tile, rows or dot (not %s)\n", v.c_str());
        return 2;
      }
    }
    else if (a == "--gpu-fused-max") set_gpu_fused_max(std::atof(next().c_str()));
    else if (a == "--gpu-warp-pair") set_gpu_warp_pair(std::atof(next().c_str()));
    else if (a == "--gpu-dense-tile") set_gpu_dense_tile(std::atoi(next().c_str()));
    else if (a == "--gpu-row-ratio") set_gpu_row_ratio(std::atof(next().c_str()));
    else if (a == "--write-mtx") o.write_mtx = next();
    else if (a == "--host-check-max") o.host_check_max = std::atof(next().c_str());
    else if (a == "--pool") {
      const std::string v = next();
      if (v != "keep" && v != "release") {
        std::fprintf(stderr, "tgb-bench: --pool keep|release, not %s\n", v.c_str());
        return 1;
      }
      o.pool_keep = v == "keep";
    }
    else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "tgb-bench: unknown option %s\n", a.c_str());
      return 1;
    } else o.files.push_back(a);
  }
  if (o.threads > 0) omp_set_num_threads(o.threads);
  if (!o.json.empty()) json_out.open(o.json);
#if defined(TGB_BENCH_GRAPHBLAS)
  GrB_init(GrB_NONBLOCKING);
  const std::string grb_lib = graphblas_library();
  // The thread count's option code moved in SuiteSparse 9 (GxB_NTHREADS became 7086); the
  // binary may run against a newer library than its header (scripts/bench-host.sh does).
  GxB_Global_Option_set(static_cast<GxB_Option_Field>(grb_lib_major(grb_lib) >= 9 ? 7086 : GxB_NTHREADS),
                        omp_get_max_threads());
#endif
  // The suite: generated matrices, the real graphs of --data, the files given.
  std::vector<std::pair<std::string, std::function<Matrix<double>()>>> suite = {
      {"lap2d_1024", [] { return bench::laplacian_2d(1024).build(); }},
      {"stencil27_64", [] { return bench::stencil_27(64).build(); }},
      {"blocks6_120k", [] { return bench::banded_blocks(120000, 6, 9).build(); }},
      {"rmat16_ef8", [] { return bench::rmat(16, 8).build(); }},
      {"uniform_2^20x8", [] { return bench::uniform_random(index_t(1) << 20, 8).build(); }},
  };
  if (o.large) {
    suite.push_back({"stencil27_100", [] { return bench::stencil_27(100).build(); }});
    suite.push_back({"rmat18_ef8", [] { return bench::rmat(18, 8).build(); }});
  }
  if (!o.data.empty() && !o.algorithms) {
    for (const auto& g : real_graphs()) {
      std::string found;
      for (const char* f : g.files)
        if (found.empty() && file_exists(o.data + "/" + f)) found = o.data + "/" + f;
      if (found.empty()) {
        std::fprintf(stderr, "tgb-bench: WARNING: %s not found in %s (looked for %s...), skipped\n", g.name,
                     o.data.c_str(), g.files[0]);
        std::printf("# %s: MISSING from --data %s, skipped\n", g.name, o.data.c_str());
        continue;
      }
      const bool und = g.undirected;
      suite.push_back({g.name, [found, und] { return load_graph(found, und); }});
    }
  }
  for (const auto& f : o.files)
    suite.push_back({file_stem(f), [f] { return io::read_graph<double>(f, io::duplicates::keep_first); }});

  if (!o.write_mtx.empty()) {
    int failed = 0;
    for (auto& [name, make] : suite) {
      if (!selected(o.only, name)) continue;
      try {
        const auto t0 = std::chrono::steady_clock::now();
        const Matrix<double> A = make();
        write_suite_files(o.write_mtx, name, A);
        std::printf("# wrote %s/%s.mtx and .csr.bin: n %lld, nnz %lld (%.1f s)\n", o.write_mtx.c_str(), name.c_str(),
                    (long long)A.nrows(), (long long)A.nvals(),
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      } catch (const std::exception& e) {
        std::printf("# %s: FAILED to write: %s\n", name.c_str(), e.what());
        ++failed;
      }
      std::fflush(stdout);
    }
    return failed ? 1 : 0;
  }

  const double bw = (o.gpu && gpu_available()) ? gpu_copy_bandwidth() : 0.0;
  const std::string pool = (o.gpu && gpu_available()) ? set_pool_policy(o.pool_keep) : std::string("no GPU");
  std::printf("# tgb-bench: GPU %s; device copy bandwidth %.0f GB/s; host %d threads; reps %d (host %d)\n",
              gpu_description().c_str(), bw, omp_get_max_threads(), o.reps, o.host_reps);
  std::printf("# pool: %s\n", pool.c_str());
#if defined(TGB_BENCH_GRAPHBLAS)
  std::printf("# SuiteSparse:GraphBLAS: %s\n", grb_lib.c_str());
#endif
  if (o.spmv) return run_spmv_suite(suite, o);
  std::printf("# stored bytes: tgb = every array of the form it stores (tiles, or rows where its storage rule keeps "
              "rows); CSR = 32-bit indices: 4*(rows+1) + nnz*(4 + value bytes), i.e. 12 bytes/entry + 4 bytes/row "
              "for fp64\n");
  std::printf("%-16s %-15s %-11s %12s %10s %17s %8s %9s %8s %7s %s\n", "matrix", "op", "impl", "nnz(C)", "median_ms",
              "min-max", "GFLOPS", "peak_MB", "floor_ms", "speedup", "check");
  if (o.algorithms) {
    bench::algorithm_options ao;
    ao.reps = o.reps;
    ao.host_reps = o.host_reps;
    ao.gpu = o.gpu;
    ao.host = o.host;
    ao.mcl = o.mcl;
    ao.vector_only = o.vector_only;
    std::printf("\n# graph algorithms: median ms (min-max), peak device MB, result\n");
    std::vector<std::pair<std::string, std::function<Matrix<double>()>>> graphs = {
        {"rmat16_ef8", [] { return bench::rmat(16, 8).build(); }}};
    if (o.large) graphs.push_back({"rmat18_ef8", [] { return bench::rmat(18, 8).build(); }});
    for (const auto& f : o.files)
      graphs.push_back({file_stem(f), [f] { return io::read_graph<double>(f, io::duplicates::keep_first); }});
    for (auto& [name, make] : graphs) {
      if (!selected(o.only, name)) continue;
      try {
        const Matrix<double> A = make();
        if (A.nrows() != A.ncols()) continue;
        bench::run_algorithms(name, A, ao, &json_out);
      } catch (const std::exception& e) {
        std::printf("# %s: %s\n", name.c_str(), e.what());
      }
    }
#if defined(TGB_BENCH_GRAPHBLAS)
    GrB_finalize();
#endif
    return 0;
  }
  for (auto& [name, make] : suite) {
    if (!selected(o.only, name)) continue;
    try {
      const Matrix<double> A = make();
      if (A.nrows() != A.ncols()) {
        std::printf("# %s: not square, skipped\n", name.c_str());
        continue;
      }
      run_matrix(name, A, o, bw);
    } catch (const std::exception& e) {
      std::printf("# %s: %s\n", name.c_str(), e.what());
    }
  }
  // The large option's product past 2^31 entries (tgb-cuda only: cuSPARSE's
  // 32-bit indices cannot hold it; its attempt is reported).
  if (o.large && o.gpu && gpu_available() && selected(o.only, "cols16_47k")) {
    try {
      trim_pool();
      const big_product b = past_2_31(std::min(o.reps, 5));
      row base;
      base.matrix = "cols16_47k";
      base.op = "AAt_plus_times";
      base.n = b.n;
      base.nnz_a = b.nnz_a;
      base.products = b.products;
      row c = base;
      c.impl = "cusparse";
      c.ms = b.cusparse.ms;
      c.nnz_c = b.cusparse.nvals;
      c.check = b.cusparse.ran ? "ran" : "error";
      c.note = b.cusparse.note;
      emit(c);
      row t = base;
      t.impl = "tgb-cuda";
      t.ms = b.tgb.ms;
      t.nnz_c = b.tgb.nvals;
      t.peak_mb = b.tgb.peak_bytes / 1048576.0;
      t.check = b.check;
      t.note = b.tgb.note;
      emit(t);
    } catch (const std::exception& e) {
      std::printf("# cols16_47k: %s\n", e.what());
    }
  }
  // Summary: geometric means of the speed-ups.
  std::map<std::string, std::vector<double>> ratios, mem;
  std::map<std::string, double> worst;
  for (const auto& r : rows)
    if (!std::isnan(r.baseline_ms) && !r.ms.empty() && r.check != "DIFFERS") {
      const std::string key = r.impl + " " + r.op;
      const double s = r.baseline_ms / median(r.ms);
      ratios[key].push_back(std::log(s));
      worst[key] = worst.count(key) ? std::min(worst[key], s) : s;
    }
  std::printf("\n# summary (speed-up over the baseline: cuSPARSE for tgb-cuda, SuiteSparse for tgb-host)\n");
  for (const auto& [k, v] : ratios) {
    double s = 0;
    for (double x : v) s += x;
    std::printf("# %-28s geomean %.2fx over %zu matrices, worst %.2fx\n", k.c_str(), std::exp(s / v.size()), v.size(),
                worst[k]);
  }
  for (const auto& r : rows)
    if (r.check == "DIFFERS" || r.check == "FAILED") {
      std::printf("# CHECK FAILED: %s %s %s: %s\n", r.matrix.c_str(), r.op.c_str(), r.impl.c_str(), r.note.c_str());
    }
#if defined(TGB_BENCH_GRAPHBLAS)
  GrB_finalize();
#endif
  return 0;
}
