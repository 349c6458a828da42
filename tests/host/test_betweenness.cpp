// betweenness_centrality on the host: hand-checked small graphs, values of
// networkx 3.6 on karate, and random graphs against Brandes' algorithm
// written out here on adjacency lists (queue BFS counting paths, then the
// dependencies in reverse BFS order). The CLI is checked against networkx
// itself by tests/scripts/networkx-check.py.
#include <algorithm>
#include <cmath>
#include <deque>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "../tgb_catch.hpp"
#include "tgb/algorithms/betweenness.hpp"
#include "tgb/algorithms/msbfs.hpp"
#include "tgb/io/matrix_market.hpp"

using namespace tgb;

namespace {
using edge_list = std::vector<std::pair<index_t, index_t>>;

Matrix<double> graph(index_t n, const edge_list& e) {
  std::vector<index_t> r, c;
  for (const auto& [u, v] : e) {
    r.push_back(u);
    c.push_back(v);
  }
  return Matrix<double>::from_coo(n, n, r, c, std::vector<double>(e.size(), 2.5), first{});
}
edge_list both_ways(const edge_list& e) {
  edge_list out = e;
  for (const auto& [u, v] : e) out.push_back({v, u});
  return out;
}
std::vector<double> dense(const Vector<double>& v) {
  REQUIRE(v.nvals() == v.size());  // every vertex has an entry
  return std::vector<double>(v.values(), v.values() + v.size());
}
bool near(double a, double b, double rel, double abs) { return std::fabs(a - b) <= rel * std::fabs(b) + abs; }
void require_near(const std::vector<double>& got, const std::vector<double>& want, double rel = 1e-12) {
  REQUIRE(got.size() == want.size());
  for (std::size_t v = 0; v < got.size(); ++v) {
    INFO("vertex " << v << ": " << got[v] << " against " << want[v]);
    REQUIRE(near(got[v], want[v], rel, 1e-12));
  }
}

// Brandes (2001) for unweighted graphs, from each source in turn; duplicate
// edges count once, self-loops never matter.
std::vector<double> naive_brandes(index_t n, const edge_list& e, const std::vector<index_t>& sources) {
  std::vector<std::vector<index_t>> adj(static_cast<std::size_t>(n));
  for (const auto& [u, v] : e) adj[u].push_back(v);
  for (auto& a : adj) {
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
  }
  std::vector<double> bc(static_cast<std::size_t>(n), 0.0);
  for (index_t s : sources) {
    std::vector<index_t> order;
    std::vector<std::int64_t> dist(static_cast<std::size_t>(n), -1);
    std::vector<double> sigma(static_cast<std::size_t>(n), 0.0), delta(static_cast<std::size_t>(n), 0.0);
    std::deque<index_t> q{s};
    dist[s] = 0;
    sigma[s] = 1;
    while (!q.empty()) {
      const index_t v = q.front();
      q.pop_front();
      order.push_back(v);
      for (index_t w : adj[v]) {
        if (dist[w] < 0) {
          dist[w] = dist[v] + 1;
          q.push_back(w);
        }
        if (dist[w] == dist[v] + 1) sigma[w] += sigma[v];
      }
    }
    // The dependencies, deepest first: delta(v) = sum over successors w on a
    // shortest path of sigma(v) / sigma(w) (1 + delta(w)).
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const index_t v = *it;
      for (index_t w : adj[v])
        if (dist[w] == dist[v] + 1) delta[v] += sigma[v] / sigma[w] * (1 + delta[w]);
      if (v != s) bc[v] += delta[v];
    }
  }
  return bc;
}

std::vector<index_t> all_vertices(index_t n) {
  std::vector<index_t> s(static_cast<std::size_t>(n));
  std::iota(s.begin(), s.end(), index_t(0));
  return s;
}
}  // namespace

