// tgb: betweenness centrality, exact for a set of sources: Brandes'
// algorithm written on multi-source BFS, as LAGraph's LAGr_Betweenness
// formulates it. For each source s and vertex v != s, Brandes' dependency is
//   delta_s(v) = sum over t != s, v of sigma_st(v) / sigma_st,
// sigma_st the number of shortest s-t paths and sigma_st(v) those through v;
// the result is bc(v) = sum over the given sources s of delta_s(v),
// unnormalized. Edges are A's pattern (A(i, j) stored: an edge i -> j; the
// values, weights included, are ignored).
//
// The sources go in batches of k; a batch's k searches advance together as
// the rows of k x n matrices, with P the pattern of A and P' its transpose:
//   forward, one level d = 1, 2, ... at a time until the frontier is empty:
//     S_d<!struct(visited), replace> = S_{d-1} plus.first P   (mxm)
//     visited<struct(S_d)> = true                              (apply)
//   S_0 holds 1 at (q, source q); S_d(q, v) is sigma(source q, v) for the
//   vertices v at depth d, the only entries stored.
//   backward, d = D, D-1, ..., 2 (D the last level; delta_D = 0):
//     W = (1 + delta_d) ./ S_d                                 (apply, ewise_add, ewise_mult)
//     W'<struct(S_{d-1}), replace> = W plus.first P'           (mxm)
//     delta_{d-1} = W' .* S_{d-1}                              (ewise_mult)
//     bc += column sums of delta_{d-1}                         (reduce with the plus accumulator)
// which is Brandes' recurrence delta(v) = sum over the successors w of v one
// level deeper of sigma(v) / sigma(w) * (1 + delta(w)). The sources (depth 0)
// get nothing from their own search, as in Brandes.
//
// networkx: for a directed graph (nx.DiGraph), bc equals
// nx.betweenness_centrality(G, normalized=False) when every vertex is a source
// and nx.betweenness_centrality_subset(G, sources, list(G), normalized=False)
// for a subset. For an undirected graph stored symmetric (both A(i, j) and
// A(j, i)) each unordered pair is counted from both ends, so bc is twice what
// networkx returns for the same graph as an nx.Graph (networkx halves
// undirected results); it equals networkx's for the graph as an nx.DiGraph
// with both directions. bc / ((n - 1)(n - 2)) is networkx's normalized=True
// value, directed and undirected alike. Sampling with
// nx.betweenness_centrality(G, k=...) rescales by n / k and is not this.
//
// Runs where A lives: mxm (on equal types), apply, ewise_add, ewise_mult,
// transpose and the reduction to a vector all have device paths (the result
// is a host Vector); tests/cuda checks the GPU's results against the host's.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "tgb/operations.hpp"
#include "tgb/vector_operations.hpp"

