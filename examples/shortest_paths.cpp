// How far is everything from one place? Shortest paths from a source over a
// weighted graph, computed twice: Bellman-Ford on the min.plus semiring and
// delta-stepping; the two must agree. Prints the distance histogram and the
// farthest reachable vertex.
//
//   tgb-example-shortest_paths GRAPH [SOURCE]
//
// A(i, j) is an edge from i to j of weight A(i, j) (pattern files: weight 1).
#include <tgb/tgb.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s GRAPH [SOURCE]\n", argv[0]);
    return 1;
  }
  try {
    // Vector operations run on the host backend (see docs/algorithms.md).
    const tgb::Matrix<double> A = tgb::io::read_graph<double>(argv[1], tgb::io::duplicates::keep_first);
    const tgb::index_t source = argc > 2 ? std::atoll(argv[2]) : 0;
    const tgb::sssp_result bf = tgb::sssp_bellman_ford(A, source);
    const tgb::sssp_result ds = tgb::sssp_delta_stepping(A, source);  // needs nonnegative weights

    const tgb::index_t n = A.nrows();
    long long reached = 0;
    tgb::index_t far = source;
    double farthest = 0;
    std::vector<long long> histogram(11, 0);  // distance / max distance in tenths
    for (tgb::index_t v = 0; v < n; ++v) {
      const auto a = bf.distance.get(v), b = ds.distance.get(v);
      if (a.has_value() != b.has_value()) return 3;
      if (!a) continue;
      if (std::fabs(*a - *b) > 1e-9 * std::max(1.0, std::fabs(*a))) return 3;  // the two methods disagree
      ++reached;
      if (*a > farthest) farthest = *a, far = v;
    }
    for (tgb::index_t v = 0; v < n; ++v)
      if (const auto a = bf.distance.get(v))
        ++histogram[farthest > 0 ? static_cast<std::size_t>(std::floor(10 * *a / farthest)) : 0];
    std::printf("%s: %lld vertices, source %lld: %lld reached in %lld Bellman-Ford rounds; farthest %lld at %.6g\n",
                argv[1], static_cast<long long>(n), static_cast<long long>(source), reached,
                static_cast<long long>(bf.rounds), static_cast<long long>(far), farthest);
    std::printf("distance (fraction of the farthest)  vertices\n");
    for (std::size_t b = 0; b < histogram.size(); ++b)
      std::printf("  %3zu%% .. %3zu%%  %10lld\n", 10 * b, b < 10 ? 10 * b + 10 : 100, histogram[b]);
    return 0;
  } catch (const tgb::error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}
