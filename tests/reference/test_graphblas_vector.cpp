// The vector operations computed by tgb and by SuiteSparse:GraphBLAS in the
// same process (GrB_init is done once, by test_graphblas.cpp's session, in
// this same executable): mxv/vxm over four semirings with every mask kind,
// accumulator, replace and transpose; ewise_add/mult/union, assign (vector
// and scalar), extract and reduce. Patterns identical; values identical
// (integer, bool, min) or within a relative 1e-12 (floating plus).
extern "C" {
#include <GraphBLAS.h>
}

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <stdexcept>

#include "../oracle.hpp"
#include "../tgb_catch.hpp"

using namespace tgb;

namespace {

void ok(GrB_Info info, const char* what) {
  if (info != GrB_SUCCESS) throw std::runtime_error(std::string("GraphBLAS: ") + what + " failed, info " + std::to_string(info));
}

template <class T> GrB_Type gtype();
template <> GrB_Type gtype<double>() { return GrB_FP64; }
template <> GrB_Type gtype<std::int64_t>() { return GrB_INT64; }
template <> GrB_Type gtype<bool>() { return GrB_BOOL; }

template <class T>
GrB_Info gbuild(GrB_Vector v, const GrB_Index* i, const T* x, GrB_Index n);
template <> GrB_Info gbuild(GrB_Vector v, const GrB_Index* i, const double* x, GrB_Index n) { return GrB_Vector_build_FP64(v, i, x, n, GrB_FIRST_FP64); }
template <> GrB_Info gbuild(GrB_Vector v, const GrB_Index* i, const std::int64_t* x, GrB_Index n) { return GrB_Vector_build_INT64(v, i, x, n, GrB_FIRST_INT64); }
template <> GrB_Info gbuild(GrB_Vector v, const GrB_Index* i, const bool* x, GrB_Index n) { return GrB_Vector_build_BOOL(v, i, x, n, GrB_FIRST_BOOL); }
template <class T>
GrB_Info gtuples(GrB_Index* i, T* x, GrB_Index* n, GrB_Vector v);
template <> GrB_Info gtuples(GrB_Index* i, double* x, GrB_Index* n, GrB_Vector v) { return GrB_Vector_extractTuples_FP64(i, x, n, v); }
template <> GrB_Info gtuples(GrB_Index* i, std::int64_t* x, GrB_Index* n, GrB_Vector v) { return GrB_Vector_extractTuples_INT64(i, x, n, v); }
template <> GrB_Info gtuples(GrB_Index* i, bool* x, GrB_Index* n, GrB_Vector v) { return GrB_Vector_extractTuples_BOOL(i, x, n, v); }

template <class T>
GrB_Vector to_grb(const Vector<T>& v) {
  GrB_Vector g = nullptr;
  ok(GrB_Vector_new(&g, gtype<T>(), v.size()), "Vector_new");
  const auto [idx, val] = v.extract_tuples();
  std::vector<GrB_Index> i(idx.begin(), idx.end());
  i.push_back(0);  // GraphBLAS rejects null arrays even for zero tuples
  std::unique_ptr<T[]> x(new T[val.size() + 1]);
  for (std::size_t k = 0; k < val.size(); ++k) x[k] = val[k];
  ok(gbuild<T>(g, i.data(), x.get(), val.size()), "Vector_build");
  return g;
}
template <class T>
GrB_Matrix to_grb(const Matrix<T>& m) {
  GrB_Matrix g = nullptr;
  ok(GrB_Matrix_new(&g, gtype<T>(), m.nrows(), m.ncols()), "Matrix_new");
  const auto c = m.to_coo();
  for (std::size_t k = 0; k < c.values.size(); ++k) {
    GrB_Info info;
    if constexpr (std::is_same_v<T, double>) info = GrB_Matrix_setElement_FP64(g, c.values[k], c.rows[k], c.cols[k]);
    else if constexpr (std::is_same_v<T, bool>) info = GrB_Matrix_setElement_BOOL(g, c.values[k], c.rows[k], c.cols[k]);
    else info = GrB_Matrix_setElement_INT64(g, c.values[k], c.rows[k], c.cols[k]);
    ok(info, "setElement");
  }
  ok(GrB_Matrix_wait(g, GrB_MATERIALIZE), "wait");
  return g;
}
template <class T>
std::map<index_t, T> from_grb(GrB_Vector g) {
  GrB_Index n = 0;
  ok(GrB_Vector_nvals(&n, g), "nvals");
  std::vector<GrB_Index> i(n + 1);
  std::unique_ptr<T[]> x(new T[n + 1]);
  ok(gtuples<T>(i.data(), x.get(), &n, g), "extractTuples");
  std::map<index_t, T> out;
  for (GrB_Index k = 0; k < n; ++k) out[index_t(i[k])] = x[k];
  return out;
}
template <class T>
std::map<index_t, T> to_map(const Vector<T>& v) {
  std::map<index_t, T> out;
  const auto [idx, val] = v.extract_tuples();
  for (std::size_t k = 0; k < idx.size(); ++k) out[idx[k]] = val[k];
  return out;
}
template <class T>
std::string diff(const std::map<index_t, T>& got, const std::map<index_t, T>& want, double tol) {
  if (got.size() != want.size()) return "got " + std::to_string(got.size()) + " entries, want " + std::to_string(want.size());
  for (const auto& [i, w] : want) {
    auto it = got.find(i);
    if (it == got.end()) return "missing " + std::to_string(i);
    const std::string vals = ": got " + std::to_string(+it->second) + ", want " + std::to_string(+w);
    if constexpr (std::is_floating_point_v<T>) {
      if (std::fabs(it->second - w) > tol * std::max(1.0, std::fabs(w))) return "value at " + std::to_string(i) + vals;
    } else if (it->second != w) {
      return "value at " + std::to_string(i) + vals;
    }
  }
  return "";
}

template <class T>
Vector<T> random_vector(std::mt19937_64& rng, index_t n, double density) {
  Vector<T> v(n);
  std::bernoulli_distribution keep(density);
  for (index_t i = 0; i < n; ++i)
    if (keep(rng)) v.set(i, oracle::random_value<T>(rng));
  return v;
}

// A GraphBLAS descriptor for mask mode 0..4 (as in test_vector.cpp), replace and transposes.
GrB_Descriptor make_desc(int mode, bool replace, bool t0, bool t1) {
  GrB_Descriptor d = nullptr;
  ok(GrB_Descriptor_new(&d), "Descriptor_new");
  if (replace) ok(GrB_Descriptor_set(d, GrB_OUTP, GrB_REPLACE), "desc");
  if (t0) ok(GrB_Descriptor_set(d, GrB_INP0, GrB_TRAN), "desc");
  if (t1) ok(GrB_Descriptor_set(d, GrB_INP1, GrB_TRAN), "desc");
  if (mode == 2 || mode == 4) ok(GrB_Descriptor_set(d, GrB_MASK, GrB_STRUCTURE), "desc");
  if (mode >= 3) ok(GrB_Descriptor_set(d, GrB_MASK, GrB_COMP), "desc");
  return d;
}
template <class U, class F>
void with_mask(int mode, const Vector<U>& M, F&& f) {
  switch (mode) {
    case 0: f(no_mask); break;
    case 1: f(M); break;
    case 2: f(structure(M)); break;
    case 3: f(complement(M)); break;
    default: f(complement(structure(M))); break;
  }
}

// Runs tgb's op(w, mask, accum, desc) and GraphBLAS's gop(gw, gmask, gaccum, gdesc)
// through the twenty mask/accum/replace combinations (transposes: t0, t1).
template <class T, class Acc, class Op, class GOp>
void compare20(const char* name, std::mt19937_64& rng, index_t n, const Acc& acc, GrB_BinaryOp gacc, bool t0, bool t1,
               double tol, Op op, GOp gop) {
  const auto W = random_vector<T>(rng, n, 0.3);
  const auto M = random_vector<T>(rng, n, 0.5);
  for (int mode = 0; mode < 5; ++mode)
    for (int ac = 0; ac < 2; ++ac)
      for (int rep = 0; rep < 2; ++rep) {
        Vector<T> w = W;
        const descriptor d = descriptor{}.with_replace(rep == 1).with_transpose_a(t0).with_transpose_b(t1);
        with_mask(mode, M, [&](const auto& mask) {
          if (ac) op(w, mask, acc, d);
          else op(w, mask, no_accum, d);
        });
        GrB_Vector gw = to_grb(W), gm = to_grb(M);
        GrB_Descriptor gd = make_desc(mode, rep == 1, t0, t1);
        ok(gop(gw, mode ? gm : nullptr, ac ? gacc : nullptr, gd), name);
        const auto want = from_grb<T>(gw);
        GrB_Vector_free(&gw), GrB_Vector_free(&gm), GrB_Descriptor_free(&gd);
        INFO(name << " n " << n << " mask " << mode << " accum " << ac << " replace " << rep << " t0 " << t0 << " t1 " << t1);
        REQUIRE(diff(to_map(w), want, tol) == "");
      }
}

template <class T, class SR, class Acc>
void products(const char* name, const SR& sr, GrB_Semiring gsr, const Acc& acc, GrB_BinaryOp gacc, double tol,
              std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::pair<index_t, index_t> shapes[] = {{1, 1}, {15, 17}, {16, 16}, {17, 33}, {40, 5}, {300, 200}};
  for (const auto& [m, n] : shapes)
    for (double ad : {0.02, 0.3})
      for (double ud : {0.05, 0.5, 1.0})
        for (int tr = 0; tr < 2; ++tr) {
          const auto A = oracle::random_matrix<T>(rng, m, n, ad);
          GrB_Matrix gA = to_grb(A);
          const index_t mx_in = tr ? m : n, mx_out = tr ? n : m;
          const auto u = random_vector<T>(rng, mx_in, ud);
          GrB_Vector gu = to_grb(u);
          compare20<T>(name, rng, mx_out, acc, gacc, tr == 1, false, tol,
                       [&](auto& w, const auto& mask, const auto& a, const descriptor& d) { mxv(w, mask, a, sr, A, u, d); },
                       [&](GrB_Vector w, GrB_Vector mk, GrB_BinaryOp a, GrB_Descriptor d) {
                         return GrB_mxv(w, mk, a, gsr, gA, gu, d);
                       });
          // vxm: u has A's (or A''s) rows.
          const auto v = random_vector<T>(rng, tr ? n : m, ud);
          GrB_Vector gv = to_grb(v);
          compare20<T>(name, rng, tr ? m : n, acc, gacc, false, tr == 1, tol,
                       [&](auto& w, const auto& mask, const auto& a, const descriptor& d) { vxm(w, mask, a, sr, v, A, d); },
                       [&](GrB_Vector w, GrB_Vector mk, GrB_BinaryOp a, GrB_Descriptor d) {
                         return GrB_vxm(w, mk, a, gsr, gv, gA, d);
                       });
          GrB_Matrix_free(&gA), GrB_Vector_free(&gu), GrB_Vector_free(&gv);
        }
}

}  // namespace

