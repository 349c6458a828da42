// tgb command line: `tgb demo`, the graph algorithms and products on the
// bundled real graphs, with known answers beside the computed ones.
#include <omp.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>

#include "cli.hpp"
#include "tgb/tgb.hpp"

namespace tgb::cli {

namespace {

bool readable(const std::string& p) { return std::ifstream(p).good(); }

std::string exe_dir() {
  char buf[4096];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return ".";
  std::string s(buf, static_cast<std::size_t>(n));
  return s.substr(0, s.find_last_of('/'));
}

std::string find_data_dir(const std::string& given) {
  if (!given.empty()) {
    if (readable(given + "/karate.mtx")) return given;
    throw io_error(given + ": no bundled graphs (karate.mtx) in this folder");
  }
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("TGB_DATA_DIR")) candidates.push_back(env);
  candidates.push_back(exe_dir() + "/../share/tgb/data");
  candidates.push_back(TGB_INSTALL_DATA_DIR);
  candidates.push_back(TGB_SOURCE_DATA_DIR);
  for (const auto& c : candidates)
    if (readable(c + "/karate.mtx")) return c;
  throw io_error("cannot find the bundled graphs; pass --data DIR or set TGB_DATA_DIR");
}

// Wall time of f, device work included.
template <class F>
double time_ms(F&& f) {
  cuda_synchronize();
  const auto t0 = std::chrono::steady_clock::now();
  f();
  cuda_synchronize();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

template <class T>
Matrix<T> placed(Matrix<T> m, backend where) {
  m.to(where);
  return m;
}

}  // namespace

int cmd_demo(const std::vector<std::string>& args) {
  std::string data;
  for (std::size_t k = 0; k < args.size(); ++k) {
    if (args[k] == "--data" && k + 1 < args.size()) data = args[++k];
    else throw usage_error("tgb demo: unknown option '" + args[k] + "' (only --data DIR)");
  }
  const std::string dir = find_data_dir(data);
  std::cout << "tgb demo: graph algorithms and sparse products over semirings in 16x16 tiles\n";
  const backend where = preferred_backend();
  std::cout << "GPU:     " << (cuda_compiled() ? cuda_device_description() : "CUDA backend not compiled") << "\n";
  if (where == backend::cuda)
    std::cout << "backend: cuda (graphs are read on the host and moved to the GPU; everything below runs there)";
  else
    std::cout << "backend: host (OpenMP, " << omp_get_max_threads() << " threads)";
  std::cout << "\ndata:    " << dir << "\n";
  int wrong = 0;
  auto load = [&](const char* file) { return placed(io::read_matrix_market<double>(dir + "/" + file), where); };
  auto name_of = [](const char* file) {
    std::string n(file);
    return n.substr(0, n.size() - 4);
  };

  // ---- triangle counting
  std::cout << "\nTriangle counting: C<U> = U plus_pair U', U = strictly upper triangle of pattern(A + A')\n";
  std::printf("%-15s %8s %9s %11s %11s %10s\n", "graph", "vertices", "entries", "triangles", "known", "ms");
  struct tc_graph {
    const char* file;
    std::int64_t triangles;
  };
  const tc_graph tcs[] = {{"karate.mtx", 45},     {"dolphins.mtx", 95},       {"polbooks.mtx", 560},
                          {"west0067.mtx", 120},  {"jagmesh7.mtx", 2016},     {"netscience.mtx", 3764},
                          {"add32.mtx", 4998},    {"ca-GrQc.mtx", 48260},     {"crack.mtx", 20141},
                          {"bcsstk13.mtx", 342300}, {"luxembourg.mtx", 68}};
  for (const auto& g : tcs) {
    if (!readable(dir + "/" + g.file)) {
      std::printf("%-15s (missing)\n", g.file);
      continue;
    }
    const Matrix<double> A = load(g.file);
    std::int64_t t = 0;
    const double ms = time_ms([&] { t = triangle_count(A); });
    const bool ok = t == g.triangles;
    wrong += !ok;
    std::printf("%-15s %8lld %9lld %11lld %11lld %10.2f %s\n", name_of(g.file).c_str(),
                static_cast<long long>(A.nrows()), static_cast<long long>(A.nvals()), static_cast<long long>(t),
                static_cast<long long>(g.triangles), ms, ok ? "ok" : "WRONG");
  }

  // ---- BFS
  std::cout << "\nMulti-source BFS: F<!V, structure, replace> = F any_pair A, one frontier row per source\n";
  {
    const Matrix<double> A = load("karate.mtx");
    const std::vector<std::int64_t> known{2, 1, 2, 2, 3, 3, 3, 2, 1, 2, 3, 3, 3, 2, 2, 2, 4,
                                          2, 2, 2, 2, 2, 2, 2, 3, 3, 2, 2, 2, 2, 0, 2, 1, 1};
    std::vector<std::int64_t> lv;
    const double ms = time_ms([&] { lv = dense_levels(msbfs(A, {30})); });
    const bool ok = lv == known;
    wrong += !ok;
    std::cout << "karate from vertex 30:   ";
    for (auto v : lv) std::cout << v << ' ';
    std::printf("(%.2f ms) %s\n", ms, ok ? "ok: equals LAGraph's known levels" : "WRONG: differs from LAGraph's");
  }
  std::printf("%-15s %8s %8s %12s %10s %10s\n", "graph", "vertices", "sources", "reached", "max level", "ms");
  for (const char* file : {"netscience.mtx", "jagmesh7.mtx", "ca-GrQc.mtx"}) {
    if (!readable(dir + "/" + file)) continue;
    const Matrix<double> A = load(file);
    std::vector<index_t> src;
    for (index_t k = 0; k < 64; ++k) src.push_back((k * 7919) % A.nrows());
    std::vector<std::int64_t> lv;
    const double ms = time_ms([&] { lv = dense_levels(msbfs(A, src)); });
    long long reached = 0, deepest = 0;
    for (auto v : lv) reached += v >= 0, deepest = std::max<long long>(deepest, v);
    std::printf("%-15s %8lld %8zu %12lld %10lld %10.2f\n", name_of(file).c_str(), static_cast<long long>(A.nrows()),
                src.size(), reached, deepest, ms);
  }

  // ---- MCL
  std::cout << "\nMarkov clustering: expansion R*R, pruning, inflation R.^2, row normalization (mcl's defaults)\n";
  std::printf("%-15s %8s %9s %10s %12s %10s %s\n", "graph", "vertices", "clusters", "mcl 22-282", "iterations", "ms",
              "largest clusters");
  struct mcl_graph {
    const char* file;
    std::size_t clusters;  // what `mcl FILE --abc -I 2.0` finds (plus isolated vertices, which it leaves out)
  };
  for (const mcl_graph& g : {mcl_graph{"karate.mtx", 2}, mcl_graph{"dolphins.mtx", 12}, mcl_graph{"polbooks.mtx", 5},
                             mcl_graph{"netscience.mtx", 329 + 128}}) {
    if (!readable(dir + std::string("/") + g.file)) continue;
    const Matrix<double> A = load(g.file);
    mcl_result r;
    const double ms = time_ms([&] { r = markov_clustering(A); });
    const bool ok = r.clusters.size() == g.clusters;
    wrong += !ok;
    std::string sizes;
    for (std::size_t k = 0; k < r.clusters.size() && k < 5; ++k) sizes += std::to_string(r.clusters[k].size()) + " ";
    std::printf("%-15s %8lld %9zu %10zu %12d %10.2f %s%s\n", name_of(g.file).c_str(),
                static_cast<long long>(A.nrows()), r.clusters.size(), g.clusters, r.iterations, ms, sizes.c_str(),
                ok ? "ok" : "WRONG");
  }

  // ---- products
  std::cout << "\nProducts: C = A*A over two semirings, and the 2-hop pairs that are not edges, C<!S> = S lor_land S\n";
  std::printf("%-15s %6s | %-20s | %-20s | %-22s\n", "graph", "tiles", "C=A*A plus_times", "C=A*A min_plus",
              "C<!S>=S*S lor_land");
  std::printf("%-15s %6s | %9s %10s | %9s %10s | %9s %12s\n", "", "", "entries", "ms", "entries", "ms", "entries", "ms");
  for (const char* file : {"karate.mtx", "jagmesh7.mtx", "netscience.mtx", "bcsstk13.mtx", "ca-GrQc.mtx",
                           "crack.mtx", "luxembourg.mtx"}) {
    if (!readable(dir + "/" + file)) continue;
    const Matrix<double> A = load(file);
    const index_t n = A.nrows();
    Matrix<double> C = placed(Matrix<double>(n, n), where), D = C;
    const double t_pt = time_ms([&] { mxm(C, no_mask, no_accum, plus_times, A, A); });
    const double t_mp = time_ms([&] { mxm(D, no_mask, no_accum, min_plus, A, A); });
    const Matrix<bool> S = undirected_pattern(A);
    Matrix<bool> R = placed(Matrix<bool>(n, n), where);
    const double t_two = time_ms([&] { mxm(R, complement(structure(S)), no_accum, lor_land, S, S); });
    std::printf("%-15s %6lld | %9lld %10.2f | %9lld %10.2f | %9lld %12.2f\n", name_of(file).c_str(),
                static_cast<long long>(A.ntiles()), static_cast<long long>(C.nvals()), t_pt,
                static_cast<long long>(D.nvals()), t_mp, static_cast<long long>(R.nvals()), t_two);
  }
  std::cout << "\nTimes include the first call's one-time GPU start-up where there is a GPU.\n";
  if (wrong) {
    std::cerr << "tgb demo: " << wrong << " result(s) differ from the known answers\n";
    return 2;
  }
  std::cout << "All results match the known answers.\n";
  finish_stdout();
  return 0;
}

}  // namespace tgb::cli
