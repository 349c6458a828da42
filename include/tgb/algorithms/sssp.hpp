// tgb: single-source shortest paths by Bellman-Ford on the min.plus semiring,
// written on the Vector operations. Only the vertices whose distance improved
// in the last round (the frontier f) are relaxed again:
//   t = f min.+ A                                  (vxm)
//   better = t < d, with d's missing entries as +inf (ewise_union)
//   d<better> = t; f<better, replace> = t
// Without a negative cycle every shortest path has at most n - 1 edges, so
// the frontier is empty after n rounds at the latest; a frontier still
// standing after round n means a negative cycle reachable from the source,
// reported as invalid_value.
//
// Host only: the Vector operations throw not_implemented when A lives on the
// GPU, and the error is let through (nothing is copied behind the caller).
#pragma once

#include <cstdint>
#include <limits>
#include <string>

#include "tgb/algorithms/bfs.hpp"
#include "tgb/operations.hpp"
#include "tgb/vector_operations.hpp"

namespace tgb {

struct sssp_options {
  // Stop after this many rounds (0: n, which is enough for every graph; a
  // smaller cap makes the result the shortest paths of at most that many edges
  // and skips the negative cycle check).
  index_t max_rounds = 0;
};

struct sssp_result {
  Vector<double> distance;  // distance(v): length of a shortest path; absent where unreached
  index_t rounds = 0;       // relaxation rounds run
};

// A(i, j) is an edge from i to j of weight A(i, j), cast to double.
template <class T>
sssp_result sssp_bellman_ford(const Matrix<T>& A, index_t source, const sssp_options& opt = {}) {
  detail::check_graph_source("sssp_bellman_ford", A, source);
  if (opt.max_rounds < 0)
    throw invalid_value("tgb::sssp_bellman_ford: max_rounds must be 0 (no cap) or positive, not " +
                        std::to_string(opt.max_rounds));
  const index_t n = A.nrows();
  const index_t cap = opt.max_rounds > 0 ? opt.max_rounds : n;
  const double inf = std::numeric_limits<double>::infinity();
  sssp_result r{Vector<double>(n)};
  Vector<double> f(n), t(n);
  Vector<bool> better(n);
  r.distance.set(source, 0.0);
  f.set(source, 0.0);
  const descriptor replace = descriptor{}.with_replace();
  while (f.nvals() > 0 && r.rounds < cap) {
    ++r.rounds;
    vxm(t, no_mask, no_accum, min_plus, f, A);
    ewise_union(better, no_mask, no_accum, lt{}, t, inf, r.distance, inf);
    assign(r.distance, better, no_accum, t, all);
    assign(f, better, no_accum, t, all, replace);
  }
  if (f.nvals() > 0 && opt.max_rounds == 0)
    throw invalid_value("tgb::sssp_bellman_ford: a negative cycle is reachable from source " +
                        std::to_string(source) + " (distances still falling after " + std::to_string(n) +
                        " rounds)");
  return r;
}

}  // namespace tgb