TEST_CASE("mxv and vxm match GraphBLAS", "[graphblas][vector]") {
  products<double>("plus_times fp64", plus_times, GrB_PLUS_TIMES_SEMIRING_FP64, plus{}, GrB_PLUS_FP64, 1e-12, 11);
  products<double>("min_plus fp64", min_plus, GrB_MIN_PLUS_SEMIRING_FP64, min{}, GrB_MIN_FP64, 0, 12);
  products<bool>("lor_land bool", lor_land, GrB_LOR_LAND_SEMIRING_BOOL, lor{}, GrB_LOR, 0, 13);
  GrB_Semiring any_pair_i64 = nullptr;
  ok(GrB_Semiring_new(&any_pair_i64, GxB_ANY_INT64_MONOID, GrB_ONEB_INT64), "Semiring_new");
  products<std::int64_t>("any_pair int64", any_pair, any_pair_i64, plus{}, GrB_PLUS_INT64, 0, 14);
  GrB_Semiring_free(&any_pair_i64);
}

TEST_CASE("Vector element-wise, assign, extract and reduce match GraphBLAS", "[graphblas][vector]") {
  std::mt19937_64 rng(21);
  using I = std::int64_t;
  for (index_t n : {1, 15, 16, 17, 500})
    for (double du : {0.1, 0.6, 1.0}) {
      const auto u = random_vector<I>(rng, n, du), v = random_vector<I>(rng, n, 0.5);
      GrB_Vector gu = to_grb(u), gv = to_grb(v);
      auto same = [&](const char* name, auto op, auto gop) {
        compare20<I>(name, rng, n, times{}, GrB_TIMES_INT64, false, false, 0, op, gop);
      };
      same("ewise_add minus", [&](auto& w, const auto& m, const auto& a, const descriptor& d) { ewise_add(w, m, a, minus{}, u, v, d); },
           [&](GrB_Vector w, GrB_Vector m, GrB_BinaryOp a, GrB_Descriptor d) { return GrB_Vector_eWiseAdd_BinaryOp(w, m, a, GrB_MINUS_INT64, gu, gv, d); });
      same("ewise_mult minus", [&](auto& w, const auto& m, const auto& a, const descriptor& d) { ewise_mult(w, m, a, minus{}, u, v, d); },
           [&](GrB_Vector w, GrB_Vector m, GrB_BinaryOp a, GrB_Descriptor d) { return GrB_Vector_eWiseMult_BinaryOp(w, m, a, GrB_MINUS_INT64, gu, gv, d); });
      GrB_Scalar alpha = nullptr, beta = nullptr;
      ok(GrB_Scalar_new(&alpha, GrB_INT64), "Scalar_new");
      ok(GrB_Scalar_new(&beta, GrB_INT64), "Scalar_new");
      ok(GrB_Scalar_setElement_INT64(alpha, 3), "Scalar_set");
      ok(GrB_Scalar_setElement_INT64(beta, -2), "Scalar_set");
      same("ewise_union minus", [&](auto& w, const auto& m, const auto& a, const descriptor& d) { ewise_union(w, m, a, minus{}, u, 3, v, -2, d); },
           [&](GrB_Vector w, GrB_Vector m, GrB_BinaryOp a, GrB_Descriptor d) { return GxB_Vector_eWiseUnion(w, m, a, GrB_MINUS_INT64, gu, alpha, gv, beta, d); });
      GrB_Scalar_free(&alpha), GrB_Scalar_free(&beta);
      same("apply bind1st minus", [&](auto& w, const auto& m, const auto& a, const descriptor& d) { apply(w, m, a, bind1st(minus{}, 5), u, d); },
           [&](GrB_Vector w, GrB_Vector m, GrB_BinaryOp a, GrB_Descriptor d) { return GrB_Vector_apply_BinaryOp1st_INT64(w, m, a, GrB_MINUS_INT64, 5, gu, d); });
      same("select valuegt", [&](auto& w, const auto& m, const auto& a, const descriptor& d) { select(w, m, a, value_gt{}, u, 0, d); },
           [&](GrB_Vector w, GrB_Vector m, GrB_BinaryOp a, GrB_Descriptor d) { return GrB_Vector_select_INT64(w, m, a, GrB_VALUEGT_INT64, gu, 0, d); });
      same("apply_index rowindex", [&](auto& w, const auto& m, const auto& a, const descriptor& d) { apply_index(w, m, a, rowindex{}, u, 2, d); },
           [&](GrB_Vector w, GrB_Vector m, GrB_BinaryOp a, GrB_Descriptor d) { return GrB_Vector_apply_IndexOp_INT64(w, m, a, GrB_ROWINDEX_INT64, gu, 2, d); });
      // assign u (its first half) through a reversed list; a scalar into a stride; extract a list with repeats.
      const index_t h = (n + 1) / 2;
      std::vector<index_t> rev(static_cast<std::size_t>(h));
      std::vector<GrB_Index> grev(static_cast<std::size_t>(h) + 1);
      for (index_t k = 0; k < h; ++k) rev[k] = n - 1 - 2 * k, grev[k] = GrB_Index(rev[k]);  // n-1, n-3, ... >= 0
      Vector<I> uh(h);
      extract(uh, no_mask, no_accum, u, index_list::range(0, h));
      GrB_Vector guh = to_grb(uh);
      same("assign list", [&](auto& w, const auto& m, const auto& a, const descriptor& d) { assign(w, m, a, uh, index_list(rev), d); },
           [&](GrB_Vector w, GrB_Vector m, GrB_BinaryOp a, GrB_Descriptor d) { return GrB_Vector_assign(w, m, a, guh, grev.data(), h, d); });
      same("assign all", [&](auto& w, const auto& m, const auto& a, const descriptor& d) { assign(w, m, a, u, all, d); },
           [&](GrB_Vector w, GrB_Vector m, GrB_BinaryOp a, GrB_Descriptor d) { return GrB_Vector_assign(w, m, a, gu, GrB_ALL, n, d); });
      same("assign scalar", [&](auto& w, const auto& m, const auto& a, const descriptor& d) { assign(w, m, a, I(9), index_list(rev), d); },
           [&](GrB_Vector w, GrB_Vector m, GrB_BinaryOp a, GrB_Descriptor d) { return GrB_Vector_assign_INT64(w, m, a, 9, grev.data(), h, d); });
      std::vector<index_t> pick(static_cast<std::size_t>(n));
      std::vector<GrB_Index> gpick(static_cast<std::size_t>(n) + 1);
      for (index_t k = 0; k < n; ++k) pick[k] = (k * 7 + 3) % n, gpick[k] = GrB_Index(pick[k]);
      same("extract", [&](auto& w, const auto& m, const auto& a, const descriptor& d) { extract(w, m, a, u, index_list(pick), d); },
           [&](GrB_Vector w, GrB_Vector m, GrB_BinaryOp a, GrB_Descriptor d) { return GrB_Vector_extract(w, m, a, gu, gpick.data(), n, d); });
      I s = 0, gs = 0;
      ok(GrB_Vector_reduce_INT64(&gs, nullptr, GrB_PLUS_MONOID_INT64, gu, nullptr), "reduce");
      s = reduce(plus_monoid{}, u);
      CHECK(s == gs);
      ok(GrB_Vector_reduce_INT64(&gs, GrB_PLUS_INT64, GrB_MIN_MONOID_INT64, gu, nullptr), "reduce");
      reduce(s, plus{}, min_monoid{}, u);
      CHECK(s == gs);
      GrB_Vector_free(&gu), GrB_Vector_free(&gv), GrB_Vector_free(&guh);
    }
}

