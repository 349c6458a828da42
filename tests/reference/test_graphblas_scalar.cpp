// Scalar<T> and the operations that take or produce one, computed by tgb and
// by SuiteSparse:GraphBLAS in the same process (GrB_init is done once, by
// test_graphblas.cpp's session, in this same executable): reduce to a
// GrB_Scalar (GrB_Matrix/Vector_reduce_Monoid_Scalar), assign of a GrB_Scalar
// (GrB_Matrix_assign_Scalar, GxB_Matrix_subassign_Scalar,
// GrB_Vector_assign_Scalar), apply with a bound GrB_Scalar and select with a
// GrB_Scalar thunk, and GrB_Matrix_extractElement_Scalar; every combination
// of an empty or stored scalar, an empty or non-empty input, accumulator or
// none, the five mask kinds and replace. int64 values, the accumulator minus
// (not commutative); results identical, and where GraphBLAS returns an error
// tgb throws one with the same GrB_Info code.
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <stdexcept>

#include "../oracle.hpp"
#include "../tgb_catch.hpp"
#include "grb_int64.hpp"

using namespace tgb;

namespace {

using namespace grb_ref;
using grb_ref::grb_free;  // the Scalar overloads below join these, not hide them
using grb_ref::to_grb;

GrB_Scalar to_grb(const Scalar<I64>& s) {
  GrB_Scalar g = nullptr;
  ok(GrB_Scalar_new(&g, GrB_INT64), "Scalar_new");
  if (!s.empty()) ok(GrB_Scalar_setElement_INT64(g, s.get()), "Scalar_setElement");
  return g;
}
void grb_free(GrB_Scalar* s) { GrB_Scalar_free(s); }

std::optional<I64> as_optional(GrB_Scalar g) {
  I64 x = 0;
  const GrB_Info info = GrB_Scalar_extractElement_INT64(&x, g);
  if (info == GrB_NO_VALUE) return std::nullopt;
  ok(info, "Scalar_extractElement");
  return x;
}
std::optional<I64> as_optional(const Scalar<I64>& s) { return s.empty() ? std::nullopt : std::optional<I64>(s.get()); }

// The GrB_Info tgb reports by throwing (GrB_SUCCESS if it does not).
template <class F>
int info_of(F&& f) {
  try {
    f();
  } catch (const error& e) {
    return e.info_code();
  }
  return GrB_SUCCESS;
}

// Runs tgb's op(out, mask, accum, desc) and GraphBLAS's gop(gout, gmask,
// gaccum, gdesc) from the same output and mask through the twenty
// combinations: the same result, or the same error with the output unchanged.
template <class Out, class Mask, class Op, class GOp>
void compare20(const std::string& name, const Out& out0, const Mask& M, Op op, GOp gop) {
  for (int mode = 0; mode < 5; ++mode)
    for (int ac = 0; ac < 2; ++ac)
      for (int rep = 0; rep < 2; ++rep) {
        Out out = out0;
        const descriptor d = descriptor{}.with_replace(rep == 1);
        const int got = info_of([&] {
          with_mask(mode, M, [&](const auto& mask) {
            if (ac) op(out, mask, minus{}, d);
            else op(out, mask, no_accum, d);
          });
        });
        auto gout = to_grb(out0);
        auto gm = to_grb(M);
        GrB_Descriptor gd = make_desc(mode, rep == 1);
        const int want = gop(gout, mode ? gm : nullptr, ac ? GrB_MINUS_INT64 : nullptr, gd);
        const auto gmap = as_map(gout);
        grb_free(&gout), grb_free(&gm), GrB_Descriptor_free(&gd);
        INFO(name << " mask " << mode << " accum " << ac << " replace " << rep);
        if (got == GrB_EMPTY_OBJECT && want == GrB_SUCCESS && mode >= 3) {
          // SuiteSparse's apply returns before it looks at the bound scalar
          // when a complemented mask admits nothing (C kept, or cleared
          // with replace); the C API asks for GrB_EMPTY_OBJECT, as tgb does.
          REQUIRE(gmap == (rep ? decltype(gmap){} : as_map(out0)));
          REQUIRE(as_map(out) == as_map(out0));
          continue;
        }
        REQUIRE(got == want);
        REQUIRE(as_map(out) == (want == GrB_SUCCESS ? gmap : as_map(out0)));
      }
}

// Lists for both libraries: 0 all, 1 a range with stride 2, 2 a descending
// range, 3 a shuffled half (ranges passed to GraphBLAS as explicit lists).
struct grb_list {
  index_list tgb = all;
  std::vector<GrB_Index> g;
  index_t count = 0;
  const GrB_Index* ptr() const { return tgb.is_all() ? GrB_ALL : g.data(); }
};
grb_list make_list(std::mt19937_64& rng, int kind, index_t n) {
  grb_list l;
  if (kind == 1) l.tgb = index_list::range(n / 4, n, 2);
  if (kind == 2) l.tgb = index_list::range(n - 1, -1, -1);
  if (kind == 3) {
    std::vector<index_t> v(static_cast<std::size_t>(n));
    std::iota(v.begin(), v.end(), index_t(0));
    std::shuffle(v.begin(), v.end(), rng);
    v.resize(static_cast<std::size_t>((n + 1) / 2));
    l.tgb = index_list(v);
  }
  l.count = l.tgb.count(n);
  for (index_t k = 0; k < l.count; ++k) l.g.push_back(GrB_Index(l.tgb[k]));
  l.g.push_back(0);
  return l;
}

const std::pair<index_t, index_t> shapes[] = {{1, 1}, {15, 17}, {16, 16}, {33, 20}, {100, 80}};

}  // namespace

