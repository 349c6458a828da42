// Matrix element-wise operations computed by tgb and by SuiteSparse:GraphBLAS
// in the same process (GrB_init is done once, by test_graphblas.cpp's
// session, in this same executable): GrB_Matrix_eWiseAdd_BinaryOp,
// GrB_Matrix_eWiseMult_BinaryOp, GxB_Matrix_eWiseUnion,
// GrB_Matrix_apply_BinaryOp1st/2nd_INT64, GrB_Matrix_apply_IndexOp_INT64
// (rowindex, colindex, diagindex, valuegt), GrB_Matrix_select_INT64 (tril,
// triu, offdiag, valuegt), GrB_transpose and GrB_Matrix_kronecker_BinaryOp,
// through the twenty mask/accumulator/replace combinations, with and without
// transposing the inputs. int64 values (small, so results are exact), the
// accumulator minus (not commutative); patterns and values identical.
#include <map>
#include <random>
#include <string>

#include "../oracle.hpp"
#include "../tgb_catch.hpp"
#include "grb_int64.hpp"

using namespace tgb;

namespace {

using namespace grb_ref;

std::string shape_name(index_t m, index_t n) { return std::to_string(m) + " x " + std::to_string(n); }

// make_desc, and transposing input 1 (B) where t1.
GrB_Descriptor make_desc2(int mode, bool replace, bool t0, bool t1) {
  GrB_Descriptor d = make_desc(mode, replace, t0);
  if (t1) ok(GrB_Descriptor_set(d, GrB_INP1, GrB_TRAN), "desc");
  return d;
}

// Runs tgb's op(C, mask, accum, desc) and GraphBLAS's gop(gC, gmask, gaccum,
// gdesc) from the same C0 and mask M through the twenty combinations (mask
// modes 0..4, accumulator none or minus, replace off or on); t0 and t1
// transpose the first and second input in both descriptors; inp1: A is
// GraphBLAS's input 1 (apply_BinaryOp1st: GrB_INP1 transposes it, t0 in tgb).
template <class Op, class GOp>
void compare20(const std::string& what, const Matrix<I64>& C0, const Matrix<I64>& M, bool t0, bool t1, Op op,
               GOp gop, bool inp1 = false) {
  for (int mode = 0; mode < 5; ++mode)
    for (int ac = 0; ac < 2; ++ac)
      for (int rep = 0; rep < 2; ++rep) {
        Matrix<I64> C = C0;
        const descriptor d = descriptor{}.with_replace(rep == 1).with_transpose_a(t0).with_transpose_b(t1);
        with_mask(mode, M, [&](const auto& mask) {
          if (ac) op(C, mask, minus{}, d);
          else op(C, mask, no_accum, d);
        });
        GrB_Matrix gC = to_grb(C0), gM = to_grb(M);
        GrB_Descriptor gd = make_desc2(mode, rep == 1, inp1 ? false : t0, inp1 ? t0 : t1);
        ok(gop(gC, mode ? gM : nullptr, ac ? GrB_MINUS_INT64 : nullptr, gd), what.c_str());
        const auto want = as_map(gC);
        grb_free(&gC), grb_free(&gM), GrB_Descriptor_free(&gd);
        INFO(what << " | mask mode " << mode << " accum " << (ac ? "minus" : "none") << " replace " << rep
                  << " transpose A " << t0 << " transpose B " << t1);
        const auto got = as_map(C);
        INFO("first difference: " << oracle::diff(got, want));
        REQUIRE(got == want);
      }
}

const std::pair<index_t, index_t> shapes[] = {{1, 1}, {15, 17}, {16, 16}, {33, 20}, {100, 80}};
const double densities[] = {0.05, 0.4};

// The operands of the unary operations (apply, apply_index, select) over
// every shape, density and orientation: f(A, gA, C0, M, tr, where), with A
// stored n x m where tr (read as A' through transpose_a), gA its GraphBLAS
// copy (freed after f), C0 and M of C's shape.
template <class F>
void over_unary_operands(std::uint64_t seed, F&& f) {
  std::mt19937_64 rng(seed);
  for (const auto& [m, n] : shapes)
    for (double dens : densities)
      for (int tr = 0; tr < 2; ++tr) {
        const auto A = oracle::random_matrix<I64>(rng, tr ? n : m, tr ? m : n, dens);
        const auto C0 = oracle::random_matrix<I64>(rng, m, n, 0.3), M = oracle::random_matrix<I64>(rng, m, n, 0.5);
        GrB_Matrix gA = to_grb(A);
        const std::string where = " " + shape_name(m, n) + " density " + std::to_string(dens);
        f(A, gA, C0, M, tr == 1, where);
        grb_free(&gA);
      }
}

// An int64 GrB_Scalar holding v.
GrB_Scalar grb_scalar(I64 v) {
  GrB_Scalar s = nullptr;
  ok(GrB_Scalar_new(&s, GrB_INT64), "Scalar_new");
  ok(GrB_Scalar_setElement_INT64(s, v), "Scalar_set");
  return s;
}

}  // namespace

