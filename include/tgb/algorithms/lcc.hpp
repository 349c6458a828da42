// tgb: local clustering coefficient (LCC) of every vertex, as LDBC
// Graphalytics defines it. With N(v) the neighbours of v in either
// direction (v itself excluded),
//   lcc(v) = |{edges u -> w : u, w in N(v)}| / (|N(v)| (|N(v)| - 1)),
// and 0 where |N(v)| < 2. Directed graphs count each directed edge between
// neighbours once; with `directed = false` every edge counts both ways, so
// the numerator is twice the triangles through v and lcc(v) is the usual
// undirected coefficient (networkx's clustering()).
//
// With P the loop-free pattern of A (of A + A' when undirected) and
// S = P or P' (row v of S is N(v)), as LAGraph's LCC:
//   C<S> = P plus_pair S     C(u, v) = |{w in N(v) : u -> w}|, for u in N(v)
//   t(v) = sum over u of C(u, v)   (reduce of C's columns)
//   d(v) = |N(v)|                  (reduce of S's rows)
// Runs where A lives: the masked product and the reductions run on both
// backends; the quotient is formed on the host.
#pragma once

#include <cstdint>
#include <string>

#include "tgb/algorithms/triangle_count.hpp"
#include "tgb/operations.hpp"
#include "tgb/vector_operations.hpp"

namespace tgb {

struct lcc_options {
  bool directed = true;  // false: the graph is the pattern of A + A'
};

template <class T>
Vector<double> local_clustering_coefficient(const Matrix<T>& A, const lcc_options& opt = {}) {
  if (A.nrows() != A.ncols())
    throw dimension_mismatch("tgb::local_clustering_coefficient: the adjacency matrix must be square, not " +
                             std::to_string(A.nrows()) + " x " + std::to_string(A.ncols()));
  const index_t n = A.nrows();
  const backend where = A.location();
  const Matrix<bool> S = undirected_pattern(A);  // pattern(A + A'), no diagonal
  Matrix<bool> P(n, n);
  if (opt.directed) {
    Matrix<bool> Q(n, n);
    Q.to(where);
    P.to(where);
    apply(Q, no_mask, no_accum, one{}, A);
    select(P, no_mask, no_accum, offdiag{}, Q, 0);
  }
  const Matrix<bool>& edges = opt.directed ? P : S;
  Matrix<std::int64_t> C(n, n);
  C.to(where);
  mxm(C, structure(S), no_accum, plus_pair, edges, S);
  Vector<std::int64_t> t(n);
  reduce(t, no_mask, no_accum, plus_monoid{}, C, descriptor{}.with_transpose_a());
  const Vector<std::int64_t> d = detail::row_counts<std::int64_t>(S);
  Vector<double> lcc(n);
  for (index_t v = 0; v < n; ++v) {
    const double dv = d.present()[v] ? static_cast<double>(d.values()[v]) : 0.0;
    const double tv = t.present()[v] ? static_cast<double>(t.values()[v]) : 0.0;
    lcc.set(v, dv < 2 ? 0.0 : tv / (dv * (dv - 1)));
  }
  return lcc;
}

}  // namespace tgb
