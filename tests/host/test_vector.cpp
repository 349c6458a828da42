// Vector<T> and the vector operations on the host, by hand: the Vector API;
// every operation through all twenty mask/accum/replace combinations; operand
// order, transposes and the terminal exit of mxv/vxm; casts, errors and the
// strong guarantee. The randomized cases are in test_vector_random.cpp.
#include <cstdio>
#include <map>
#include <random>

#include "../failing_resource.hpp"
#include "../tgb_catch.hpp"
#include "../vector_oracle.hpp"

using namespace tgb;
using namespace vector_oracle;

namespace {

// The fixed case of the hand-checked table: n = 4, w = {0:10, 1:20, 3:40},
// t = {1:1, 2:2, 3:3}, mask m = {0:1, 1:0, 2:5} (index 1 stored as zero),
// accum plus. want[mode][accum][replace].
const vmap<int> w0 = {{0, 10}, {1, 20}, {3, 40}};
const vmap<int> hand_want[5][2][2] = {
    // no mask: admits all
    {{{{1, 1}, {2, 2}, {3, 3}}, {{1, 1}, {2, 2}, {3, 3}}},
     {{{0, 10}, {1, 21}, {2, 2}, {3, 43}}, {{0, 10}, {1, 21}, {2, 2}, {3, 43}}}},
    // value mask: admits 0, 2
    {{{{1, 20}, {2, 2}, {3, 40}}, {{2, 2}}}, {{{0, 10}, {1, 20}, {2, 2}, {3, 40}}, {{0, 10}, {2, 2}}}},
    // structure: admits 0, 1, 2
    {{{{1, 1}, {2, 2}, {3, 40}}, {{1, 1}, {2, 2}}},
     {{{0, 10}, {1, 21}, {2, 2}, {3, 40}}, {{0, 10}, {1, 21}, {2, 2}}}},
    // complement of the values: admits 1, 3
    {{{{0, 10}, {1, 1}, {3, 3}}, {{1, 1}, {3, 3}}}, {{{0, 10}, {1, 21}, {3, 43}}, {{1, 21}, {3, 43}}}},
    // complement of the structure: admits 3
    {{{{0, 10}, {1, 20}, {3, 3}}, {{3, 3}}}, {{{0, 10}, {1, 20}, {3, 43}}, {{3, 43}}}},
};
Vector<int> hand_mask() { return from_vmap<int>(4, {{0, 1}, {1, 0}, {2, 5}}); }

// Runs op(w, mask, accum, desc) through the twenty combinations against `table`.
template <class Op>
void hand_table(const char* name, const vmap<int> (&table)[5][2][2], Op op) {
  const Vector<int> M = hand_mask();
  for (int mode = 0; mode < 5; ++mode)
    for (int ac = 0; ac < 2; ++ac)
      for (int rep = 0; rep < 2; ++rep) {
        Vector<int> w = from_vmap(4, w0);
        const descriptor d = descriptor{}.with_replace(rep == 1);
        with_mask_mode(mode, M, [&](const auto& mask) {
          if (ac) op(w, mask, plus{}, d);
          else op(w, mask, no_accum, d);
        });
        INFO(name << ": mask " << mask_name(mode) << ", accum " << ac << ", replace " << rep << ": got "
                  << show(to_vmap(w)) << ", want " << show(table[mode][ac][rep]));
        REQUIRE(to_vmap(w) == table[mode][ac][rep]);
        REQUIRE(w.nvals() == static_cast<index_t>(table[mode][ac][rep].size()));
      }
}

// The message of the dimension_mismatch that f throws ("" if none).
template <class F>
std::string dimension_error(F f) {
  try {
    f();
  } catch (const dimension_mismatch& e) {
    return e.what();
  }
  return "";
}

template <class Op>
void hand_case(const char* name, Op op) {
  hand_table(name, hand_want, op);
}

}  // namespace

// ------------------------------------------------------------ the Vector API
TEST_CASE("Vector: build, nvals, resize, clear, tuples, equality", "[vector][api]") {
  Vector<double> v(5);
  CHECK(v.size() == 5);
  CHECK(v.nvals() == 0);
  v.set(1, 2.5);
  v.set(1, 3.5);  // overwrite: still one entry
  v.set(4, -1);
  CHECK(v.nvals() == 2);
  v.remove(1);
  v.remove(1);  // absent: nothing changes
  CHECK(v.nvals() == 1);
  CHECK_FALSE(v.get(1).has_value());
  CHECK(*v.get(4) == -1);
  CHECK_THROWS_AS(v.get(5), invalid_index);
  CHECK_THROWS_AS(v.set(-1, 0), invalid_index);

  Vector<int> b(6);
  b.build(std::vector<int>{4, 1, 4, 0}, std::vector<int>{7, 2, 5, 9}, plus{});
  CHECK(b.nvals() == 3);
  CHECK(to_vmap(b) == vmap<int>{{0, 9}, {1, 2}, {4, 12}});
  // Duplicates fold in input order: dup(earlier, later).
  Vector<int> f(3), s(3), d(3);
  f.build(std::vector<int>{2, 2, 2}, std::vector<int>{1, 2, 3}, first{});
  s.build(std::vector<int>{2, 2, 2}, std::vector<int>{1, 2, 3}, second{});
  d.build(std::vector<int>{2, 2}, std::vector<int>{10, 3}, minus{});
  CHECK(*f.get(2) == 1);
  CHECK(*s.get(2) == 3);
  CHECK(*d.get(2) == 7);
  Vector<int> e(3);
  CHECK_THROWS_AS(e.build(std::vector<int>{1, 1}, std::vector<int>{1, 2}), invalid_value);
  CHECK_THROWS_AS(e.build(std::vector<int>{1, 3}, std::vector<int>{1, 2}), index_out_of_bounds);
  CHECK_THROWS_AS(e.build(std::vector<int>{-1}, std::vector<int>{1}), index_out_of_bounds);
  CHECK_THROWS_AS(e.build(std::vector<int>{1}, std::vector<int>{1, 2}), invalid_value);
  CHECK(e.nvals() == 0);  // every failed build left it empty
  CHECK_THROWS_AS(b.build(std::vector<int>{0}, std::vector<int>{1}), output_not_empty);
  CHECK(to_vmap(b) == vmap<int>{{0, 9}, {1, 2}, {4, 12}});

  b.resize(3);
  CHECK(b.size() == 3);
  CHECK(to_vmap(b) == vmap<int>{{0, 9}, {1, 2}});
  b.resize(40);
  CHECK(b.nvals() == 2);
  b.set(39, 1);
  CHECK(b.nvals() == 3);
  CHECK_THROWS_AS(b.resize(-1), invalid_value);
  b.clear();
  CHECK(b.size() == 40);
  CHECK(b.nvals() == 0);

  const auto dense = Vector<float>::from_dense(std::vector<float>{1, 0, 2});
  CHECK(dense.nvals() == 3);  // a stored zero is an entry
  CHECK(*dense.get(1) == 0.0f);
  const auto [idx, val] = dense.extract_tuples();
  CHECK(idx == std::vector<index_t>{0, 1, 2});
  CHECK(val == std::vector<float>{1, 0, 2});
  CHECK(Vector<bool>::from_dense(std::vector<bool>{true, false}).nvals() == 2);

  Vector<float> copy = dense;
  CHECK(copy == dense);
  copy.set(1, 5);
  CHECK(copy != dense);
  copy.set(1, 0);
  CHECK(copy == dense);
  copy.remove(1);
  CHECK(copy != dense);
  CHECK(Vector<float>(3) != Vector<float>(4));
  CHECK(Vector<int>() == Vector<int>(0));
}

