// The algorithms written on the Vector operations (bfs, sssp_bellman_ford,
// pagerank, connected_components) on the host: hand-checked small graphs,
// then random graphs against naive oracles written here (a queue BFS,
// Bellman-Ford on arrays, a dense power iteration, union-find).
#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "../tgb_catch.hpp"
#include "tgb/tgb.hpp"

using namespace tgb;

namespace {
struct edge {
  index_t u, v;
  double w;
};
using edge_list = std::vector<edge>;

Matrix<double> graph(index_t n, const edge_list& e) {
  std::vector<index_t> r, c;
  std::vector<double> w;
  for (const auto& x : e) {
    r.push_back(x.u);
    c.push_back(x.v);
    w.push_back(x.w);
  }
  return Matrix<double>::from_coo(n, n, r, c, w, first{});
}
edge_list both_ways(const edge_list& e) {
  edge_list out = e;
  for (const auto& x : e) out.push_back({x.v, x.u, x.w});
  return out;
}
// Stored values as a dense array, `missing` where absent.
template <class T>
std::vector<T> dense(const Vector<T>& v, T missing) {
  std::vector<T> out(static_cast<std::size_t>(v.size()), missing);
  for (index_t i = 0; i < v.size(); ++i)
    if (v.present()[i]) out[static_cast<std::size_t>(i)] = v.values()[i];
  return out;
}
// Keeps the first edge of each (u, v), as the graph builder does.
edge_list dedup(const edge_list& e) {
  edge_list out;
  std::vector<std::pair<index_t, index_t>> seen;
  for (const auto& x : e) {
    const auto k = std::make_pair(x.u, x.v);
    if (std::find(seen.begin(), seen.end(), k) == seen.end()) {
      seen.push_back(k);
      out.push_back(x);
    }
  }
  return out;
}
edge_list random_graph(std::mt19937_64& rng, index_t n, double avg, double wlo, double whi, bool dag = false) {
  edge_list e;
  if (n == 0) return e;
  std::uniform_int_distribution<index_t> vert(0, n - 1);
  std::uniform_real_distribution<double> wt(wlo, whi);
  const index_t m = static_cast<index_t>(avg * static_cast<double>(n));
  for (index_t k = 0; k < m; ++k) {
    index_t u = vert(rng), v = vert(rng);
    if (dag) {
      if (u == v) continue;
      if (u > v) std::swap(u, v);
    }
    e.push_back({u, v, std::round(wt(rng) * 4) / 4});
  }
  return dedup(e);
}

std::vector<std::int64_t> queue_bfs(index_t n, const edge_list& e, index_t s) {
  std::vector<std::vector<index_t>> adj(static_cast<std::size_t>(n));
  for (const auto& x : e) adj[x.u].push_back(x.v);
  std::vector<std::int64_t> lv(static_cast<std::size_t>(n), -1);
  std::deque<index_t> q{s};
  lv[s] = 0;
  while (!q.empty()) {
    const index_t u = q.front();
    q.pop_front();
    for (index_t v : adj[u])
      if (lv[v] < 0) {
        lv[v] = lv[u] + 1;
        q.push_back(v);
      }
  }
  return lv;
}
// Bellman-Ford on arrays; false on a negative cycle reachable from s.
bool array_bellman_ford(index_t n, const edge_list& e, index_t s, std::vector<double>& d) {
  const double inf = std::numeric_limits<double>::infinity();
  d.assign(static_cast<std::size_t>(n), inf);
  d[s] = 0;
  for (index_t k = 0; k < n; ++k) {
    bool changed = false;
    for (const auto& x : e)
      if (d[x.u] < inf && d[x.u] + x.w < d[x.v]) {
        d[x.v] = d[x.u] + x.w;
        changed = true;
      }
    if (!changed) return true;
  }
  return false;
}
std::vector<double> dense_pagerank(index_t n, const edge_list& e, double damp, int iters) {
  std::vector<double> deg(static_cast<std::size_t>(n), 0), pr(static_cast<std::size_t>(n), 1.0 / n);
  for (const auto& x : e) deg[x.u] += 1;
  for (int it = 0; it < iters; ++it) {
    double dangling = 0;
    for (index_t v = 0; v < n; ++v)
      if (deg[v] == 0) dangling += pr[v];
    std::vector<double> nx(static_cast<std::size_t>(n), (1 - damp) / n + damp * dangling / n);
    for (const auto& x : e) nx[x.v] += damp * pr[x.u] / deg[x.u];
    pr = nx;
  }
  return pr;
}
std::vector<std::int64_t> union_find(index_t n, const edge_list& e) {
  std::vector<index_t> p(static_cast<std::size_t>(n));
  std::iota(p.begin(), p.end(), index_t(0));
  auto find = [&](index_t x) {
    while (p[x] != x) x = p[x] = p[p[x]];
    return x;
  };
  for (const auto& x : e) {
    const index_t a = find(x.u), b = find(x.v);
    if (a != b) p[std::max(a, b)] = std::min(a, b);
  }
  std::vector<std::int64_t> out(static_cast<std::size_t>(n));
  for (index_t v = 0; v < n; ++v) out[v] = find(v);
  return out;
}

// Every reached vertex but the source has a parent one level up with an edge
// parent -> v; unreached vertices have no parent.
void check_parents(const Matrix<double>& A, const bfs_result& r, index_t s) {
  const auto lv = dense(r.level, std::int64_t(-1)), pa = dense(r.parent, std::int64_t(-1));
  REQUIRE(pa[s] == s);
  for (index_t v = 0; v < A.nrows(); ++v) {
    INFO("vertex " << v);
    REQUIRE((lv[v] < 0) == (pa[v] < 0));
    if (lv[v] <= 0) continue;
    REQUIRE(lv[pa[v]] == lv[v] - 1);
    REQUIRE(A.get(pa[v], v).has_value());
  }
}

// |a - b| within rel * |b| + abs (Approx differs between Catch2 v2 and v3).
bool near(double a, double b, double rel, double abs = 0) { return std::fabs(a - b) <= rel * std::fabs(b) + abs; }

const bfs_direction kDirections[] = {bfs_direction::push, bfs_direction::pull, bfs_direction::automatic};
}  // namespace

