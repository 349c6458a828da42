// tgb: PageRank as LDBC Graphalytics defines it, written on the Vector
// operations. With n vertices, damping d and out-degree outdeg(u) (edges as
// stored: A(u, v) is an edge from u to v; weights are ignored):
//   PR_0(v) = 1 / n
//   PR_i(v) = (1 - d) / n + d * sum over u -> v of PR_{i-1}(u) / outdeg(u)
//                         + d / n * sum over dangling w (outdeg 0) of PR_{i-1}(w)
// for a fixed number of iterations (no convergence test), as LAGraph's
// LAGr_PageRankGX. With A' (the pattern's transpose, made once) each
// iteration is
//   w = PR ./ outdeg                     (ewise_mult, non-dangling vertices only)
//   t = A' plus.second w                 (mxv: a pull, each vertex summing its
//                                         in-neighbours' shares, in four
//                                         partial sums on long rows)
//   PR = c, then PR += d * t             (assign, apply with accumulator)
// where c = (1 - d) / n + d / n * (sum of PR - sum of PR over non-dangling).
//
// It runs where A lives; the ranks come back there (on the GPU: a device
// vector, to(backend::host) to read it).
#pragma once

#include <cstdint>
#include <string>

#include "tgb/algorithms/bfs.hpp"
#include "tgb/operations.hpp"
#include "tgb/vector_operations.hpp"

namespace tgb {

struct pagerank_options {
  double damping = 0.85;  // d, in [0, 1]
  int iterations = 20;    // fixed count, >= 0
};

template <class T>
Vector<double> pagerank(const Matrix<T>& A, const pagerank_options& opt = {}) {
  if (A.nrows() != A.ncols())
    throw dimension_mismatch("tgb::pagerank: the adjacency matrix must be square, not " + std::to_string(A.nrows()) +
                             " x " + std::to_string(A.ncols()));
  if (!(opt.damping >= 0 && opt.damping <= 1))
    throw invalid_value("tgb::pagerank: the damping factor must lie in [0, 1], not " + std::to_string(opt.damping));
  if (opt.iterations < 0)
    throw invalid_value("tgb::pagerank: the iteration count must not be negative, not " +
                        std::to_string(opt.iterations));
  const index_t n = A.nrows();
  const backend where = A.location();
  Vector<double> pr(n, where);
  if (n == 0) return pr;
  const double d = opt.damping, nd = static_cast<double>(n);
  // Out-degrees of the pattern (absent for dangling vertices).
  Vector<double> outdeg = detail::row_counts<double>(A);
  outdeg.to(where);
  assign(pr, no_mask, no_accum, 1.0 / nd, all);
  // A' as a pattern: the pull over it needs no atomics on the GPU and no
  // column split on the host, where the push over A needs either.
  const Matrix<bool> P = detail::graph_pattern(A, false);
  Matrix<bool> AT(n, n);
  // In rows on both backends: the device keeps a transpose in tiles (it does
  // not re-apply the storage rule) and its tile pull is slow on skewed rows;
  // the host's row pull beats its tile pull (detail::rows_on_host).
  AT.set_storage(storage_control::rows);
  AT.to(where);
  transpose(AT, no_mask, no_accum, P);
  Vector<double> w(n, where), t(n, where), held(n, where);
  for (int it = 0; it < opt.iterations; ++it) {
    ewise_mult(w, no_mask, no_accum, div{}, pr, outdeg);
    mxv(t, no_mask, no_accum, plus_second, AT, w);
    // The rank held by dangling vertices: all of it minus the non-dangling part.
    ewise_mult(held, no_mask, no_accum, first{}, pr, outdeg);
    const double dangling = reduce(plus_monoid{}, pr) - reduce(plus_monoid{}, held);
    assign(pr, no_mask, no_accum, (1 - d) / nd + d / nd * dangling, all);
    apply(pr, no_mask, plus{}, bind2nd(times{}, d), t);
  }
  return pr;
}

}  // namespace tgb
