// tgb: Markov clustering (van Dongen's MCL), written with tgb operations.
//
// tgb keeps the Markov matrix row-stochastic (R = M', where mcl's M is
// column-stochastic): R(i, j) is the chance of stepping from i to j. Each
// iteration is
//   expansion   R = R plus_times R
//   pruning     R = select(R, value_ge, 1/P); then per row at most S entries
//               (the largest), or the largest R if what is left of the row
//               holds less than pct of its mass (mcl's -P, -S, -R, -pct)
//   inflation   R = apply(R, pow(., I)), then every row divided by its sum
//               (R = diag(1/rowsum) plus_times R)
//   chaos       max over rows of max(R(i,:)) / sum(R(i,:)^2) - 1, which is 0
//               exactly when every row is uniform over its entries
// until the chaos drops below the tolerance. Each vertex then belongs to the
// cluster of its attractor: the column of its row's largest entry.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "tgb/operations.hpp"

namespace tgb {

struct mcl_progress {
  int iteration;
  offset_t entries;  // stored entries of R after pruning
  double chaos;
  double seconds;  // this iteration
};

// Names and defaults follow the mcl program (mcl 22-282).
struct mcl_params {
  double inflation = 2.0;          // -I
  double prune = 1e-4;             // entries below this are dropped after expansion (mcl -P 10000)
  index_t select = 1100;           // -S: keep at most this many entries per row
  index_t recover = 1400;          // -R: ... but up to this many when pruning lost too much mass
  double recover_pct = 0.9;        // -pct 90: "too much" is more than 1 - recover_pct of the row
  int max_iter = 100;              // mcl's -L is "until convergence"; this is a safety bound
  double chaos_tolerance = 1e-4;   // stop when the chaos drops below this
  bool add_loops = true;           // self-loops weighted by the row's largest weight (mcl's default)
  std::function<void(const mcl_progress&)> progress;  // called once per iteration
};

struct mcl_result {
  std::vector<std::vector<index_t>> clusters;  // largest first; vertices increasing inside each
  std::vector<index_t> cluster_of;             // vertex -> index into clusters
  int iterations = 0;
  double chaos = 0;
  bool converged = false;
};

namespace detail {

// diag(d) as an n x n matrix, where `at` says.
inline Matrix<double> diagonal(const std::vector<double>& d, backend at) {
  const index_t n = static_cast<index_t>(d.size());
  std::vector<index_t> idx(d.size());
  for (index_t i = 0; i < n; ++i) idx[static_cast<std::size_t>(i)] = i;
  Matrix<double> D = Matrix<double>::from_coo(n, n, idx, idx, d, no_duplicates);
  D.to(at);
  return D;
}

// Row sums of R (0 where a row is empty).
inline std::vector<double> row_fold(const Matrix<double>& R, bool max_instead) {
  Vector<double> w(R.nrows());
  if (max_instead) reduce(w, no_mask, no_accum, max_monoid{}, R);
  else reduce(w, no_mask, no_accum, plus_monoid{}, R);
  std::vector<double> out(static_cast<std::size_t>(R.nrows()), 0.0);
  for (index_t i = 0; i < R.nrows(); ++i)
    if (w.present()[i]) out[static_cast<std::size_t>(i)] = w.values()[i];
  return out;
}

// R = diag(1/rowsum) R.
inline void normalize_rows(Matrix<double>& R) {
  std::vector<double> s = row_fold(R, false);
  for (double& v : s) v = v > 0 ? 1.0 / v : 0.0;
  const Matrix<double> D = diagonal(s, R.location());
  mxm(R, no_mask, no_accum, plus_times, D, R);
}

// mcl's selection and recovery on the rows that need it, from the unpruned
// expansion E and its threshold-pruned form P. Returns false (and leaves P
// alone) when no row needs it.
inline bool cap_rows(const Matrix<double>& E, Matrix<double>& P, const mcl_params& p) {
  const index_t n = P.nrows();
  const Vector<std::int64_t> count = row_counts<std::int64_t>(P);
  const std::vector<double> mass = row_fold(P, false), before = row_fold(E, false);
  std::vector<char> special(static_cast<std::size_t>(n), 0);
  bool any = false;
  for (index_t i = 0; i < n; ++i) {
    const std::size_t u = static_cast<std::size_t>(i);
    const std::int64_t c = count.present()[i] ? count.values()[i] : 0;
    special[u] = c > p.select || mass[u] < p.recover_pct * before[u];
    any = any || special[static_cast<std::size_t>(i)];
  }
  if (!any) return false;
  // The rows to redo come from E on the host; the rest keep P's entries.
  Matrix<double> eh = E, ph = P;
  eh.to(backend::host);
  ph.to(backend::host);
  const csr<double> e = eh.to_csr(), q = ph.to_csr();
  coo<double> out;
  std::vector<std::pair<double, index_t>> row;
  for (index_t i = 0; i < n; ++i) {
    if (!special[static_cast<std::size_t>(i)]) {
      for (offset_t k = q.rowptr[i]; k < q.rowptr[i + 1]; ++k) {
        out.rows.push_back(i);
        out.cols.push_back(q.colidx[k]);
        out.values.push_back(q.values[k]);
      }
      continue;
    }
    row.clear();
    double total = 0;
    for (offset_t k = e.rowptr[i]; k < e.rowptr[i + 1]; ++k) {
      row.emplace_back(e.values[k], e.colidx[k]);
      total += e.values[k];
    }
    // Largest first; equal values by column so the result is deterministic.
    std::sort(row.begin(), row.end(),
              [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
    std::size_t keep = 0;
    double kept = 0;
    while (keep < row.size() && static_cast<index_t>(keep) < p.select && row[keep].first >= p.prune)
      kept += row[keep++].first;
    if (total > 0 && kept < p.recover_pct * total && static_cast<index_t>(keep) < p.recover)
      keep = std::min<std::size_t>(row.size(), static_cast<std::size_t>(std::max<index_t>(p.recover, 1)));
    for (std::size_t k = 0; k < keep; ++k) {
      out.rows.push_back(i);
      out.cols.push_back(row[k].second);
      out.values.push_back(row[k].first);
    }
  }
  Matrix<double> r = Matrix<double>::from_coo(n, n, out.rows, out.cols, out.values, no_duplicates);
  r.to(P.location());
  P.swap(r);
  return true;
}

}  // namespace detail

// Clusters of the graph A (values are edge weights; entries <= 0 are not
// edges). Runs where A lives; the clusters come back on the host.
template <class T>
mcl_result markov_clustering(const Matrix<T>& A, const mcl_params& p = {}) {
  if (A.nrows() != A.ncols())
    throw dimension_mismatch("tgb::markov_clustering: the adjacency matrix must be square, not " +
                             std::to_string(A.nrows()) + " x " + std::to_string(A.ncols()));
  if (!(p.inflation > 0) || !(p.prune >= 0) || p.select < 1 || p.recover < 0 || !(p.recover_pct >= 0) ||
      p.max_iter < 0 || !(p.chaos_tolerance >= 0))
    throw invalid_value("tgb::markov_clustering: parameters out of range (inflation > 0, prune >= 0, select >= 1, "
                        "recover >= 0, recover_pct >= 0, max_iter >= 0, chaos_tolerance >= 0)");
  const index_t n = A.nrows();
  const backend where = A.location();
  Matrix<double> R(n, n), W(n, n);
  R.to(where);
  W.to(where);
  apply(W, no_mask, no_accum, identity{}, A);
  select(R, no_mask, no_accum, value_gt{}, W, 0.0);
  if (p.add_loops) {
    std::vector<double> loop = detail::row_fold(R, true);
    for (double& v : loop) v = v > 0 ? v : 1.0;
    const Matrix<double> D = detail::diagonal(loop, where);
    ewise_add(W, no_mask, no_accum, second{}, R, D);
    R.swap(W);
  }
  detail::normalize_rows(R);

  mcl_result res;
  Matrix<double> E(n, n), sq(n, n);
  E.to(where);
  sq.to(where);
  for (int it = 1; it <= p.max_iter; ++it) {
    const auto t0 = std::chrono::steady_clock::now();
    mxm(E, no_mask, no_accum, plus_times, R, R);
    select(R, no_mask, no_accum, value_ge{}, E, p.prune);
    detail::cap_rows(E, R, p);
    apply(R, no_mask, no_accum, bind2nd(power{}, p.inflation), R);
    detail::normalize_rows(R);
    // Chaos from the row maxima and sums of squares.
    const std::vector<double> mx = detail::row_fold(R, true);
    apply(sq, no_mask, no_accum, bind2nd(power{}, 2.0), R);
    const std::vector<double> ssq = detail::row_fold(sq, false);
    double chaos = 0;
    for (std::size_t i = 0; i < mx.size(); ++i)
      if (ssq[i] > 0) chaos = std::max(chaos, mx[i] / ssq[i] - 1.0);
    res.iterations = it;
    res.chaos = chaos;
    cuda_synchronize();
    if (p.progress)
      p.progress(mcl_progress{it, R.nvals(), chaos,
                              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()});
    if (chaos < p.chaos_tolerance) {
      res.converged = true;
      break;
    }
  }

  // Attractor of each vertex: the column of its row's largest entry (the
  // smallest such column on ties); a vertex with an empty row is alone.
  Matrix<double> h = R;
  h.to(backend::host);
  const csr<double> c = h.to_csr();
  std::vector<index_t> attractor(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) {
    index_t best = i;
    double bv = -1;
    for (offset_t k = c.rowptr[i]; k < c.rowptr[i + 1]; ++k)
      if (c.values[k] > bv) bv = c.values[k], best = c.colidx[k];
    attractor[static_cast<std::size_t>(i)] = best;
  }
  std::map<index_t, std::vector<index_t>> groups;
  for (index_t i = 0; i < n; ++i) groups[attractor[static_cast<std::size_t>(i)]].push_back(i);
  for (auto& g : groups) res.clusters.push_back(std::move(g.second));
  std::stable_sort(res.clusters.begin(), res.clusters.end(), [](const auto& a, const auto& b) {
    return a.size() != b.size() ? a.size() > b.size() : a.front() < b.front();
  });
  res.cluster_of.assign(static_cast<std::size_t>(n), 0);
  for (std::size_t k = 0; k < res.clusters.size(); ++k)
    for (index_t v : res.clusters[k]) res.cluster_of[static_cast<std::size_t>(v)] = static_cast<index_t>(k);
  return res;
}

}  // namespace tgb
