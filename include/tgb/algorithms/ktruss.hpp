// tgb: the k-truss of an undirected graph: the largest subgraph in which
// every edge lies in at least k - 2 triangles of the subgraph (Cohen's
// definition, as LAGraph's KTruss). With C the loop-free pattern of A + A'
// (every edge both ways), repeat until no edge is dropped:
//   X<C> = C plus_pair C        X(i, j) = triangles through edge (i, j) in C
//   C = select(X, value >= k - 2)
// Edges in no triangle have no entry in X and go at once. The result holds
// each remaining edge both ways, valued by its support (triangles through it
// in the truss). Runs where A lives: masked products and select run on both
// backends.
#pragma once

#include <cstdint>
#include <string>

#include "tgb/algorithms/triangle_count.hpp"
#include "tgb/operations.hpp"

namespace tgb {

struct ktruss_result {
  Matrix<std::int64_t> support;  // each edge of the truss both ways: its triangles in the truss
  index_t rounds = 0;            // masked products run
};

template <class T>
ktruss_result ktruss(const Matrix<T>& A, std::int64_t k) {
  if (k < 3)
    throw invalid_value("tgb::ktruss: k must be at least 3 (every edge is in the 2-truss), not " +
                        std::to_string(k));
  const Matrix<bool> S = undirected_pattern(A);  // throws dimension_mismatch unless square
  const index_t n = S.nrows();
  const backend where = S.location();
  ktruss_result r{Matrix<std::int64_t>(n, n), 0};
  Matrix<std::int64_t>& C = r.support;
  C.to(where);
  apply(C, no_mask, no_accum, one{}, S);
  Matrix<std::int64_t> counts(n, n);  // triangles through each edge of C
  counts.to(where);
  for (index_t before = C.nvals();;) {
    mxm(counts, structure(C), no_accum, plus_pair, C, C);
    select(C, no_mask, no_accum, value_ge{}, counts, k - 2);
    ++r.rounds;
    const index_t now = C.nvals();
    if (now == before) break;
    before = now;
  }
  return r;
}

}  // namespace tgb