TEST_CASE("Matrix ewise_add, ewise_mult and ewise_union match GraphBLAS", "[graphblas][matrix_ops]") {
  std::mt19937_64 rng(41);
  GrB_Scalar alpha = grb_scalar(3), beta = grb_scalar(-2);
  for (const auto& [m, n] : shapes)
    for (double dens : densities)
      for (int tr = 0; tr < 3; ++tr) {  // 0: none, 1: B', 2: A' and B'
        const bool t0 = tr == 2, t1 = tr >= 1;
        const auto A = oracle::random_matrix<I64>(rng, t0 ? n : m, t0 ? m : n, dens);
        const auto B = oracle::random_matrix<I64>(rng, t1 ? n : m, t1 ? m : n, dens);
        const auto C0 = oracle::random_matrix<I64>(rng, m, n, 0.3), M = oracle::random_matrix<I64>(rng, m, n, 0.5);
        GrB_Matrix gA = to_grb(A), gB = to_grb(B);
        const std::string where = " " + shape_name(m, n) + " density " + std::to_string(dens);
        auto add = [&](const char* name, auto top, GrB_BinaryOp gop) {
          compare20(std::string("ewise_add ") + name + where, C0, M, t0, t1,
                    [&](auto& C, const auto& mk, const auto& a, const descriptor& d) { ewise_add(C, mk, a, top, A, B, d); },
                    [&](GrB_Matrix C, GrB_Matrix mk, GrB_BinaryOp a, GrB_Descriptor d) {
                      return GrB_Matrix_eWiseAdd_BinaryOp(C, mk, a, gop, gA, gB, d);
                    });
        };
        auto mult = [&](const char* name, auto top, GrB_BinaryOp gop) {
          compare20(std::string("ewise_mult ") + name + where, C0, M, t0, t1,
                    [&](auto& C, const auto& mk, const auto& a, const descriptor& d) { ewise_mult(C, mk, a, top, A, B, d); },
                    [&](GrB_Matrix C, GrB_Matrix mk, GrB_BinaryOp a, GrB_Descriptor d) {
                      return GrB_Matrix_eWiseMult_BinaryOp(C, mk, a, gop, gA, gB, d);
                    });
        };
        add("plus", plus{}, GrB_PLUS_INT64);
        add("minus", minus{}, GrB_MINUS_INT64);
        mult("times", times{}, GrB_TIMES_INT64);
        mult("minus", minus{}, GrB_MINUS_INT64);
        mult("lt (bool into int64)", lt{}, GrB_LT_INT64);
        compare20("ewise_union minus alpha 3 beta -2" + where, C0, M, t0, t1,
                  [&](auto& C, const auto& mk, const auto& a, const descriptor& d) {
                    ewise_union(C, mk, a, minus{}, A, I64(3), B, I64(-2), d);
                  },
                  [&](GrB_Matrix C, GrB_Matrix mk, GrB_BinaryOp a, GrB_Descriptor d) {
                    return GxB_Matrix_eWiseUnion(C, mk, a, GrB_MINUS_INT64, gA, alpha, gB, beta, d);
                  });
        grb_free(&gA), grb_free(&gB);
      }
  GrB_Scalar_free(&alpha), GrB_Scalar_free(&beta);
}