TEST_CASE("bfs on hand-checked graphs, each direction", "[algorithms][bfs]") {
  const edge_list path = both_ways({{0, 1, 1}, {1, 2, 1}, {2, 3, 1}});
  const edge_list star = both_ways({{0, 1, 1}, {0, 2, 1}, {0, 3, 1}, {0, 4, 1}});
  const edge_list two = both_ways({{0, 1, 1}, {2, 3, 1}, {3, 4, 1}});
  const edge_list cycle = {{0, 1, 1}, {1, 2, 1}, {2, 3, 1}, {3, 0, 1}};
  for (auto dir : kDirections) {
    bfs_options o;
    o.direction = dir;
    INFO("direction " << static_cast<int>(dir));
    auto r = bfs(graph(4, path), 0, o);
    REQUIRE(dense(r.level, std::int64_t(-1)) == std::vector<std::int64_t>{0, 1, 2, 3});
    REQUIRE(dense(r.parent, std::int64_t(-1)) == std::vector<std::int64_t>{0, 0, 1, 2});
    r = bfs(graph(4, path), 2, o);
    REQUIRE(dense(r.level, std::int64_t(-1)) == std::vector<std::int64_t>{2, 1, 0, 1});
    REQUIRE(dense(r.parent, std::int64_t(-1)) == std::vector<std::int64_t>{1, 2, 2, 2});
    r = bfs(graph(5, star), 3, o);
    REQUIRE(dense(r.level, std::int64_t(-1)) == std::vector<std::int64_t>{1, 2, 2, 0, 2});
    REQUIRE(dense(r.parent, std::int64_t(-1)) == std::vector<std::int64_t>{3, 0, 0, 3, 0});
    r = bfs(graph(5, two), 4, o);
    REQUIRE(dense(r.level, std::int64_t(-1)) == std::vector<std::int64_t>{-1, -1, 2, 1, 0});
    REQUIRE(r.parent.nvals() == 3);
    r = bfs(graph(4, cycle), 1, o);  // directed: 1 -> 2 -> 3 -> 0
    REQUIRE(dense(r.level, std::int64_t(-1)) == std::vector<std::int64_t>{3, 0, 1, 2});
    REQUIRE(dense(r.parent, std::int64_t(-1)) == std::vector<std::int64_t>{3, 1, 1, 2});
    o.symmetrize = true;  // both ways: 0 is one hop back
    r = bfs(graph(4, cycle), 1, o);
    REQUIRE(dense(r.level, std::int64_t(-1)) == std::vector<std::int64_t>{1, 0, 1, 2});
    if (dir == bfs_direction::push) REQUIRE(r.pull_steps == 0);
    if (dir == bfs_direction::pull) REQUIRE(r.push_steps == 0);
  }
}

