// tgb: connected components by FastSV (Zhang, Azad and Hu, "FastSV: a
// distributed-memory connected component algorithm with fast convergence",
// SIAM PP 2020), written on the Vector operations as LAGraph writes it:
//   f = 0, 1, ..., n-1 (each vertex its own parent); gf = f
//   repeat
//     mngf = min(gf, S min.second gf)       mxv: the smallest grandparent
//                                           among v and its neighbours
//     f(f(v)) = min(f(f(v)), mngf(v))       stochastic hooking: t = the
//                                           vector built from the tuples
//                                           (f(v), mngf(v)) with dup min,
//                                           then f = min(f, t)
//     f = min(f, mngf)                      aggressive hooking
//     f = min(f, gf)                        shortcutting
//     gf' = f(f)                            extract: the grandparents
//   until gf' = gf                          (then f never changes again)
// S is the pattern of A + A', so directed graphs give their weakly connected
// components. A parent only ever falls to the id of a vertex of the same
// component; at the end every vertex's parent is the smallest id in its
// component (the paper's Lemma 3.1 and the minimum's fixed point).
// Hooking to grandparents takes O(log n) rounds on long paths, where label
// propagation takes one per hop (a road network's diameter).
//
// Runs where A lives: on the GPU f, gf and mngf stay there (the build and
// the extract take f itself as their index vector); each round waits for
// the GPU four times (two index checks, mngf's count, the comparison).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tgb/algorithms/bfs.hpp"
#include "tgb/operations.hpp"
#include "tgb/vector_operations.hpp"

namespace tgb {

struct cc_options {
  // Set when A is known to be symmetric: A is used as it is instead of A + A'.
  bool symmetric = false;
};

// component(v) = the smallest vertex id in v's (weakly) connected component;
// all n entries are stored.
template <class T>
Vector<std::int64_t> connected_components(const Matrix<T>& A, const cc_options& opt = {}) {
  if (A.nrows() != A.ncols())
    throw dimension_mismatch("tgb::connected_components: the adjacency matrix must be square, not " +
                             std::to_string(A.nrows()) + " x " + std::to_string(A.ncols()));
  const index_t n = A.nrows();
  const backend where = A.location();
  const Matrix<bool> S = detail::graph_pattern(A, !opt.symmetric);
  Vector<std::int64_t> f(n, where), gf(n, where), mngf(n, where), next(n, where), t(n, where);
  assign(f, no_mask, no_accum, std::int64_t(0), all);
  apply_index(f, no_mask, no_accum, rowindex{}, f, 0);
  gf = f;
  for (;;) {
    mngf = gf;
    mxv(mngf, no_mask, min{}, min_second, S, gf);
    t.clear();
    build(t, f, mngf, min{});                // stochastic hooking
    assign(f, no_mask, min{}, t, all);
    assign(f, no_mask, min{}, mngf, all);    // aggressive hooking
    assign(f, no_mask, min{}, gf, all);      // shortcutting
    extract(next, no_mask, no_accum, f, f);  // grandparents
    if (next == gf) break;
    gf.swap(next);
  }
  return f;
}

}  // namespace tgb
