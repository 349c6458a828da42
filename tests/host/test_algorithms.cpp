// The graph algorithms on the host: known answers from the bundled real
// graphs (tests/data/README.md), naive references on random graphs, and MCL
// on graphs whose clusters are obvious.
#include <random>

#include "../graphs.hpp"
#include "../tgb_catch.hpp"

using namespace tgb;

namespace {
std::string data(const std::string& f) { return std::string(TGB_TEST_DATA_DIR) + "/" + f; }
}  // namespace

TEST_CASE("triangle counts of the real graphs equal the known answers", "[algorithms][tc][real]") {
  const std::pair<const char*, std::int64_t> known[] = {
      {"karate.mtx", 45},       {"A.mtx", 11},           {"jagmesh7.mtx", 2016},     {"LFAT5.mtx", 0},
      {"dolphins.mtx", 95},     {"polbooks.mtx", 560},   {"netscience.mtx", 3764},   {"ca-GrQc.mtx", 48260},
      {"crack.mtx", 20141},     {"luxembourg.mtx", 68},  {"west0067.mtx", 120},      {"add32.mtx", 4998},
      {"bcsstk13.mtx", 342300}, {"ldbc-undirected-example.mtx", 4}, {"ldbc-cdlp-undirected-example.mtx", 6},
      {"ldbc-wcc-example.mtx", 5}};
  for (const auto& [file, n] : known) {
    INFO(file);
    const auto A = io::read_matrix_market<double>(data(file));
    REQUIRE(triangle_count(A) == n);
  }
  // The gzip'd edge list of karate gives the same count.
#if defined(TGB_TEST_HAVE_ZLIB)
  REQUIRE(triangle_count(io::read_graph<bool>(data("karate-edges.txt.gz"))) == 45);
#endif
}

TEST_CASE("triangle counts of random graphs equal a naive count", "[algorithms][tc][random]") {
  std::mt19937_64 rng(7);
  for (index_t n : {1, 2, 15, 16, 17, 33, 200, 700}) {
    for (int kind = 0; kind < 2; ++kind) {
      const auto e = kind == 0 ? graphs::erdos_renyi(rng, n, 6.0) : graphs::power_law(rng, n, 5.0);
      INFO("n " << n << (kind ? " power-law" : " Erdos-Renyi"));
      REQUIRE(triangle_count(graphs::to_matrix<int>(n, e)) == graphs::triangles(n, e));
    }
  }
}

TEST_CASE("BFS levels on karate from vertex 30 equal LAGraph's", "[algorithms][bfs][real]") {
  const auto A = io::read_matrix_market<bool>(data("karate.mtx"));
  const std::vector<std::int64_t> want{2, 1, 2, 2, 3, 3, 3, 2, 1, 2, 3, 3, 3, 2, 2, 2, 4,
                                       2, 2, 2, 2, 2, 2, 2, 3, 3, 2, 2, 2, 2, 0, 2, 1, 1};
  REQUIRE(dense_levels(msbfs(A, {30})) == want);
}

TEST_CASE("multi-source BFS equals one queue BFS per source", "[algorithms][bfs][random]") {
  std::mt19937_64 rng(11);
  for (index_t n : {1, 16, 17, 33, 300, 1000}) {
    for (int kind = 0; kind < 2; ++kind) {
      const auto e = kind == 0 ? graphs::erdos_renyi(rng, n, 1.5) : graphs::power_law(rng, n, 2.0);
      const auto A = graphs::to_matrix<double>(n, e);
      std::uniform_int_distribution<index_t> v(0, n - 1);
      std::vector<index_t> src;
      for (int k = 0; k < 37; ++k) src.push_back(v(rng));
      src.push_back(src.front());  // a repeated source is just another row
      for (bool sym : {false, true}) {
        INFO("n " << n << (kind ? " power-law" : " Erdos-Renyi") << (sym ? " symmetrized" : " directed"));
        graphs::edges use = e;
        if (sym)
          for (const auto& [a, b] : e) use.push_back({b, a});
        msbfs_options opt;
        opt.symmetrize = sym;
        const auto lv = dense_levels(msbfs(A, src, opt));
        for (std::size_t q = 0; q < src.size(); ++q) {
          const auto want = graphs::bfs(n, use, src[q]);
          REQUIRE(std::vector<std::int64_t>(lv.begin() + q * n, lv.begin() + (q + 1) * n) == want);
        }
      }
    }
  }
}

TEST_CASE("BFS and triangle counting reject bad input", "[algorithms][errors]") {
  const Matrix<double> R(3, 4), A(5, 5);
  REQUIRE_THROWS_AS(msbfs(R, {0}), dimension_mismatch);
  REQUIRE_THROWS_AS(triangle_count(R), dimension_mismatch);
  REQUIRE_THROWS_AS(markov_clustering(R), dimension_mismatch);
  REQUIRE_THROWS_AS(msbfs(A, {5}), invalid_index);
  REQUIRE_THROWS_AS(msbfs(A, {-1}), invalid_index);
  REQUIRE(msbfs(A, {}).nrows() == 0);
  mcl_params p;
  p.inflation = 0;
  REQUIRE_THROWS_AS(markov_clustering(A, p), invalid_value);
}

