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
// Host only for now (pointer jumping reads the labels on the host): with A on
// the GPU it throws not_implemented (nothing is copied behind the caller).
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
  detail::host_only("connected_components", {{"A", A.location()}});
  const index_t n = A.nrows();
  const Matrix<bool> S = detail::graph_pattern(A, !opt.symmetric);
  Vector<std::int64_t> label(n), prev(n);
  assign(label, no_mask, no_accum, std::int64_t(0), all);
  apply_index(label, no_mask, no_accum, rowindex{}, label, 0);
  std::vector<index_t> ids(static_cast<std::size_t>(n));
  do {
    prev = label;
    mxv(label, no_mask, min{}, min_second, S, label);
    // Pointer jumping until the labels are roots: label = label(label).
    for (;;) {
      const std::int64_t* v = label.values();
      for (index_t i = 0; i < n; ++i) ids[static_cast<std::size_t>(i)] = v[i];
      Vector<std::int64_t> jumped(n);
      extract(jumped, no_mask, no_accum, label, index_list(ids));
      if (jumped == label) break;
      label.swap(jumped);
    }
  } while (!(label == prev));
  return label;
}

}  // namespace tgb
