// tgb: connected components by label propagation with pointer jumping,
// written on the Vector operations (the min.second formulation; LAGraph's
// FastSV adds stochastic hooking on top of the same two steps):
//   label = 0, 1, ..., n-1
//   repeat
//     label = min(label, S min.second label)   (mxv with the min accumulator:
//                                                each vertex takes its
//                                                neighbours' smallest label)
//     label = label(label)                     (extract: pointer jumping)
//   until label stops changing
// S is the pattern of A + A', so directed graphs give their weakly connected
// components. A label only ever falls to the id of a vertex of the same
// component, and every vertex of a component ends at the smallest id in it.
//
// Runs where A lives: on the GPU the labels stay there (the jumps gather on
// the device through a vector of indices; each jump reads back the index
// check and the comparison's flag).
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
  Vector<std::int64_t> label(n, where), prev(n, where), jumped(n, where);
  assign(label, no_mask, no_accum, std::int64_t(0), all);
  apply_index(label, no_mask, no_accum, rowindex{}, label, 0);
  do {
    prev = label;
    mxv(label, no_mask, min{}, min_second, S, label);
    // Pointer jumping until the labels are roots: label = label(label).
    for (;;) {
      extract(jumped, no_mask, no_accum, label, label);
      if (jumped == label) break;
      label.swap(jumped);
    }
  } while (!(label == prev));
  return label;
}

}  // namespace tgb