TEST_CASE("bfs, sssp and pagerank reject bad input", "[algorithms][errors]") {
  const Matrix<double> R(3, 4);
  REQUIRE_THROWS_AS(bfs(R, 0), dimension_mismatch);
  REQUIRE_THROWS_AS(sssp_bellman_ford(R, 0), dimension_mismatch);
  REQUIRE_THROWS_AS(pagerank(R), dimension_mismatch);
  REQUIRE_THROWS_AS(connected_components(R), dimension_mismatch);
  const Matrix<double> A = graph(3, {{0, 1, 1}});
  REQUIRE_THROWS_AS(bfs(A, 3), invalid_index);
  REQUIRE_THROWS_AS(bfs(A, -1), invalid_index);
  REQUIRE_THROWS_AS(sssp_bellman_ford(A, 7), invalid_index);
  pagerank_options p;
  p.damping = 1.5;
  REQUIRE_THROWS_AS(pagerank(A, p), invalid_value);
  p.damping = 0.85;
  p.iterations = -1;
  REQUIRE_THROWS_AS(pagerank(A, p), invalid_value);
  bfs_options b;
  b.alpha = 0;
  REQUIRE_THROWS_AS(bfs(A, 0, b), invalid_value);
}

TEST_CASE("sssp_bellman_ford on hand-checked graphs", "[algorithms][sssp]") {
  const double inf = std::numeric_limits<double>::infinity();
  // 0 -> 1 (4), 0 -> 2 (1), 2 -> 1 (2), 1 -> 3 (1); 4 unreachable.
  auto r = sssp_bellman_ford(graph(5, {{0, 1, 4}, {0, 2, 1}, {2, 1, 2}, {1, 3, 1}}), 0);
  REQUIRE(dense(r.distance, inf) == std::vector<double>{0, 3, 1, 4, inf});
  // A negative edge, no cycle: 0 -> 1 (2), 0 -> 2 (5), 2 -> 1 (-4).
  r = sssp_bellman_ford(graph(3, {{0, 1, 2}, {0, 2, 5}, {2, 1, -4}}), 0);
  REQUIRE(dense(r.distance, inf) == std::vector<double>{0, 1, 5});
  // A negative cycle 1 -> 2 -> 1 reachable from 0.
  const auto C = graph(4, {{0, 1, 1}, {1, 2, -2}, {2, 1, 1}, {3, 0, 1}});
  REQUIRE_THROWS_AS(sssp_bellman_ford(C, 0), invalid_value);
  try {
    sssp_bellman_ford(C, 0);
    FAIL("no error for a negative cycle");
  } catch (const invalid_value& err) {
    REQUIRE(std::string(err.what()).find("negative cycle") != std::string::npos);
  }
  // ... but not from 3's side when the cycle is out of reach: 3 -> 0 only leads into it,
  // so take a graph where it is not reachable.
  r = sssp_bellman_ford(graph(4, {{0, 3, 2}, {1, 2, -2}, {2, 1, 1}}), 0);
  REQUIRE(dense(r.distance, inf) == std::vector<double>{0, inf, inf, 2});
  // A negative self-loop is a negative cycle.
  REQUIRE_THROWS_AS(sssp_bellman_ford(graph(2, {{0, 1, 1}, {1, 1, -1}}), 0), invalid_value);
}

TEST_CASE("pagerank on hand-checked graphs", "[algorithms][pagerank]") {
  // A directed 3-cycle: uniform at every iteration.
  auto pr = dense(pagerank(graph(3, {{0, 1, 1}, {1, 2, 1}, {2, 0, 1}})), -1.0);
  for (double x : pr) REQUIRE(near(x, 1.0 / 3, 1e-12));
  // Dangling vertex 1 (0 -> 1), one iteration by hand: PR_1(0) = 0.15/2 + 0.85/2 * 0.5,
  // PR_1(1) = 0.15/2 + 0.85 * 0.5 + 0.85/2 * 0.5.
  pagerank_options o;
  o.iterations = 1;
  pr = dense(pagerank(graph(2, {{0, 1, 1}}), o), -1.0);
  REQUIRE(near(pr[0], 0.075 + 0.2125, 1e-12));
  REQUIRE(near(pr[1], 0.075 + 0.425 + 0.2125, 1e-12));
  // Zero iterations: 1/n everywhere; a graph with no edges stays uniform.
  o.iterations = 0;
  REQUIRE(dense(pagerank(graph(4, {{0, 1, 1}}), o), -1.0) == std::vector<double>(4, 0.25));
  pr = dense(pagerank(graph(4, {})), -1.0);
  for (double x : pr) REQUIRE(near(x, 0.25, 1e-12));
  REQUIRE(pagerank(graph(0, {})).size() == 0);
}

