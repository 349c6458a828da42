// tgb-bench --algorithms: the graph algorithms on each backend, with
// SuiteSparse:GraphBLAS computing the same masked triangle product on the
// host. Triangle counting is also run as an unmasked product followed by
// ewise_mult with L, to show what the mask saves. Medians of repeated runs
// after a warm-up, CUDA events on the GPU, peak device memory per run.
// Then the vector algorithms (BFS, Bellman-Ford, PageRank) from the vertex
// of largest out-degree, on both backends, with the GPU's answer checked
// against the host's and a GPU/host table in edges per second.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "algorithms.hpp"
#include "gpu.hpp"
#include "suitesparse_algorithms.hpp"

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

// extra: more JSON fields, each starting with a comma.
void report(std::ofstream* json, const std::string& graph, const std::string& what, const std::string& impl,
            const measured& m, const std::string& note = "", const std::string& extra = "") {
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
          << ",\"peak_mb\":" << m.peak_mb << ",\"result\":\"" << m.result << "\",\"note\":\"" << note << "\"" << extra
          << "}\n"
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

// --- The vector algorithms: BFS, Bellman-Ford and PageRank, GPU against host.

// BFS and SSSP start here: the hub reaches most of an R-MAT graph, so the run
// is not a trivial one from an isolated vertex. Ties go to the lowest id, so
// that every backend and every run starts from the same vertex.
index_t largest_out_degree(const Matrix<double>& A, std::int64_t* degree) {
  const csr<double> c = A.location() == backend::host ? A.to_csr() : placed(A, backend::host).to_csr();
  index_t best = 0;
  std::int64_t most = -1;
  for (index_t i = 0; i + 1 < static_cast<index_t>(c.rowptr.size()); ++i) {
    const auto d = static_cast<std::int64_t>(c.rowptr[i + 1] - c.rowptr[i]);
    if (d > most) most = d, best = i;
  }
  *degree = std::max<std::int64_t>(most, 0);
  return best;
}

// Millions of edges traversed per second, counting every stored edge once
// per run, as Graph500 does for BFS (0 where there is no time).
double mteps(index_t edges, double ms) { return ms > 0 ? double(edges) / (ms * 1e3) : 0.0; }

// Exception texts go into JSON strings unescaped elsewhere in this file.
std::string json_safe(std::string s) {
  for (char& ch : s)
    if (ch == '"') ch = '\'';
    else if (ch == '\\') ch = '/';
    else if (ch == '\n' || ch == '\r' || ch == '\t') ch = ' ';
  return s;
}

template <class T>
std::string entry_text(const Vector<T>& v, index_t i) {
  if (!v.present()[i]) return "absent";
  char b[40];
  if constexpr (std::is_floating_point_v<T>) std::snprintf(b, sizeof b, "%.17g", double(v.values()[i]));
  else std::snprintf(b, sizeof b, "%lld", (long long)v.values()[i]);
  return b;
}

// Host vectors g (from the GPU) and h: "" when every vertex agrees, else how
// many differ and the first one.
template <class T, class Same>
std::string differences(const Vector<T>& g, const Vector<T>& h, Same same) {
  if (g.size() != h.size()) return "sizes " + std::to_string(g.size()) + " and " + std::to_string(h.size());
  index_t bad = 0, first = -1;
  for (index_t i = 0; i < g.size(); ++i) {
    const bool gp = g.present()[i], hp = h.present()[i];
    if (gp != hp || (gp && !same(g.values()[i], h.values()[i]))) {
      if (first < 0) first = i;
      ++bad;
    }
  }
  if (bad == 0) return "";
  return std::to_string(bad) + " of " + std::to_string(g.size()) + " vertices differ, first " + std::to_string(first) +
         ": gpu " + entry_text(g, first) + ", host " + entry_text(h, first);
}

// The single-source and per-vertex algorithms compared with SuiteSparse
// (the name stays from when all of them stepped a vector; LCC and the
// k-truss are masked products).
enum class vector_algorithm { bfs, bellman_ford, delta_stepping, pagerank, cc, bc, lcc, ktruss };

// Betweenness centrality's sources: 64 (all vertices where fewer), spread
// over the ids as MS-BFS's are, in one batch.
std::vector<index_t> bc_sources_of(index_t n) {
  const index_t want = std::min<index_t>(64, n);
  std::vector<char> seen(static_cast<std::size_t>(n), 0);
  std::vector<index_t> src;
  for (index_t q = 0; q < n && static_cast<index_t>(src.size()) < want; ++q) {
    const index_t v = (q * 7919) % n;
    if (!seen[static_cast<std::size_t>(v)]++) src.push_back(v);
  }
  // (only where 7919 divides n do the multiples repeat before `want`)
  for (index_t v = 0; v < n && static_cast<index_t>(src.size()) < want; ++v)
    if (!seen[static_cast<std::size_t>(v)]++) src.push_back(v);
  return src;
}

// The k of the k-truss row: 4, so that each round drops edges in fewer than
// two triangles (k = 3 keeps every edge that lies in any triangle, and most
// graphs settle in one or two rounds).
constexpr std::int64_t kTruss = 4;

const char* algorithm_name(vector_algorithm a) {
  switch (a) {
    case vector_algorithm::bfs: return "bfs";
    case vector_algorithm::bellman_ford: return "sssp bellman-ford";
    case vector_algorithm::delta_stepping: return "sssp delta-step";
    case vector_algorithm::cc: return "connected comp.";
    case vector_algorithm::lcc: return "lcc";
    case vector_algorithm::bc: return "bc 64 sources";
    case vector_algorithm::ktruss: return "4-truss";
    default: return "pagerank 20 it";
  }
}

// One algorithm on one backend: the timing, and the answer of the warm-up
// run moved to the host for the check.
struct vector_run {
  bool ran = false;
  std::string failed;
  measured m;
  Vector<std::int64_t> level;  // bfs levels, component labels, or each vertex's k-truss support
  Vector<double> value;        // sssp distances, ranks, or clustering coefficients
};

vector_run run_vector_algorithm(vector_algorithm a, const Matrix<double>& A, index_t source, bool gpu, int reps) {
  vector_run v;
  try {
    bool kept = false;
    bfs_result b;
    sssp_result s;
    Vector<double> pr;
    Vector<std::int64_t> cc;
    Vector<double> score;  // LCC or betweenness centrality
    ktruss_result kt;
    const std::vector<index_t> bc_src = a == vector_algorithm::bc ? bc_sources_of(A.nrows()) : std::vector<index_t>();
    v.m = measure(gpu, reps, [&] {
      // Only the warm-up's answer is kept: keeping every run's would hold
      // (and time the freeing of) one more result per run.
      switch (a) {
        case vector_algorithm::bfs: {
          bfs_result r = tgb::bfs(A, source);  // direction automatic, edges as stored
          if (!kept) b = std::move(r);
          break;
        }
        case vector_algorithm::bellman_ford: {
          sssp_result r = sssp_bellman_ford(A, source);
          if (!kept) s = std::move(r);
          break;
        }
        case vector_algorithm::delta_stepping: {
          sssp_result r = sssp_delta_stepping(A, source);  // delta: the mean edge weight
          if (!kept) s = std::move(r);
          break;
        }
        case vector_algorithm::pagerank: {
          Vector<double> r = pagerank(A, pagerank_options{0.85, 20});
          if (!kept) pr = std::move(r);
          break;
        }
        case vector_algorithm::cc: {
          Vector<std::int64_t> r = connected_components(A);  // weakly connected: the pattern of A + A'
          if (!kept) cc = std::move(r);
          break;
        }
        case vector_algorithm::lcc: {
          Vector<double> r = local_clustering_coefficient(A);  // directed, LDBC's definition
          if (!kept) score = std::move(r);
          break;
        }
        case vector_algorithm::bc: {
          Vector<double> r = betweenness_centrality(A, bc_src, bc_options{0, false});  // one batch
          if (!kept) score = std::move(r);
          break;
        }
        case vector_algorithm::ktruss: {
          ktruss_result r = ktruss(A, kTruss);
          if (!kept) kt = std::move(r);
          break;
        }
      }
      kept = true;
      // The stop event then follows every kernel, on whichever stream it ran.
      if (gpu) cuda_synchronize();
      return std::string();
    });
    char text[160];
    switch (a) {
      case vector_algorithm::bfs: {
        b.level.to(backend::host);
        std::int64_t depth = 0;
        for (index_t i = 0; i < b.level.size(); ++i)
          if (b.level.present()[i]) depth = std::max(depth, b.level.values()[i]);
        std::snprintf(text, sizeof text, "%lld reached, depth %lld, %lld push + %lld pull steps",
                      (long long)b.level.nvals(), (long long)depth, (long long)b.push_steps, (long long)b.pull_steps);
        v.level = std::move(b.level);
        break;
      }
      case vector_algorithm::bellman_ford:
      case vector_algorithm::delta_stepping: {
        s.distance.to(backend::host);
        std::snprintf(text, sizeof text, "%lld reached, %lld rounds", (long long)s.distance.nvals(),
                      (long long)s.rounds);
        v.value = std::move(s.distance);
        break;
      }
      case vector_algorithm::pagerank: {
        pr.to(backend::host);
        double sum = 0;
        for (index_t i = 0; i < pr.size(); ++i)
          if (pr.present()[i]) sum += pr.values()[i];
        std::snprintf(text, sizeof text, "rank sum %.12f", sum);
        v.value = std::move(pr);
        break;
      }
      case vector_algorithm::cc: {
        cc.to(backend::host);
        index_t count = 0;
        for (index_t i = 0; i < cc.size(); ++i) count += cc.present()[i] && cc.values()[i] == i;
        std::snprintf(text, sizeof text, "%lld components", (long long)count);
        v.level = std::move(cc);
        break;
      }
      case vector_algorithm::lcc:
      case vector_algorithm::bc: {
        score.to(backend::host);
        double sum = 0;
        for (index_t i = 0; i < score.size(); ++i)
          if (score.present()[i]) sum += score.values()[i];
        std::snprintf(text, sizeof text, "mean %.9f", score.size() ? sum / double(score.size()) : 0.0);
        v.value = std::move(score);
        break;
      }
      case vector_algorithm::ktruss: {
        // Checked through each vertex's sum of supports (and the edge count).
        Vector<std::int64_t> per(kt.support.nrows());
        per.to(kt.support.location());
        reduce(per, no_mask, no_accum, plus_monoid{}, kt.support);
        per.to(backend::host);
        std::snprintf(text, sizeof text, "%lld edges both ways, %lld rounds", (long long)kt.support.nvals(),
                      (long long)kt.rounds);
        v.level = std::move(per);
        break;
      }
    }
    v.m.result = text;
    v.ran = true;
  } catch (const std::exception& e) {
    v.failed = json_safe(e.what());
    v.m = measured{};
  }
  return v;
}

// "" when the GPU's answer is the host's within the algorithm's tolerance:
// levels exactly; Bellman-Ford relative 1e-9 (the same sums, but min.plus may
// take equal paths in another order); PageRank absolute 1e-12 (plus
// reductions in another order); LCC the same (quotients of equal counts);
// betweenness as Bellman-Ford (sums of quotients in another order);
// the k-truss's per-vertex supports exactly.
std::string check_vector_algorithm(vector_algorithm a, const vector_run& g, const vector_run& h) {
  switch (a) {
    case vector_algorithm::bfs:
    case vector_algorithm::cc:
    case vector_algorithm::ktruss:
      return g.level == h.level ? "" : differences(g.level, h.level, [](std::int64_t x, std::int64_t y) { return x == y; });
    case vector_algorithm::bellman_ford:
    case vector_algorithm::delta_stepping:
    case vector_algorithm::bc:
      return differences(g.value, h.value, [](double x, double y) {
        return x == y || std::fabs(x - y) <= 1e-9 * std::max(std::fabs(x), std::fabs(y));
      });
    default: return differences(g.value, h.value, [](double x, double y) { return std::fabs(x - y) <= 1e-12; });
  }
}

#if defined(TGB_BENCH_GRAPHBLAS)
// SuiteSparse running the same formulation on the same cores, its answer
// checked against tgb's host answer, and a table of tgb host / SuiteSparse
// (higher is better for tgb: SuiteSparse ms / tgb ms).
void run_suitesparse_vector_algorithms(const std::string& name, const Matrix<double>& A0, index_t source,
                                       const vector_algorithm* algos, const vector_run* host_runs, int count,
                                       const algorithm_options& o, std::ofstream* json) {
  const index_t edges = A0.nvals();
  const std::shared_ptr<ss::graph> g = ss::load(placed(A0, backend::host));
  const std::vector<index_t> bc_src = bc_sources_of(A0.nrows());
  std::vector<vector_run> runs(count);
  for (int k = 0; k < count; ++k) {
    vector_run& v = runs[k];
    index_t a = 0, b = 0;
    try {
      bool kept = false;
      v.m = measure(false, o.host_reps, [&] {
        switch (algos[k]) {
          case vector_algorithm::bfs: {
            auto r = ss::bfs(*g, source, &a, &b);
            if (!kept) v.level = std::move(r);
            break;
          }
          case vector_algorithm::bellman_ford: {
            auto r = ss::bellman_ford(*g, source, &a);
            if (!kept) v.value = std::move(r);
            break;
          }
          case vector_algorithm::delta_stepping: {
            auto r = ss::delta_stepping(*g, source, &a);
            if (!kept) v.value = std::move(r);
            break;
          }
          case vector_algorithm::pagerank: {
            auto r = ss::pagerank(*g, 0.85, 20);
            if (!kept) v.value = std::move(r);
            break;
          }
          case vector_algorithm::cc: {
            auto r = ss::connected_components(*g);
            if (!kept) v.level = std::move(r);
            break;
          }
          case vector_algorithm::lcc: {
            auto r = ss::lcc(*g);
            if (!kept) v.value = std::move(r);
            break;
          }
          case vector_algorithm::bc: {
            auto r = ss::betweenness(*g, bc_src);
            if (!kept) v.value = std::move(r);
            break;
          }
          case vector_algorithm::ktruss: {
            auto r = ss::ktruss_support(*g, kTruss, &a);
            if (!kept) v.level = std::move(r);
            break;
          }
        }
        kept = true;
        return std::string();
      });
      v.ran = true;
    } catch (const std::exception& e) {
      v.failed = json_safe(e.what());
      v.m = measured{};
    }
    std::string check = v.failed.empty() ? "unchecked" : "failed: " + v.failed;
    if (v.ran && host_runs[k].ran) {
      const std::string diff = check_vector_algorithm(algos[k], v, host_runs[k]);
      check = diff.empty() ? "ok" : "FAILED: " + diff;
      if (!diff.empty()) std::printf("CHECK FAILED: %s %s suitesparse: %s\n", name.c_str(), algorithm_name(algos[k]), diff.c_str());
    }
    v.m.result = algos[k] == vector_algorithm::bfs ? std::to_string(a) + " push + " + std::to_string(b) + " pull steps"
                 : algos[k] == vector_algorithm::bellman_ford || algos[k] == vector_algorithm::delta_stepping ||
                           algos[k] == vector_algorithm::ktruss
                     ? std::to_string(a) + " rounds"
                     : std::string();
    const double rate = mteps(edges, median_of(v.m.ms));
    char note[96];
    std::snprintf(note, sizeof note, "%.1f MTEPS, check vs tgb-host: ", rate);
    report(json, name, algorithm_name(algos[k]), "suitesparse", v.m, note + check);
  }
  std::printf("\n# %s: vector algorithms, tgb host against SuiteSparse, same formulation and threads (ratio = "
              "SuiteSparse ms / tgb ms; higher is better for tgb)\n", name.c_str());
  for (int k = 0; k < count; ++k) {
    const vector_run &h = host_runs[k], &s = runs[k];
    const double hms = h.ran ? median_of(h.m.ms) : 0.0, sms = s.ran ? median_of(s.m.ms) : 0.0;
    const double ratio = hms > 0 && sms > 0 ? sms / hms : 0.0;
    std::printf("%-18s %-18s tgb-host %10.3f ms  suitesparse %10.3f ms  %6.2fx\n", name.c_str(),
                algorithm_name(algos[k]), hms, sms, ratio);
    if (json && *json)
      *json << "{\"section\":\"algorithms\",\"matrix\":\"" << name << "\",\"op\":\"" << algorithm_name(algos[k])
            << "\",\"impl\":\"host-vs-suitesparse\",\"host_ms\":" << hms << ",\"suitesparse_ms\":" << sms
            << ",\"ratio\":" << ratio << "}\n"
            << std::flush;
  }
  std::fflush(stdout);
}
#endif

void run_vector_algorithms(const std::string& name, const Matrix<double>& A0, const algorithm_options& o,
                           std::ofstream* json) {
  const index_t n = A0.nrows(), edges = A0.nvals();
  if (n == 0) return;
  std::int64_t degree = 0;
  const index_t source = largest_out_degree(A0, &degree);
  std::printf("# %s: bfs and sssp from vertex %lld (out-degree %lld, the largest); MTEPS = %lld edges / median time\n",
              name.c_str(), (long long)source, (long long)degree, (long long)edges);
  const vector_algorithm algos[] = {vector_algorithm::bfs, vector_algorithm::bellman_ford,
                                    vector_algorithm::delta_stepping, vector_algorithm::pagerank,
                                    vector_algorithm::cc, vector_algorithm::bc, vector_algorithm::lcc,
                                    vector_algorithm::ktruss};
  constexpr int count = 8;
  vector_run gpu_runs[count], host_runs[count];
  const bool with_gpu = o.gpu && gpu_available();
  for (backend w : {backend::cuda, backend::host}) {
    const bool gpu = w == backend::cuda;
    if (gpu ? !with_gpu : !o.host) continue;
    const char* impl = gpu ? "tgb-cuda" : "tgb-host";
    // As for tc above: the full repeat count on each side.
    const int reps = gpu ? o.reps : o.host_reps;
    const Matrix<double> A = placed(A0, w);
    for (int k = 0; k < count; ++k) {
      vector_run& r = (gpu ? gpu_runs : host_runs)[k];
      r = run_vector_algorithm(algos[k], A, source, gpu, reps);
      const double rate = mteps(edges, median_of(r.m.ms));
      char note[64];
      std::snprintf(note, sizeof note, "%.1f MTEPS", rate);
      char extra[192];
      std::snprintf(extra, sizeof extra, ",\"vertices\":%lld,\"edges\":%lld,\"source\":%lld,\"mteps\":%.6g",
                    (long long)n, (long long)edges, (long long)source, rate);
      report(json, name, algorithm_name(algos[k]), impl, r.m, r.ran ? note : "failed: " + r.failed, extra);
    }
  }
#if defined(TGB_BENCH_GRAPHBLAS)
  if (o.host) run_suitesparse_vector_algorithms(name, A0, source, algos, host_runs, count, o, json);
#endif
  if (!with_gpu) return;
  std::printf("\n# %s: vector algorithms, GPU against host (speed-up = host ms / gpu ms)\n", name.c_str());
  std::printf("%-18s %10s %12s %-18s %11s %11s %10s %10s %8s  %s\n", "graph", "vertices", "edges", "algorithm",
              "gpu_ms", "host_ms", "gpu_MTEPS", "host_MTEPS", "speedup", "check");
  for (int k = 0; k < count; ++k) {
    const vector_run &g = gpu_runs[k], &h = host_runs[k];
    const char* algo = algorithm_name(algos[k]);
    std::string check;
    if (!g.failed.empty()) check = "gpu failed: " + g.failed;
    else if (!h.failed.empty()) check = "host failed: " + h.failed;
    else if (!g.ran || !h.ran) check = "unchecked (one backend only)";
    else {
      const std::string diff = check_vector_algorithm(algos[k], g, h);
      if (diff.empty()) check = "ok";
      else {
        check = "FAILED: " + diff;
        std::printf("CHECK FAILED: %s %s: %s\n", name.c_str(), algo, diff.c_str());
      }
    }
    const double gms = g.ran ? median_of(g.m.ms) : 0.0, hms = h.ran ? median_of(h.m.ms) : 0.0;
    const double speedup = gms > 0 && hms > 0 ? hms / gms : 0.0;
    std::printf("%-18s %10lld %12lld %-18s %11.3f %11.3f %10.1f %10.1f %7.2fx  %s\n", name.c_str(), (long long)n,
                (long long)edges, algo, gms, hms, mteps(edges, gms), mteps(edges, hms), speedup, check.c_str());
    if (json && *json)
      *json << "{\"section\":\"algorithms\",\"matrix\":\"" << name << "\",\"op\":\"" << algo
            << "\",\"impl\":\"gpu-vs-host\",\"vertices\":" << n << ",\"edges\":" << edges << ",\"source\":" << source
            << ",\"gpu_ms\":" << gms << ",\"host_ms\":" << hms << ",\"gpu_mteps\":" << mteps(edges, gms)
            << ",\"host_mteps\":" << mteps(edges, hms) << ",\"speedup\":" << speedup
            << ",\"gpu_peak_mb\":" << g.m.peak_mb << ",\"check\":\"" << check << "\"}\n"
            << std::flush;
  }
  std::fflush(stdout);
}

}  // namespace

void run_algorithms(const std::string& name, const Matrix<double>& A0, const algorithm_options& o,
                    std::ofstream* json) {
  const index_t n = A0.nrows();
  std::printf("# %s: %lld vertices, %lld entries\n", name.c_str(), (long long)n, (long long)A0.nvals());
  if (o.vector_only) {
    run_vector_algorithms(name, A0, o, json);
    return;
  }
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
  if (o.vector_algorithms) run_vector_algorithms(name, A0, o, json);
}

}  // namespace bench