TEST_CASE("betweenness_centrality on hand-checked graphs", "[algorithms][bc]") {
  // Undirected graphs stored both ways count every ordered pair: twice networkx's values.
  const auto path = graph(4, both_ways({{0, 1}, {1, 2}, {2, 3}}));
  require_near(dense(betweenness_centrality(path)), {0, 4, 4, 0});
  // From source 0 only: 1 is on the way to 2 and 3, 2 on the way to 3.
  require_near(dense(betweenness_centrality(path, {0})), {0, 2, 1, 0});
  require_near(dense(betweenness_centrality(path, {3, 0})), {0, 3, 3, 0});
  // A star: the centre is on the path between every ordered pair of leaves.
  const auto star = graph(5, both_ways({{0, 1}, {0, 2}, {0, 3}, {0, 4}}));
  require_near(dense(betweenness_centrality(star)), {12, 0, 0, 0, 0});
  // An undirected 4-cycle: each vertex carries half of the pair across from it, both ways.
  const auto c4 = graph(4, both_ways({{0, 1}, {1, 2}, {2, 3}, {3, 0}}));
  require_near(dense(betweenness_centrality(c4)), {1, 1, 1, 1});
  // A directed 4-cycle: paths are unique; each vertex is inside 3 of them.
  const auto d4 = graph(4, {{0, 1}, {1, 2}, {2, 3}, {3, 0}});
  require_near(dense(betweenness_centrality(d4)), {3, 3, 3, 3});
  // A directed diamond with a tail: 0 -> {1, 2} -> 3 -> 4.
  const auto diamond = graph(5, {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}});
  require_near(dense(betweenness_centrality(diamond)), {0, 1, 1, 3, 0});
  require_near(dense(betweenness_centrality(diamond, {1})), {0, 0, 0, 1, 0});
  // Disconnected and isolated vertices: a path 0 - 1 - 2, an edge 3 -> 4, 5 alone.
  const auto parts = graph(6, both_ways({{0, 1}, {1, 2}}));
  require_near(dense(betweenness_centrality(parts)), {0, 2, 0, 0, 0, 0});
  require_near(dense(betweenness_centrality(graph(6, {{0, 1}, {1, 2}, {3, 4}}))), {0, 1, 0, 0, 0, 0});
  require_near(dense(betweenness_centrality(parts, {5})), std::vector<double>(6, 0.0));
  // Self-loops and the stored values change nothing.
  require_near(dense(betweenness_centrality(graph(4, both_ways({{0, 1}, {1, 2}, {2, 3}, {1, 1}, {3, 3}})))),
               {0, 4, 4, 0});
  // symmetrize follows the directed path 0 -> 1 -> 2 both ways.
  const auto chain = graph(3, {{0, 1}, {1, 2}});
  require_near(dense(betweenness_centrality(chain)), {0, 1, 0});
  bc_options sym;
  sym.symmetrize = true;
  require_near(dense(betweenness_centrality(chain, {}, sym)), {0, 2, 0});
  // Pattern and integer matrices.
  const auto B = Matrix<bool>::from_coo(3, 3, std::vector<index_t>{0, 1}, std::vector<index_t>{1, 2},
                                        std::vector<bool>{true, true}, first{});
  require_near(dense(betweenness_centrality(B)), {0, 1, 0});
  // An explicit zero is an edge.
  const auto I = Matrix<std::int32_t>::from_coo(3, 3, std::vector<index_t>{0, 1}, std::vector<index_t>{1, 2},
                                                std::vector<std::int32_t>{7, 0}, first{});
  require_near(dense(betweenness_centrality(I)), {0, 1, 0});
  // Empty graphs.
  REQUIRE(betweenness_centrality(Matrix<double>(0, 0)).size() == 0);
  require_near(dense(betweenness_centrality(Matrix<double>(3, 3))), {0, 0, 0});
}