// --------------------------------------------- every operation by hand, twenty ways
TEST_CASE("mxv and vxm by hand: products, operand order, transposes", "[vector][mxv][vxm][hand]") {
  // A = [1 2 0; 0 0 3; 4 0 5], u = [1, 10, 100] (u(1) stored), v = [1, absent, 100]
  auto A = Matrix<int>::from_coo(3, 3, std::vector<int>{0, 0, 1, 2, 2}, std::vector<int>{0, 1, 2, 0, 2},
                                 std::vector<int>{1, 2, 3, 4, 5}, no_duplicates);
  auto u = Vector<int>::from_dense(std::vector<int>{1, 10, 100});
  auto v = from_vmap<int>(3, {{0, 1}, {2, 100}});
  Vector<int> w(3);
  mxv(w, no_mask, no_accum, plus_times, A, u);
  CHECK(to_vmap(w) == vmap<int>{{0, 21}, {1, 300}, {2, 504}});
  mxv(w, no_mask, no_accum, plus_times, A, v);
  CHECK(to_vmap(w) == vmap<int>{{0, 1}, {1, 300}, {2, 504}});
  mxv(w, no_mask, no_accum, plus_times, A, u, descriptor{}.with_transpose_a());  // A' u
  CHECK(to_vmap(w) == vmap<int>{{0, 401}, {1, 2}, {2, 530}});
  vxm(w, no_mask, no_accum, plus_times, u, A);  // u' A = A' u
  CHECK(to_vmap(w) == vmap<int>{{0, 401}, {1, 2}, {2, 530}});
  vxm(w, no_mask, no_accum, plus_times, u, A, descriptor{}.with_transpose_b());  // u' A' = A u
  CHECK(to_vmap(w) == vmap<int>{{0, 21}, {1, 300}, {2, 504}});
  // A row whose columns u does not store gets no entry.
  vxm(w, no_mask, no_accum, plus_times, from_vmap<int>(3, {{1, 1}}), A);
  CHECK(to_vmap(w) == vmap<int>{{2, 3}});

  // first/second tell the operands apart: mxv multiplies mul(A(i,k), u(k)),
  // vxm mul(u(k), A(k,j)), transposed or not.
  mxv(w, no_mask, no_accum, plus_first, A, u);  // row sums of A
  CHECK(to_vmap(w) == vmap<int>{{0, 3}, {1, 3}, {2, 9}});
  mxv(w, no_mask, no_accum, plus_second, A, u);
  CHECK(to_vmap(w) == vmap<int>{{0, 11}, {1, 100}, {2, 101}});
  mxv(w, no_mask, no_accum, plus_first, A, u, descriptor{}.with_transpose_a());  // column sums
  CHECK(to_vmap(w) == vmap<int>{{0, 5}, {1, 2}, {2, 8}});
  vxm(w, no_mask, no_accum, plus_second, u, A);  // column sums
  CHECK(to_vmap(w) == vmap<int>{{0, 5}, {1, 2}, {2, 8}});
  vxm(w, no_mask, no_accum, plus_first, u, A);
  CHECK(to_vmap(w) == vmap<int>{{0, 101}, {1, 1}, {2, 110}});
  vxm(w, no_mask, no_accum, plus_second, u, A, descriptor{}.with_transpose_b());  // row sums
  CHECK(to_vmap(w) == vmap<int>{{0, 3}, {1, 3}, {2, 9}});
  vxm(w, no_mask, no_accum, plus_first, u, A, descriptor{}.with_transpose_b());
  CHECK(to_vmap(w) == vmap<int>{{0, 11}, {1, 100}, {2, 101}});

  // A sum that reaches the monoid's terminal value stops there, in both
  // directions (a user monoid whose terminal is not absorbing shows it):
  // row 2 of A against u = 1s folds 4, then 4 + 5 would pass the terminal 4.
  const auto capped = make_semiring(make_monoid(plus{}, 0, 4), times{});
  const auto ones = Vector<int>::from_dense(std::vector<int>{1, 1, 1});
  mxv(w, no_mask, no_accum, capped, A, ones);
  CHECK(to_vmap(w) == vmap<int>{{0, 3}, {1, 3}, {2, 4}});
  vxm(w, no_mask, no_accum, capped, ones, A, descriptor{}.with_transpose_b());
  CHECK(to_vmap(w) == vmap<int>{{0, 3}, {1, 3}, {2, 4}});
  mxv(w, no_mask, no_accum, capped, A, ones, descriptor{}.with_transpose_a());  // column 0: 1 + 4 = 5, not terminal
  CHECK(to_vmap(w) == vmap<int>{{0, 5}, {1, 2}, {2, 8}});
  const auto capped3 = make_semiring(make_monoid(plus{}, 0, 3), times{});  // column 2: 3, then + 5 would pass it
  vxm(w, no_mask, no_accum, capped3, ones, A);
  CHECK(to_vmap(w) == vmap<int>{{0, 5}, {1, 2}, {2, 3}});
  mxv(w, no_mask, no_accum, capped3, A, ones, descriptor{}.with_transpose_a());
  CHECK(to_vmap(w) == vmap<int>{{0, 5}, {1, 2}, {2, 3}});

  // The same across tiles: the sum reaches 3 in the first tile, the second's 5 is not added.
  const auto wide = Matrix<int>::from_coo(1, 20, std::vector<int>{0, 0, 0}, std::vector<int>{0, 1, 17},
                                          std::vector<int>{1, 2, 5}, no_duplicates);
  Vector<int> w1(1);
  mxv(w1, no_mask, no_accum, capped3, wide, Vector<int>::from_dense(std::vector<int>(20, 1)));
  CHECK(*w1.get(0) == 3);
  vxm(w1, no_mask, no_accum, capped3, Vector<int>::from_dense(std::vector<int>(20, 1)), wide,
      descriptor{}.with_transpose_b());
  CHECK(*w1.get(0) == 3);

  // Non-square, and w may be u.
  auto R = Matrix<int>::from_coo(2, 3, std::vector<int>{0, 1}, std::vector<int>{2, 0}, std::vector<int>{2, 3},
                                 no_duplicates);
  Vector<int> w2(2);
  mxv(w2, no_mask, no_accum, min_plus, R, u);
  CHECK(to_vmap(w2) == vmap<int>{{0, 102}, {1, 4}});
  vxm(w2, no_mask, no_accum, min_plus, u, R, descriptor{}.with_transpose_b());
  CHECK(to_vmap(w2) == vmap<int>{{0, 102}, {1, 4}});
  Vector<int> x = u;
  mxv(x, no_mask, no_accum, plus_times, A, x);
  CHECK(to_vmap(x) == vmap<int>{{0, 21}, {1, 300}, {2, 504}});
}

