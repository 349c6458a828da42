// Matrix extract and assign computed by tgb and by SuiteSparse:GraphBLAS in
// the same process (GrB_init is done once, by test_graphblas.cpp's session,
// in this same executable): GrB_Matrix_extract, GrB_Col_extract,
// GrB_Matrix_assign (matrix and scalar), GxB_Matrix_subassign (matrix and
// scalar), GrB_Row_assign and GrB_Col_assign, GxB_Row_subassign and
// GxB_Col_subassign, through the twenty
// mask/accumulator/replace combinations, with and without transposing A,
// over index lists that are GrB_ALL, ranges (ascending, strided,
// descending; passed to GraphBLAS as explicit lists), shuffled lists, and
// lists with repeats where the operation allows them. int64 values, the
// accumulator minus (not commutative); patterns and values identical.
#include <algorithm>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <stdexcept>

#include "../oracle.hpp"
#include "../tgb_catch.hpp"
#include "grb_int64.hpp"

using namespace tgb;

namespace {

using namespace grb_ref;

// An index list for both libraries: tgb's form, and GraphBLAS's array
// (GrB_ALL for all; ranges as the explicit list they stand for).
struct grb_list {
  index_list tgb = all;
  std::vector<GrB_Index> g;
  index_t count = 0;
  std::string name;
  const GrB_Index* ptr() const { return tgb.is_all() ? GrB_ALL : g.data(); }
};
// Kinds: 0 all, 1 a range with stride 2, 2 a descending range, 3 a shuffled
// subset, 4 a list with repeats.
grb_list make_list(std::mt19937_64& rng, int kind, index_t n) {
  grb_list l;
  std::vector<index_t> v;
  switch (kind) {
    case 0: l.name = "all"; break;
    case 1: l.tgb = index_list::range(n / 4, n, 2), l.name = "range(n/4, n, 2)"; break;
    case 2: l.tgb = index_list::range(n - 1, -1, -1), l.name = "range(n-1, -1, -1)"; break;
    case 3:
      v.resize(static_cast<std::size_t>(n));
      std::iota(v.begin(), v.end(), index_t(0));
      std::shuffle(v.begin(), v.end(), rng);
      v.resize(static_cast<std::size_t>((n + 1) / 2));
      l.tgb = index_list(v), l.name = "shuffled half";
      break;
    default:
      v.resize(static_cast<std::size_t>(n));
      for (auto& i : v) i = std::uniform_int_distribution<index_t>(0, n - 1)(rng);
      l.tgb = index_list(v), l.name = "with repeats";
  }
  l.count = l.tgb.count(n);
  for (index_t k = 0; k < l.count; ++k) l.g.push_back(GrB_Index(l.tgb[k]));
  l.g.push_back(0);
  return l;
}

// Runs tgb's op(out, mask, accum, desc) and GraphBLAS's gop(gout, gmask,
// gaccum, gdesc) from the same output and mask through the twenty
// combinations (t0: transpose A).
template <class Out, class Mask, class Op, class GOp>
void compare20(const char* name, const std::string& lists, const Out& out0, const Mask& M, bool t0, Op op, GOp gop) {
  for (int mode = 0; mode < 5; ++mode)
    for (int ac = 0; ac < 2; ++ac)
      for (int rep = 0; rep < 2; ++rep) {
        Out out = out0;
        const descriptor d = descriptor{}.with_replace(rep == 1).with_transpose_a(t0);
        with_mask(mode, M, [&](const auto& mask) {
          if (ac) op(out, mask, minus{}, d);
          else op(out, mask, no_accum, d);
        });
        auto gout = to_grb(out0);
        auto gm = to_grb(M);
        GrB_Descriptor gd = make_desc(mode, rep == 1, t0);
        ok(gop(gout, mode ? gm : nullptr, ac ? GrB_MINUS_INT64 : nullptr, gd), name);
        const auto want = as_map(gout);
        grb_free(&gout), grb_free(&gm), GrB_Descriptor_free(&gd);
        INFO(name << " " << lists << " mask " << mode << " accum " << ac << " replace " << rep << " transposed " << t0);
        REQUIRE(as_map(out) == want);
      }
}

const std::pair<index_t, index_t> shapes[] = {{1, 1}, {15, 17}, {16, 16}, {33, 20}, {100, 80}};

}  // namespace

