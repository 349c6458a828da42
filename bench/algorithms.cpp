// tgb-bench --algorithms: the graph algorithms on each backend, with
// SuiteSparse:GraphBLAS computing the same masked triangle product on the
// host. Triangle counting is also run as an unmasked product followed by
// ewise_mult with L, to show what the mask saves. Medians of repeated runs
// after a warm-up, CUDA events on the GPU, peak device memory per run.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "algorithms.hpp"
#include "gpu.hpp"

#if defined(TGB_BENCH_GRAPHBLAS)
extern "C" {
#include <GraphBLAS.h>
}
#endif

namespace bench {

namespace {

using namespace tgb;

double median_of(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

struct measured {
  std::vector<double> ms;
  double peak_mb = 0;
  std::string result;
};

// reps timed runs after one warm-up; peak device memory above what was in
// use before the run.
measured measure(bool gpu, int reps, const std::function<std::string()>& f) {
  measured m;
  stopwatch sw(gpu);
  for (int r = -1; r < reps; ++r) {
    cuda_synchronize();
    const std::size_t base = device_bytes_in_use();
    reset_device_peak_bytes();
    sw.start();
    m.result = f();
    const double t = sw.stop_ms();
    if (r >= 0) m.ms.push_back(t);
    m.peak_mb = std::max(m.peak_mb, double(device_peak_bytes() - base) / 1048576.0);
  }
  return m;
}

void report(std::ofstream* json, const std::string& graph, const std::string& what, const std::string& impl,
            const measured& m, const std::string& note = "") {
  const double med = median_of(m.ms);
  const double lo = m.ms.empty() ? NAN : *std::min_element(m.ms.begin(), m.ms.end());
  const double hi = m.ms.empty() ? NAN : *std::max_element(m.ms.begin(), m.ms.end());
  std::printf("%-18s %-22s %-12s %11.3f %9.3f-%-9.3f %9.1f  %s %s\n", graph.c_str(), what.c_str(), impl.c_str(), med, lo,
              hi, m.peak_mb, m.result.c_str(), note.c_str());
  std::fflush(stdout);
  if (json && *json)
    *json << "{\"section\":\"algorithms\",\"matrix\":\"" << graph << "\",\"op\":\"" << what << "\",\"impl\":\"" << impl
          << "\",\"median_ms\":" << (m.ms.empty() ? 0.0 : med) << ",\"min_ms\":" << (m.ms.empty() ? 0.0 : lo)
          << ",\"max_ms\":" << (m.ms.empty() ? 0.0 : hi) << ",\"runs\":" << m.ms.size()
          << ",\"peak_mb\":" << m.peak_mb << ",\"result\":\"" << m.result << "\",\"note\":\"" << note << "\"}\n"
          << std::flush;
}

template <class T>
Matrix<T> placed(const Matrix<T>& m, backend w) {
  Matrix<T> c = m;
  c.to(w);
  return c;
}

// The unmasked alternative: C = L plus_pair L', then C .* L, summed.
std::int64_t triangles_unmasked(const Matrix<bool>& L) {
  const index_t n = L.nrows();
  Matrix<std::int64_t> C(n, n), D(n, n);
  C.to(L.location());
  D.to(L.location());
  mxm(C, no_mask, no_accum, plus_pair, L, L, descriptor{}.with_transpose_b());
  Matrix<std::int64_t> Li(n, n);
  Li.to(L.location());
  apply(Li, no_mask, no_accum, one{}, L);
  ewise_mult(D, no_mask, no_accum, times{}, C, Li);
  return reduce(plus_monoid{}, D);
}

}  // namespace

void run_algorithms(const std::string& name, const Matrix<double>& A0, const algorithm_options& o,
                    std::ofstream* json) {
  const index_t n = A0.nrows();
  std::printf("# %s: %lld vertices, %lld entries\n", name.c_str(), (long long)n, (long long)A0.nvals());
  std::vector<backend> where;
  if (o.gpu && gpu_available()) where.push_back(backend::cuda);
  if (o.host) where.push_back(backend::host);
  const Matrix<bool> S = undirected_pattern(A0);
  Matrix<bool> L(n, n);
  select(L, no_mask, no_accum, tril{}, S, -1);
  for (backend w : where) {
    const bool gpu = w == backend::cuda;
    const char* impl = gpu ? "tgb-cuda" : "tgb-host";
    const int reps = gpu ? o.reps : o.host_reps;
    const Matrix<double> A = placed(A0, w);
    const Matrix<bool> Lw = placed(L, w);
    const measured tc = measure(gpu, reps, [&] { return std::to_string(triangle_count(A)); });
    report(json, name, "tc (whole)", impl, tc, "pattern, L, masked product, sum");
    // The variants: which triangle, and relabelling by degree first.
    const std::pair<tc_method, const char*> methods[] = {{tc_method::sandia_ll, "LL'"}, {tc_method::sandia_uu, "UU'"}};
    const std::pair<tc_order, const char*> orders[] = {
        {tc_order::none, "as numbered"}, {tc_order::ascending, "degree ascending"}, {tc_order::descending, "degree descending"}};
    for (const auto& [m, mn] : methods)
      for (const auto& [ord, on] : orders) {
        if (m == tc_method::sandia_ll && ord == tc_order::none) continue;  // the row above
        const measured v = measure(gpu, std::max(1, reps / 2), [&] {
          return std::to_string(triangle_count(A, tc_options{m, ord}));
        });
        report(json, name, std::string("tc ") + mn + ", " + on, impl, v);
      }
    const measured masked = measure(gpu, reps, [&] {
      Matrix<std::int64_t> C(n, n);
      C.to(w);
      mxm(C, structure(Lw), no_accum, plus_pair, Lw, Lw, descriptor{}.with_transpose_b());
      return std::to_string(reduce(plus_monoid{}, C));
    });
    report(json, name, "tc C<L>=LL' + sum", impl, masked);
    if (o.unmasked) {
      try {
        const measured un = measure(gpu, std::max(1, reps / 3), [&] { return std::to_string(triangles_unmasked(Lw)); });
        char note[96];
        std::snprintf(note, sizeof note, "%.1fx the masked product", median_of(un.ms) / median_of(masked.ms));
        report(json, name, "tc C=LL', .*L, sum", impl, un, note);
      } catch (const std::exception& e) {
        report(json, name, "tc C=LL', .*L, sum", impl, measured{}, std::string("failed: ") + e.what());
      }
    }
    for (index_t k : o.sources) {
      if (k > n) continue;
      std::vector<index_t> src;
      for (index_t q = 0; q < k; ++q) src.push_back((q * 7919) % n);
      const measured b = measure(gpu, std::max(1, reps / 2), [&] {
        msbfs_options opt;
        opt.symmetrize = true;
        const Matrix<std::int64_t> V = msbfs(A, src, opt);
        return std::to_string(V.nvals()) + " reached";
      });
      report(json, name, "msbfs " + std::to_string(k) + " sources", impl, b);
    }
    if (o.mcl && n <= o.mcl_max_vertices) {
      std::vector<double> iter_ms;
      mcl_params p;
      p.progress = [&](const mcl_progress& q) { iter_ms.push_back(q.seconds * 1e3); };
      measured m = measure(gpu, 1, [&] {
        iter_ms.clear();
        const mcl_result r = markov_clustering(A, p);
        return std::to_string(r.clusters.size()) + " clusters, " + std::to_string(r.iterations) + " iterations";
      });
      char note[96];
      std::snprintf(note, sizeof note, "median iteration %.3f ms", median_of(iter_ms));
      report(json, name, "mcl (whole)", impl, m, note);
      measured it;
      it.ms = iter_ms;
      it.peak_mb = m.peak_mb;
      it.result = "per iteration";
      report(json, name, "mcl iteration", impl, it);
    }
  }
#if defined(TGB_BENCH_GRAPHBLAS)
  if (o.host) {
    // SuiteSparse on the same L: C<L> = L plus_pair L', summed.
    const coo<bool> c = L.to_coo();
    std::vector<GrB_Index> I(c.rows.begin(), c.rows.end()), J(c.cols.begin(), c.cols.end());
    std::vector<std::uint8_t> X(c.rows.size() + 1, 1);
    I.push_back(0), J.push_back(0);
    GrB_Matrix gL = nullptr;
    GrB_Matrix_new(&gL, GrB_BOOL, n, n);
    GrB_Matrix_build_BOOL(gL, I.data(), J.data(), reinterpret_cast<bool*>(X.data()), c.rows.size(), GrB_LOR);
    GrB_Matrix_wait(gL, GrB_MATERIALIZE);
    GrB_Descriptor d = nullptr;
    GrB_Descriptor_new(&d);
    GrB_Descriptor_set(d, GrB_INP1, GrB_TRAN);
    GrB_Descriptor_set(d, GrB_MASK, GrB_STRUCTURE);
    const measured g = measure(false, o.host_reps, [&] {
      GrB_Matrix gC = nullptr;
      GrB_Matrix_new(&gC, GrB_INT64, n, n);
      GrB_mxm(gC, gL, nullptr, GxB_PLUS_PAIR_INT64, gL, gL, d);
      std::int64_t t = 0;
      GrB_Matrix_reduce_INT64(&t, nullptr, GrB_PLUS_MONOID_INT64, gC, nullptr);
      GrB_Matrix_free(&gC);
      return std::to_string(t);
    });
    report(json, name, "tc C<L>=LL' + sum", "suitesparse", g, "host, same L");
    GrB_Descriptor_free(&d);
    GrB_Matrix_free(&gL);
  }
#endif
}

}  // namespace bench
