// Which pages matter? PageRank (LDBC Graphalytics' definition: damping,
// a fixed number of iterations, dangling vertices' rank spread evenly) over
// a directed graph, then the top vertices by rank.
//
//   tgb-example-pagerank GRAPH [TOP]
//
// A(u, v) is a link from u to v. The ranks sum to 1; the program checks that
// before printing, as a caller embedding tgb might.
#include <tgb/tgb.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s GRAPH [TOP]\n", argv[0]);
    return 1;
  }
  try {
    // Vector operations run on the host backend (see docs/algorithms.md).
    const tgb::Matrix<double> A = tgb::io::read_graph<double>(argv[1], tgb::io::duplicates::keep_first);
    tgb::pagerank_options opt;
    opt.damping = 0.85;
    opt.iterations = 30;
    const tgb::Vector<double> pr = tgb::pagerank(A, opt);
    const auto [idx, rank] = pr.extract_tuples();
    const double total = std::accumulate(rank.begin(), rank.end(), 0.0);
    std::printf("%s: %lld vertices, %lld edges, %d iterations, rank sum %.12f\n", argv[1],
                static_cast<long long>(A.nrows()), static_cast<long long>(A.nvals()), opt.iterations, total);
    if (A.nrows() > 0 && std::fabs(total - 1.0) > 1e-9) return 3;  // ranks are a distribution

    std::vector<std::size_t> order(idx.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    const std::size_t top = std::min<std::size_t>(order.size(), argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 10);
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(top), order.end(),
                      [&](std::size_t a, std::size_t b) { return rank[a] > rank[b] || (rank[a] == rank[b] && idx[a] < idx[b]); });
    std::printf("%8s %10s %14s\n", "place", "vertex", "rank");
    for (std::size_t q = 0; q < top; ++q)
      std::printf("%8zu %10lld %14.8f\n", q + 1, static_cast<long long>(idx[order[q]]), rank[order[q]]);
    return 0;
  } catch (const tgb::error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}