TEST_CASE("Matrix extract and Col_extract match GraphBLAS", "[graphblas][matrix_assign]") {
  std::mt19937_64 rng(31);
  for (const auto& [m, n] : shapes)
    for (int kinds = 0; kinds < 10; ++kinds)
      for (int tr = 0; tr < 2; ++tr) {
        const auto A = oracle::random_matrix<I64>(rng, tr ? n : m, tr ? m : n, 0.3);
        const grb_list I = make_list(rng, kinds % 5, m), J = make_list(rng, (kinds * 3 + 1) % 5, n);
        const std::string lists = std::to_string(m) + " x " + std::to_string(n) + " I " + I.name + " J " + J.name;
        GrB_Matrix gA = to_grb(A);
        compare20("extract", lists, oracle::random_matrix<I64>(rng, I.count, J.count, 0.3),
                  oracle::random_matrix<I64>(rng, I.count, J.count, 0.5), tr == 1,
                  [&](auto& C, const auto& mk, const auto& a, const descriptor& d) { extract(C, mk, a, A, I.tgb, J.tgb, d); },
                  [&](GrB_Matrix C, GrB_Matrix mk, GrB_BinaryOp a, GrB_Descriptor d) {
                    return GrB_Matrix_extract(C, mk, a, gA, I.ptr(), I.count, J.ptr(), J.count, d);
                  });
        const index_t j = (kinds * 7) % n;
        compare20("Col_extract", lists + " j " + std::to_string(j), random_vector(rng, I.count, 0.3),
                  random_vector(rng, I.count, 0.5), tr == 1,
                  [&](auto& w, const auto& mk, const auto& a, const descriptor& d) { extract(w, mk, a, A, I.tgb, j, d); },
                  [&](GrB_Vector w, GrB_Vector mk, GrB_BinaryOp a, GrB_Descriptor d) {
                    return GrB_Col_extract(w, mk, a, gA, I.ptr(), I.count, GrB_Index(j), d);
                  });
        GrB_Matrix_free(&gA);
      }
}