TEST_CASE("Every vector operation through the twenty mask/accum/replace combinations", "[vector][hand][mask]") {
  // Each case is built so that its t is {1:1, 2:2, 3:3} on n = 4.
  const auto diag = Matrix<int>::from_coo(4, 4, std::vector<int>{1, 2, 3}, std::vector<int>{1, 2, 3},
                                          std::vector<int>{1, 2, 3}, no_duplicates);
  const auto ones = Vector<int>::from_dense(std::vector<int>{1, 1, 1, 1});
  hand_case("mxv", [&](auto& w, const auto& m, const auto& a, const descriptor& d) {
    mxv(w, m, a, plus_times, diag, ones, d);
  });
  hand_case("mxv transposed", [&](auto& w, const auto& m, const auto& a, const descriptor& d) {
    mxv(w, m, a, plus_times, diag, ones, d.with_transpose_a());
  });
  hand_case("vxm", [&](auto& w, const auto& m, const auto& a, const descriptor& d) {
    vxm(w, m, a, plus_times, ones, diag, d);
  });
  hand_case("vxm transposed", [&](auto& w, const auto& m, const auto& a, const descriptor& d) {
    vxm(w, m, a, min_times, ones, diag, d.with_transpose_b());
  });
  const auto u12 = from_vmap<int>(4, {{1, 1}, {2, 2}}), v3 = from_vmap<int>(4, {{3, 3}});
  hand_case("ewise_add", [&](auto& w, const auto& m, const auto& a, const descriptor& d) {
    ewise_add(w, m, a, plus{}, u12, v3, d);
  });
  const auto u_all = from_vmap<int>(4, {{0, 5}, {1, 1}, {2, 2}, {3, 3}}), v_ones = from_vmap<int>(4, {{1, 1}, {2, 1}, {3, 1}});
  hand_case("ewise_mult", [&](auto& w, const auto& m, const auto& a, const descriptor& d) {
    ewise_mult(w, m, a, times{}, u_all, v_ones, d);
  });
  // op(u, beta) where only u is stored, op(alpha, v) where only v is.
  const auto uu = from_vmap<int>(4, {{1, 1}, {3, 2}}), vv = from_vmap<int>(4, {{2, 0}, {3, 1}});
  hand_case("ewise_union", [&](auto& w, const auto& m, const auto& a, const descriptor& d) {
    ewise_union(w, m, a, plus{}, uu, 2, vv, 0, d);
  });
  const auto t = from_vmap<int>(4, {{1, 1}, {2, 2}, {3, 3}});
  hand_case("apply", [&](auto& w, const auto& m, const auto& a, const descriptor& d) {
    apply(w, m, a, identity{}, t, d);
  });
  const auto t_minus = from_vmap<int>(4, {{1, 9}, {2, 8}, {3, 7}});
  hand_case("apply bind1st", [&](auto& w, const auto& m, const auto& a, const descriptor& d) {
    apply(w, m, a, bind1st(minus{}, 10), t_minus, d);  // 10 - u
  });
  const auto t_plus = from_vmap<int>(4, {{1, 11}, {2, 12}, {3, 13}});
  hand_case("apply bind2nd", [&](auto& w, const auto& m, const auto& a, const descriptor& d) {
    apply(w, m, a, bind2nd(minus{}, 10), t_plus, d);  // u - 10
  });
  const auto any3 = from_vmap<int>(4, {{1, -7}, {2, 0}, {3, 9}});
  hand_case("apply_index rowindex", [&](auto& w, const auto& m, const auto& a, const descriptor& d) {
    apply_index(w, m, a, rowindex{}, any3, 0, d);
  });
  const auto sel = from_vmap<int>(4, {{0, -1}, {1, 1}, {2, 2}, {3, 3}});
  hand_case("select value_gt", [&](auto& w, const auto& m, const auto& a, const descriptor& d) {
    select(w, m, a, value_gt{}, sel, 0, d);
  });
  const auto sel2 = from_vmap<int>(4, {{0, 4}, {1, 1}, {2, 2}, {3, 3}});
  hand_case("select row_gt", [&](auto& w, const auto& m, const auto& a, const descriptor& d) {
    select(w, m, a, row_gt{}, sel2, 0, d);
  });
  // t(k) = u(I[k]) with I = 3, 2, 1, 0.
  const auto rev = from_vmap<int>(4, {{2, 1}, {1, 2}, {0, 3}});
  hand_case("extract", [&](auto& w, const auto& m, const auto& a, const descriptor& d) {
    extract(w, m, a, rev, {3, 2, 1, 0}, d);
  });
  hand_case("extract range", [&](auto& w, const auto& m, const auto& a, const descriptor& d) {
    extract(w, m, a, rev, index_list::range(3, -1, -1), d);
  });
  hand_case("assign all", [&](auto& w, const auto& m, const auto& a, const descriptor& d) {
    assign(w, m, a, t, all, d);  // with I = all, assign is the plain write-back of u
  });
}