TEST_CASE("connected_components on hand-checked graphs", "[algorithms][cc]") {
  REQUIRE(dense(connected_components(graph(6, both_ways({{0, 1, 1}, {2, 3, 1}, {3, 4, 1}}))), std::int64_t(-1)) ==
          std::vector<std::int64_t>{0, 0, 2, 2, 2, 5});
  // Directed: weakly connected (5 -> 4 -> 3 and 1 -> 0).
  REQUIRE(dense(connected_components(graph(6, {{5, 4, 1}, {4, 3, 1}, {1, 0, 1}})), std::int64_t(-1)) ==
          std::vector<std::int64_t>{0, 0, 2, 3, 3, 3});
  // A long path with its ids reversed: many propagation rounds.
  edge_list e;
  for (index_t v = 0; v + 1 < 40; ++v) e.push_back({39 - v, 38 - v, 1});
  REQUIRE(dense(connected_components(graph(40, e)), std::int64_t(-1)) == std::vector<std::int64_t>(40, 0));
}

TEST_CASE("bfs on random graphs equals a queue BFS in every direction", "[algorithms][bfs][random]") {
  std::mt19937_64 rng(11);
  for (index_t n : {1, 2, 17, 100, 600}) {
    for (double avg : {0.8, 3.0, 12.0}) {
      const edge_list e = random_graph(rng, n, avg, 1, 1);
      const auto A = graph(n, e);
      const index_t s = std::uniform_int_distribution<index_t>(0, n - 1)(rng);
      const auto want = queue_bfs(n, e, s);
      for (auto dir : kDirections) {
        INFO("n " << n << " avg " << avg << " source " << s << " direction " << static_cast<int>(dir));
        bfs_options o;
        o.direction = dir;
        const auto r = bfs(A, s, o);
        REQUIRE(dense(r.level, std::int64_t(-1)) == want);
        check_parents(A, r, s);
      }
    }
  }
}

TEST_CASE("bfs's automatic direction switches to pull and back on a dense graph", "[algorithms][bfs][random]") {
  std::mt19937_64 rng(5);
  const index_t n = 3000;
  const edge_list e = both_ways(random_graph(rng, n, 8.0, 1, 1));
  const auto A = graph(n, e);
  const auto r = bfs(A, 0);
  REQUIRE(r.pull_steps > 0);
  REQUIRE(r.push_steps > 0);
  REQUIRE(dense(r.level, std::int64_t(-1)) == queue_bfs(n, dedup(e), 0));
  check_parents(A, r, 0);
}

TEST_CASE("sssp_bellman_ford on random graphs equals array Bellman-Ford", "[algorithms][sssp][random]") {
  std::mt19937_64 rng(23);
  const double inf = std::numeric_limits<double>::infinity();
  for (index_t n : {1, 16, 90, 400}) {
    for (int kind = 0; kind < 3; ++kind) {
      // 0: positive weights; 1: negative edges on a DAG (no cycle); 2: mixed
      // signs with cycles (often a negative cycle).
      const edge_list e = kind == 0   ? random_graph(rng, n, 4.0, 0.25, 10)
                          : kind == 1 ? random_graph(rng, n, 4.0, -5, 5, true)
                                      : random_graph(rng, n, 2.0, -1, 6);
      const index_t s = std::uniform_int_distribution<index_t>(0, n - 1)(rng);
      INFO("n " << n << " kind " << kind << " source " << s);
      std::vector<double> want;
      const bool ok = array_bellman_ford(n, e, s, want);
      if (ok) REQUIRE(dense(sssp_bellman_ford(graph(n, e), s).distance, inf) == want);
      else REQUIRE_THROWS_AS(sssp_bellman_ford(graph(n, e), s), invalid_value);
    }
  }
}