TEST_CASE("reduce to a Scalar matches GrB_reduce to a GrB_Scalar", "[graphblas][scalar]") {
  std::mt19937_64 rng(41);
  const struct {
    const char* name;
    GrB_Monoid g;
  } monoids[] = {{"plus", GrB_PLUS_MONOID_INT64}, {"min", GrB_MIN_MONOID_INT64}, {"max", GrB_MAX_MONOID_INT64}};
  for (const auto& [m, n] : shapes)
    for (double density : {0.0, 0.01, 0.3})
      for (int mi = 0; mi < 3; ++mi) {
        const auto A = oracle::random_matrix<I64>(rng, m, n, density);
        const auto u = random_vector(rng, m, density);
        GrB_Matrix gA = to_grb(A);
        GrB_Vector gu = to_grb(u);
        for (const std::optional<I64> s0 : {std::optional<I64>(), std::optional<I64>(-6)})
          for (int ac = 0; ac < 2; ++ac) {
            Scalar<I64> s = s0 ? Scalar<I64>(*s0) : Scalar<I64>(), t = s;
            auto run = [&](Scalar<I64>& out, const auto& in) {
              if (mi == 0 && ac) reduce(out, minus{}, plus_monoid{}, in);
              if (mi == 0 && !ac) reduce(out, no_accum, plus_monoid{}, in);
              if (mi == 1 && ac) reduce(out, minus{}, min_monoid{}, in);
              if (mi == 1 && !ac) reduce(out, no_accum, min_monoid{}, in);
              if (mi == 2 && ac) reduce(out, minus{}, max_monoid{}, in);
              if (mi == 2 && !ac) reduce(out, no_accum, max_monoid{}, in);
            };
            run(s, A);
            run(t, u);
            GrB_Scalar gs = to_grb(s0 ? Scalar<I64>(*s0) : Scalar<I64>()), gt = nullptr;
            ok(GrB_Scalar_dup(&gt, gs), "Scalar_dup");
            GrB_BinaryOp accum = ac ? GrB_MINUS_INT64 : nullptr;
            ok(GrB_Matrix_reduce_Monoid_Scalar(gs, accum, monoids[mi].g, gA, nullptr), "Matrix_reduce_Monoid_Scalar");
            ok(GrB_Vector_reduce_Monoid_Scalar(gt, accum, monoids[mi].g, gu, nullptr), "Vector_reduce_Monoid_Scalar");
            INFO(monoids[mi].name << " " << m << " x " << n << " density " << density << " s "
                                  << (s0 ? "-6" : "empty") << " accum " << ac << " nvals " << A.nvals());
            CHECK(as_optional(s) == as_optional(gs));
            CHECK(as_optional(t) == as_optional(gt));
            grb_free(&gs), grb_free(&gt);
          }
        grb_free(&gA), grb_free(&gu);
      }
}