TEST_CASE("assign: the mask is over w, positions outside I are kept", "[vector][assign][hand]") {
  // w = {0:10, 1:20, 3:40}; u = {0:1} of size 2 into I = {1, 3}: Z(1) = u(0),
  // and Z(3) loses its entry without accum (u(1) absent).
  const vmap<int> want[5][2][2] = {
      {{{{0, 10}, {1, 1}}, {{0, 10}, {1, 1}}}, {{{0, 10}, {1, 21}, {3, 40}}, {{0, 10}, {1, 21}, {3, 40}}}},
      {{{{0, 10}, {1, 20}, {3, 40}}, {{0, 10}}}, {{{0, 10}, {1, 20}, {3, 40}}, {{0, 10}}}},
      {{{{0, 10}, {1, 1}, {3, 40}}, {{0, 10}, {1, 1}}}, {{{0, 10}, {1, 21}, {3, 40}}, {{0, 10}, {1, 21}}}},
      {{{{0, 10}, {1, 1}}, {{1, 1}}}, {{{0, 10}, {1, 21}, {3, 40}}, {{1, 21}, {3, 40}}}},
      {{{{0, 10}, {1, 20}}, {}}, {{{0, 10}, {1, 20}, {3, 40}}, {{3, 40}}}},
  };
  const auto u = from_vmap<int>(2, {{0, 1}});
  hand_table("assign", want, [&](auto& w, const auto& m, const auto& a, const descriptor& d) {
    assign(w, m, a, u, {1, 3}, d);
  });
  // The scalar 7 at I = {1, 2} (a range): Z = {0:10, 1:7, 2:7, 3:40}, with accum {0:10, 1:27, 2:7, 3:40}.
  const vmap<int> want_s[5][2][2] = {
      {{{{0, 10}, {1, 7}, {2, 7}, {3, 40}}, {{0, 10}, {1, 7}, {2, 7}, {3, 40}}},
       {{{0, 10}, {1, 27}, {2, 7}, {3, 40}}, {{0, 10}, {1, 27}, {2, 7}, {3, 40}}}},
      {{{{0, 10}, {1, 20}, {2, 7}, {3, 40}}, {{0, 10}, {2, 7}}}, {{{0, 10}, {1, 20}, {2, 7}, {3, 40}}, {{0, 10}, {2, 7}}}},
      {{{{0, 10}, {1, 7}, {2, 7}, {3, 40}}, {{0, 10}, {1, 7}, {2, 7}}},
       {{{0, 10}, {1, 27}, {2, 7}, {3, 40}}, {{0, 10}, {1, 27}, {2, 7}}}},
      {{{{0, 10}, {1, 7}, {3, 40}}, {{1, 7}, {3, 40}}}, {{{0, 10}, {1, 27}, {3, 40}}, {{1, 27}, {3, 40}}}},
      {{{{0, 10}, {1, 20}, {3, 40}}, {{3, 40}}}, {{{0, 10}, {1, 20}, {3, 40}}, {{3, 40}}}},
  };
  hand_table("assign scalar", want_s, [&](auto& w, const auto& m, const auto& a, const descriptor& d) {
    assign(w, m, a, 7.9, index_list::range(1, 3), d);  // 7.9 cast to int: 7
  });
  hand_table("assign scalar, repeated indices", want_s, [&](auto& w, const auto& m, const auto& a, const descriptor& d) {
    assign(w, m, a, 7, {2, 1, 2}, d);  // a repeat writes the same value, once
  });

  Vector<int> w = from_vmap(4, w0);
  CHECK_THROWS_AS(assign(w, no_mask, no_accum, from_vmap<int>(2, {{0, 1}, {1, 2}}), {1, 1}), invalid_value);
  // A vector built from tuples held by vectors folds repeats by dup in input
  // order: I = [0, 2, 0, 2, 1] (stored at 0, 1, 2, 3, 5), X = [1, 2, 3, 4,
  // 5]: minus gives w(0) = 1 - 3, w(2) = 2 - 4, w(1) = 5; second the last.
  {
    Vector<std::int64_t> Iv(6);
    const std::vector<int> at = {0, 2, 0, 2, 0, 1};
    for (index_t k : {0, 1, 2, 3, 5}) Iv.set(k, std::int64_t(at[static_cast<std::size_t>(k)]));
    const auto X = from_vmap<int>(5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}});
    Vector<int> a(4), b(4);
    build(a, Iv, X, minus{});
    CHECK(to_vmap(a) == vmap<int>{{0, -2}, {1, 5}, {2, -2}});
    build(b, Iv, X, second{});
    CHECK(to_vmap(b) == vmap<int>{{0, 3}, {1, 5}, {2, 4}});
    Vector<int> c(4);
    CHECK_THROWS_AS(build(c, Iv, X), invalid_value);  // a repeat without dup
    CHECK_THROWS_AS(build(a, Iv, X, min{}), output_not_empty);
    Iv.set(4, 9);
    CHECK_THROWS_AS(build(c, Iv, from_vmap<int>(6, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}}), min{}),
                    index_out_of_bounds);
    CHECK_THROWS_AS(build(c, Iv, X, min{}), invalid_value);  // 6 indices, 5 values
    CHECK(c.nvals() == 0);
    // assign through a vector of indices: as through the list, repeats refused.
    Vector<std::int32_t> J(3);
    J.set(0, 3), J.set(2, 1);
    Vector<int> d = from_vmap(4, w0), e = from_vmap(4, w0);
    assign(d, no_mask, plus{}, u, J);
    assign(e, no_mask, plus{}, u, {3, 1});
    CHECK(d == e);
    J.set(1, 3);
    CHECK_THROWS_AS(assign(d, no_mask, plus{}, from_vmap<int>(3, {{0, 1}}), J), invalid_value);
    CHECK(d == e);
  }
  CHECK_THROWS_AS(assign(w, no_mask, no_accum, u, {1, 4}), index_out_of_bounds);
  CHECK_THROWS_AS(assign(w, no_mask, no_accum, 1, {-1}), index_out_of_bounds);
  CHECK_THROWS_AS(assign(w, no_mask, no_accum, 1, index_list::range(2, 5)), index_out_of_bounds);
  CHECK_THROWS_AS(assign(w, no_mask, no_accum, u, {1, 2, 3}), dimension_mismatch);
  CHECK_THROWS_AS(assign(w, no_mask, no_accum, u, all), dimension_mismatch);
  CHECK_THROWS_AS(assign(w, Vector<bool>(3), no_accum, 1, all), dimension_mismatch);
  CHECK(to_vmap(w) == w0);
  assign(w, no_mask, no_accum, 1, index_list::range(4, 4));  // empty range: nothing
  CHECK(to_vmap(w) == w0);
}