TEST_CASE("pagerank on random graphs equals a dense power iteration", "[algorithms][pagerank][random]") {
  std::mt19937_64 rng(31);
  for (index_t n : {1, 5, 33, 250}) {
    for (double avg : {0.5, 4.0}) {
      const edge_list e = random_graph(rng, n, avg, 1, 3);  // weights are ignored
      for (double damp : {0.85, 0.5}) {
        INFO("n " << n << " avg " << avg << " damping " << damp);
        pagerank_options o;
        o.damping = damp;
        o.iterations = 30;
        const auto got = pagerank(graph(n, e), o);
        REQUIRE(got.nvals() == n);
        const auto want = dense_pagerank(n, e, damp, 30);
        double sum = 0;
        for (index_t v = 0; v < n; ++v) {
          REQUIRE(near(*got.get(v), want[v], 1e-10, 1e-14));
          sum += *got.get(v);
        }
        REQUIRE(near(sum, 1.0, 1e-9));
      }
    }
  }
}

TEST_CASE("connected_components on random graphs equals union-find", "[algorithms][cc][random]") {
  std::mt19937_64 rng(41);
  for (index_t n : {1, 20, 300, 2000}) {
    for (double avg : {0.3, 0.9, 3.0}) {
      const edge_list e = random_graph(rng, n, avg, 1, 1);  // directed: weakly connected
      INFO("n " << n << " avg " << avg);
      REQUIRE(dense(connected_components(graph(n, e)), std::int64_t(-1)) == union_find(n, e));
      cc_options o;
      o.symmetric = true;
      REQUIRE(dense(connected_components(graph(n, both_ways(e)), o), std::int64_t(-1)) == union_find(n, e));
    }
  }
}

TEST_CASE("sssp_delta_stepping equals Bellman-Ford on nonnegative weights", "[algorithms][sssp][delta]") {
  const double inf = std::numeric_limits<double>::infinity();
  const auto A = graph(5, {{0, 1, 4}, {0, 2, 1}, {2, 1, 2}, {1, 3, 1}});
  for (double delta : {0.0, 0.5, 1.0, 3.0, 100.0}) {
    INFO("delta " << delta);
    REQUIRE(dense(sssp_delta_stepping(A, 0, {delta}).distance, inf) == std::vector<double>{0, 3, 1, 4, inf});
  }
  // Zero weights, a self-loop, a pattern (bool) graph.
  REQUIRE(dense(sssp_delta_stepping(graph(3, {{0, 1, 0}, {1, 1, 0}, {1, 2, 0}}), 0).distance, inf) ==
          std::vector<double>{0, 0, 0});
  const auto B = Matrix<bool>::from_coo(3, 3, std::vector<index_t>{0, 1}, std::vector<index_t>{1, 2},
                                        std::vector<bool>{true, true}, first{});
  REQUIRE(dense(sssp_delta_stepping(B, 0).distance, inf) == std::vector<double>{0, 1, 2});
  REQUIRE_THROWS_AS(sssp_delta_stepping(graph(3, {{0, 1, 2}, {1, 2, -1}}), 0), invalid_value);
  REQUIRE_THROWS_AS(sssp_delta_stepping(A, 0, {-1.0}), invalid_value);
  REQUIRE_THROWS_AS(sssp_delta_stepping(A, 5), invalid_index);
  REQUIRE_THROWS_AS(sssp_delta_stepping(Matrix<double>(2, 3), 0), dimension_mismatch);

  std::mt19937_64 rng(57);
  for (index_t n : {1, 16, 90, 500}) {
    for (double hi : {1.0, 10.0}) {
      const edge_list e = random_graph(rng, n, 4.0, 0, hi);  // weights in quarters from 0
      const index_t s = std::uniform_int_distribution<index_t>(0, n - 1)(rng);
      std::vector<double> want;
      REQUIRE(array_bellman_ford(n, e, s, want));
      for (double delta : {0.0, 0.25, 2.0, 50.0}) {
        INFO("n " << n << " max weight " << hi << " source " << s << " delta " << delta);
        REQUIRE(dense(sssp_delta_stepping(graph(n, e), s, {delta}).distance, inf) == want);
      }
    }
  }
}

