// tgb: single-source breadth-first search with levels and parents, written on
// the Vector operations (the GraphBLAS formulation LAGraph describes, with
// Beamer's direction optimization). The frontier q holds, at each vertex just
// reached, that vertex's own id, so that one product hands every newly reached
// vertex a parent:
//   push: q<!struct(parent), replace> = q any.first A    (vxm over the frontier's rows)
//   pull: q<!struct(parent), replace> = A' any.second q  (mxv over the unvisited rows of A')
//   parent<struct(q)> = q; level<struct(q)> = d; q(i) = i
// The any monoid is terminal: the pull stops at an unvisited vertex's first
// frontier in-neighbour.
//
// It runs where A lives; levels and parents come back there (on the GPU:
// device vectors, to(backend::host) to read them).
#pragma once

#include <cstdint>
#include <string>

#include "tgb/operations.hpp"
#include "tgb/vector_operations.hpp"

namespace tgb {

enum class bfs_direction {
  automatic,  // push while the frontier is small, pull while it is large (Beamer)
  push,       // always vxm over the frontier
  pull,       // always mxv over the unvisited vertices (builds A')
};

struct bfs_options {
  bfs_direction direction = bfs_direction::automatic;
  // Beamer's switches: push -> pull when the frontier's out-edges exceed the
  // unexplored edges / alpha; pull -> push when the frontier holds fewer than
  // n / beta vertices.
  double alpha = 14.0;
  double beta = 24.0;
  // Follow edges both ways (the pattern of A + A') instead of as stored
  // (A(i, j) is an edge from i to j).
  bool symmetrize = false;
};

struct bfs_result {
  Vector<std::int64_t> level;   // level(v): hops from the source; absent where unreached
  Vector<std::int64_t> parent;  // parent(v): v's predecessor on a shortest path; parent(source) = source
  index_t pull_steps = 0;       // levels computed by the pull (mxv) path
  index_t push_steps = 0;       // levels computed by the push (vxm) path
};

namespace detail {
template <class T>
void check_graph_source(const char* algo, const Matrix<T>& A, index_t source) {
  if (A.nrows() != A.ncols())
    throw dimension_mismatch(std::string("tgb::") + algo + ": the adjacency matrix must be square, not " +
                             std::to_string(A.nrows()) + " x " + std::to_string(A.ncols()));
  if (source < 0 || source >= A.nrows())
    throw invalid_index(std::string("tgb::") + algo + ": source " + std::to_string(source) +
                        " is not a vertex of a graph with " + std::to_string(A.nrows()) + " vertices");
}

// On the host the vector algorithms keep their matrices in rows whatever the
// storage rule would pick: mxv, vxm, reduce and transpose read rows in place,
// and faster than tiles (a tile-dense graph such as bcsstk33 included).
template <class T>
void rows_on_host(Matrix<T>& M) {
  if (M.location() == backend::host) M.set_storage(storage_control::rows);
}

// The fused push levels on the GPU (detail::cuda::bfs_push_fused) where P is
// stored in rows there; false where they cannot run (the caller takes the
// vector operations).
template <class I = std::int64_t>
bool bfs_push_fused_cuda(const Matrix<bool>& P, Vector<I>& q, Vector<I>& parent, Vector<I>& level, std::int64_t d,
                         double alpha, bool automatic, cuda::bfs_fused_state& st) {
  if constexpr (!cuda::device_types<I>) {
    return false;
  } else {
    const device_row_matrix<bool>* rows = P.device_rows();
    const stream_t s = current_stream();
    // The kernel writes the vectors' arrays in place: only where they belong
    // to the current stream (arrays_on).
    if (!rows || !arrays_on(q.device(), s) || !arrays_on(parent.device(), s) || !arrays_on(level.device(), s))
      return false;
    return cuda::bfs_push_fused<I>(*rows, *q.device_storage(), *parent.device_storage(), *level.device_storage(), d,
                                   alpha, automatic, st, s);
  }
}

// The edges of A as a bool pattern, optionally with A' added (in rows on the host).
template <class T>
Matrix<bool> graph_pattern(const Matrix<T>& A, bool symmetrize) {
  const index_t n = A.nrows();
  Matrix<bool> P(n, n);
  P.to(A.location());
  rows_on_host(P);
  apply(P, no_mask, no_accum, one{}, A);
  if (symmetrize) {
    Matrix<bool> S(n, n);
    S.to(A.location());
    rows_on_host(S);
    ewise_add(S, no_mask, no_accum, lor{}, P, P, descriptor{}.with_transpose_b());
    P.swap(S);
  }
  return P;
}
}  // namespace detail

template <class T>
bfs_result bfs(const Matrix<T>& A, index_t source, const bfs_options& opt = {}) {
  detail::check_graph_source("bfs", A, source);
  if (!(opt.alpha > 0) || !(opt.beta > 0))
    throw invalid_value("tgb::bfs: alpha and beta must be positive, not " + std::to_string(opt.alpha) + " and " +
                        std::to_string(opt.beta));
  const index_t n = A.nrows();
  Matrix<bool> P = detail::graph_pattern(A, opt.symmetrize);

  const backend where = A.location();
  // On the GPU the push levels run fused in one kernel over P's rows
  // (detail::cuda::bfs_push_fused): P in rows where they fit.
  if (where == backend::cuda && opt.direction != bfs_direction::pull) P.set_storage(storage_control::rows);
  bfs_result r{Vector<std::int64_t>(n), Vector<std::int64_t>(n)};
  Vector<std::int64_t> q(n);
  q.set(source, source);
  r.parent.set(source, source);
  r.level.set(source, 0);
  q.to(where);
  r.parent.to(where);
  r.level.to(where);

  // Out-degrees, for Beamer's edge counts (automatic only).
  const bool automatic = opt.direction == bfs_direction::automatic;
  Vector<std::int64_t> deg(n), fdeg(n, where);
  std::int64_t unexplored = 0;
  if (automatic) {
    Matrix<std::int64_t> Pi(n, n);
    Pi.to(where);
    detail::rows_on_host(Pi);
    apply(Pi, no_mask, no_accum, one{}, P);
    reduce(deg, no_mask, no_accum, plus_monoid{}, Pi);  // a host vector, wherever Pi lives
    deg.to(where);
    unexplored = reduce(plus_monoid{}, deg);
  }
  Matrix<bool> AT;  // A', made the first time the pull runs
  bool have_at = false;
  bool pulling = opt.direction == bfs_direction::pull;

  const descriptor replace = descriptor{}.with_replace();
  bool decided = false;  // the fused push already chose the direction for this frontier
  for (std::int64_t d = 1; q.nvals() > 0; ++d) {
    if (automatic && !decided) {
      ewise_mult(fdeg, no_mask, no_accum, first{}, deg, q);
      const std::int64_t frontier_edges = reduce(plus_monoid{}, fdeg);
      unexplored -= frontier_edges;
      if (!pulling && static_cast<double>(frontier_edges) > static_cast<double>(unexplored) / opt.alpha)
        pulling = true;
      else if (pulling && static_cast<double>(q.nvals()) < static_cast<double>(n) / opt.beta)
        pulling = false;
    }
    decided = false;
    if (!pulling && where == backend::cuda) {
      detail::cuda::bfs_fused_state st;
      st.unexplored = unexplored;
      if (detail::bfs_push_fused_cuda(P, q, r.parent, r.level, d, opt.alpha, automatic, st)) {
        r.push_steps += st.levels;
        d += st.levels - 1;
        unexplored = st.unexplored;
        pulling = decided = st.stopped_for_pull;
        continue;
      }
    }
    if (pulling) {
      if (!have_at) {
        AT = Matrix<bool>(n, n);
        AT.to(A.location());
        detail::rows_on_host(AT);
        transpose(AT, no_mask, no_accum, P);
        have_at = true;
      }
      mxv(q, complement(structure(r.parent)), no_accum, any_second, AT, q, replace);
      ++r.pull_steps;
    } else {
      vxm(q, complement(structure(r.parent)), no_accum, any_first, q, P, replace);
      ++r.push_steps;
    }
    if (q.nvals() == 0) break;
    assign(r.parent, structure(q), no_accum, q, all);
    assign(r.level, structure(q), no_accum, d, all);
    apply_index(q, no_mask, no_accum, rowindex{}, q, 0);
  }
  return r;
}

}  // namespace tgb