TEST_CASE("index_list::range counts without overflow", "[vector][hand][index_list]") {
  auto indices = [](const index_list& L) {
    std::vector<index_t> out;
    for (index_t k = 0; k < L.count(0); ++k) out.push_back(L[k]);
    return out;
  };
  constexpr index_t big = std::numeric_limits<index_t>::max(), small = std::numeric_limits<index_t>::min();
  // Ordinary ranges: positive and negative strides, empty ones.
  CHECK(indices(index_list::range(0, 5)) == std::vector<index_t>{0, 1, 2, 3, 4});
  CHECK(indices(index_list::range(1, 8, 3)) == std::vector<index_t>{1, 4, 7});
  CHECK(indices(index_list::range(1, 7, 3)) == std::vector<index_t>{1, 4});
  CHECK(indices(index_list::range(5, 0, -2)) == std::vector<index_t>{5, 3, 1});
  CHECK(indices(index_list::range(5, -1, -1)) == std::vector<index_t>{5, 4, 3, 2, 1, 0});
  CHECK(index_list::range(4, 4).count(10) == 0);
  CHECK(index_list::range(5, 2).count(10) == 0);
  CHECK(index_list::range(2, 5, -1).count(10) == 0);
  CHECK(index_list::range(3, 3, -7).count(10) == 0);
  // A stride past the end: one index, not zero (the old length formula overflowed).
  CHECK(indices(index_list::range(0, 10, big)) == std::vector<index_t>{0});
  CHECK(indices(index_list::range(10, 0, small)) == std::vector<index_t>{10});
  CHECK(indices(index_list::range(big - 1, big, big)) == std::vector<index_t>{big - 1});
  // Spans wider than index_t: a count that fits is exact, its indices too.
  CHECK(index_list::range(-5, big, 2).count(0) == big / 2 + 3);
  CHECK(index_list::range(-5, big, 2)[big / 2 + 2] == big - 2);
  CHECK(index_list::range(big, small, -big).count(0) == 3);
  CHECK(index_list::range(big, small, -big)[2] == -big);
  CHECK(index_list::range(small, big, big).count(0) == 3);
  // A count that does not fit in index_t is refused, not negative.
  CHECK_THROWS_AS(index_list::range(-5, big), invalid_value);
  CHECK_THROWS_AS(index_list::range(small, big), invalid_value);
  CHECK_THROWS_AS(index_list::range(big, small, -1), invalid_value);
  CHECK(index_list::range(0, big).count(0) == big);
  // Checked against a size, a wide range is out of bounds, not wrapped in.
  CHECK_NOTHROW(index_list::range(0, 10, big).check(1, "test"));
  CHECK_THROWS_AS(index_list::range(-5, big, 2).check(100, "test"), index_out_of_bounds);
}