namespace tgb {

struct bc_options {
  // Sources searched together: the frontier and the path counts of a batch
  // are batch x n matrices (memory grows with it). 0: all in one batch.
  index_t batch = 64;
  // Follow edges both ways (the pattern of A + A') instead of as stored.
  bool symmetrize = false;
};

namespace detail {
// Checks the sources (index_out_of_bounds outside [0, n), invalid_value on a
// repeat) and returns them, or every vertex when the list is empty.
inline std::vector<index_t> bc_sources(const std::vector<index_t>& sources, index_t n) {
  std::vector<index_t> out;
  if (sources.empty()) {
    out.resize(static_cast<std::size_t>(n));
    for (index_t v = 0; v < n; ++v) out[static_cast<std::size_t>(v)] = v;
    return out;
  }
  std::vector<char> seen(static_cast<std::size_t>(n), 0);
  for (index_t s : sources) {
    if (s < 0 || s >= n)
      throw index_out_of_bounds("tgb::betweenness_centrality: source " + std::to_string(s) +
                                " is not a vertex of a graph with " + std::to_string(n) + " vertices");
    if (seen[static_cast<std::size_t>(s)]++)
      throw invalid_value("tgb::betweenness_centrality: source " + std::to_string(s) + " is given more than once");
  }
  return sources;
}

// One batch of sources: bc += the sum of their dependencies. P is the
// pattern as double (the device's products take equal types), PT its
// transpose; both live where bc's operands run.
inline void bc_batch(Vector<double>& bc, const Matrix<double>& P, const Matrix<double>& PT, const index_t* src,
                     index_t k) {
  const index_t n = P.nrows();
  const backend where = P.location();
  std::vector<index_t> rows(static_cast<std::size_t>(k)), cols(src, src + k);
  for (index_t q = 0; q < k; ++q) rows[static_cast<std::size_t>(q)] = q;
  // levels[d]: sigma at depth d (k x n, stored only at depth-d vertices).
  std::vector<Matrix<double>> levels;
  levels.push_back(Matrix<double>::from_coo(k, n, rows, cols, std::vector<double>(cols.size(), 1.0), no_duplicates));
  Matrix<bool> visited = Matrix<bool>::from_coo(k, n, rows, cols, std::vector<bool>(cols.size(), true), no_duplicates);
  levels.back().to(where);
  visited.to(where);
  for (;;) {
    Matrix<double> next(k, n);
    next.to(where);
    mxm(next, complement(structure(visited)), no_accum, plus_first, levels.back(), P, descriptor{}.with_replace());
    if (next.nvals() == 0) break;
    apply(visited, structure(next), no_accum, one{}, next);
    levels.push_back(std::move(next));
  }
  visited = Matrix<bool>(0, 0);

  Matrix<double> delta(k, n), W(k, n), up(k, n);  // delta: at depth d (none at the last level)
  delta.to(where);
  W.to(where);
  up.to(where);
  const descriptor replace = descriptor{}.with_replace();
  for (std::size_t d = levels.size() - 1; d >= 2; --d) {
    const Matrix<double>& sigma = levels[d];
    apply(W, no_mask, no_accum, one{}, sigma);                // 1 at depth d
    ewise_add(W, no_mask, no_accum, plus{}, W, delta);        // 1 + delta
    ewise_mult(W, no_mask, no_accum, div{}, W, sigma);        // (1 + delta) / sigma
    mxm(up, structure(levels[d - 1]), no_accum, plus_first, W, PT, replace);  // sum over successors
    ewise_mult(delta, no_mask, no_accum, times{}, up, levels[d - 1]);         // delta at depth d - 1
    reduce(bc, no_mask, plus{}, plus_monoid{}, delta, descriptor{}.with_transpose_a());
    levels.pop_back();  // depth d is done
  }
}
}  // namespace detail

// bc(v) = sum over the sources s of delta_s(v) (all vertices when `sources`
// is empty), a Vector<double> with all n entries (0 where no shortest path
// between the sources and the other vertices passes through v).
// A not square: dimension_mismatch; a source outside [0, n):
// index_out_of_bounds; a source given twice or a negative batch:
// invalid_value.
template <class T>
Vector<double> betweenness_centrality(const Matrix<T>& A, const std::vector<index_t>& sources = {},
                                      const bc_options& opt = {}) {
  if (A.nrows() != A.ncols())
    throw dimension_mismatch("tgb::betweenness_centrality: the adjacency matrix must be square, not " +
                             std::to_string(A.nrows()) + " x " + std::to_string(A.ncols()));
  if (opt.batch < 0)
    throw invalid_value("tgb::betweenness_centrality: the batch size must be 0 (all sources at once) or positive, "
                        "not " + std::to_string(opt.batch));
  const index_t n = A.nrows();
  const std::vector<index_t> src = detail::bc_sources(sources, n);
  Vector<double> bc(n);
  assign(bc, no_mask, no_accum, 0.0, all);
  if (n == 0) return bc;

  // The pattern as double (its values are never read: plus.first takes the
  // frontier's) and its transpose; with symmetrize, P + P', its own transpose.
  const backend where = A.location();
  Matrix<double> P(n, n), PT(n, n);
  P.to(where);
  PT.to(where);
  apply(P, no_mask, no_accum, one{}, A);
  if (opt.symmetrize) {
    ewise_add(PT, no_mask, no_accum, first{}, P, P, descriptor{}.with_transpose_b());
    P.swap(PT);
    PT = Matrix<double>(0, 0);
  } else {
    transpose(PT, no_mask, no_accum, P);
  }
  const Matrix<double>& back = opt.symmetrize ? P : PT;
  const index_t total = static_cast<index_t>(src.size());
  const index_t batch = opt.batch == 0 ? total : std::min(opt.batch, total);
  for (index_t at = 0; at < total; at += batch)
    detail::bc_batch(bc, P, back, src.data() + at, std::min(batch, total - at));
  return bc;
}

}  // namespace tgb