TEST_CASE("Matrix apply with bind1st and bind2nd matches GraphBLAS", "[graphblas][matrix_ops]") {
  over_unary_operands(42, [&](const Matrix<I64>& A, GrB_Matrix gA, const Matrix<I64>& C0, const Matrix<I64>& M,
                          bool tr, const std::string& where) {
    compare20("apply bind1st(minus, 5)" + where, C0, M, tr, false,
              [&](auto& C, const auto& mk, const auto& a, const descriptor& d) { apply(C, mk, a, bind1st(minus{}, I64(5)), A, d); },
              [&](GrB_Matrix C, GrB_Matrix mk, GrB_BinaryOp a, GrB_Descriptor d) {
                return GrB_Matrix_apply_BinaryOp1st_INT64(C, mk, a, GrB_MINUS_INT64, 5, gA, d);
              }, true);
    compare20("apply bind2nd(minus, 5)" + where, C0, M, tr, false,
              [&](auto& C, const auto& mk, const auto& a, const descriptor& d) { apply(C, mk, a, bind2nd(minus{}, I64(5)), A, d); },
              [&](GrB_Matrix C, GrB_Matrix mk, GrB_BinaryOp a, GrB_Descriptor d) {
                return GrB_Matrix_apply_BinaryOp2nd_INT64(C, mk, a, GrB_MINUS_INT64, gA, 5, d);
              });
    compare20("apply bind2nd(times, -3)" + where, C0, M, tr, false,
              [&](auto& C, const auto& mk, const auto& a, const descriptor& d) { apply(C, mk, a, bind2nd(times{}, I64(-3)), A, d); },
              [&](GrB_Matrix C, GrB_Matrix mk, GrB_BinaryOp a, GrB_Descriptor d) {
                return GrB_Matrix_apply_BinaryOp2nd_INT64(C, mk, a, GrB_TIMES_INT64, gA, -3, d);
              });
  });
}

TEST_CASE("Matrix apply_index (rowindex, colindex, diagindex, value_gt) matches GraphBLAS", "[graphblas][matrix_ops]") {
  over_unary_operands(47, [&](const Matrix<I64>& A, GrB_Matrix gA, const Matrix<I64>& C0, const Matrix<I64>& M,
                          bool tr, const std::string& where) {
    auto app = [&](const char* name, auto f, GrB_IndexUnaryOp gop, I64 k) {
      compare20(std::string("apply_index ") + name + " thunk " + std::to_string(k) + where, C0, M, tr, false,
                [&](auto& C, const auto& mk, const auto& a, const descriptor& d) { apply_index(C, mk, a, f, A, k, d); },
                [&](GrB_Matrix C, GrB_Matrix mk, GrB_BinaryOp a, GrB_Descriptor d) {
                  return GrB_Matrix_apply_IndexOp_INT64(C, mk, a, gop, gA, k, d);
                });
    };
    for (I64 k : {I64(-2), I64(0), I64(3)}) {
      app("rowindex", rowindex{}, GrB_ROWINDEX_INT64, k);
      app("colindex", colindex{}, GrB_COLINDEX_INT64, k);
      app("diagindex", diagindex{}, GrB_DIAGINDEX_INT64, k);
    }
    app("value_gt", value_gt{}, GrB_VALUEGT_INT64, 0);  // bool, cast to int64 as GraphBLAS does
  });
}

