// tgb: multi-source breadth-first search. The k sources advance together as
// the rows of a k x n frontier F:
//   F<!structure(V), replace> = F any_pair A     (next frontier, unvisited only)
//   V<structure(F)> = level                      (record the new level)
// until F is empty. V(s, v) is the level of v from source s; an absent entry
// means v is unreachable from s.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tgb/algorithms/triangle_count.hpp"
#include "tgb/operations.hpp"

namespace tgb {

struct msbfs_options {
  // Follow edges in both directions (the pattern of A + A') instead of as
  // stored (A(i, j) is an edge from i to j).
  bool symmetrize = false;
};

// Levels from every source: a sources.size() x n matrix, stored where v is
// reached from source s (the source itself at level 0). Runs where A lives.
template <class T>
Matrix<std::int64_t> msbfs(const Matrix<T>& A, const std::vector<index_t>& sources, const msbfs_options& opt = {}) {
  if (A.nrows() != A.ncols())
    throw dimension_mismatch("tgb::msbfs: the adjacency matrix must be square, not " + std::to_string(A.nrows()) +
                             " x " + std::to_string(A.ncols()));
  const index_t n = A.nrows();
  const index_t k = static_cast<index_t>(sources.size());
  for (index_t s : sources)
    if (s < 0 || s >= n)
      throw invalid_index("tgb::msbfs: source " + std::to_string(s) + " is not a vertex of a graph with " +
                          std::to_string(n) + " vertices");
  const backend where = A.location();

  // The edges as a bool pattern (any_pair reads no values).
  Matrix<bool> P(n, n);
  P.to(where);
  if (opt.symmetrize) {
    Matrix<bool> S(n, n);
    S.to(where);
    apply(P, no_mask, no_accum, one{}, A);
    ewise_add(S, no_mask, no_accum, lor{}, P, P, descriptor{}.with_transpose_b());
    P.swap(S);
  } else {
    apply(P, no_mask, no_accum, one{}, A);
  }

  std::vector<index_t> rows(static_cast<std::size_t>(k));
  for (index_t s = 0; s < k; ++s) rows[static_cast<std::size_t>(s)] = s;
  Matrix<bool> F = Matrix<bool>::from_coo(k, n, rows, sources, std::vector<bool>(sources.size(), true), first{});
  Matrix<std::int64_t> V =
      Matrix<std::int64_t>::from_coo(k, n, rows, sources, std::vector<std::int64_t>(sources.size(), 0), first{});
  F.to(where);
  V.to(where);
  Matrix<std::int64_t> ones(k, n);
  ones.to(where);
  for (std::int64_t level = 1; F.nvals() > 0; ++level) {
    mxm(F, complement(structure(V)), no_accum, any_pair, F, P, descriptor{}.with_replace());
    if (F.nvals() == 0) break;
    // The new frontier's entries become `level` in V (V and F are disjoint).
    apply(ones, no_mask, no_accum, one{}, F);
    apply(V, structure(F), no_accum, bind2nd(times{}, level), ones);
  }
  return V;
}

// The levels as a dense sources.size() x n row-major array, -1 where unreached.
inline std::vector<std::int64_t> dense_levels(const Matrix<std::int64_t>& V) {
  Matrix<std::int64_t> h = V;
  h.to(backend::host);
  const std::size_t n = static_cast<std::size_t>(h.ncols());
  std::vector<std::int64_t> out(static_cast<std::size_t>(h.nrows()) * n, -1);
  const coo<std::int64_t> c = h.to_coo();
  for (std::size_t e = 0; e < c.values.size(); ++e)
    out[static_cast<std::size_t>(c.rows[e]) * n + static_cast<std::size_t>(c.cols[e])] = c.values[e];
  return out;
}

}  // namespace tgb