TEST_CASE("assign of a Scalar matches GrB_assign of a GrB_Scalar", "[graphblas][scalar]") {
  std::mt19937_64 rng(42);
  for (const auto& [m, n] : shapes)
    for (int kinds = 0; kinds < 8; ++kinds)
      for (const Scalar<I64>& s : {Scalar<I64>(), Scalar<I64>(-3)}) {
        const grb_list I = make_list(rng, kinds % 4, m), J = make_list(rng, (kinds / 2 + kinds) % 4, n);
        const auto C0 = oracle::random_matrix<I64>(rng, m, n, 0.4), M = oracle::random_matrix<I64>(rng, m, n, 0.5);
        const auto Ms = oracle::random_matrix<I64>(rng, I.count, J.count, 0.5);
        const std::string what = std::to_string(m) + " x " + std::to_string(n) + " lists " + std::to_string(kinds) +
                                 (s.empty() ? " empty scalar" : " scalar -3");
        GrB_Scalar gs = to_grb(s);
        compare20("assign " + what, C0, M,
                  [&](auto& C, const auto& mk, const auto& a, const descriptor& d) { assign(C, mk, a, s, I.tgb, J.tgb, d); },
                  [&](GrB_Matrix C, GrB_Matrix mk, GrB_BinaryOp a, GrB_Descriptor d) {
                    return GrB_Matrix_assign_Scalar(C, mk, a, gs, I.ptr(), I.count, J.ptr(), J.count, d);
                  });
        compare20("subassign " + what, C0, Ms,
                  [&](auto& C, const auto& mk, const auto& a, const descriptor& d) { subassign(C, mk, a, s, I.tgb, J.tgb, d); },
                  [&](GrB_Matrix C, GrB_Matrix mk, GrB_BinaryOp a, GrB_Descriptor d) {
                    return GxB_Matrix_subassign_Scalar(C, mk, a, gs, I.ptr(), I.count, J.ptr(), J.count, d);
                  });
        const index_t len = m * n;
        const grb_list L = make_list(rng, kinds % 4, len);
        compare20("vector assign " + what, random_vector(rng, len, 0.4), random_vector(rng, len, 0.5),
                  [&](auto& w, const auto& mk, const auto& a, const descriptor& d) { assign(w, mk, a, s, L.tgb, d); },
                  [&](GrB_Vector w, GrB_Vector mk, GrB_BinaryOp a, GrB_Descriptor d) {
                    return GrB_Vector_assign_Scalar(w, mk, a, gs, L.ptr(), L.count, d);
                  });
        grb_free(&gs);
      }
}

