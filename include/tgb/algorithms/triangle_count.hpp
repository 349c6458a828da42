// tgb: triangle counting with the masked product C<L> = L plus_pair L'
// (LAGraph's "Sandia LL'" method), where L is the strictly lower triangle of
// the undirected pattern of A. The mask prunes the product tile by tile.
#pragma once

#include <cstdint>

#include "tgb/operations.hpp"

namespace tgb {

// The undirected, loop-free pattern of A: pattern(A + A') without the diagonal.
template <class T>
Matrix<bool> undirected_pattern(const Matrix<T>& A) {
  if (A.nrows() != A.ncols())
    throw dimension_mismatch("tgb: a graph's adjacency matrix must be square, not " + std::to_string(A.nrows()) +
                             " x " + std::to_string(A.ncols()));
  const index_t n = A.nrows();
  Matrix<bool> P(n, n), S(n, n);
  P.to(A.location());
  S.to(A.location());
  apply(P, no_mask, no_accum, one{}, A);
  ewise_add(S, no_mask, no_accum, lor{}, P, P, descriptor{}.with_transpose_b());
  select(P, no_mask, no_accum, offdiag{}, S, 0);
  return P;
}

// Number of triangles of the undirected graph (pattern of A + A', self-loops
// dropped). Runs where A lives.
template <class T>
std::int64_t triangle_count(const Matrix<T>& A) {
  const Matrix<bool> S = undirected_pattern(A);
  const index_t n = S.nrows();
  Matrix<bool> L(n, n);
  L.to(S.location());
  select(L, no_mask, no_accum, tril{}, S, -1);
  Matrix<std::int64_t> C(n, n);
  C.to(S.location());
  mxm(C, structure(L), no_accum, plus_pair, L, L, descriptor{}.with_transpose_b());
  return reduce(plus_monoid{}, C);
}

}  // namespace tgb