// A vector built from tuples held by two vectors (GxB_Vector_build_Vector's
// form) against GrB_Vector_build of the same tuples: repeated indices fold
// by dup in input order (min, plus, second, and minus, which is neither
// commutative nor associative); assign through a vector of indices against
// GrB_Vector_assign through the same list.
TEST_CASE("build from vectors and assign through a vector of indices match GraphBLAS", "[graphblas][vector]") {
  std::mt19937_64 rng(23);
  using I = std::int64_t;
  for (index_t n : {1, 16, 17, 300})
    for (double du : {0.5, 1.0}) {
      const index_t len = 3 * n;
      std::uniform_int_distribution<index_t> pick(0, n - 1);
      // The tuples: I's and X's stored values in index order (X stores
      // where I does, at other positions).
      Vector<I> Iv(len + 7), Xv(len + 3);
      std::vector<GrB_Index> gi;
      std::vector<I> gx;
      std::bernoulli_distribution keep(du);
      index_t kx = 0;
      for (index_t k = 0; k < len + 7 && kx < len + 3; ++k) {
        if (!keep(rng)) continue;
        // Low indices repeat most (long runs next to single ones).
        const index_t i = (k % 3 == 0) ? pick(rng) % std::max<index_t>(1, n / 8) : pick(rng);
        const I x = oracle::random_value<I>(rng);
        Iv.set(k, i);
        Xv.set(kx++, x);
        gi.push_back(GrB_Index(i));
        gx.push_back(x);
      }
      gi.push_back(0), gx.push_back(0);
      const GrB_Index m = gi.size() - 1;
      auto run = [&](const char* name, const auto& dup, GrB_BinaryOp gdup) {
        Vector<I> w(n);
        build(w, Iv, Xv, dup);
        GrB_Vector gw = nullptr;
        ok(GrB_Vector_new(&gw, GrB_INT64, n), "Vector_new");
        ok(GrB_Vector_build_INT64(gw, gi.data(), gx.data(), m, gdup), name);
        const auto want = from_grb<I>(gw);
        GrB_Vector_free(&gw);
        INFO(name << " n " << n << " du " << du << ", " << m << " tuples");
        REQUIRE(diff(to_map(w), want, 0) == "");
      };
      run("min", min{}, GrB_MIN_INT64);
      run("plus", plus{}, GrB_PLUS_INT64);
      run("second", second{}, GrB_SECOND_INT64);
      run("minus", minus{}, GrB_MINUS_INT64);
      Vector<I> w(n);
      const bool repeats = [&] {
        std::vector<GrB_Index> c(gi.begin(), gi.end() - 1);
        std::sort(c.begin(), c.end());
        return std::adjacent_find(c.begin(), c.end()) != c.end();
      }();
      if (repeats) {
        CHECK_THROWS_AS(build(w, Iv, Xv), invalid_value);
        CHECK(w.nvals() == 0);
      }
      w.set(0, 1);
      CHECK_THROWS_AS(build(w, Iv, Xv, min{}), output_not_empty);
      Xv.set(len + 2, 5);
      Vector<I> e(n);
      if (Xv.nvals() != Iv.nvals()) CHECK_THROWS_AS(build(e, Iv, Xv, min{}), invalid_value);
      CHECK(e.nvals() == 0);
    }
  // assign through a vector of indices: distinct ones (a permutation's
  // prefix), every mask kind, accumulator and replace.
  for (index_t n : {1, 17, 300}) {
    std::vector<index_t> perm(static_cast<std::size_t>(n));
    for (index_t i = 0; i < n; ++i) perm[i] = i;
    std::shuffle(perm.begin(), perm.end(), rng);
    const index_t h = (n + 1) / 2;
    Vector<std::int32_t> Iv(n);
    std::vector<GrB_Index> gl(static_cast<std::size_t>(h) + 1);
    for (index_t k = 0; k < h; ++k) Iv.set(2 * k, std::int32_t(perm[k]));  // 2k < n
    // Iv's stored values in index order are the list.
    {
      const auto [idx, val] = Iv.extract_tuples();
      for (std::size_t k = 0; k < val.size(); ++k) gl[k] = GrB_Index(val[k]);
      REQUIRE(index_t(val.size()) == h);
    }
    const auto u = random_vector<I>(rng, h, 0.7);
    GrB_Vector gu = to_grb(u);
    compare20<I>("assign through a vector of indices", rng, n, plus{}, GrB_PLUS_INT64, false, false, 0,
                 [&](auto& w, const auto& mk, const auto& a, const descriptor& d) { assign(w, mk, a, u, Iv, d); },
                 [&](GrB_Vector w, GrB_Vector mk, GrB_BinaryOp a, GrB_Descriptor d) {
                   return GrB_Vector_assign(w, mk, a, gu, gl.data(), h, d);
                 });
    GrB_Vector_free(&gu);
  }
}
