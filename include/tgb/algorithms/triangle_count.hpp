// tgb: triangle counting with the masked product C<L> = L plus_pair L'
// (LAGraph's "Sandia LL'" method), where L is the strictly lower triangle of
// the undirected pattern of A, or its upper-triangle twin, optionally after
// relabelling the vertices by degree. The mask prunes the product tile by tile.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

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

// How to count: which triangle of the pattern the masked product works on,
// and whether vertices are first relabelled by degree.
enum class tc_method {
  sandia_ll,  // C<L> = L plus_pair L', L = tril(S, -1)
  sandia_uu,  // C<U> = U plus_pair U', U = triu(S, 1)
};
enum class tc_order {
  none,        // as numbered
  ascending,   // relabel so that degrees increase with the id
  descending,  // relabel so that degrees decrease with the id
};
// The default is the fastest in the tile layout measured on an H200 (d601afd,
// docs/algorithms.md): UU' as numbered, 1.25x faster than LL' on R-MAT and
// even elsewhere. Relabelling by degree (LL' ascending, UU' descending)
// costs 20-35% more time but cuts the peak memory of power-law graphs 7x.
struct tc_options {
  tc_method method = tc_method::sandia_uu;
  tc_order order = tc_order::none;
};

namespace detail {
// S relabelled: vertex perm[i] becomes i (B = P S P' with P(i, perm[i]) = 1,
// as two products with a permutation matrix, where S lives).
inline Matrix<bool> relabel_by_degree(const Matrix<bool>& S, bool ascending) {
  const index_t n = S.nrows();
  const Vector<std::int64_t> deg = row_counts<std::int64_t>(S);
  std::vector<index_t> perm(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) perm[static_cast<std::size_t>(i)] = i;
  auto d = [&](index_t v) { return deg.present()[v] ? deg.values()[v] : 0; };
  std::stable_sort(perm.begin(), perm.end(),
                   [&](index_t a, index_t b) { return ascending ? d(a) < d(b) : d(a) > d(b); });
  std::vector<index_t> rows(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) rows[static_cast<std::size_t>(i)] = i;
  Matrix<bool> P = Matrix<bool>::from_coo(n, n, rows, perm, std::vector<bool>(perm.size(), true), no_duplicates);
  P.to(S.location());
  Matrix<bool> T(n, n), B(n, n);
  T.to(S.location());
  B.to(S.location());
  mxm(T, no_mask, no_accum, any_second, P, S);                                 // T(i, :) = S(perm[i], :)
  mxm(B, no_mask, no_accum, any_first, T, P, descriptor{}.with_transpose_b());  // B(:, j) = T(:, perm[j])
  return B;
}
}  // namespace detail

// Number of triangles of the undirected graph (pattern of A + A', self-loops
// dropped). Runs where A lives.
template <class T>
std::int64_t triangle_count(const Matrix<T>& A, const tc_options& opt = {}) {
  Matrix<bool> S = undirected_pattern(A);
  if (opt.order != tc_order::none) S = detail::relabel_by_degree(S, opt.order == tc_order::ascending);
  const index_t n = S.nrows();
  Matrix<bool> L(n, n);
  L.to(S.location());
  if (opt.method == tc_method::sandia_ll) select(L, no_mask, no_accum, tril{}, S, -1);
  else select(L, no_mask, no_accum, triu{}, S, 1);
  Matrix<std::int64_t> C(n, n);
  C.to(S.location());
  mxm(C, structure(L), no_accum, plus_pair, L, L, descriptor{}.with_transpose_b());
  return reduce(plus_monoid{}, C);
}

}  // namespace tgb