namespace {
// Two cliques of `size`, optionally joined by one edge, plus isolated vertices.
Matrix<double> cliques(index_t size, bool bridge, index_t isolated) {
  graphs::edges e;
  for (index_t g = 0; g < 2; ++g)
    for (index_t a = 0; a < size; ++a)
      for (index_t b = 0; b < size; ++b)
        if (a != b) e.push_back({g * size + a, g * size + b});
  if (bridge) e.push_back({0, size}), e.push_back({size, 0});
  return graphs::to_matrix<double>(2 * size + isolated, e);
}
}  // namespace

TEST_CASE("MCL finds obvious clusters exactly", "[algorithms][mcl][hand]") {
  for (bool bridge : {false, true}) {
    INFO((bridge ? "bridged" : "disjoint") << " cliques");
    const auto r = markov_clustering(cliques(6, bridge, 2));
    REQUIRE(r.converged);
    REQUIRE(r.clusters.size() == 4);
    REQUIRE(r.clusters[0] == std::vector<index_t>{0, 1, 2, 3, 4, 5});
    REQUIRE(r.clusters[1] == std::vector<index_t>{6, 7, 8, 9, 10, 11});
    REQUIRE(r.clusters[2] == std::vector<index_t>{12});
    REQUIRE(r.clusters[3] == std::vector<index_t>{13});
    REQUIRE(r.cluster_of[7] == 1);
  }
  // A single vertex and the empty graph.
  REQUIRE(markov_clustering(Matrix<double>(1, 1)).clusters == std::vector<std::vector<index_t>>{{0}});
  REQUIRE(markov_clustering(Matrix<double>(0, 0)).clusters.empty());
}

TEST_CASE("MCL recovers planted partitions", "[algorithms][mcl][random]") {
  // Threshold: adjusted Rand index >= 0.9 against the planted groups.
  std::mt19937_64 rng(5);
  for (index_t k : {3, 8}) {
    std::vector<index_t> truth;
    const auto e = graphs::planted_partition(rng, k, 20, 0.5, 0.01, truth);
    const auto r = markov_clustering(graphs::to_matrix<double>(k * 20, e));
    const double ari = graphs::adjusted_rand_index(graphs::labels(k * 20, r.clusters), truth);
    INFO("k " << k << " clusters " << r.clusters.size() << " ARI " << ari);
    REQUIRE(ari >= 0.9);
  }
}

TEST_CASE("MCL pruning: threshold, per-row cap and progress reports", "[algorithms][mcl]") {
  const auto A = io::read_matrix_market<double>(data("dolphins.mtx"));
  mcl_params p;
  int calls = 0;
  offset_t last_entries = -1;
  p.select = 3;   // at most 3 entries per row survive each expansion
  p.recover = 0;  // and none come back
  p.progress = [&](const mcl_progress& q) {
    ++calls;
    REQUIRE(q.iteration == calls);
    REQUIRE(q.chaos >= 0);
    last_entries = q.entries;
    REQUIRE(q.entries <= 3 * 62);
  };
  const auto r = markov_clustering(A, p);
  REQUIRE(calls == r.iterations);
  REQUIRE(last_entries > 0);
  // Every vertex is in exactly one cluster.
  std::vector<int> seen(62, 0);
  for (const auto& c : r.clusters)
    for (index_t v : c) ++seen[static_cast<std::size_t>(v)];
  REQUIRE(std::count(seen.begin(), seen.end(), 1) == 62);
  // max_iter bounds the work and says it did not converge.
  mcl_params q;
  q.max_iter = 1;
  const auto one = markov_clustering(A, q);
  REQUIRE(one.iterations == 1);
  REQUIRE_FALSE(one.converged);
}

TEST_CASE("every triangle-counting variant and degree order gives the same count", "[algorithms][tc]") {
  std::mt19937_64 rng(9);
  std::vector<std::pair<Matrix<double>, std::int64_t>> cases;
  for (const char* f : {"karate.mtx", "polbooks.mtx", "west0067.mtx", "ca-GrQc.mtx"}) {
    const auto A = io::read_matrix_market<double>(data(f));
    cases.push_back({A, graphs::triangles(A.nrows(), graphs::edges_of(A))});
  }
  for (index_t n : {1, 17, 500}) {
    const auto e = graphs::power_law(rng, n, 6.0);
    cases.push_back({graphs::to_matrix<double>(n, e), graphs::triangles(n, e)});
  }
  for (const auto& [A, want] : cases)
    for (tc_method m : {tc_method::sandia_ll, tc_method::sandia_uu})
      for (tc_order o : {tc_order::none, tc_order::ascending, tc_order::descending}) {
        INFO("n " << A.nrows() << " method " << int(m) << " order " << int(o));
        REQUIRE(triangle_count(A, tc_options{m, o}) == want);
      }
}