TEST_CASE("Matrix select (tril, triu, offdiag, value_gt) matches GraphBLAS", "[graphblas][matrix_ops]") {
  over_unary_operands(43, [&](const Matrix<I64>& A, GrB_Matrix gA, const Matrix<I64>& C0, const Matrix<I64>& M,
                          bool tr, const std::string& where) {
    auto sel = [&](const char* name, auto pred, GrB_IndexUnaryOp gop, I64 k) {
      compare20(std::string("select ") + name + " k " + std::to_string(k) + where, C0, M, tr, false,
                [&](auto& C, const auto& mk, const auto& a, const descriptor& d) { select(C, mk, a, pred, A, k, d); },
                [&](GrB_Matrix C, GrB_Matrix mk, GrB_BinaryOp a, GrB_Descriptor d) {
                  return GrB_Matrix_select_INT64(C, mk, a, gop, gA, k, d);
                });
    };
    for (I64 k : {I64(-2), I64(0), I64(3)}) {
      sel("tril", tril{}, GrB_TRIL, k);
      sel("triu", triu{}, GrB_TRIU, k);
      sel("offdiag", offdiag{}, GrB_OFFDIAG, k);
    }
    sel("value_gt", value_gt{}, GrB_VALUEGT_INT64, 0);
    sel("value_gt", value_gt{}, GrB_VALUEGT_INT64, -2);
  });
}

TEST_CASE("Matrix transpose matches GraphBLAS", "[graphblas][matrix_ops]") {
  std::mt19937_64 rng(44);
  for (const auto& [m, n] : shapes)
    for (double dens : densities)
      for (int tr = 0; tr < 2; ++tr) {
        // C is m x n: A is n x m, or m x n with transpose_a (transposed twice).
        const auto A = oracle::random_matrix<I64>(rng, tr ? m : n, tr ? n : m, dens);
        const auto C0 = oracle::random_matrix<I64>(rng, m, n, 0.3), M = oracle::random_matrix<I64>(rng, m, n, 0.5);
        GrB_Matrix gA = to_grb(A);
        compare20("transpose " + shape_name(m, n) + " density " + std::to_string(dens), C0, M, tr == 1, false,
                  [&](auto& C, const auto& mk, const auto& a, const descriptor& d) { transpose(C, mk, a, A, d); },
                  [&](GrB_Matrix C, GrB_Matrix mk, GrB_BinaryOp a, GrB_Descriptor d) {
                    return GrB_transpose(C, mk, a, gA, d);
                  });
        grb_free(&gA);
      }
}

TEST_CASE("Matrix kronecker matches GraphBLAS", "[graphblas][matrix_ops]") {
  std::mt19937_64 rng(45);
  const std::pair<index_t, index_t> small[] = {{1, 1}, {2, 3}, {4, 4}, {7, 5}};
  for (const auto& [am, an] : small)
    for (const auto& [bm, bn] : small)
      for (int tr = 0; tr < 3; ++tr) {  // 0: none, 1: B', 2: A' and B'
        const bool t0 = tr == 2, t1 = tr >= 1;
        const auto A = oracle::random_matrix<I64>(rng, t0 ? an : am, t0 ? am : an, 0.5);
        const auto B = oracle::random_matrix<I64>(rng, t1 ? bn : bm, t1 ? bm : bn, 0.5);
        const index_t m = am * bm, n = an * bn;
        const auto C0 = oracle::random_matrix<I64>(rng, m, n, 0.3), M = oracle::random_matrix<I64>(rng, m, n, 0.5);
        GrB_Matrix gA = to_grb(A), gB = to_grb(B);
        compare20("kronecker times " + shape_name(am, an) + " (x) " + shape_name(bm, bn), C0, M, t0, t1,
                  [&](auto& C, const auto& mk, const auto& a, const descriptor& d) { kronecker(C, mk, a, times{}, A, B, d); },
                  [&](GrB_Matrix C, GrB_Matrix mk, GrB_BinaryOp a, GrB_Descriptor d) {
                    return GrB_Matrix_kronecker_BinaryOp(C, mk, a, GrB_TIMES_INT64, gA, gB, d);
                  });
        compare20("kronecker minus " + shape_name(am, an) + " (x) " + shape_name(bm, bn), C0, M, t0, t1,
                  [&](auto& C, const auto& mk, const auto& a, const descriptor& d) { kronecker(C, mk, a, minus{}, A, B, d); },
                  [&](GrB_Matrix C, GrB_Matrix mk, GrB_BinaryOp a, GrB_Descriptor d) {
                    return GrB_Matrix_kronecker_BinaryOp(C, mk, a, GrB_MINUS_INT64, gA, gB, d);
                  });
        grb_free(&gA), grb_free(&gB);
      }
}