namespace {
// The Graphalytics LCC written out: neighbours in either direction (no
// self), directed edges among them over |N| (|N| - 1).
std::vector<double> naive_lcc(index_t n, const edge_list& e) {
  std::vector<std::vector<char>> out(static_cast<std::size_t>(n), std::vector<char>(static_cast<std::size_t>(n), 0));
  for (const auto& x : e)
    if (x.u != x.v) out[static_cast<std::size_t>(x.u)][static_cast<std::size_t>(x.v)] = 1;
  std::vector<double> lcc(static_cast<std::size_t>(n), 0.0);
  for (index_t v = 0; v < n; ++v) {
    std::vector<index_t> nb;
    for (index_t u = 0; u < n; ++u)
      if (u != v && (out[static_cast<std::size_t>(v)][static_cast<std::size_t>(u)] ||
                     out[static_cast<std::size_t>(u)][static_cast<std::size_t>(v)]))
        nb.push_back(u);
    const double d = static_cast<double>(nb.size());
    if (nb.size() < 2) continue;
    double edges = 0;
    for (index_t a : nb)
      for (index_t b : nb) edges += out[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
    lcc[static_cast<std::size_t>(v)] = edges / (d * (d - 1));
  }
  return lcc;
}
}  // namespace

TEST_CASE("local_clustering_coefficient on hand-checked graphs", "[algorithms][lcc]") {
  // A triangle 0-1-2 with 3 hanging on 0 (and a self-loop on 0, ignored).
  const Matrix<double> U = graph(4, both_ways({{0, 1, 1}, {1, 2, 1}, {2, 0, 1}, {0, 3, 1}, {0, 0, 1}}));
  REQUIRE(dense(local_clustering_coefficient(U), -1.0) == std::vector<double>{1.0 / 3, 1, 1, 0});
  // A directed 3-cycle: each vertex has two neighbours and one of the two
  // edges between them; undirected, it is a triangle.
  const Matrix<double> D = graph(3, {{0, 1, 1}, {1, 2, 1}, {2, 0, 1}});
  REQUIRE(dense(local_clustering_coefficient(D), -1.0) == std::vector<double>{0.5, 0.5, 0.5});
  lcc_options o;
  o.directed = false;
  REQUIRE(dense(local_clustering_coefficient(D, o), -1.0) == std::vector<double>{1, 1, 1});
  // No edges, no vertices.
  REQUIRE(dense(local_clustering_coefficient(Matrix<double>(3, 3)), -1.0) == std::vector<double>(3, 0.0));
  REQUIRE(local_clustering_coefficient(Matrix<double>(0, 0)).size() == 0);
  REQUIRE_THROWS_AS(local_clustering_coefficient(Matrix<double>(3, 4)), dimension_mismatch);
}

TEST_CASE("local_clustering_coefficient on random graphs equals the definition", "[algorithms][lcc][random]") {
  std::mt19937_64 rng(43);
  for (index_t n : {1, 17, 40, 300}) {
    for (double avg : {0.5, 2.0, 8.0}) {
      const edge_list e = random_graph(rng, n, avg, 1, 1);
      INFO("n " << n << " avg " << avg);
      const std::vector<double> got = dense(local_clustering_coefficient(graph(n, e)), -1.0);
      const std::vector<double> want = naive_lcc(n, e);
      REQUIRE(got.size() == want.size());
      for (std::size_t v = 0; v < got.size(); ++v) REQUIRE(near(got[v], want[v], 1e-12, 1e-15));
      lcc_options o;
      o.directed = false;
      const std::vector<double> und = dense(local_clustering_coefficient(graph(n, e), o), -1.0);
      const std::vector<double> want_und = naive_lcc(n, both_ways(e));
      for (std::size_t v = 0; v < und.size(); ++v) REQUIRE(near(und[v], want_und[v], 1e-12, 1e-15));
    }
  }
}

namespace {
// The k-truss by peeling: drop every edge in fewer than k - 2 triangles of
// what is left until none is dropped. Each edge (u < v) with its support.
std::vector<std::tuple<index_t, index_t, std::int64_t>> naive_ktruss(index_t n, const edge_list& e, std::int64_t k) {
  std::vector<std::vector<char>> adj(static_cast<std::size_t>(n), std::vector<char>(static_cast<std::size_t>(n), 0));
  for (const auto& x : e)
    if (x.u != x.v) adj[static_cast<std::size_t>(x.u)][static_cast<std::size_t>(x.v)] =
        adj[static_cast<std::size_t>(x.v)][static_cast<std::size_t>(x.u)] = 1;
  auto support = [&](index_t u, index_t v) {
    std::int64_t c = 0;
    for (index_t w = 0; w < n; ++w)
      c += adj[static_cast<std::size_t>(u)][static_cast<std::size_t>(w)] &&
           adj[static_cast<std::size_t>(v)][static_cast<std::size_t>(w)];
    return c;
  };
  for (bool dropped = true; dropped;) {
    dropped = false;
    std::vector<std::pair<index_t, index_t>> drop;
    for (index_t u = 0; u < n; ++u)
      for (index_t v = u + 1; v < n; ++v)
        if (adj[static_cast<std::size_t>(u)][static_cast<std::size_t>(v)] && support(u, v) < k - 2) drop.push_back({u, v});
    for (const auto& [u, v] : drop)
      adj[static_cast<std::size_t>(u)][static_cast<std::size_t>(v)] =
          adj[static_cast<std::size_t>(v)][static_cast<std::size_t>(u)] = 0;
    dropped = !drop.empty();
  }
  std::vector<std::tuple<index_t, index_t, std::int64_t>> out;
  for (index_t u = 0; u < n; ++u)
    for (index_t v = u + 1; v < n; ++v)
      if (adj[static_cast<std::size_t>(u)][static_cast<std::size_t>(v)]) out.emplace_back(u, v, support(u, v));
  return out;
}
std::vector<std::tuple<index_t, index_t, std::int64_t>> upper_edges(const Matrix<std::int64_t>& S) {
  const coo<std::int64_t> c = S.to_coo();
  std::vector<std::tuple<index_t, index_t, std::int64_t>> out;
  for (std::size_t q = 0; q < c.rows.size(); ++q)
    if (c.rows[q] < c.cols[q]) out.emplace_back(c.rows[q], c.cols[q], c.values[q]);
  return out;
}
}  // namespace

TEST_CASE("ktruss on hand-checked graphs", "[algorithms][ktruss]") {
  // K4 on {0,1,2,3} with a triangle {3,4,5} hanging off vertex 3 and a pendant 5-6:
  // the 3-truss drops 5-6; the 4-truss is the K4 (each edge in 2 triangles).
  const edge_list e = both_ways({{0, 1, 1}, {0, 2, 1}, {0, 3, 1}, {1, 2, 1}, {1, 3, 1}, {2, 3, 1},
                                 {3, 4, 1}, {4, 5, 1}, {5, 3, 1}, {5, 6, 1}, {6, 6, 1}});
  const Matrix<double> A = graph(7, e);
  using E = std::vector<std::tuple<index_t, index_t, std::int64_t>>;
  REQUIRE(upper_edges(ktruss(A, 3).support) ==
          E{{0, 1, 2}, {0, 2, 2}, {0, 3, 2}, {1, 2, 2}, {1, 3, 2}, {2, 3, 2}, {3, 4, 1}, {3, 5, 1}, {4, 5, 1}});
  REQUIRE(upper_edges(ktruss(A, 4).support) == E{{0, 1, 2}, {0, 2, 2}, {0, 3, 2}, {1, 2, 2}, {1, 3, 2}, {2, 3, 2}});
  REQUIRE(ktruss(A, 5).support.nvals() == 0);
  // The result holds each edge both ways; direction in the input does not matter.
  REQUIRE(ktruss(A, 4).support.nvals() == 12);
  REQUIRE(upper_edges(ktruss(graph(3, {{0, 1, 1}, {1, 2, 1}, {2, 0, 1}}), 3).support) == E{{0, 1, 1}, {0, 2, 1}, {1, 2, 1}});
  REQUIRE_THROWS_AS(ktruss(A, 2), invalid_value);
  REQUIRE_THROWS_AS(ktruss(Matrix<double>(3, 4), 3), dimension_mismatch);
  REQUIRE(ktruss(Matrix<double>(0, 0), 3).support.nvals() == 0);
}

TEST_CASE("ktruss on random graphs equals peeling", "[algorithms][ktruss][random]") {
  std::mt19937_64 rng(47);
  for (index_t n : {1, 12, 40, 150}) {
    for (double avg : {1.0, 4.0, 12.0}) {
      const edge_list e = random_graph(rng, n, avg, 1, 1);
      for (std::int64_t k : {3, 4, 5, 7}) {
        INFO("n " << n << " avg " << avg << " k " << k);
        REQUIRE(upper_edges(ktruss(graph(n, e), k).support) == naive_ktruss(n, e, k));
      }
    }
  }
}