TEST_CASE("betweenness_centrality's batches all give the same sums", "[algorithms][bc]") {
  const edge_list e = both_ways({{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {0, 6}, {1, 5}});
  const auto A = graph(7, e);
  const std::vector<double> want = dense(betweenness_centrality(A));
  for (index_t batch : {0, 1, 2, 3, 6, 7, 100}) {
    INFO("batch " << batch);
    bc_options o;
    o.batch = batch;
    require_near(dense(betweenness_centrality(A, {}, o)), want);
    require_near(dense(betweenness_centrality(A, {6, 2, 4}, o)), naive_brandes(7, e, {6, 2, 4}));
  }
}

TEST_CASE("betweenness_centrality rejects bad input", "[algorithms][bc][errors]") {
  REQUIRE_THROWS_AS(betweenness_centrality(Matrix<double>(3, 4)), dimension_mismatch);
  const auto A = graph(4, {{0, 1}, {1, 2}});
  REQUIRE_THROWS_AS(betweenness_centrality(A, {4}), index_out_of_bounds);
  REQUIRE_THROWS_AS(betweenness_centrality(A, {0, -1}), index_out_of_bounds);
  try {
    betweenness_centrality(A, {1, 9});
    FAIL("no error for source 9");
  } catch (const index_out_of_bounds& e) {
    REQUIRE(std::string(e.what()) ==
            "tgb::betweenness_centrality: source 9 is not a vertex of a graph with 4 vertices");
  }
  REQUIRE_THROWS_AS(betweenness_centrality(A, {2, 0, 2}), invalid_value);
  try {
    betweenness_centrality(A, {2, 0, 2});
  } catch (const invalid_value& e) {
    REQUIRE(std::string(e.what()).find("source 2 is given more than once") != std::string::npos);
  }
  bc_options o;
  o.batch = -1;
  REQUIRE_THROWS_AS(betweenness_centrality(A, {}, o), invalid_value);
}

TEST_CASE("betweenness_centrality on karate equals networkx", "[algorithms][bc][data]") {
  // networkx 3.6: 2 * nx.betweenness_centrality(G, normalized=False) for the
  // undirected graph (which networkx halves), and 2 *
  // nx.betweenness_centrality_subset(G, [0, 33], list(G), normalized=False).
  const auto K = io::read_matrix_market<bool>(std::string(TGB_TEST_DATA_DIR) + "/karate.mtx");
  const std::vector<double> all = dense(betweenness_centrality(K));
  const std::pair<index_t, double> full[] = {{0, 462.1428571428572}, {1, 56.95714285714285},
                                            {2, 151.70158730158732}, {31, 146.01904761904757},
                                            {32, 153.38095238095238}, {33, 321.1031746031746}, {11, 0.0}};
  for (const auto& [v, x] : full) {
    INFO("vertex " << v);
    REQUIRE(near(all[v], x, 1e-12, 1e-12));
  }
  const std::vector<double> sub = dense(betweenness_centrality(K, {0, 33}));
  const std::pair<index_t, double> part[] = {{0, 8.228571428571428},  {1, 1.5714285714285714},
                                            {2, 4.341269841269842},  {31, 8.688095238095237},
                                            {32, 3.142857142857143}, {33, 4.873015873015873},
                                            {8, 5.815079365079365}};
  for (const auto& [v, x] : part) {
    INFO("vertex " << v);
    REQUIRE(near(sub[v], x, 1e-12, 1e-12));
  }
  // Summed over the vertices: the inner vertices of each shortest path, the
  // sum over ordered pairs of (distance - 1).
  const std::vector<std::int64_t> lv = dense_levels(msbfs(K, all_vertices(34)));
  double pairs = 0;
  for (std::int64_t d : lv)
    if (d > 1) pairs += static_cast<double>(d - 1);
  require_near({std::accumulate(all.begin(), all.end(), 0.0)}, {pairs});
}

TEST_CASE("betweenness_centrality on random graphs equals Brandes on adjacency lists", "[algorithms][bc][random]") {
  std::mt19937_64 rng(61);
  for (index_t n : {1, 2, 9, 40, 150}) {
    for (double avg : {0.7, 2.0, 6.0}) {
      for (bool undirected : {false, true}) {
        std::uniform_int_distribution<index_t> vert(0, n - 1);
        edge_list e;
        const index_t m = static_cast<index_t>(avg * static_cast<double>(n));
        for (index_t k = 0; k < m; ++k) e.push_back({vert(rng), vert(rng)});
        if (undirected) e = both_ways(e);
        const auto A = graph(n, e);
        // All sources, in batches of 64 and of 5; a random subset, in batches of 3.
        const std::vector<double> want = naive_brandes(n, e, all_vertices(n));
        INFO("n " << n << " avg " << avg << (undirected ? " undirected" : " directed"));
        require_near(dense(betweenness_centrality(A)), want, 1e-10);
        bc_options o;
        o.batch = 5;
        require_near(dense(betweenness_centrality(A, {}, o)), want, 1e-10);
        std::vector<index_t> some = all_vertices(n);
        std::shuffle(some.begin(), some.end(), rng);
        some.resize(static_cast<std::size_t>((n + 2) / 3));
        o.batch = 3;
        require_near(dense(betweenness_centrality(A, some, o)), naive_brandes(n, e, some), 1e-10);
        // symmetrize on the directed graph is the undirected graph.
        if (!undirected) {
          bc_options s;
          s.symmetrize = true;
          require_near(dense(betweenness_centrality(A, some, s)), naive_brandes(n, both_ways(e), some), 1e-10);
        }
      }
    }
  }
}

TEST_CASE("betweenness_centrality on a grid with many shortest paths", "[algorithms][bc][random]") {
  // A 12 x 12 grid: up to C(22, 11) = 705,432 shortest paths between corners.
  const index_t side = 12, n = side * side;
  edge_list e;
  for (index_t r = 0; r < side; ++r)
    for (index_t c = 0; c < side; ++c) {
      if (c + 1 < side) e.push_back({r * side + c, r * side + c + 1});
      if (r + 1 < side) e.push_back({r * side + c, (r + 1) * side + c});
    }
  e = both_ways(e);
  require_near(dense(betweenness_centrality(graph(n, e))), naive_brandes(n, e, all_vertices(n)), 1e-10);
}