TEST_CASE("extract, reduce, apply and select details", "[vector][hand]") {
  const auto u = from_vmap<int>(5, {{0, 4}, {2, -6}, {4, 5}});
  Vector<int> w(4);
  extract(w, no_mask, no_accum, u, {4, 4, 1, 0});  // repeats are fine in extract
  CHECK(to_vmap(w) == vmap<int>{{0, 5}, {1, 5}, {3, 4}});
  Vector<int> evens(3);
  extract(evens, no_mask, no_accum, u, index_list::range(0, 5, 2));
  CHECK(to_vmap(evens) == vmap<int>{{0, 4}, {1, -6}, {2, 5}});
  Vector<double> wd(5);
  extract(wd, no_mask, no_accum, u, all);
  CHECK(to_vmap(wd) == vmap<double>{{0, 4}, {2, -6}, {4, 5}});
  CHECK_THROWS_AS(extract(w, no_mask, no_accum, u, {0, 1, 2, 5}), index_out_of_bounds);
  CHECK_THROWS_AS(extract(w, no_mask, no_accum, u, all), dimension_mismatch);
  CHECK_THROWS_AS(extract(w, no_mask, no_accum, u, index_list::range(0, 3)), dimension_mismatch);
  CHECK_THROWS_AS(index_list::range(0, 3, 0), invalid_value);

  CHECK(reduce(plus_monoid{}, u) == 3);
  CHECK(reduce(min_monoid{}, u) == -6);
  CHECK(reduce(max_monoid{}, Vector<int>(3)) == std::numeric_limits<int>::lowest());  // identity when empty
  CHECK(reduce(times_monoid{}, Vector<double>(0)) == 1.0);
  double s = 100;
  reduce(s, plus{}, plus_monoid{}, u);
  CHECK(s == 103);
  reduce(s, no_accum, max_monoid{}, u);
  CHECK(s == 5);
  std::int64_t big = 0;
  reduce(big, no_accum, plus_monoid{}, Vector<bool>::from_dense(std::vector<bool>{true, true, true}));
  CHECK(big == 3);  // fold in the scalar's type: bools cast to int64, not lor
  // A long vector: the chunks combine in order (any keeps the first stored).
  Vector<int> longv(300000);
  longv.set(70000, 9);
  longv.set(200000, 3);
  longv.set(299999, 4);
  CHECK(reduce(any_monoid{}, longv) == 9);
  CHECK(reduce(plus_monoid{}, longv) == 16);
  CHECK(reduce(lor_monoid{}, Vector<bool>::from_dense(std::vector<bool>{false, true, false})) == true);

  Vector<int> a(5);
  apply(a, no_mask, no_accum, ainv{}, u);
  CHECK(to_vmap(a) == vmap<int>{{0, -4}, {2, 6}, {4, -5}});
  apply(a, no_mask, no_accum, abs_op{}, a);  // in place
  CHECK(to_vmap(a) == vmap<int>{{0, 4}, {2, 6}, {4, 5}});
  Vector<std::int64_t> idx(5);
  apply_index(idx, no_mask, no_accum, rowindex{}, u, 10);
  CHECK(to_vmap(idx) == vmap<std::int64_t>{{0, 10}, {2, 12}, {4, 14}});
  Vector<bool> gt(5);
  apply_index(gt, no_mask, no_accum, value_gt{}, u, 4);
  CHECK(to_vmap(gt) == vmap<bool>{{0, false}, {2, false}, {4, true}});
  select(a, no_mask, no_accum, row_le{}, u, 2);
  CHECK(to_vmap(a) == vmap<int>{{0, 4}, {2, -6}});
  select(a, no_mask, no_accum, value_lt{}, u, 0);
  CHECK(to_vmap(a) == vmap<int>{{2, -6}});
  select(a, no_mask, no_accum, value_ne{}, u, 4.5);  // the thunk is cast to u's type: 4
  CHECK(to_vmap(a) == vmap<int>{{2, -6}, {4, 5}});
  select(a, no_mask, no_accum, tril{}, u, -2);  // j = 0 <= i - 2
  CHECK(to_vmap(a) == vmap<int>{{2, -6}, {4, 5}});
}

TEST_CASE("extract with a vector of indices: its stored values, in index order", "[vector][hand][index_list]") {
  const auto u = from_vmap<int>(5, {{0, 10}, {1, 20}, {3, 40}});
  // I stores 3 at 0, 0 at 2 and 3 at 4: the list is 3, 0, 3 (repeats are fine).
  const auto I = from_vmap<std::int32_t>(5, {{0, 3}, {2, 0}, {4, 3}});
  Vector<int> w(3);
  extract(w, no_mask, no_accum, u, I);
  CHECK(to_vmap(w) == vmap<int>{{0, 40}, {1, 10}, {2, 40}});
  // With an accumulator and a mask over w, as for any extract.
  Vector<int> v = from_vmap<int>(3, {{1, 1}, {2, 2}});
  const auto mask = from_vmap<bool>(3, {{0, true}, {1, true}});
  extract(v, mask, plus{}, u, from_vmap<std::int64_t>(3, {{0, 1}, {1, 0}, {2, 2}}));
  CHECK(to_vmap(v) == vmap<int>{{0, 20}, {1, 11}, {2, 2}});
  // Labels that index themselves: pointer jumping, label = label(label).
  const auto label = from_vmap<std::int64_t>(4, {{0, 0}, {1, 0}, {2, 1}, {3, 2}});
  Vector<std::int64_t> jumped(4);
  extract(jumped, no_mask, no_accum, label, label);
  CHECK(to_vmap(jumped) == vmap<std::int64_t>{{0, 0}, {1, 0}, {2, 0}, {3, 1}});
  // Errors leave w unchanged: an index outside u, a count that is not w's size.
  const auto before = to_vmap(w);
  CHECK_THROWS_AS(extract(w, no_mask, no_accum, u, from_vmap<int>(3, {{0, 1}, {1, 5}, {2, 0}})), index_out_of_bounds);
  CHECK_THROWS_AS(extract(w, no_mask, no_accum, u, from_vmap<int>(3, {{0, 1}, {1, -1}, {2, 0}})), index_out_of_bounds);
  CHECK_THROWS_AS(extract(w, no_mask, no_accum, u, from_vmap<int>(5, {{0, 1}, {1, 2}})), dimension_mismatch);
  CHECK(to_vmap(w) == before);
}

