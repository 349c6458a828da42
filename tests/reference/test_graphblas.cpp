// The same randomized cases and the real matrices, computed by tgb and by
// SuiteSparse:GraphBLAS in the same process: identical patterns; identical
// values for integer, bool and min/max; floating-point plus within a
// relative 1e-12 (summation order differs).
extern "C" {
#include <GraphBLAS.h>
}

#include <random>
#include <stdexcept>

#include "../graphs.hpp"
#include "../oracle.hpp"
#include "../tgb_catch.hpp"

using namespace tgb;
using oracle::dmap;

namespace {

struct grb_session {
  grb_session() {
    if (GrB_init(GrB_NONBLOCKING) != GrB_SUCCESS) throw std::runtime_error("GrB_init failed");
  }
  ~grb_session() { GrB_finalize(); }
};
const grb_session session;

void ok(GrB_Info info, const char* what) {
  if (info != GrB_SUCCESS) throw std::runtime_error(std::string("GraphBLAS: ") + what + " failed, info " + std::to_string(info));
}

// The GraphBLAS objects for one value type; ops are named as in tgb.
template <class T>
struct grb;

#define TGB_GRB_TYPE(T, SUF, PLUSM, TIMESOP, PLUSOP, MINM, MAXM)                                                    \
  template <>                                                                                           \
  struct grb<T> {                                                                                       \
    static GrB_Type type() { return GrB_##SUF; }                                                        \
    static GrB_Info build(GrB_Matrix m, const GrB_Index* i, const GrB_Index* j, const T* x, GrB_Index n) { \
      return GrB_Matrix_build_##SUF(m, i, j, x, n, GrB_FIRST_##SUF);                                    \
    }                                                                                                   \
    static GrB_Info tuples(GrB_Index* i, GrB_Index* j, T* x, GrB_Index* n, GrB_Matrix m) {              \
      return GrB_Matrix_extractTuples_##SUF(i, j, x, n, m);                                             \
    }                                                                                                   \
    static GrB_Monoid monoid(const std::string& name) {                                                 \
      if (name == "plus") return PLUSM;                                                                 \
      if (name == "min") return MINM;                                                                   \
      if (name == "max") return MAXM;                                                                   \
      if (name == "any") return GxB_ANY_##SUF##_MONOID;                                                 \
      if (name == "lor") return GrB_LOR_MONOID_BOOL;                                                    \
      throw std::runtime_error("no monoid " + name);                                                    \
    }                                                                                                   \
    static GrB_BinaryOp op(const std::string& name) {                                                   \
      if (name == "plus") return PLUSOP;                                                                \
      if (name == "times") return TIMESOP;                                                              \
      if (name == "min") return GrB_MIN_##SUF;                                                          \
      if (name == "max") return GrB_MAX_##SUF;                                                          \
      if (name == "first") return GrB_FIRST_##SUF;                                                      \
      if (name == "second") return GrB_SECOND_##SUF;                                                    \
      if (name == "pair") return GxB_PAIR_##SUF;                                                        \
      if (name == "land") return GrB_LAND;                                                              \
      throw std::runtime_error("no operator " + name);                                                  \
    }                                                                                                   \
  };
// GraphBLAS's bool has no PLUS/TIMES monoid or ops: tgb defines them as lor/land, as GraphBLAS
// itself does for typecast arithmetic on bool.
TGB_GRB_TYPE(bool, BOOL, GrB_LOR_MONOID_BOOL, GrB_LAND, GrB_LOR, GrB_LAND_MONOID_BOOL, GrB_LOR_MONOID_BOOL)
TGB_GRB_TYPE(std::int32_t, INT32, GrB_PLUS_MONOID_INT32, GrB_TIMES_INT32, GrB_PLUS_INT32, GrB_MIN_MONOID_INT32,
             GrB_MAX_MONOID_INT32)
TGB_GRB_TYPE(std::int64_t, INT64, GrB_PLUS_MONOID_INT64, GrB_TIMES_INT64, GrB_PLUS_INT64, GrB_MIN_MONOID_INT64,
             GrB_MAX_MONOID_INT64)
TGB_GRB_TYPE(float, FP32, GrB_PLUS_MONOID_FP32, GrB_TIMES_FP32, GrB_PLUS_FP32, GrB_MIN_MONOID_FP32,
             GrB_MAX_MONOID_FP32)
TGB_GRB_TYPE(double, FP64, GrB_PLUS_MONOID_FP64, GrB_TIMES_FP64, GrB_PLUS_FP64, GrB_MIN_MONOID_FP64,
             GrB_MAX_MONOID_FP64)
#undef TGB_GRB_TYPE

template <class T>
GrB_Matrix to_grb(const Matrix<T>& m) {
  GrB_Matrix g = nullptr;
  ok(GrB_Matrix_new(&g, grb<T>::type(), m.nrows(), m.ncols()), "Matrix_new");
  const auto c = m.to_coo();
  // One spare element: GraphBLAS rejects null arrays even for zero tuples.
  std::vector<GrB_Index> i(c.rows.begin(), c.rows.end()), j(c.cols.begin(), c.cols.end());
  std::vector<T> x(c.values.begin(), c.values.end());
  i.reserve(i.size() + 1), j.reserve(j.size() + 1), x.reserve(x.size() + 1);
  if constexpr (std::is_same_v<T, bool>) {
    std::unique_ptr<bool[]> xb(new bool[x.size() + 1]);
    for (std::size_t k = 0; k < x.size(); ++k) xb[k] = x[k];
    ok(grb<T>::build(g, i.data(), j.data(), xb.get(), i.size()), "build");
  } else {
    ok(grb<T>::build(g, i.data(), j.data(), x.data(), i.size()), "build");
  }
  return g;
}

template <class T>
dmap<T> from_grb(GrB_Matrix g) {
  GrB_Index n = 0;
  ok(GrB_Matrix_nvals(&n, g), "nvals");
  std::vector<GrB_Index> i(n + 1), j(n + 1);
  std::unique_ptr<T[]> x(new T[n + 1]);
  ok(grb<T>::tuples(i.data(), j.data(), x.get(), &n, g), "extractTuples");
  dmap<T> out;
  for (GrB_Index k = 0; k < n; ++k) out[{index_t(i[k]), index_t(j[k])}] = x[k];
  return out;
}

struct grb_case {
  std::string add, mul, accum;  // accum empty: none
  int mask_mode = 0;            // as in test_mxm.cpp
  bool replace = false, ta = false, tb = false;
};

// Runs the case in both libraries and compares.
template <class T, class SR, class Acc>
void compare(const SR& sr, const Acc& acc, const grb_case& c, const Matrix<T>& A, const Matrix<T>& B,
             const Matrix<T>& C0, const Matrix<T>& M, double tol) {
  descriptor d;
  d.replace = c.replace;
  d.transpose_a = c.ta;
  d.transpose_b = c.tb;
  Matrix<T> C = C0;
  auto run = [&](const auto& mask) {
    if (!c.accum.empty()) mxm(C, mask, acc, sr, A, B, d);
    else mxm(C, mask, no_accum, sr, A, B, d);
  };
  oracle::with_mask_mode(c.mask_mode, M, run);

  GrB_Matrix gA = to_grb(A), gB = to_grb(B), gC = to_grb(C0), gM = to_grb(M);
  GrB_Semiring s = nullptr;
  ok(GrB_Semiring_new(&s, grb<T>::monoid(c.add), grb<T>::op(c.mul)), "Semiring_new");
  GrB_Descriptor desc = nullptr;
  ok(GrB_Descriptor_new(&desc), "Descriptor_new");
  if (c.replace) ok(GrB_Descriptor_set(desc, GrB_OUTP, GrB_REPLACE), "desc");
  if (c.ta) ok(GrB_Descriptor_set(desc, GrB_INP0, GrB_TRAN), "desc");
  if (c.tb) ok(GrB_Descriptor_set(desc, GrB_INP1, GrB_TRAN), "desc");
  if (c.mask_mode == 2 || c.mask_mode == 4) ok(GrB_Descriptor_set(desc, GrB_MASK, GrB_STRUCTURE), "desc");
  if (c.mask_mode == 3 || c.mask_mode == 4) ok(GrB_Descriptor_set(desc, GrB_MASK, GrB_COMP), "desc");
  INFO("A " << A.nrows() << "x" << A.ncols() << " B " << B.nrows() << "x" << B.ncols() << " ta " << c.ta << " tb "
            << c.tb << " mask " << c.mask_mode);
  const GrB_Info info =
      GrB_mxm(gC, c.mask_mode ? gM : nullptr, c.accum.empty() ? nullptr : grb<T>::op(c.accum), s, gA, gB, desc);
  if (info != GrB_SUCCESS) {
    const char* msg = nullptr;
    GrB_Matrix_error(&msg, gC);
    FAIL("GrB_mxm failed with " << info << ": " << (msg ? msg : ""));
  }
  const dmap<T> want = from_grb<T>(gC);
  GrB_Matrix_free(&gA), GrB_Matrix_free(&gB), GrB_Matrix_free(&gC), GrB_Matrix_free(&gM);
  GrB_Semiring_free(&s), GrB_Descriptor_free(&desc);
  INFO("semiring " << c.add << "_" << c.mul << " accum '" << c.accum << "' mask " << c.mask_mode << " replace "
                   << c.replace << " ta " << c.ta << " tb " << c.tb << " shape " << C.nrows() << " x " << C.ncols());
  REQUIRE(oracle::diff(oracle::to_map(C), want, tol) == "");
}

template <class T, class SR, class Acc>
void random_cases(std::uint64_t seed, const SR& sr, const std::string& add, const std::string& mul, const Acc& acc,
                  const std::string& acc_name, double tol = 0) {
  std::mt19937_64 rng(seed);
  // No zero-size shapes here: SuiteSparse 7.4 rejects some conforming ones
  // ("C is 1-by-0, input is 0-by-0") and crashes on others with an
  // accumulator (GB_subassign_08s_and_16). The oracle tests cover them.
  const index_t shapes[] = {1, 15, 16, 17, 33, 150};
  const double dens[] = {0.002, 0.05, 0.3, 0.9};
  std::uniform_int_distribution<int> ps(0, 5), pd(0, 3);
  for (int mask = 0; mask < 5; ++mask)
    for (int rep = 0; rep < 2; ++rep)
      for (int ac = 0; ac < 2; ++ac)
        for (int tr = 0; tr < 4; ++tr) {
          grb_case c{add, mul, ac ? acc_name : "", mask, rep == 1, (tr & 1) != 0, (tr & 2) != 0};
          const index_t m = shapes[ps(rng)], k = shapes[ps(rng)], n = shapes[ps(rng)];
          const double d = dens[pd(rng)] / (std::max<index_t>({m, k, n}) > 100 ? 4 : 1);
          auto A = oracle::random_matrix<T>(rng, c.ta ? k : m, c.ta ? m : k, d);
          auto B = oracle::random_matrix<T>(rng, c.tb ? n : k, c.tb ? k : n, d);
          auto C0 = oracle::random_matrix<T>(rng, m, n, 0.3);
          auto M = oracle::random_matrix<T>(rng, m, n, 0.5);
          compare(sr, acc, c, A, B, C0, M, tol);
        }
}

std::string data(const std::string& f) { return std::string(TGB_TEST_DATA_DIR) + "/" + f; }

}  // namespace

TEST_CASE("SuiteSparse agrees: plus_times on every type", "[graphblas][random]") {
  random_cases<double>(1, plus_times, "plus", "times", plus{}, "plus", 1e-12);
  random_cases<float>(2, plus_times, "plus", "times", plus{}, "plus", 1e-5);
  random_cases<std::int32_t>(3, plus_times, "plus", "times", plus{}, "plus");
  random_cases<std::int64_t>(4, plus_times, "plus", "times", min{}, "min");
  random_cases<bool>(5, plus_times, "plus", "times", lor{}, "plus");
}

TEST_CASE("SuiteSparse agrees: min/max, boolean, pair and first/second semirings", "[graphblas][random]") {
  random_cases<double>(11, min_plus, "min", "plus", min{}, "min");
  random_cases<std::int64_t>(12, min_plus, "min", "plus", plus{}, "plus");
  random_cases<std::int32_t>(13, max_plus, "max", "plus", max{}, "max");
  random_cases<float>(14, max_times, "max", "times", max{}, "max");
  random_cases<double>(15, min_times, "min", "times", plus{}, "plus");
  random_cases<std::int32_t>(16, min_max, "min", "max", min{}, "min");
  random_cases<std::int64_t>(17, max_min, "max", "min", plus{}, "plus");
  random_cases<std::int32_t>(18, plus_min, "plus", "min", plus{}, "plus");
  random_cases<bool>(19, lor_land, "lor", "land", lor{}, "plus");
  random_cases<std::int64_t>(20, plus_pair, "plus", "pair", plus{}, "plus");
  random_cases<bool>(21, any_pair, "any", "pair", lor{}, "plus");
  random_cases<double>(22, plus_first, "plus", "first", plus{}, "plus", 1e-12);
  random_cases<std::int64_t>(23, plus_second, "plus", "second", plus{}, "plus");
  random_cases<std::int32_t>(24, min_first, "min", "first", min{}, "min");
  random_cases<double>(25, min_second, "min", "second", min{}, "min");
}

TEST_CASE("SuiteSparse agrees on the real matrices", "[graphblas][real]") {
  for (const char* f : {"karate.mtx", "west0067.mtx", "jagmesh7.mtx", "bcsstk13.mtx", "cryg2500.mtx", "lp_afiro.mtx",
                        "netscience.mtx", "ca-GrQc.mtx", "add32.mtx", "cage8.mtx", "fidapex6.mtx", "crack.mtx",
                        "luxembourg.mtx"}) {
    INFO(f);
    const auto A = io::read_matrix_market<double>(data(f));
    const index_t m = A.nrows(), n = A.ncols();
    const Matrix<double> empty(std::max(m, n), std::max(m, n));
    // C = A*A' (any shape), C = A*A (square), masked and complemented.
    compare(plus_times, plus{}, grb_case{"plus", "times", "", 0, false, false, true}, A, A, Matrix<double>(m, m),
            Matrix<double>(m, m), 1e-12);
    if (m != n) continue;
    compare(plus_times, plus{}, grb_case{"plus", "times", "", 0}, A, A, Matrix<double>(m, m), A, 1e-12);
    compare(min_plus, min{}, grb_case{"min", "plus", "", 2}, A, A, Matrix<double>(m, m), A, 0);
    compare(max_times, max{}, grb_case{"max", "times", "", 4, true}, A, A, A, A, 0);
    compare(plus_pair, plus{}, grb_case{"plus", "pair", "plus", 2, false, false, true}, A, A, A, A, 0);
  }
}

namespace {

// Triangles by SuiteSparse: S = pattern(A + A') without loops, L = tril(S, -1),
// C<L> = L plus_pair L', summed.
std::int64_t grb_triangles(const Matrix<double>& A) {
  const index_t n = A.nrows();
  GrB_Matrix a = to_grb(A), s = nullptr, l = nullptr, c = nullptr;
  ok(GrB_Matrix_new(&s, GrB_BOOL, n, n), "new");
  ok(GrB_Matrix_new(&l, GrB_BOOL, n, n), "new");
  ok(GrB_Matrix_new(&c, GrB_INT64, n, n), "new");
  ok(GrB_Matrix_eWiseAdd_BinaryOp(s, nullptr, nullptr, GrB_LOR, a, a, GrB_DESC_T1), "eWiseAdd");
  ok(GrB_Matrix_select_INT64(l, nullptr, nullptr, GrB_TRIL, s, -1, nullptr), "select");
  ok(GrB_mxm(c, l, nullptr, GxB_PLUS_PAIR_INT64, l, l, GrB_DESC_ST1), "mxm");
  std::int64_t t = 0;
  ok(GrB_Matrix_reduce_INT64(&t, nullptr, GrB_PLUS_MONOID_INT64, c, nullptr), "reduce");
  GrB_Matrix_free(&a), GrB_Matrix_free(&s), GrB_Matrix_free(&l), GrB_Matrix_free(&c);
  return t;
}

// Levels from one source by SuiteSparse: q<!v, struct, replace> = q any_pair A.
std::vector<std::int64_t> grb_bfs(const Matrix<double>& A, index_t src) {
  const index_t n = A.nrows();
  GrB_Matrix a = to_grb(A);
  GrB_Vector q = nullptr, v = nullptr;
  ok(GrB_Vector_new(&q, GrB_BOOL, n), "new");
  ok(GrB_Vector_new(&v, GrB_INT64, n), "new");
  ok(GrB_Vector_setElement_BOOL(q, true, src), "set");
  for (std::int64_t level = 0;; ++level) {
    ok(GrB_Vector_assign_INT64(v, q, nullptr, level, GrB_ALL, n, GrB_DESC_S), "assign");
    ok(GrB_vxm(q, v, nullptr, GxB_ANY_PAIR_BOOL, q, a, GrB_DESC_RSC), "vxm");
    GrB_Index nq = 0;
    ok(GrB_Vector_nvals(&nq, q), "nvals");
    if (nq == 0) break;
  }
  std::vector<std::int64_t> lv(static_cast<std::size_t>(n), -1);
  for (index_t i = 0; i < n; ++i) {
    std::int64_t x;
    if (GrB_Vector_extractElement_INT64(&x, v, i) == GrB_SUCCESS) lv[static_cast<std::size_t>(i)] = x;
  }
  GrB_Matrix_free(&a), GrB_Vector_free(&q), GrB_Vector_free(&v);
  return lv;
}

}  // namespace

TEST_CASE("SuiteSparse agrees: triangle counts and BFS levels on random graphs", "[graphblas][algorithms]") {
  std::mt19937_64 rng(3);
  for (index_t n : {2, 17, 300, 2000}) {
    for (int kind = 0; kind < 2; ++kind) {
      const auto e = kind == 0 ? graphs::erdos_renyi(rng, n, 4.0) : graphs::power_law(rng, n, 4.0);
      const auto A = graphs::to_matrix<double>(n, e);
      INFO("n " << n << (kind ? " power-law" : " Erdos-Renyi"));
      REQUIRE(triangle_count(A) == grb_triangles(A));
      const std::vector<index_t> src{0, n / 2, n - 1};
      const auto lv = dense_levels(msbfs(A, src));
      for (std::size_t q = 0; q < src.size(); ++q)
        REQUIRE(std::vector<std::int64_t>(lv.begin() + q * n, lv.begin() + (q + 1) * n) == grb_bfs(A, src[q]));
    }
  }
}

TEST_CASE("SuiteSparse agrees on NaN and infinities in min/max semirings and accumulators", "[graphblas][limits]") {
  // Values drawn from {NaN, -inf, -1, 0, 2, +inf}: min/max monoids ignore a
  // NaN operand (fmin/fmax) in both libraries; plus and times follow IEEE.
  std::mt19937_64 rng(13);
  const double pool[] = {std::nan(""), -INFINITY, -1.0, 0.0, 2.0, INFINITY};
  std::uniform_int_distribution<int> pick(0, 5);
  auto special = [&](index_t m, index_t n) {
    auto A = oracle::random_matrix<double>(rng, m, n, 0.4);
    auto c = A.to_coo();
    for (auto& v : c.values) v = pool[pick(rng)];
    return Matrix<double>::from_coo(m, n, c.rows, c.cols, c.values, no_duplicates);
  };
  for (int rep = 0; rep < 20; ++rep) {
    const index_t m = 1 + rep % 17, k = 3 + rep % 5, n = 2 + rep % 19;
    const auto A = special(m, k), B = special(k, n), C0 = special(m, n), M = special(m, n);
    for (int mask : {0, 1, 3}) {
      compare(min_plus, min{}, grb_case{"min", "plus", "min", mask, false, false, false}, A, B, C0, M, 0);
      compare(max_times, max{}, grb_case{"max", "times", "max", mask, rep % 2 == 0, false, false}, A, B, C0, M, 0);
      compare(min_max, max{}, grb_case{"min", "max", "", mask, false, false, false}, A, B, C0, M, 0);
      compare(plus_times, plus{}, grb_case{"plus", "times", "plus", mask, false, false, false}, A, B, C0, M, 0);
    }
  }
}