TEST_CASE("Matrix assign, subassign, Row_assign and Col_assign match GraphBLAS", "[graphblas][matrix_assign]") {
  std::mt19937_64 rng(32);
  for (const auto& [m, n] : shapes)
    for (int kinds = 0; kinds < 8; ++kinds)
      for (int tr = 0; tr < 2; ++tr) {
        // No repeats: GraphBLAS defines them differently (the last one wins).
        const grb_list I = make_list(rng, kinds % 4, m), J = make_list(rng, (kinds / 2 + kinds) % 4, n);
        const std::string lists = std::to_string(m) + " x " + std::to_string(n) + " I " + I.name + " J " + J.name;
        const auto A = oracle::random_matrix<I64>(rng, tr ? J.count : I.count, tr ? I.count : J.count, 0.4);
        const auto C0 = oracle::random_matrix<I64>(rng, m, n, 0.4), M = oracle::random_matrix<I64>(rng, m, n, 0.5);
        const auto Ms = oracle::random_matrix<I64>(rng, I.count, J.count, 0.5);
        GrB_Matrix gA = to_grb(A);
        compare20("assign", lists, C0, M, tr == 1,
                  [&](auto& C, const auto& mk, const auto& a, const descriptor& d) { assign(C, mk, a, A, I.tgb, J.tgb, d); },
                  [&](GrB_Matrix C, GrB_Matrix mk, GrB_BinaryOp a, GrB_Descriptor d) {
                    return GrB_Matrix_assign(C, mk, a, gA, I.ptr(), I.count, J.ptr(), J.count, d);
                  });
        compare20("subassign", lists, C0, Ms, tr == 1,
                  [&](auto& C, const auto& mk, const auto& a, const descriptor& d) { subassign(C, mk, a, A, I.tgb, J.tgb, d); },
                  [&](GrB_Matrix C, GrB_Matrix mk, GrB_BinaryOp a, GrB_Descriptor d) {
                    return GxB_Matrix_subassign(C, mk, a, gA, I.ptr(), I.count, J.ptr(), J.count, d);
                  });
        GrB_Matrix_free(&gA);
        if (tr) continue;  // the rest take no matrix to transpose
        compare20("assign scalar", lists, C0, M, false,
                  [&](auto& C, const auto& mk, const auto& a, const descriptor& d) { assign(C, mk, a, I64(-3), I.tgb, J.tgb, d); },
                  [&](GrB_Matrix C, GrB_Matrix mk, GrB_BinaryOp a, GrB_Descriptor d) {
                    return GrB_Matrix_assign_INT64(C, mk, a, -3, I.ptr(), I.count, J.ptr(), J.count, d);
                  });
        compare20("subassign scalar", lists, C0, Ms, false,
                  [&](auto& C, const auto& mk, const auto& a, const descriptor& d) { subassign(C, mk, a, I64(5), I.tgb, J.tgb, d); },
                  [&](GrB_Matrix C, GrB_Matrix mk, GrB_BinaryOp a, GrB_Descriptor d) {
                    return GxB_Matrix_subassign_INT64(C, mk, a, 5, I.ptr(), I.count, J.ptr(), J.count, d);
                  });
        const index_t i = (kinds * 5) % m, j = (kinds * 3) % n;
        const auto ur = random_vector(rng, J.count, 0.6), uc = random_vector(rng, I.count, 0.6);
        GrB_Vector gur = to_grb(ur), guc = to_grb(uc);
        compare20("Row_assign", lists + " i " + std::to_string(i), C0, random_vector(rng, n, 0.5), false,
                  [&](auto& C, const auto& mk, const auto& a, const descriptor& d) { assign_row(C, mk, a, ur, i, J.tgb, d); },
                  [&](GrB_Matrix C, GrB_Vector mk, GrB_BinaryOp a, GrB_Descriptor d) {
                    return GrB_Row_assign(C, mk, a, gur, GrB_Index(i), J.ptr(), J.count, d);
                  });
        compare20("Col_assign", lists + " j " + std::to_string(j), C0, random_vector(rng, m, 0.5), false,
                  [&](auto& C, const auto& mk, const auto& a, const descriptor& d) { assign_col(C, mk, a, uc, I.tgb, j, d); },
                  [&](GrB_Matrix C, GrB_Vector mk, GrB_BinaryOp a, GrB_Descriptor d) {
                    return GrB_Col_assign(C, mk, a, guc, I.ptr(), I.count, GrB_Index(j), d);
                  });
        compare20("Row_subassign", lists + " i " + std::to_string(i), C0, random_vector(rng, J.count, 0.5), false,
                  [&](auto& C, const auto& mk, const auto& a, const descriptor& d) { subassign_row(C, mk, a, ur, i, J.tgb, d); },
                  [&](GrB_Matrix C, GrB_Vector mk, GrB_BinaryOp a, GrB_Descriptor d) {
                    return GxB_Row_subassign(C, mk, a, gur, GrB_Index(i), J.ptr(), J.count, d);
                  });
        compare20("Col_subassign", lists + " j " + std::to_string(j), C0, random_vector(rng, I.count, 0.5), false,
                  [&](auto& C, const auto& mk, const auto& a, const descriptor& d) { subassign_col(C, mk, a, uc, I.tgb, j, d); },
                  [&](GrB_Matrix C, GrB_Vector mk, GrB_BinaryOp a, GrB_Descriptor d) {
                    return GxB_Col_subassign(C, mk, a, guc, I.ptr(), I.count, GrB_Index(j), d);
                  });
        GrB_Vector_free(&gur), GrB_Vector_free(&guc);
      }
}