TEST_CASE("Vector operations cast through the operator's domain", "[vector][cast]") {
  // eq compares the doubles 2.0 and 7.0 (false), not their bool casts (true == true).
  const auto u = Vector<double>::from_dense(std::vector<double>{2.0, 0.5, 3.0});
  const auto v = Vector<double>::from_dense(std::vector<double>{7.0, 0.25, 3.0});
  Vector<bool> b(3);
  ewise_mult(b, no_mask, no_accum, eq{}, u, v);
  CHECK(to_vmap(b) == vmap<bool>{{0, false}, {1, false}, {2, true}});
  ewise_add(b, no_mask, no_accum, lt{}, u, v);
  CHECK(to_vmap(b) == vmap<bool>{{0, true}, {1, false}, {2, false}});
  ewise_union(b, no_mask, no_accum, gt{}, from_vmap<double>(3, {{0, 0.5}}), 0.0, from_vmap<double>(3, {{1, 0.5}}), 0.25);
  CHECK(to_vmap(b) == vmap<bool>{{0, true}, {1, false}});  // 0.5 > 0.25; 0.0 > 0.5
  // int and double operands compute in double: 3 / 2.0 = 1.5, cast to int 1.
  Vector<int> q(3);
  ewise_mult(q, no_mask, no_accum, tgb::div{}, Vector<int>::from_dense(std::vector<int>{3, 3, 3}), u);
  CHECK(to_vmap(q) == vmap<int>{{0, 1}, {1, 6}, {2, 1}});
  // A lone operand goes through the domain: 0.5 cast to int is 0 (the
  // intersection is empty here, so ewise_add keeps each operand as it is).
  ewise_add(q, no_mask, no_accum, plus{}, from_vmap<double>(3, {{0, 0.5}}), from_vmap<int>(3, {{2, 4}}));
  CHECK(to_vmap(q) == vmap<int>{{0, 0}, {2, 4}});
  // Saturating casts: 1e20 into int32 is INT32_MAX, NaN is 0.
  Vector<std::int32_t> sat(2);
  apply(sat, no_mask, no_accum, identity{}, Vector<double>::from_dense(std::vector<double>{1e20, std::nan("")}));
  CHECK(to_vmap(sat) == vmap<std::int32_t>{{0, std::numeric_limits<std::int32_t>::max()}, {1, 0}});
  // mxv/vxm cast A and u to w's type before the multiply, as mxm does.
  auto A = Matrix<double>::from_coo(1, 2, std::vector<int>{0, 0}, std::vector<int>{0, 1}, std::vector<double>{0.5, 2.5},
                                    no_duplicates);
  Vector<int> w(1);
  mxv(w, no_mask, no_accum, plus_times, A, Vector<double>::from_dense(std::vector<double>{4.0, 2.0}));
  CHECK(*w.get(0) == 4);  // 0*4 + 2*2
  Vector<double> wd(1);
  mxv(wd, no_mask, no_accum, plus_times, A, Vector<int>::from_dense(std::vector<int>{4, 2}));
  CHECK(*wd.get(0) == 7.0);
}

TEST_CASE("Vector operations: errors name the sizes and leave w unchanged", "[vector][errors]") {
  const auto A = Matrix<int>::from_coo(3, 5, std::vector<int>{0}, std::vector<int>{4}, std::vector<int>{1}, no_duplicates);
  const auto w_before = from_vmap<int>(3, {{1, 7}});
  Vector<int> w = w_before;
  const Vector<int> u5(5), u3(3), u4(4);
  const std::string e1 = dimension_error([&] { mxv(w, no_mask, no_accum, plus_times, A, u3); });
  CHECK(e1.find("w has size 3") != std::string::npos);
  CHECK(e1.find("3 x 5") != std::string::npos);
  CHECK(e1.find("u has size 3") != std::string::npos);
  CHECK_THROWS_AS(mxv(w, no_mask, no_accum, plus_times, A, u5, descriptor{}.with_transpose_a()), dimension_mismatch);
  const std::string e2 = dimension_error([&] { mxv(w, Vector<bool>(4), no_accum, plus_times, A, u5); });
  CHECK(e2.find("mask has size 4, w has size 3") != std::string::npos);
  CHECK_THROWS_AS(vxm(w, no_mask, no_accum, plus_times, u5, A), dimension_mismatch);
  CHECK_THROWS_AS(vxm(w, no_mask, no_accum, plus_times, u3, A, descriptor{}.with_transpose_b()), dimension_mismatch);
  CHECK_THROWS_AS(vxm(w, structure(u4), no_accum, plus_times, u5, A, descriptor{}.with_transpose_b()),
                  dimension_mismatch);
  CHECK(dimension_error([&] { ewise_add(w, no_mask, no_accum, plus{}, u3, u4); }).find("w has size 3 but v has size 4") !=
        std::string::npos);
  CHECK_THROWS_AS(ewise_mult(w, no_mask, no_accum, plus{}, u4, u3), dimension_mismatch);
  CHECK_THROWS_AS(ewise_union(w, no_mask, no_accum, plus{}, u3, 0, u4, 0), dimension_mismatch);
  CHECK_THROWS_AS(ewise_add(w, complement(u4), no_accum, plus{}, u3, u3), dimension_mismatch);
  CHECK_THROWS_AS(apply(w, no_mask, no_accum, ainv{}, u4), dimension_mismatch);
  CHECK_THROWS_AS(apply_index(w, no_mask, no_accum, rowindex{}, u4, 0), dimension_mismatch);
  CHECK_THROWS_AS(select(w, no_mask, no_accum, value_gt{}, u4, 0), dimension_mismatch);
  CHECK_THROWS_AS(select(w, u4, no_accum, value_gt{}, u3, 0), dimension_mismatch);
  CHECK(w == w_before);
  // Without a GPU no matrix can move there; where one can, the vector
  // operations refuse a device matrix (tests/cuda covers that path).
  if (cuda_device_count() == 0) CHECK_THROWS_AS(Matrix<int>(A).to(backend::cuda), not_implemented);
}

