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
// sssp_delta_stepping (below) is the same for nonnegative weights, by buckets.
//
// Both run where A lives; the distances come back there (on the GPU: a device
// vector, to(backend::host) to read it).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

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
  const backend where = A.location();
  // The weights as double once (each round's product would cast them again).
  std::optional<Matrix<double>> cast;
  if constexpr (!std::is_same_v<T, double>) {
    cast.emplace(A.nrows(), A.ncols());
    cast->to(where);
    apply(*cast, no_mask, no_accum, identity{}, A);
  }
  const auto& W = [&]() -> const Matrix<double>& {
    if constexpr (std::is_same_v<T, double>) return A;
    else return *cast;
  }();
  sssp_result r{Vector<double>(n)};
  Vector<double> f(n), t(n, where);
  Vector<bool> better(n, where);
  r.distance.set(source, 0.0);
  f.set(source, 0.0);
  r.distance.to(where);
  f.to(where);
  const descriptor replace = descriptor{}.with_replace();
  while (f.nvals() > 0 && r.rounds < cap) {
    ++r.rounds;
    vxm(t, no_mask, no_accum, min_plus, f, W);
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

struct delta_stepping_options {
  // The bucket width; 0 takes the mean edge weight (1 if that is 0).
  double delta = 0;
};

// Delta-stepping (Meyer and Sanders, as LAGraph writes it on GraphBLAS) for
// nonnegative weights: the bucket [lo, lo + delta), lo the smallest tentative
// distance not yet settled, is settled by relaxing its
// light edges (weight <= delta) until it stops changing, then its heavy edges
// once, which only reach later buckets:
//   reach = d's entries in the bucket; S = {}
//   while reach is not empty: S |= reach; t = reach min.+ AL;
//     better = t < d; d<better> = t; reach<better, replace> = d's entries below lo + delta
//   t = d(S) min.+ AH; better = t < d; d<better> = t
// A negative weight is invalid_value (use sssp_bellman_ford).
template <class T>
sssp_result sssp_delta_stepping(const Matrix<T>& A, index_t source, const delta_stepping_options& opt = {}) {
  detail::check_graph_source("sssp_delta_stepping", A, source);
  if (!(opt.delta >= 0))
    throw invalid_value("tgb::sssp_delta_stepping: delta must be 0 (automatic) or positive, not " +
                        std::to_string(opt.delta));
  const index_t n = A.nrows();
  Matrix<double> W(n, n);
  W.to(A.location());
  apply(W, no_mask, no_accum, identity{}, A);
  if (W.nvals() > 0 && reduce(min_monoid{}, W) < 0)
    throw invalid_value("tgb::sssp_delta_stepping: the graph has a negative edge weight; delta-stepping needs "
                        "nonnegative weights (use sssp_bellman_ford)");
  double delta = opt.delta;
  if (delta == 0) delta = W.nvals() > 0 ? reduce(plus_monoid{}, W) / static_cast<double>(W.nvals()) : 1.0;
  if (!(delta > 0)) delta = 1.0;
  Matrix<double> AL(n, n), AH(n, n);
  AL.to(A.location());
  AH.to(A.location());
  select(AL, no_mask, no_accum, value_le{}, W, delta);
  select(AH, no_mask, no_accum, value_gt{}, W, delta);

  const double inf = std::numeric_limits<double>::infinity();
  const descriptor replace = descriptor{}.with_replace();
  const backend where = A.location();
  sssp_result r{Vector<double>(n)};
  r.distance.set(source, 0.0);
  r.distance.to(where);
  Vector<double> reach(n, where), settled(n, where), t(n, where), rest(n, where);
  Vector<bool> better(n, where);
  // Improves d where t is smaller; `better` marks where.
  auto relax = [&] {
    ewise_union(better, no_mask, no_accum, lt{}, t, inf, r.distance, inf);
    assign(r.distance, better, no_accum, t, all);
  };
  for (double lo = 0;;) {
    const double hi = lo + delta;
    select(reach, no_mask, no_accum, value_ge{}, r.distance, lo);
    select(reach, no_mask, no_accum, value_lt{}, reach, hi);
    settled.clear();
    while (reach.nvals() > 0) {
      ++r.rounds;
      assign(settled, structure(reach), no_accum, reach, all);
      vxm(t, no_mask, no_accum, min_plus, reach, AL);
      relax();
      select(reach, better, no_accum, value_lt{}, r.distance, hi, replace);
    }
    ewise_mult(reach, no_mask, no_accum, first{}, r.distance, settled);
    vxm(t, no_mask, no_accum, min_plus, reach, AH);
    relax();
    // The next bucket starts at the smallest distance not yet settled (>= hi,
    // so every round moves on), if any.
    select(rest, no_mask, no_accum, value_ge{}, r.distance, hi);
    if (rest.nvals() == 0) break;
    lo = reduce(min_monoid{}, rest);
  }
  return r;
}

}  // namespace tgb
