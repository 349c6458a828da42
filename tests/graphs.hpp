// Graph generators and naive reference algorithms for the algorithm tests:
// Erdos-Renyi, power-law (Chung-Lu) and planted-partition graphs; BFS by a
// queue; triangles by sorted adjacency intersection; the adjusted Rand index
// of two clusterings.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "tgb/tgb.hpp"

namespace graphs {

using tgb::index_t;
using edges = std::vector<std::pair<index_t, index_t>>;

// Directed G(n, p) without self-loops (about p * n * (n-1) edges).
inline edges erdos_renyi(std::mt19937_64& rng, index_t n, double avg_degree) {
  edges e;
  if (n < 2) return e;
  const std::size_t m = static_cast<std::size_t>(avg_degree * double(n));
  std::uniform_int_distribution<index_t> v(0, n - 1);
  std::set<std::pair<index_t, index_t>> seen;
  for (std::size_t k = 0; k < m; ++k) {
    const index_t a = v(rng), b = v(rng);
    if (a != b && seen.insert({a, b}).second) e.push_back({a, b});
  }
  return e;
}

// Chung-Lu graph with weights w_i ~ (i + 1)^(-1/(gamma-1)): a few hubs and a
// long tail, as in social graphs.
inline edges power_law(std::mt19937_64& rng, index_t n, double avg_degree, double gamma = 2.3) {
  std::vector<double> w(static_cast<std::size_t>(n));
  double total = 0;
  for (index_t i = 0; i < n; ++i) total += (w[static_cast<std::size_t>(i)] = std::pow(double(i + 1), -1.0 / (gamma - 1)));
  std::discrete_distribution<index_t> pick(w.begin(), w.end());
  edges e;
  std::set<std::pair<index_t, index_t>> seen;
  const std::size_t m = static_cast<std::size_t>(avg_degree * double(n));
  for (std::size_t k = 0; k < m; ++k) {
    const index_t a = pick(rng), b = pick(rng);
    if (a != b && seen.insert({a, b}).second) e.push_back({a, b});
  }
  return e;
}

// k groups of `size` vertices; an edge inside a group with probability
// p_in, between groups with p_out (undirected: both directions stored).
inline edges planted_partition(std::mt19937_64& rng, index_t k, index_t size, double p_in, double p_out,
                               std::vector<index_t>& truth) {
  const index_t n = k * size;
  truth.assign(static_cast<std::size_t>(n), 0);
  for (index_t v = 0; v < n; ++v) truth[static_cast<std::size_t>(v)] = v / size;
  std::uniform_real_distribution<double> u(0, 1);
  edges e;
  for (index_t a = 0; a < n; ++a)
    for (index_t b = a + 1; b < n; ++b)
      if (u(rng) < (a / size == b / size ? p_in : p_out)) {
        e.push_back({a, b});
        e.push_back({b, a});
      }
  return e;
}

template <class T>
tgb::Matrix<T> to_matrix(index_t n, const edges& e) {
  std::vector<index_t> r, c;
  for (const auto& [a, b] : e) r.push_back(a), c.push_back(b);
  return tgb::Matrix<T>::from_coo(n, n, r, c, std::vector<T>(e.size(), T(1)), tgb::first{});
}

// Levels from s following edges a -> b; -1 where unreached.
inline std::vector<std::int64_t> bfs(index_t n, const edges& e, index_t s) {
  std::vector<std::vector<index_t>> out(static_cast<std::size_t>(n));
  for (const auto& [a, b] : e) out[static_cast<std::size_t>(a)].push_back(b);
  std::vector<std::int64_t> lv(static_cast<std::size_t>(n), -1);
  std::deque<index_t> q{s};
  lv[static_cast<std::size_t>(s)] = 0;
  while (!q.empty()) {
    const index_t v = q.front();
    q.pop_front();
    for (index_t w : out[static_cast<std::size_t>(v)])
      if (lv[static_cast<std::size_t>(w)] < 0) {
        lv[static_cast<std::size_t>(w)] = lv[static_cast<std::size_t>(v)] + 1;
        q.push_back(w);
      }
  }
  return lv;
}

// Triangles of the undirected, loop-free version of the graph.
inline std::int64_t triangles(index_t n, const edges& e) {
  std::vector<std::set<index_t>> adj(static_cast<std::size_t>(n));
  for (const auto& [a, b] : e)
    if (a != b) adj[static_cast<std::size_t>(a)].insert(b), adj[static_cast<std::size_t>(b)].insert(a);
  std::int64_t t = 0;
  for (index_t a = 0; a < n; ++a)
    for (index_t b : adj[static_cast<std::size_t>(a)])
      if (b > a)
        for (index_t c : adj[static_cast<std::size_t>(b)])
          if (c > b && adj[static_cast<std::size_t>(a)].count(c)) ++t;
  return t;
}

inline edges edges_of(const tgb::Matrix<double>& A) {
  const auto c = A.to_coo();
  edges e;
  for (std::size_t k = 0; k < c.rows.size(); ++k) e.push_back({c.rows[k], c.cols[k]});
  return e;
}

// Adjusted Rand index (Hubert and Arabie) of two labelings of the same items.
inline double adjusted_rand_index(const std::vector<index_t>& x, const std::vector<index_t>& y) {
  const std::size_t n = x.size();
  if (n != y.size() || n < 2) return n == y.size() ? 1.0 : 0.0;
  std::map<std::pair<index_t, index_t>, double> nij;
  std::map<index_t, double> a, b;
  for (std::size_t k = 0; k < n; ++k) ++nij[{x[k], y[k]}], ++a[x[k]], ++b[y[k]];
  auto c2 = [](double v) { return v * (v - 1) / 2; };
  double sij = 0, sa = 0, sb = 0;
  for (const auto& [k, v] : nij) sij += c2(v);
  for (const auto& [k, v] : a) sa += c2(v);
  for (const auto& [k, v] : b) sb += c2(v);
  const double expected = sa * sb / c2(double(n));
  const double top = 0.5 * (sa + sb) - expected;
  return top == 0 ? 1.0 : (sij - expected) / top;
}

// Cluster lists -> one label per vertex.
inline std::vector<index_t> labels(index_t n, const std::vector<std::vector<index_t>>& clusters) {
  std::vector<index_t> l(static_cast<std::size_t>(n), -1);
  for (std::size_t k = 0; k < clusters.size(); ++k)
    for (index_t v : clusters[k]) l[static_cast<std::size_t>(v)] = static_cast<index_t>(k);
  // Vertices in no cluster get their own label.
  index_t next = static_cast<index_t>(clusters.size());
  for (auto& v : l)
    if (v < 0) v = next++;
  return l;
}

}  // namespace graphs