TEST_CASE("apply, select and extractElement with a Scalar match GraphBLAS, empty scalars included",
          "[graphblas][scalar]") {
  std::mt19937_64 rng(43);
  for (const auto& [m, n] : shapes)
    for (const Scalar<I64>& s : {Scalar<I64>(), Scalar<I64>(2)}) {
      const auto A = oracle::random_matrix<I64>(rng, m, n, 0.4), C0 = oracle::random_matrix<I64>(rng, m, n, 0.3);
      const auto M = oracle::random_matrix<I64>(rng, m, n, 0.5);
      const auto u = random_vector(rng, n, 0.5), w0 = random_vector(rng, n, 0.3), mw = random_vector(rng, n, 0.5);
      GrB_Matrix gA = to_grb(A);
      GrB_Vector gu = to_grb(u);
      GrB_Scalar gs = to_grb(s);
      const std::string what = std::to_string(m) + " x " + std::to_string(n) + (s.empty() ? " empty" : " 2");
      compare20("apply 1st " + what, C0, M,
                [&](auto& C, const auto& mk, const auto& a, const descriptor& d) { apply(C, mk, a, bind1st(minus{}, s), A, d); },
                [&](GrB_Matrix C, GrB_Matrix mk, GrB_BinaryOp a, GrB_Descriptor d) {
                  return GrB_Matrix_apply_BinaryOp1st_Scalar(C, mk, a, GrB_MINUS_INT64, gs, gA, d);
                });
      compare20("apply 2nd " + what, C0, M,
                [&](auto& C, const auto& mk, const auto& a, const descriptor& d) { apply(C, mk, a, bind2nd(minus{}, s), A, d); },
                [&](GrB_Matrix C, GrB_Matrix mk, GrB_BinaryOp a, GrB_Descriptor d) {
                  return GrB_Matrix_apply_BinaryOp2nd_Scalar(C, mk, a, GrB_MINUS_INT64, gA, gs, d);
                });
      compare20("select valuegt " + what, C0, M,
                [&](auto& C, const auto& mk, const auto& a, const descriptor& d) { select(C, mk, a, value_gt{}, A, s, d); },
                [&](GrB_Matrix C, GrB_Matrix mk, GrB_BinaryOp a, GrB_Descriptor d) {
                  return GrB_Matrix_select_Scalar(C, mk, a, GrB_VALUEGT_INT64, gA, gs, d);
                });
      compare20("select tril " + what, C0, M,
                [&](auto& C, const auto& mk, const auto& a, const descriptor& d) { select(C, mk, a, tril{}, A, s, d); },
                [&](GrB_Matrix C, GrB_Matrix mk, GrB_BinaryOp a, GrB_Descriptor d) {
                  return GrB_Matrix_select_Scalar(C, mk, a, GrB_TRIL, gA, gs, d);
                });
      compare20("vector apply 2nd " + what, w0, mw,
                [&](auto& w, const auto& mk, const auto& a, const descriptor& d) { apply(w, mk, a, bind2nd(times{}, s), u, d); },
                [&](GrB_Vector w, GrB_Vector mk, GrB_BinaryOp a, GrB_Descriptor d) {
                  return GrB_Vector_apply_BinaryOp2nd_Scalar(w, mk, a, GrB_TIMES_INT64, gu, gs, d);
                });
      compare20("vector select " + what, w0, mw,
                [&](auto& w, const auto& mk, const auto& a, const descriptor& d) { select(w, mk, a, value_le{}, u, s, d); },
                [&](GrB_Vector w, GrB_Vector mk, GrB_BinaryOp a, GrB_Descriptor d) {
                  return GrB_Vector_select_Scalar(w, mk, a, GrB_VALUELE_INT64, gu, gs, d);
                });
      compare20("vector apply_index " + what, w0, mw,
                [&](auto& w, const auto& mk, const auto& a, const descriptor& d) { apply_index(w, mk, a, rowindex{}, u, s, d); },
                [&](GrB_Vector w, GrB_Vector mk, GrB_BinaryOp a, GrB_Descriptor d) {
                  return GrB_Vector_apply_IndexOp_Scalar(w, mk, a, GrB_ROWINDEX_INT64, gu, gs, d);
                });
      // Shapes before the empty scalar: both report a dimension mismatch.
      Matrix<I64> B(m + 1, n);
      GrB_Matrix gB = to_grb(B);
      CHECK(info_of([&] { select(B, no_mask, no_accum, value_gt{}, A, s); }) ==
            GrB_Matrix_select_Scalar(gB, nullptr, nullptr, GrB_VALUEGT_INT64, gA, gs, nullptr));
      CHECK(info_of([&] { apply(B, no_mask, no_accum, bind1st(plus{}, s), A); }) ==
            GrB_Matrix_apply_BinaryOp1st_Scalar(gB, nullptr, nullptr, GrB_PLUS_INT64, gs, gA, nullptr));
      grb_free(&gB);
      // extractElement into a GrB_Scalar, every position and one outside.
      for (index_t i = 0; i <= m; ++i)
        for (index_t j = 0; j < n; j += (i == m ? n : 1)) {
          Scalar<I64> x = s;
          GrB_Scalar gx = nullptr;
          ok(GrB_Scalar_dup(&gx, gs), "Scalar_dup");
          INFO("extractElement (" << i << ", " << j << ")");
          const int got = info_of([&] { extract_element(x, A, i, j); });
          REQUIRE(got == GrB_Matrix_extractElement_Scalar(gx, gA, i, j));
          // On the invalid index SuiteSparse has already cleared its scalar; tgb's is unchanged.
          REQUIRE(as_optional(x) == (got == GrB_SUCCESS ? as_optional(gx) : as_optional(s)));
          grb_free(&gx);
        }
      grb_free(&gA), grb_free(&gu), grb_free(&gs);
    }
}
