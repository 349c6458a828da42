// tgb-bench --algorithms: the vector algorithms, LCC and the k-truss written against
// SuiteSparse:GraphBLAS's C API in the same GraphBLAS formulation as tgb's
// (include/tgb/algorithms): the same operations in the same order, so that the
// host table compares two implementations of one algorithm, not two
// algorithms. Each function does inside the timed call what tgb's does (the
// pattern, the transpose, the degrees), and returns its answer as a tgb host
// vector for the check against tgb's.
#if defined(TGB_BENCH_GRAPHBLAS)

#include "suitesparse_algorithms.hpp"

#include <cmath>
#include <limits>
#include <type_traits>
#include <stdexcept>
#include <string>
#include <vector>

extern "C" {
#include <GraphBLAS.h>
}

namespace bench::ss {

namespace {

void ok(GrB_Info info, const char* what) {
  if (info != GrB_SUCCESS && info != GrB_NO_VALUE)
    throw std::runtime_error(std::string("SuiteSparse: ") + what + " failed (" + std::to_string(int(info)) + ")");
}
#define SS(call) ok(call, #call)

// Frees its objects on every path out.
struct holder {
  std::vector<GrB_Matrix> m;
  std::vector<GrB_Vector> v;
  std::vector<GrB_Scalar> s;
  ~holder() {
    for (auto& x : m) GrB_Matrix_free(&x);
    for (auto& x : v) GrB_Vector_free(&x);
    for (auto& x : s) GrB_Scalar_free(&x);
  }
  GrB_Matrix matrix(GrB_Type t, GrB_Index n) {
    GrB_Matrix x = nullptr;
    SS(GrB_Matrix_new(&x, t, n, n));
    m.push_back(x);
    return x;
  }
  GrB_Vector vector(GrB_Type t, GrB_Index n) {
    GrB_Vector x = nullptr;
    SS(GrB_Vector_new(&x, t, n));
    v.push_back(x);
    return x;
  }
  GrB_Scalar fp64(double a) {
    GrB_Scalar x = nullptr;
    SS(GrB_Scalar_new(&x, GrB_FP64));
    s.push_back(x);
    SS(GrB_Scalar_setElement_FP64(x, a));
    return x;
  }
};

GrB_Index nvals(GrB_Vector v) {
  GrB_Index k = 0;
  SS(GrB_Vector_nvals(&k, v));
  return k;
}

double sum(GrB_Vector v) {
  double s = 0;
  SS(GrB_Vector_reduce_FP64(&s, nullptr, GrB_PLUS_MONOID_FP64, v, nullptr));
  return s;
}

// Same entries at the same indices.
bool equal(GrB_Vector a, GrB_Vector b, GrB_Vector e) {
  if (nvals(a) != nvals(b)) return false;
  SS(GrB_Vector_eWiseMult_BinaryOp(e, nullptr, nullptr, GrB_EQ_INT64, a, b, nullptr));
  if (nvals(e) != nvals(a)) return false;
  bool all = true;
  SS(GrB_Vector_reduce_BOOL(&all, nullptr, GrB_LAND_MONOID_BOOL, e, nullptr));
  return all;
}

template <class T>
tgb::Vector<T> to_tgb(GrB_Vector v, GrB_Index n) {
  GrB_Index k = nvals(v);
  std::vector<GrB_Index> I(k + 1);
  std::vector<T> X(k + 1);
  if constexpr (std::is_same_v<T, double>) SS(GrB_Vector_extractTuples_FP64(I.data(), X.data(), &k, v));
  else SS(GrB_Vector_extractTuples_INT64(I.data(), X.data(), &k, v));
  tgb::Vector<T> out(static_cast<tgb::index_t>(n));
  for (GrB_Index p = 0; p < k; ++p) out.set(static_cast<tgb::index_t>(I[p]), X[p]);
  return out;
}

}  // namespace

struct graph {
  GrB_Matrix A = nullptr;  // fp64, by row, as tgb's A
  GrB_Index n = 0;
  ~graph() { GrB_Matrix_free(&A); }
};

std::shared_ptr<graph> load(const tgb::Matrix<double>& A) {
  const tgb::coo<double> c = A.to_coo();
  auto g = std::make_shared<graph>();
  g->n = static_cast<GrB_Index>(A.nrows());
  SS(GrB_Matrix_new(&g->A, GrB_FP64, g->n, g->n));
  std::vector<GrB_Index> I(c.rows.begin(), c.rows.end()), J(c.cols.begin(), c.cols.end());
  SS(GrB_Matrix_build_FP64(g->A, I.data(), J.data(), c.values.data(), I.size(), GrB_FIRST_FP64));
  SS(GrB_Matrix_wait(g->A, GrB_MATERIALIZE));
  return g;
}

// tgb::bfs with direction automatic, alpha 14, beta 24, edges as stored.
tgb::Vector<std::int64_t> bfs(graph& g, tgb::index_t source, tgb::index_t* push, tgb::index_t* pull) {
  holder h;
  const GrB_Index n = g.n;
  GrB_Matrix P = h.matrix(GrB_BOOL, n);
  SS(GrB_Matrix_apply(P, nullptr, nullptr, GxB_ONE_BOOL, g.A, nullptr));
  GrB_Vector parent = h.vector(GrB_INT64, n), level = h.vector(GrB_INT64, n), q = h.vector(GrB_INT64, n);
  const GrB_Index s = static_cast<GrB_Index>(source);
  SS(GrB_Vector_setElement_INT64(q, source, s));
  SS(GrB_Vector_setElement_INT64(parent, source, s));
  SS(GrB_Vector_setElement_INT64(level, 0, s));
  GrB_Matrix Pi = h.matrix(GrB_INT64, n);
  SS(GrB_Matrix_apply(Pi, nullptr, nullptr, GxB_ONE_INT64, P, nullptr));
  GrB_Vector deg = h.vector(GrB_INT64, n), fdeg = h.vector(GrB_INT64, n);
  SS(GrB_Matrix_reduce_Monoid(deg, nullptr, nullptr, GrB_PLUS_MONOID_INT64, Pi, nullptr));
  std::int64_t unexplored = 0;
  SS(GrB_Vector_reduce_INT64(&unexplored, nullptr, GrB_PLUS_MONOID_INT64, deg, nullptr));
  GrB_Matrix AT = nullptr;
  bool pulling = false;
  const GrB_Descriptor rsc = GrB_DESC_RSC, st = GrB_DESC_S;
  const double alpha = 14.0, beta = 24.0;
  *push = *pull = 0;
  for (std::int64_t d = 1; nvals(q) > 0; ++d) {
    SS(GrB_Vector_eWiseMult_BinaryOp(fdeg, nullptr, nullptr, GrB_FIRST_INT64, deg, q, nullptr));
    std::int64_t frontier_edges = 0;
    SS(GrB_Vector_reduce_INT64(&frontier_edges, nullptr, GrB_PLUS_MONOID_INT64, fdeg, nullptr));
    unexplored -= frontier_edges;
    const GrB_Index qn = nvals(q);
    if (!pulling && double(frontier_edges) > double(unexplored) / alpha) pulling = true;
    else if (pulling && double(qn) < double(n) / beta) pulling = false;
    if (pulling) {
      if (!AT) {
        AT = h.matrix(GrB_BOOL, n);
        SS(GrB_transpose(AT, nullptr, nullptr, P, nullptr));
      }
      SS(GrB_mxv(q, parent, nullptr, GxB_ANY_SECOND_INT64, AT, q, rsc));
      ++*pull;
    } else {
      SS(GrB_vxm(q, parent, nullptr, GxB_ANY_FIRST_INT64, q, P, rsc));
      ++*push;
    }
    if (nvals(q) == 0) break;
    SS(GrB_Vector_assign(parent, q, nullptr, q, GrB_ALL, n, st));
    SS(GrB_Vector_assign_INT64(level, q, nullptr, d, GrB_ALL, n, st));
    SS(GrB_Vector_apply_IndexOp_INT64(q, nullptr, nullptr, GrB_ROWINDEX_INT64, q, 0, nullptr));
  }
  return to_tgb<std::int64_t>(level, n);
}

// tgb::sssp_bellman_ford (no round cap).
tgb::Vector<double> bellman_ford(graph& g, tgb::index_t source, tgb::index_t* rounds) {
  holder h;
  const GrB_Index n = g.n;
  const double inf = std::numeric_limits<double>::infinity();
  GrB_Vector dist = h.vector(GrB_FP64, n), f = h.vector(GrB_FP64, n), t = h.vector(GrB_FP64, n);
  GrB_Vector better = h.vector(GrB_BOOL, n);
  SS(GrB_Vector_setElement_FP64(dist, 0.0, static_cast<GrB_Index>(source)));
  SS(GrB_Vector_setElement_FP64(f, 0.0, static_cast<GrB_Index>(source)));
  GrB_Scalar big = h.fp64(inf);
  *rounds = 0;
  while (nvals(f) > 0 && *rounds < static_cast<tgb::index_t>(n)) {
    ++*rounds;
    SS(GrB_vxm(t, nullptr, nullptr, GrB_MIN_PLUS_SEMIRING_FP64, f, g.A, nullptr));
    SS(GxB_Vector_eWiseUnion(better, nullptr, nullptr, GrB_LT_FP64, t, big, dist, big, nullptr));
    SS(GrB_Vector_assign(dist, better, nullptr, t, GrB_ALL, n, nullptr));
    SS(GrB_Vector_assign(f, better, nullptr, t, GrB_ALL, n, GrB_DESC_R));
  }
  return to_tgb<double>(dist, n);
}

// tgb::sssp_delta_stepping with delta automatic (the mean edge weight).
tgb::Vector<double> delta_stepping(graph& g, tgb::index_t source, tgb::index_t* rounds) {
  holder h;
  const GrB_Index n = g.n;
  const double inf = std::numeric_limits<double>::infinity();
  GrB_Matrix W = h.matrix(GrB_FP64, n), AL = h.matrix(GrB_FP64, n), AH = h.matrix(GrB_FP64, n);
  SS(GrB_Matrix_apply(W, nullptr, nullptr, GrB_IDENTITY_FP64, g.A, nullptr));
  GrB_Index nw = 0;
  SS(GrB_Matrix_nvals(&nw, W));
  double delta = 1.0;
  if (nw > 0) {
    double lowest = 0, total = 0;
    SS(GrB_Matrix_reduce_FP64(&lowest, nullptr, GrB_MIN_MONOID_FP64, W, nullptr));
    if (lowest < 0) throw std::runtime_error("SuiteSparse delta-stepping: a negative edge weight");
    SS(GrB_Matrix_reduce_FP64(&total, nullptr, GrB_PLUS_MONOID_FP64, W, nullptr));
    delta = total / double(nw);
  }
  if (!(delta > 0)) delta = 1.0;
  SS(GrB_Matrix_select_FP64(AL, nullptr, nullptr, GrB_VALUELE_FP64, W, delta, nullptr));
  SS(GrB_Matrix_select_FP64(AH, nullptr, nullptr, GrB_VALUEGT_FP64, W, delta, nullptr));
  GrB_Vector dist = h.vector(GrB_FP64, n), reach = h.vector(GrB_FP64, n), settled = h.vector(GrB_FP64, n),
             t = h.vector(GrB_FP64, n), rest = h.vector(GrB_FP64, n), better = h.vector(GrB_BOOL, n);
  SS(GrB_Vector_setElement_FP64(dist, 0.0, static_cast<GrB_Index>(source)));
  GrB_Scalar big = h.fp64(inf);
  auto relax = [&] {
    SS(GxB_Vector_eWiseUnion(better, nullptr, nullptr, GrB_LT_FP64, t, big, dist, big, nullptr));
    SS(GrB_Vector_assign(dist, better, nullptr, t, GrB_ALL, n, nullptr));
  };
  *rounds = 0;
  for (double lo = 0;;) {
    const double hi = lo + delta;
    SS(GrB_Vector_select_FP64(reach, nullptr, nullptr, GrB_VALUEGE_FP64, dist, lo, nullptr));
    SS(GrB_Vector_select_FP64(reach, nullptr, nullptr, GrB_VALUELT_FP64, reach, hi, nullptr));
    SS(GrB_Vector_clear(settled));
    while (nvals(reach) > 0) {
      ++*rounds;
      SS(GrB_Vector_assign(settled, reach, nullptr, reach, GrB_ALL, n, GrB_DESC_S));
      SS(GrB_vxm(t, nullptr, nullptr, GrB_MIN_PLUS_SEMIRING_FP64, reach, AL, nullptr));
      relax();
      SS(GrB_Vector_select_FP64(reach, better, nullptr, GrB_VALUELT_FP64, dist, hi, GrB_DESC_R));
    }
    SS(GrB_Vector_eWiseMult_BinaryOp(reach, nullptr, nullptr, GrB_FIRST_FP64, dist, settled, nullptr));
    SS(GrB_vxm(t, nullptr, nullptr, GrB_MIN_PLUS_SEMIRING_FP64, reach, AH, nullptr));
    relax();
    SS(GrB_Vector_select_FP64(rest, nullptr, nullptr, GrB_VALUEGE_FP64, dist, hi, nullptr));
    if (nvals(rest) == 0) break;
    SS(GrB_Vector_reduce_FP64(&lo, nullptr, GrB_MIN_MONOID_FP64, rest, nullptr));
  }
  return to_tgb<double>(dist, n);
}

// tgb::pagerank (LDBC Graphalytics' definition, fixed iterations).
tgb::Vector<double> pagerank(graph& g, double damping, int iterations) {
  holder h;
  const GrB_Index n = g.n;
  const double d = damping, nd = double(n);
  GrB_Matrix Aone = h.matrix(GrB_FP64, n);
  SS(GrB_Matrix_apply(Aone, nullptr, nullptr, GxB_ONE_FP64, g.A, nullptr));
  GrB_Vector outdeg = h.vector(GrB_FP64, n), pr = h.vector(GrB_FP64, n);
  SS(GrB_Matrix_reduce_Monoid(outdeg, nullptr, nullptr, GrB_PLUS_MONOID_FP64, Aone, nullptr));
  SS(GrB_Vector_assign_FP64(pr, nullptr, nullptr, 1.0 / nd, GrB_ALL, n, nullptr));
  GrB_Matrix P = h.matrix(GrB_BOOL, n), AT = h.matrix(GrB_BOOL, n);
  SS(GrB_Matrix_apply(P, nullptr, nullptr, GxB_ONE_BOOL, g.A, nullptr));
  SS(GrB_transpose(AT, nullptr, nullptr, P, nullptr));
  GrB_Vector w = h.vector(GrB_FP64, n), t = h.vector(GrB_FP64, n), held = h.vector(GrB_FP64, n);
  for (int it = 0; it < iterations; ++it) {
    SS(GrB_Vector_eWiseMult_BinaryOp(w, nullptr, nullptr, GrB_DIV_FP64, pr, outdeg, nullptr));
    SS(GrB_mxv(t, nullptr, nullptr, GxB_PLUS_SECOND_FP64, AT, w, nullptr));
    // Cleared first: SuiteSparse 10.5.1 writes past the end of a full `held`
    // when it overwrites it in place (valgrind: GB__Cewise_fulln__first_fp64;
    // ca-GrQc then dies in malloc). The result is the same either way.
    SS(GrB_Vector_clear(held));
    SS(GrB_Vector_eWiseMult_BinaryOp(held, nullptr, nullptr, GrB_FIRST_FP64, pr, outdeg, nullptr));
    const double dangling = sum(pr) - sum(held);
    SS(GrB_Vector_assign_FP64(pr, nullptr, nullptr, (1 - d) / nd + d / nd * dangling, GrB_ALL, n, nullptr));
    SS(GrB_Vector_apply_BinaryOp2nd_FP64(pr, nullptr, GrB_PLUS_FP64, GrB_TIMES_FP64, t, d, nullptr));
  }
  return to_tgb<double>(pr, n);
}

// tgb::connected_components (weakly connected: the pattern of A + A').
tgb::Vector<std::int64_t> connected_components(graph& g) {
  holder h;
  const GrB_Index n = g.n;
  GrB_Matrix P = h.matrix(GrB_BOOL, n), S = h.matrix(GrB_BOOL, n);
  SS(GrB_Matrix_apply(P, nullptr, nullptr, GxB_ONE_BOOL, g.A, nullptr));
  SS(GrB_Matrix_eWiseAdd_BinaryOp(S, nullptr, nullptr, GrB_LOR, P, P, GrB_DESC_T1));
  // FastSV, as tgb's: the hooking f(f(v)) min= mngf(v) builds t from the
  // tuples (f(v), mngf(v)) with dup MIN (GrB_assign lets the last of a
  // repeated index win) and takes f = min(f, t).
  GrB_Vector f = h.vector(GrB_INT64, n), gf = h.vector(GrB_INT64, n), mngf = h.vector(GrB_INT64, n),
             next = h.vector(GrB_INT64, n), t = h.vector(GrB_INT64, n), same = h.vector(GrB_BOOL, n);
  SS(GrB_Vector_assign_INT64(f, nullptr, nullptr, 0, GrB_ALL, n, nullptr));
  SS(GrB_Vector_apply_IndexOp_INT64(f, nullptr, nullptr, GrB_ROWINDEX_INT64, f, 0, nullptr));
  SS(GrB_Vector_assign(gf, nullptr, nullptr, f, GrB_ALL, n, nullptr));
  std::vector<GrB_Index> idx(n + 1), fi(n + 1);
  std::vector<std::int64_t> val(n + 1), mv(n + 1);
  // f's values as an index list (all n are stored).
  auto f_list = [&] {
    GrB_Index k = n;
    SS(GrB_Vector_extractTuples_INT64(idx.data(), val.data(), &k, f));
    for (GrB_Index p = 0; p < k; ++p) fi[p] = static_cast<GrB_Index>(val[p]);
  };
  for (;;) {
    SS(GrB_Vector_assign(mngf, nullptr, nullptr, gf, GrB_ALL, n, nullptr));
    SS(GrB_mxv(mngf, nullptr, GrB_MIN_INT64, GrB_MIN_SECOND_SEMIRING_INT64, S, gf, nullptr));
    f_list();
    GrB_Index k = n;
    SS(GrB_Vector_extractTuples_INT64(idx.data(), mv.data(), &k, mngf));
    SS(GrB_Vector_clear(t));
    SS(GrB_Vector_build_INT64(t, fi.data(), mv.data(), n, GrB_MIN_INT64));
    SS(GrB_Vector_assign(f, nullptr, GrB_MIN_INT64, t, GrB_ALL, n, nullptr));
    SS(GrB_Vector_assign(f, nullptr, GrB_MIN_INT64, mngf, GrB_ALL, n, nullptr));
    SS(GrB_Vector_assign(f, nullptr, GrB_MIN_INT64, gf, GrB_ALL, n, nullptr));
    f_list();
    SS(GrB_Vector_extract(next, nullptr, nullptr, f, fi.data(), n, nullptr));
    if (equal(next, gf, same)) break;
    std::swap(gf, next);
  }
  return to_tgb<std::int64_t>(f, n);
}

namespace {
// tgb::undirected_pattern: offdiag(one(A) lor one(A)'), and one(A) in p.
GrB_Matrix undirected(holder& h, graph& g, GrB_Matrix* p) {
  const GrB_Index n = g.n;
  GrB_Matrix P = h.matrix(GrB_BOOL, n), U = h.matrix(GrB_BOOL, n), S = h.matrix(GrB_BOOL, n);
  SS(GrB_Matrix_apply(P, nullptr, nullptr, GxB_ONE_BOOL, g.A, nullptr));
  SS(GrB_Matrix_eWiseAdd_BinaryOp(U, nullptr, nullptr, GrB_LOR, P, P, GrB_DESC_T1));
  SS(GrB_Matrix_select_INT64(S, nullptr, nullptr, GrB_OFFDIAG, U, 0, nullptr));
  if (p) *p = P;
  return S;
}
}  // namespace

// tgb::local_clustering_coefficient (directed, LDBC's definition).
tgb::Vector<double> lcc(graph& g) {
  holder h;
  const GrB_Index n = g.n;
  GrB_Matrix Q = nullptr;
  GrB_Matrix S = undirected(h, g, &Q);
  GrB_Matrix P = h.matrix(GrB_BOOL, n), C = h.matrix(GrB_INT64, n);
  SS(GrB_Matrix_select_INT64(P, nullptr, nullptr, GrB_OFFDIAG, Q, 0, nullptr));
  SS(GrB_mxm(C, S, nullptr, GxB_PLUS_PAIR_INT64, P, S, GrB_DESC_S));
  GrB_Vector t = h.vector(GrB_INT64, n), d = h.vector(GrB_INT64, n);
  SS(GrB_Matrix_reduce_Monoid(t, nullptr, nullptr, GrB_PLUS_MONOID_INT64, C, GrB_DESC_T0));
  SS(GrB_Matrix_reduce_Monoid(d, nullptr, nullptr, GrB_PLUS_MONOID_INT64, S, nullptr));
  std::vector<double> tv(n, 0.0), dv(n, 0.0);
  for (auto [v, into] : {std::pair{t, &tv}, std::pair{d, &dv}}) {
    GrB_Index k = nvals(v);
    std::vector<GrB_Index> I(k + 1);
    std::vector<std::int64_t> X(k + 1);
    SS(GrB_Vector_extractTuples_INT64(I.data(), X.data(), &k, v));
    for (GrB_Index q = 0; q < k; ++q) (*into)[I[q]] = static_cast<double>(X[q]);
  }
  tgb::Vector<double> out(static_cast<tgb::index_t>(n));
  for (GrB_Index v = 0; v < n; ++v)
    out.set(static_cast<tgb::index_t>(v), dv[v] < 2 ? 0.0 : tv[v] / (dv[v] * (dv[v] - 1)));
  return out;
}

// tgb::ktruss: each vertex's sum of its edges' supports in the k-truss.
tgb::Vector<std::int64_t> ktruss_support(graph& g, std::int64_t k, tgb::index_t* rounds) {
  holder h;
  const GrB_Index n = g.n;
  GrB_Matrix S = undirected(h, g, nullptr);
  GrB_Matrix C = h.matrix(GrB_INT64, n), counts = h.matrix(GrB_INT64, n);
  SS(GrB_Matrix_apply(C, nullptr, nullptr, GxB_ONE_INT64, S, nullptr));
  *rounds = 0;
  GrB_Index before = 0;
  SS(GrB_Matrix_nvals(&before, C));
  for (;;) {
    SS(GrB_mxm(counts, C, nullptr, GxB_PLUS_PAIR_INT64, C, C, GrB_DESC_S));
    SS(GrB_Matrix_select_INT64(C, nullptr, nullptr, GrB_VALUEGE_INT64, counts, k - 2, nullptr));
    ++*rounds;
    GrB_Index now = 0;
    SS(GrB_Matrix_nvals(&now, C));
    if (now == before) break;
    before = now;
  }
  GrB_Vector per = h.vector(GrB_INT64, n);
  SS(GrB_Matrix_reduce_Monoid(per, nullptr, nullptr, GrB_PLUS_MONOID_INT64, C, nullptr));
  return to_tgb<std::int64_t>(per, n);
}

// tgb::betweenness_centrality over the given sources in one batch (not
// symmetrized): the k searches as the rows of k x n matrices.
tgb::Vector<double> betweenness(graph& g, const std::vector<tgb::index_t>& sources) {
  holder h;
  const GrB_Index n = g.n, k = sources.size();
  auto rect = [&](GrB_Type t) {
    GrB_Matrix x = nullptr;
    SS(GrB_Matrix_new(&x, t, k, n));
    h.m.push_back(x);
    return x;
  };
  GrB_Vector bc = h.vector(GrB_FP64, n);
  SS(GrB_Vector_assign_FP64(bc, nullptr, nullptr, 0.0, GrB_ALL, n, nullptr));
  GrB_Matrix P = h.matrix(GrB_FP64, n), PT = h.matrix(GrB_FP64, n);
  SS(GrB_Matrix_apply(P, nullptr, nullptr, GxB_ONE_FP64, g.A, nullptr));
  SS(GrB_transpose(PT, nullptr, nullptr, P, nullptr));
  std::vector<GrB_Index> rows(k), cols(k);
  for (GrB_Index q = 0; q < k; ++q) rows[q] = q, cols[q] = static_cast<GrB_Index>(sources[q]);
  std::vector<double> ones(k, 1.0);
  std::vector<std::uint8_t> yes(k, 1);
  // levels[d]: sigma at depth d; freed as the backward sweep passes them.
  std::vector<GrB_Matrix> levels;
  struct freer {
    std::vector<GrB_Matrix>& l;
    ~freer() {
      for (auto& x : l) GrB_Matrix_free(&x);
    }
  } free_levels{levels};
  levels.push_back(nullptr);
  SS(GrB_Matrix_new(&levels.back(), GrB_FP64, k, n));
  SS(GrB_Matrix_build_FP64(levels.back(), rows.data(), cols.data(), ones.data(), k, GrB_FIRST_FP64));
  GrB_Matrix visited = rect(GrB_BOOL);
  SS(GrB_Matrix_build_BOOL(visited, rows.data(), cols.data(), reinterpret_cast<bool*>(yes.data()), k, GrB_FIRST_BOOL));
  for (;;) {
    GrB_Matrix next = nullptr;
    SS(GrB_Matrix_new(&next, GrB_FP64, k, n));
    levels.push_back(next);
    SS(GrB_mxm(next, visited, nullptr, GxB_PLUS_FIRST_FP64, levels[levels.size() - 2], P, GrB_DESC_RSC));
    GrB_Index nv = 0;
    SS(GrB_Matrix_nvals(&nv, next));
    if (nv == 0) {
      GrB_Matrix_free(&levels.back());
      levels.pop_back();
      break;
    }
    SS(GrB_Matrix_apply(visited, next, nullptr, GxB_ONE_BOOL, next, GrB_DESC_S));
  }
  GrB_Matrix delta = rect(GrB_FP64), W = rect(GrB_FP64), up = rect(GrB_FP64);
  for (std::size_t d = levels.size() - 1; d >= 2; --d) {
    GrB_Matrix sigma = levels[d];
    SS(GrB_Matrix_apply(W, nullptr, nullptr, GxB_ONE_FP64, sigma, nullptr));
    SS(GrB_Matrix_eWiseAdd_BinaryOp(W, nullptr, nullptr, GrB_PLUS_FP64, W, delta, nullptr));
    SS(GrB_Matrix_eWiseMult_BinaryOp(W, nullptr, nullptr, GrB_DIV_FP64, W, sigma, nullptr));
    SS(GrB_mxm(up, levels[d - 1], nullptr, GxB_PLUS_FIRST_FP64, W, PT, GrB_DESC_RS));
    SS(GrB_Matrix_eWiseMult_BinaryOp(delta, nullptr, nullptr, GrB_TIMES_FP64, up, levels[d - 1], nullptr));
    SS(GrB_Matrix_reduce_Monoid(bc, nullptr, GrB_PLUS_FP64, GrB_PLUS_MONOID_FP64, delta, GrB_DESC_T0));
    GrB_Matrix_free(&levels[d]);
    levels.pop_back();
  }
  return to_tgb<double>(bc, n);
}

}  // namespace bench::ss

#endif  // TGB_BENCH_GRAPHBLAS
