// How far is everything from a set of landmarks? One multi-source BFS gives
// the level of every vertex from every landmark; from it the eccentricity of
// each landmark and the hop distance between landmark pairs.
//
//   tgb-example-reachability GRAPH [LANDMARKS]
#include <tgb/tgb.hpp>

#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s GRAPH [LANDMARKS]\n", argv[0]);
    return 1;
  }
  try {
    tgb::Matrix<double> A = tgb::io::read_graph<double>(argv[1], tgb::io::duplicates::keep_first);
    A.to(tgb::preferred_backend());
    const tgb::index_t n = A.nrows();
    const tgb::index_t k = std::min<tgb::index_t>(n, argc > 2 ? std::atoll(argv[2]) : 8);
    std::vector<tgb::index_t> landmarks;
    for (tgb::index_t q = 0; q < k; ++q) landmarks.push_back(q * n / k);  // spread over the ids

    tgb::msbfs_options opt;
    opt.symmetrize = true;  // treat the graph as undirected
    const tgb::Matrix<std::int64_t> V = tgb::msbfs(A, landmarks, opt);
    const std::vector<std::int64_t> level = tgb::dense_levels(V);  // k x n, -1 unreached

    std::printf("%s: %lld vertices, BFS from %lld landmarks on %s\n", argv[1], static_cast<long long>(n),
                static_cast<long long>(k), tgb::backend_name(V.location()));
    std::printf("%10s %10s %12s\n", "landmark", "reached", "eccentricity");
    for (tgb::index_t q = 0; q < k; ++q) {
      long long reached = 0, ecc = 0;
      for (tgb::index_t v = 0; v < n; ++v) {
        const std::int64_t l = level[static_cast<std::size_t>(q * n + v)];
        if (l >= 0) ++reached, ecc = std::max<long long>(ecc, l);
      }
      std::printf("%10lld %10lld %12lld\n", static_cast<long long>(landmarks[static_cast<std::size_t>(q)]), reached, ecc);
    }
    std::printf("hops between landmarks (row: from, column: to; -1 unreachable):\n");
    for (tgb::index_t q = 0; q < k; ++q) {
      for (tgb::index_t r = 0; r < k; ++r)
        std::printf("%4lld", static_cast<long long>(level[static_cast<std::size_t>(q * n + landmarks[static_cast<std::size_t>(r)])]));
      std::printf("\n");
    }
    // Undirected: distances must be symmetric.
    for (tgb::index_t q = 0; q < k; ++q)
      for (tgb::index_t r = 0; r < k; ++r)
        if (level[static_cast<std::size_t>(q * n + landmarks[static_cast<std::size_t>(r)])] !=
            level[static_cast<std::size_t>(r * n + landmarks[static_cast<std::size_t>(q)])])
          return 3;
    return 0;
  } catch (const tgb::error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}