TEST_CASE("Vector operations leave w unchanged when an allocation fails", "[vector][oom]") {
  std::mt19937_64 rng(5);
  const auto A = oracle::random_matrix<double>(rng, 300, 300, 0.05);
  Vector<double> u(300), w0(300);
  Vector<bool> m(300);
  for (index_t i = 0; i < 300; i += 3) u.set(i, double(i % 7));
  for (index_t i = 0; i < 300; i += 2) w0.set(i, 1.0);
  for (index_t i = 0; i < 300; i += 5) m.set(i, true);
  auto sweep = [&](const char* name, auto op) {
    for (long long k = 0;; ++k) {
      oracle::failing_resource r(k);
      Vector<double> w = w0;
      const bool ok = oracle::run_with(r, [&] { op(w); });
      INFO(name << ": allocation " << k);
      if (ok) {
        CHECK(k > 0);  // it did allocate, and each point was failed once
        return;
      }
      REQUIRE(w == w0);
    }
  };
  sweep("mxv", [&](Vector<double>& w) { mxv(w, m, plus{}, plus_times, A, u); });
  sweep("vxm", [&](Vector<double>& w) { vxm(w, complement(m), no_accum, min_plus, u, A, descriptor{}.with_replace()); });
  sweep("ewise_add", [&](Vector<double>& w) { ewise_add(w, m, plus{}, plus{}, u, w); });
  std::vector<index_t> every(300);
  for (index_t i = 0; i < 300; ++i) every[i] = i;
  sweep("assign", [&](Vector<double>& w) { assign(w, m, no_accum, u, index_list(every)); });
  // Over all indices assign works in place and allocates nothing: it
  // succeeds with every allocation failing, with the listed form's answer.
  {
    Vector<double> want = w0, got = w0;
    assign(want, m, no_accum, u, index_list(every));
    oracle::failing_resource r(0);
    CHECK(oracle::run_with(r, [&] { assign(got, m, no_accum, u, all); }));
    CHECK(got == want);
  }
  sweep("assign scalar", [&](Vector<double>& w) { assign(w, m, no_accum, 2.0, {0, 5, 5}); });
  // Full operands with predefined operators are computed into w in place:
  // with every allocation failing they succeed, with the values by hand.
  {
    Vector<double> full(300), x0(300);
    for (index_t i = 0; i < 300; ++i) {
      full.set(i, double(i % 5) + 0.5);
      x0.set(i, double(i % 3));
    }
    auto in_place = [&](const char* name, Vector<double> w, auto op, auto want_at) {
      oracle::failing_resource r(0);
      INFO(name);
      REQUIRE(oracle::run_with(r, [&] { op(w); }));
      REQUIRE(w.nvals() == 300);
      for (index_t i = 0; i < 300; ++i) REQUIRE(w.get(i) == std::optional<double>(want_at(i)));
    };
    in_place("apply with an accumulator, w full", x0,
             [&](Vector<double>& w) { apply(w, no_mask, plus{}, bind2nd(times{}, 0.5), full); },
             [](index_t i) { return double(i % 3) + 0.5 * (double(i % 5) + 0.5); });
    in_place("ewise_mult into a sparse w", w0,
             [&](Vector<double>& w) { ewise_mult(w, no_mask, no_accum, tgb::div{}, x0, full); },
             [](index_t i) { return double(i % 3) / (double(i % 5) + 0.5); });
    in_place("ewise_add with an accumulator, w full", x0,
             [&](Vector<double>& w) { ewise_add(w, no_mask, plus{}, times{}, full, full); },
             [](index_t i) { return double(i % 3) + (double(i % 5) + 0.5) * (double(i % 5) + 0.5); });
    in_place("assign of a scalar over all", w0, [&](Vector<double>& w) { assign(w, no_mask, no_accum, 3.0, all); },
             [](index_t) { return 3.0; });
  }
  sweep("extract", [&](Vector<double>& w) { extract(w, no_mask, no_accum, u, all); });
}

TEST_CASE("Full vectors in place: past the parallel bound, w its own operand and mask", "[vector][hand]") {
  // n past kParallelVector (2^16): the in-place loops run in parallel, each
  // position read before it is written, whatever the threads.
  const index_t n = 70001;
  Vector<double> x(n);
  for (index_t i = 0; i < n; ++i) x.set(i, double(i % 7));
  apply(x, no_mask, plus{}, bind2nd(times{}, 2.0), x);  // x += 2 x
  for (index_t i = 0; i < n; i += 997) REQUIRE(x.get(i) == std::optional<double>(3.0 * double(i % 7)));
  REQUIRE(x.nvals() == n);
  ewise_mult(x, x, no_accum, times{}, x, x, descriptor{}.with_replace());  // x = x .* x where x is nonzero
  index_t zeros = 0;
  for (index_t i = 0; i < n; ++i) {
    const double want = 9.0 * double(i % 7) * double(i % 7);
    if (i % 7 == 0) {
      ++zeros;
      REQUIRE(!x.get(i));  // refused by the value mask and removed by replace
    } else {
      REQUIRE(x.get(i) == std::optional<double>(want));
    }
  }
  REQUIRE(x.nvals() == n - zeros);
}
