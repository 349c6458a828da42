// Scalar<T> (tgb/scalar.hpp), GraphBLAS's GrB_Scalar, and the operations that
// take or produce one, on the host, by hand: the Scalar API and its casts;
// every empty/non-empty x accumulator/none combination of reduce, assign and
// subassign (an empty scalar assigned acts as an empty matrix); apply, select
// and extract_element; errors (an empty scalar where a value is needed,
// shapes, indices) and allocation failures, each leaving the output
// unchanged. The randomized cases are in test_scalar_random.cpp.
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <string>

#include "../failing_resource.hpp"
#include "../index_cases.hpp"
#include "../tgb_catch.hpp"
#include "../vector_oracle.hpp"

using namespace tgb;
using oracle::dmap;
using vector_oracle::vmap;

namespace {

template <class T>
std::optional<T> opt(const Scalar<T>& s) {
  return s.empty() ? std::nullopt : std::optional<T>(s.get());
}
template <class T>
Scalar<T> scalar_of(const std::optional<T>& x) {
  return x ? Scalar<T>(*x) : Scalar<T>();
}
using index_cases::stored;

}  // namespace

// --------------------------------------------------------------------- API
TEST_CASE("Scalar holds zero or one value", "[scalar][api]") {
  Scalar<int> s;
  CHECK(s.empty());
  CHECK(s.nvals() == 0);
  CHECK(s.value_or(-1) == -1);
  CHECK_THROWS_AS(s.get(), no_value);
  try {
    s.get();
  } catch (const error& e) {
    CHECK(e.code() == info::no_value);
    CHECK(e.info_code() == 1);  // GrB_NO_VALUE
  }
  s.set(7);
  CHECK(!s.empty());
  CHECK(s.nvals() == 1);
  CHECK(s.get() == 7);
  CHECK(s.value_or(-1) == 7);
  Scalar<int> copy = s;
  s.clear();
  CHECK(s.empty());
  CHECK(copy.get() == 7);
  CHECK(Scalar<double>(2.5).get() == 2.5);
  // Casts as GraphBLAS's: floating point to an integer truncates, saturates
  // and takes NaN to 0; anything to bool is != 0.
  CHECK(Scalar<int>(-2.7).get() == -2);
  CHECK(Scalar<int>(1e30).get() == std::numeric_limits<int>::max());
  CHECK(Scalar<std::int64_t>(-1e30).get() == std::numeric_limits<std::int64_t>::lowest());
  CHECK(Scalar<int>(std::nan("")).get() == 0);
  CHECK(Scalar<bool>(0.25).get() == true);
  CHECK(Scalar<bool>(0).get() == false);
  CHECK(Scalar<int>(Scalar<double>(1e30)).get() == std::numeric_limits<int>::max());
  CHECK(Scalar<float>(Scalar<int>(3)).get() == 3.0f);
  CHECK(Scalar<int>(Scalar<double>()).empty());
  Scalar<std::int64_t> w;
  w.set(-5.5);
  CHECK(w.get() == -5);
  w.set(std::numeric_limits<double>::infinity());
  CHECK(w.get() == std::numeric_limits<std::int64_t>::max());
}

// ------------------------------------------------------------------ by hand
TEST_CASE("reduce to a Scalar: empty and non-empty inputs, with and without accum", "[scalar][reduce][hand]") {
  const auto A = oracle::from_map<int>(3, 4, {{{0, 1}, 5}, {{2, 3}, 7}, {{1, 0}, -2}});  // sum 10, max 7
  const Matrix<int> Z(3, 4);
  const auto u = vector_oracle::from_vmap<int>(5, {{1, 5}, {4, 7}, {2, -2}});
  const Vector<int> z(5);
  for (int form = 0; form < 2; ++form) {
    const Matrix<int> a = stored(A, form), e = stored(Z, form);
    INFO("form " << form);
    // input non-empty: s = t (no accum, or s empty), s = accum(s, t) otherwise.
    Scalar<int> s;
    reduce(s, no_accum, plus_monoid{}, a);
    CHECK(s.get() == 10);
    s.clear();
    reduce(s, minus{}, plus_monoid{}, a);
    CHECK(s.get() == 10);  // an empty s takes the fold alone
    reduce(s, minus{}, plus_monoid{}, a);
    CHECK(s.get() == 0);
    s.set(100);
    reduce(s, no_accum, plus_monoid{}, a);
    CHECK(s.get() == 10);
    // input empty: no value; s emptied without accum, unchanged with one.
    reduce(s, minus{}, plus_monoid{}, e);
    CHECK(s.get() == 10);
    reduce(s, no_accum, plus_monoid{}, e);
    CHECK(s.empty());
    reduce(s, minus{}, plus_monoid{}, e);
    CHECK(s.empty());
    reduce(s, no_accum, plus_monoid{}, e);
    CHECK(s.empty());
    // max over an empty input: empty, not the identity lowest() that the
    // plain-scalar reduce gives.
    Scalar<int> m(3);
    reduce(m, no_accum, max_monoid{}, e);
    CHECK(m.empty());
    CHECK(reduce(max_monoid{}, e) == std::numeric_limits<int>::lowest());
    reduce(m, no_accum, max_monoid{}, a);
    CHECK(m.get() == 7);
    // Folded in the scalar's type: ints into a double.
    Scalar<double> d(0.5);
    reduce(d, plus{}, plus_monoid{}, a);
    CHECK(d.get() == 10.5);
  }
  // Vectors, the same table.
  Scalar<int> s;
  reduce(s, no_accum, plus_monoid{}, u);
  CHECK(s.get() == 10);
  reduce(s, times{}, plus_monoid{}, u);
  CHECK(s.get() == 100);
  reduce(s, times{}, plus_monoid{}, z);
  CHECK(s.get() == 100);
  reduce(s, no_accum, plus_monoid{}, z);
  CHECK(s.empty());
  reduce(s, times{}, plus_monoid{}, z);
  CHECK(s.empty());
  reduce(s, times{}, max_monoid{}, u);
  CHECK(s.get() == 7);
  Scalar<bool> b;
  reduce(b, no_accum, lor_monoid{}, u);
  CHECK(b.get() == true);
}

TEST_CASE("reduce with a binary operator: into a Scalar and into a vector", "[scalar][reduce][hand]") {
  // GrB_*_reduce_BinaryOp_Scalar and GrB_Matrix_reduce_BinaryOp: an operator
  // that is a predefined monoid's folds as that monoid.
  const auto A = oracle::from_map<int>(3, 4, {{{0, 1}, 5}, {{0, 3}, -4}, {{2, 3}, 7}, {{2, 0}, 9}, {{1, 0}, -2}});
  const Matrix<int> Z(3, 4);
  const auto u = vector_oracle::from_vmap<int>(5, {{1, 5}, {4, 7}, {2, -2}});
  for (int form = 0; form < 2; ++form) {
    INFO("form " << form);
    const Matrix<int> a = stored(A, form), e = stored(Z, form);
    Scalar<int> s;
    reduce(s, no_accum, max{}, a);
    CHECK(s.get() == 9);
    reduce(s, plus{}, min{}, a);  // 9 + (-4)
    CHECK(s.get() == 5);
    reduce(s, no_accum, plus{}, a);
    CHECK(s.get() == 15);
    reduce(s, no_accum, max{}, e);  // nothing to fold: empty, no identity needed
    CHECK(s.empty());
    Scalar<bool> b;
    reduce(b, no_accum, land{}, a);  // every entry non-zero
    CHECK(b.get() == true);
    // Rows: row 0 {5, -4}, row 1 {-2}, row 2 {9, 7}; columns with transpose_a.
    Vector<int> w(3);
    reduce(w, no_mask, no_accum, min{}, a);
    CHECK(w.nvals() == 3);
    CHECK(w.get(0) == -4);
    CHECK(w.get(1) == -2);
    CHECK(w.get(2) == 7);
    Vector<int> c(4);
    descriptor d;
    d.transpose_a = true;
    reduce(c, no_mask, no_accum, times{}, a, d);  // columns 0 {-2, 9}, 1 {5}, 2 {}, 3 {-4, 7}
    CHECK(c.nvals() == 3);
    CHECK(c.get(0) == -18);
    CHECK(c.get(1) == 5);
    CHECK_FALSE(c.get(2).has_value());
    CHECK(c.get(3) == -28);
  }
  Scalar<int> s;
  reduce(s, no_accum, min{}, u);
  CHECK(s.get() == -2);
  reduce(s, no_accum, times{}, u);
  CHECK(s.get() == -70);
}

TEST_CASE("assign a Scalar: an empty one deletes the region's entries", "[scalar][assign][hand]") {
  // C (3 x 3): c(i,j) = 10 i + j + 1 everywhere; I = {0, 1}, J = {1, 2}; M admits (0,1), (1,1), (2,2).
  dmap<int> c0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) c0[{i, j}] = 10 * i + j + 1;
  const auto M = oracle::from_map<bool>(3, 3, {{{0, 1}, true}, {{1, 1}, true}, {{2, 2}, true}});
  const auto Ms = oracle::from_map<bool>(2, 2, {{{0, 0}, true}, {{1, 1}, true}});  // admits (0,1) and (1,2) of C
  auto with = [&](std::initializer_list<std::pair<const oracle::key, int>> set, std::initializer_list<oracle::key> del,
                  const dmap<int>& from) {
    dmap<int> m = from;
    for (const auto& [k, x] : set) m[k] = x;
    for (const auto& k : del) m.erase(k);
    return m;
  };
  const Scalar<int> empty, five(5);
  const descriptor R = descriptor{}.with_replace();
  for (int form = 0; form < 2; ++form) {
    INFO("form " << form);
    auto fresh = [&] { return stored(oracle::from_map<int>(3, 3, c0), form); };
    Matrix<int> C = fresh();
    assign(C, no_mask, no_accum, five, {0, 1}, {1, 2});
    CHECK(oracle::to_map(C) == with({{{0, 1}, 5}, {{0, 2}, 5}, {{1, 1}, 5}, {{1, 2}, 5}}, {}, c0));
    C = fresh();
    assign(C, no_mask, minus{}, five, {0, 1}, {1, 2});
    CHECK(oracle::to_map(C) == with({{{0, 1}, -3}, {{0, 2}, -2}, {{1, 1}, 7}, {{1, 2}, 8}}, {}, c0));
    C = fresh();
    assign(C, no_mask, no_accum, empty, {0, 1}, {1, 2});
    CHECK(oracle::to_map(C) == with({}, {{0, 1}, {0, 2}, {1, 1}, {1, 2}}, c0));
    CHECK(C.form() == (form ? storage_form::rows : storage_form::tiles));
    C = fresh();
    assign(C, no_mask, minus{}, empty, {0, 1}, {1, 2});
    CHECK(oracle::to_map(C) == c0);
    // Masked: only (0,1) and (1,1) of the region are admitted; replace also
    // clears C outside the mask (everything but (2,2) stays only without it).
    C = fresh();
    assign(C, M, no_accum, empty, {0, 1}, {1, 2});
    CHECK(oracle::to_map(C) == with({}, {{0, 1}, {1, 1}}, c0));
    C = fresh();
    assign(C, M, no_accum, empty, {0, 1}, {1, 2}, R);
    CHECK(oracle::to_map(C) == dmap<int>{{{2, 2}, 23}});
    C = fresh();
    assign(C, M, minus{}, empty, {0, 1}, {1, 2}, R);
    CHECK(oracle::to_map(C) == dmap<int>{{{0, 1}, 2}, {{1, 1}, 12}, {{2, 2}, 23}});
    C = fresh();
    assign(C, complement(M), no_accum, empty, all, {1}, R);  // admits (2,1) of the column, deletes it
    CHECK(oracle::to_map(C) == with({}, {{0, 1}, {1, 1}, {2, 1}, {2, 2}}, c0));
    // subassign: the mask is over C(I,J) alone.
    C = fresh();
    subassign(C, Ms, no_accum, empty, {0, 1}, {1, 2});
    CHECK(oracle::to_map(C) == with({}, {{0, 1}, {1, 2}}, c0));
    C = fresh();
    subassign(C, complement(Ms), no_accum, five, {0, 1}, {1, 2}, R);
    CHECK(oracle::to_map(C) == with({{{0, 2}, 5}, {{1, 1}, 5}}, {{0, 1}, {1, 2}}, c0));
    C = fresh();
    subassign(C, Ms, minus{}, empty, {0, 1}, {1, 2}, R);  // replace clears the refused positions only
    CHECK(oracle::to_map(C) == with({}, {{0, 2}, {1, 1}}, c0));
    // Repeats are harmless for a scalar, empty or not; the value is cast to C's type.
    C = fresh();
    assign(C, no_mask, no_accum, empty, {2, 2, 0}, {0, 0});
    CHECK(oracle::to_map(C) == with({}, {{0, 0}, {2, 0}}, c0));
    assign(C, no_mask, no_accum, Scalar<double>(-1.9), {2, 2}, {0});
    CHECK(oracle::to_map(C) == with({{{2, 0}, -1}}, {{0, 0}}, c0));
  }
  // Vectors: w = {0:10, 1:20, 3:40}, m admits 0, 1 (m(1) stored), 2 not stored.
  const vmap<int> w0 = {{0, 10}, {1, 20}, {3, 40}};
  const auto m = vector_oracle::from_vmap<int>(4, {{0, 1}, {1, 1}});
  Vector<int> w = vector_oracle::from_vmap(4, w0);
  assign(w, no_mask, no_accum, Scalar<int>(7), {1, 2});
  CHECK(vector_oracle::to_vmap(w) == vmap<int>{{0, 10}, {1, 7}, {2, 7}, {3, 40}});
  w = vector_oracle::from_vmap(4, w0);
  assign(w, no_mask, plus{}, Scalar<int>(7), {1, 2});
  CHECK(vector_oracle::to_vmap(w) == vmap<int>{{0, 10}, {1, 27}, {2, 7}, {3, 40}});
  w = vector_oracle::from_vmap(4, w0);
  assign(w, no_mask, no_accum, empty, {1, 3, 1});
  CHECK(vector_oracle::to_vmap(w) == vmap<int>{{0, 10}});
  CHECK(w.nvals() == 1);
  w = vector_oracle::from_vmap(4, w0);
  assign(w, no_mask, plus{}, empty, all);
  CHECK(vector_oracle::to_vmap(w) == w0);
  w = vector_oracle::from_vmap(4, w0);
  assign(w, m, no_accum, empty, all);
  CHECK(vector_oracle::to_vmap(w) == vmap<int>{{3, 40}});
  w = vector_oracle::from_vmap(4, w0);
  assign(w, complement(m), no_accum, empty, {0, 3}, descriptor{}.with_replace());
  CHECK(vector_oracle::to_vmap(w) == vmap<int>{});
  w = vector_oracle::from_vmap(4, w0);
  assign(w, complement(m), plus{}, empty, {0, 3}, descriptor{}.with_replace());
  CHECK(vector_oracle::to_vmap(w) == vmap<int>{{3, 40}});
}

TEST_CASE("apply, select and extract_element with a Scalar", "[scalar][apply][select][hand]") {
  const auto A = oracle::from_map<int>(2, 3, {{{0, 0}, 4}, {{0, 2}, -1}, {{1, 1}, 9}});
  const auto u = vector_oracle::from_vmap<int>(4, {{0, 4}, {2, -1}, {3, 9}});
  Matrix<int> C(2, 3);
  apply(C, no_mask, no_accum, bind1st(minus{}, Scalar<int>(10)), A);
  CHECK(oracle::to_map(C) == dmap<int>{{{0, 0}, 6}, {{0, 2}, 11}, {{1, 1}, 1}});
  apply(C, no_mask, plus{}, bind2nd(minus{}, Scalar<double>(1.0)), A);  // cast to A's type, as a plain bound value
  CHECK(oracle::to_map(C) == dmap<int>{{{0, 0}, 9}, {{0, 2}, 9}, {{1, 1}, 9}});
  select(C, no_mask, no_accum, value_gt{}, A, Scalar<int>(0));
  CHECK(oracle::to_map(C) == dmap<int>{{{0, 0}, 4}, {{1, 1}, 9}});
  select(C, no_mask, no_accum, tril{}, A, Scalar<std::int64_t>(-1));
  CHECK(C.nvals() == 0);
  select(C, no_mask, no_accum, tril{}, A, Scalar<double>(0.0));
  CHECK(oracle::to_map(C) == dmap<int>{{{0, 0}, 4}, {{1, 1}, 9}});
  Vector<int> w(4);
  apply(w, no_mask, no_accum, bind2nd(times{}, Scalar<int>(3)), u);
  CHECK(vector_oracle::to_vmap(w) == vmap<int>{{0, 12}, {2, -3}, {3, 27}});
  select(w, no_mask, no_accum, value_lt{}, u, Scalar<int>(5));
  CHECK(vector_oracle::to_vmap(w) == vmap<int>{{0, 4}, {2, -1}});
  apply_index(w, no_mask, no_accum, rowindex{}, u, Scalar<int>(100));
  CHECK(vector_oracle::to_vmap(w) == vmap<int>{{0, 100}, {2, 102}, {3, 103}});

  // An empty scalar where a value is needed: empty_object (GrB_EMPTY_OBJECT), outputs unchanged.
  const dmap<int> c0 = oracle::to_map(C);
  const vmap<int> w0 = vector_oracle::to_vmap(w);
  const Scalar<int> none;
  CHECK_THROWS_AS(apply(C, no_mask, no_accum, bind1st(plus{}, none), A), empty_object);
  CHECK_THROWS_AS(apply(C, A, plus{}, bind2nd(plus{}, none), A, descriptor{}.with_replace()), empty_object);
  CHECK_THROWS_AS(select(C, no_mask, no_accum, value_gt{}, A, none), empty_object);
  CHECK_THROWS_AS(apply(w, no_mask, no_accum, bind2nd(plus{}, none), u), empty_object);
  CHECK_THROWS_AS(select(w, u, no_accum, value_gt{}, u, none), empty_object);
  CHECK_THROWS_AS(apply_index(w, no_mask, no_accum, rowindex{}, u, none), empty_object);
  try {
    select(C, no_mask, no_accum, value_gt{}, A, none);
  } catch (const error& e) {
    CHECK(e.info_code() == -106);
    CHECK(std::string(e.what()).find("thunk") != std::string::npos);
  }
  // Shapes come first, as in GraphBLAS: a mismatch is reported before the empty scalar.
  Matrix<int> B(3, 3);
  CHECK_THROWS_AS(apply(B, no_mask, no_accum, bind1st(plus{}, none), A), dimension_mismatch);
  CHECK_THROWS_AS(apply(C, Matrix<bool>(3, 2), no_accum, bind1st(plus{}, none), A), dimension_mismatch);
  CHECK_THROWS_AS(select(B, no_mask, no_accum, value_gt{}, A, none), dimension_mismatch);
  CHECK_THROWS_AS(select(C, Matrix<bool>(2, 2), no_accum, value_gt{}, A, none), dimension_mismatch);
  CHECK_THROWS_AS(select(C, no_mask, no_accum, value_gt{}, A, none, descriptor{}.with_transpose_a()),
                  dimension_mismatch);
  Vector<int> w5(5);
  CHECK_THROWS_AS(apply(w5, no_mask, no_accum, bind2nd(plus{}, none), u), dimension_mismatch);
  CHECK_THROWS_AS(apply(w, Vector<bool>(3), no_accum, bind2nd(plus{}, none), u), dimension_mismatch);
  CHECK_THROWS_AS(select(w5, no_mask, no_accum, value_gt{}, u, none), dimension_mismatch);
  CHECK_THROWS_AS(apply_index(w5, no_mask, no_accum, rowindex{}, u, none), dimension_mismatch);
  CHECK_THROWS_AS(apply(B, no_mask, no_accum, bind1st(plus{}, Scalar<int>(1)), A), dimension_mismatch);
  CHECK(oracle::to_map(C) == c0);
  CHECK(vector_oracle::to_vmap(w) == w0);
  CHECK(B.nvals() == 0);

  // GrB_Matrix_extractElement_Scalar / GrB_Vector_extractElement_Scalar.
  for (int form = 0; form < 2; ++form) {
    Scalar<double> s(3.5);
    extract_element(s, stored(A, form), 1, 1);
    CHECK(s.get() == 9.0);
    extract_element(s, stored(A, form), 1, 2);
    CHECK(s.empty());
    s.set(1.0);
    CHECK_THROWS_AS(extract_element(s, stored(A, form), 2, 0), invalid_index);
    CHECK_THROWS_AS(extract_element(s, stored(A, form), 0, -1), invalid_index);
    CHECK(s.get() == 1.0);
  }
  Scalar<bool> b;
  extract_element(b, u, 2);
  CHECK(b.get() == true);
  extract_element(b, u, 1);
  CHECK(b.empty());
  b.set(false);
  CHECK_THROWS_AS(extract_element(b, u, 4), invalid_index);
  CHECK(b.get() == false);
}

TEST_CASE("ewise_union with Scalar fill values, and set_element with a Scalar", "[scalar][hand]") {
  // Matrices: the Scalars give what the plain values give; an empty one
  // throws empty_object after the shape checks, C unchanged.
  const auto A = oracle::from_map<int>(2, 3, {{{0, 0}, 1}, {{1, 2}, 4}});
  const auto B = oracle::from_map<int>(2, 3, {{{0, 0}, 10}, {{0, 1}, 20}});
  Matrix<int> C1(2, 3), C2(2, 3);
  ewise_union(C1, no_mask, no_accum, minus{}, A, 100, B, 1000);
  ewise_union(C2, no_mask, no_accum, minus{}, A, Scalar<int>(100), B, Scalar<double>(1000.0));
  CHECK(oracle::to_map(C2) == oracle::to_map(C1));
  CHECK(oracle::to_map(C1) == dmap<int>{{{0, 0}, -9}, {{0, 1}, 80}, {{1, 2}, -996}});
  const auto c1 = oracle::to_map(C1);
  CHECK_THROWS_AS(ewise_union(C1, no_mask, no_accum, minus{}, A, Scalar<int>(), B, Scalar<int>(1)), empty_object);
  CHECK_THROWS_AS(ewise_union(C1, no_mask, no_accum, minus{}, A, Scalar<int>(1), B, Scalar<int>()), empty_object);
  CHECK_THROWS_AS(ewise_union(C1, no_mask, no_accum, minus{}, A, Scalar<int>(), Matrix<int>(3, 3), Scalar<int>()),
                  dimension_mismatch);
  CHECK_THROWS_AS(ewise_union(C1, Matrix<bool>(3, 3), no_accum, minus{}, A, Scalar<int>(), B, Scalar<int>()),
                  dimension_mismatch);
  CHECK(oracle::to_map(C1) == c1);
  // Vectors likewise.
  const auto u = vector_oracle::from_vmap<int>(4, {{0, 1}, {2, 3}}), v = vector_oracle::from_vmap<int>(4, {{2, 5}});
  Vector<int> w1(4), w2(4);
  ewise_union(w1, no_mask, no_accum, plus{}, u, 7, v, 9);
  ewise_union(w2, no_mask, no_accum, plus{}, u, Scalar<int>(7), v, Scalar<int>(9));
  CHECK(vector_oracle::to_vmap(w1) == vmap<int>{{0, 10}, {2, 8}});
  CHECK(vector_oracle::to_vmap(w2) == vector_oracle::to_vmap(w1));
  CHECK_THROWS_AS(ewise_union(w2, no_mask, no_accum, plus{}, u, Scalar<int>(), v, Scalar<int>(9)), empty_object);
  CHECK_THROWS_AS(ewise_union(w2, no_mask, no_accum, plus{}, u, Scalar<int>(), Vector<int>(5), Scalar<int>()),
                  dimension_mismatch);
  CHECK(vector_oracle::to_vmap(w2) == vmap<int>{{0, 10}, {2, 8}});
  // set_element: a value (cast to w's type) sets, an empty Scalar removes.
  Vector<int> x = vector_oracle::from_vmap<int>(3, {{1, 5}});
  set_element(x, Scalar<double>(2.75), 0);
  CHECK(vector_oracle::to_vmap(x) == vmap<int>{{0, 2}, {1, 5}});
  set_element(x, Scalar<int>(), 1);
  CHECK(vector_oracle::to_vmap(x) == vmap<int>{{0, 2}});
  set_element(x, Scalar<int>(), 2);  // removing what is not stored: nothing
  CHECK(x.nvals() == 1);
  CHECK_THROWS_AS(set_element(x, Scalar<int>(1), 3), invalid_index);
  CHECK_THROWS_AS(set_element(x, Scalar<int>(), -1), invalid_index);
  CHECK(vector_oracle::to_vmap(x) == vmap<int>{{0, 2}});
}

// ---------------------------------------------------------- errors and OOM
TEST_CASE("Scalar operations: errors leave the outputs unchanged", "[scalar][errors]") {
  std::mt19937_64 rng(74);
  const auto C0 = oracle::random_matrix<int>(rng, 4, 5, 0.5);
  const auto c0 = oracle::to_map(C0);
  Matrix<int> C = C0;
  const Scalar<int> x(3), none;
  for (const Scalar<int>* s : {&x, &none}) {
    INFO("scalar " << (s->empty() ? "empty" : "3"));
    CHECK_THROWS_AS(assign(C, no_mask, no_accum, *s, {0, 4}, all), index_out_of_bounds);
    CHECK_THROWS_AS(assign(C, no_mask, no_accum, *s, all, index_list::range(3, 6)), index_out_of_bounds);
    CHECK_THROWS_AS(assign(C, Matrix<bool>(5, 4), no_accum, *s, all, all), dimension_mismatch);
    CHECK_THROWS_AS(assign(C, Matrix<bool>(5, 4), no_accum, *s, {0, 9}, all), dimension_mismatch);
    CHECK_THROWS_AS(subassign(C, Matrix<bool>(4, 5), no_accum, *s, {0, 1}, all), dimension_mismatch);
    CHECK_THROWS_AS(subassign(C, Matrix<bool>(2, 2), no_accum, *s, {1, 1}, {0, 1}), invalid_value);
    CHECK_THROWS_AS(subassign(C, no_mask, no_accum, *s, {1, -1}, {0, 1}), index_out_of_bounds);
    Vector<int> w = vector_oracle::from_vmap<int>(3, {{1, 5}});
    CHECK_THROWS_AS(assign(w, no_mask, no_accum, *s, {0, 3}), index_out_of_bounds);
    CHECK_THROWS_AS(assign(w, Vector<bool>(4), no_accum, *s, {0, 1}), dimension_mismatch);
    CHECK(vector_oracle::to_vmap(w) == vmap<int>{{1, 5}});
  }
  CHECK(oracle::to_map(C) == c0);
  // Harmless: empty lists, and assigning nothing into nothing.
  assign(C, no_mask, no_accum, none, std::vector<index_t>{}, all);
  assign(C, no_mask, no_accum, x, index_list::range(2, 2), all);
  CHECK(oracle::to_map(C) == c0);
  // Device operands: reduce, apply and select run where A lives (as their
  // plain-scalar forms), assign and extract_element refuse the GPU.
  if (cuda_device_count() > 0) {
    Matrix<int> G = C0, Cg = C0;
    G.to(backend::cuda);
    Cg.to(backend::cuda);
    Scalar<int> s(1), h(1);
    reduce(s, plus{}, plus_monoid{}, G);
    reduce(h, plus{}, plus_monoid{}, C0);
    CHECK(s.get() == h.get());
    Matrix<int> Z(4, 5);
    Z.to(backend::cuda);
    reduce(s, no_accum, plus_monoid{}, Z);
    CHECK(s.empty());
    apply(Cg, no_mask, no_accum, bind2nd(plus{}, Scalar<int>(2)), G);
    Matrix<int> Ch = C0;
    apply(Ch, no_mask, no_accum, bind2nd(plus{}, 2), C0);
    CHECK(oracle::to_map(oracle::on_host(Cg)) == oracle::to_map(Ch));
    CHECK_THROWS_AS(select(Cg, no_mask, no_accum, value_gt{}, G, none), empty_object);
    CHECK_THROWS_AS(assign(Cg, no_mask, no_accum, none, all, all), not_implemented);
    CHECK_THROWS_AS(extract_element(s, G, 0, 0), not_implemented);
    CHECK(oracle::to_map(oracle::on_host(Cg)) == oracle::to_map(Ch));
  }
}

TEST_CASE("Scalar operations leave their outputs unchanged when an allocation fails", "[scalar][oom]") {
  std::mt19937_64 rng(75);
  const auto A = oracle::random_matrix<double>(rng, 300, 200, 0.05), C0 = oracle::random_matrix<double>(rng, 300, 200, 0.05);
  const auto M = oracle::random_matrix<bool>(rng, 300, 200, 0.3);
  const Vector<double> W0 = vector_oracle::random_vector<double>(rng, 5000, 0.3);
  for (int form = 0; form < 2; ++form) {
    const Matrix<double> Af = stored(A, form);
    auto sweep = [&](const char* name, auto make, auto op, auto same) {
      for (long long k = 0;; ++k) {
        oracle::failing_resource r(k);
        bool ok = false;
        {
          auto out = make();
          const auto before = out;
          ok = oracle::run_with(r, [&] { op(out); });
          INFO(name << " (form " << form << "): allocation " << k);
          if (!ok) REQUIRE(same(out, before));
        }
        REQUIRE(r.live() == 0);
        if (ok) {
          CHECK(k > 0);
          return;
        }
      }
    };
    auto same_matrix = [](const Matrix<double>& a, const Matrix<double>& b) { return oracle::to_map(a) == oracle::to_map(b); };
    auto matrix = [&] { return stored(C0, form); };
    sweep("assign an empty Scalar", matrix,
          [&](Matrix<double>& C) { assign(C, M, no_accum, Scalar<double>(), index_list::range(299, -1, -3), all); },
          same_matrix);
    sweep("subassign a Scalar", matrix,
          [&](Matrix<double>& C) { subassign(C, no_mask, plus{}, Scalar<float>(2), {7, 1, 9}, all); }, same_matrix);
    sweep("reduce to a Scalar", [&] { return Scalar<double>(form); },
          [&](Scalar<double>& s) { reduce(s, plus{}, plus_monoid{}, Af); },
          [](const Scalar<double>& a, const Scalar<double>& b) { return opt(a) == opt(b); });
    sweep("assign an empty Scalar to a vector", [&] { return W0; },
          [&](Vector<double>& w) { assign(w, no_mask, no_accum, Scalar<double>(), index_list::range(0, 5000, 2)); },
          [](const Vector<double>& a, const Vector<double>& b) { return a == b; });
  }
}

namespace {
// A user accumulator that computes in double whatever it is given (its
// template would otherwise run in C's integer type): c / t * 10.
struct ratio10 {
  using domain = double;
  template <class T>
  T operator()(T a, T b) const { return a / b * T(10); }
};
}  // namespace

TEST_CASE("an accumulator computes in its own domain, then casts to the output", "[accum][hand]") {
  // c = 1, t = 4: in double 1 / 4 * 10 = 2.5, stored as int 2; in int it
  // would be 0.
  const auto A = oracle::from_map<int>(2, 2, {{{0, 0}, 1}, {{1, 1}, 3}});
  const auto B = oracle::from_map<int>(2, 2, {{{0, 0}, 4}, {{1, 1}, 2}});
  for (int form = 0; form < 2; ++form) {
    INFO("form " << form);
    Matrix<int> C = stored(A, form);
    const Matrix<int> a = stored(A, form), b = stored(B, form);
    ewise_add(C, no_mask, ratio10{}, plus{}, a, b);  // C = C ratio10 (A + B), C = A
    CHECK(C.get(0, 0) == 2);  // 1 / 5 * 10
    CHECK(C.get(1, 1) == 6);  // 3 / 5 * 10
    Matrix<int> D = stored(A, form);
    assign(D, no_mask, ratio10{}, 4, all, all);  // scalar assign, accum
    CHECK(D.get(0, 0) == 2);  // 1 / 4 * 10 = 2.5
    CHECK(D.get(1, 1) == 7);  // 3 / 4 * 10 = 7.5
    CHECK(D.get(0, 1) == 4);  // no old value: the scalar
  }
  Vector<int> w = vector_oracle::from_vmap<int>(3, {{0, 1}, {2, 3}});
  const Vector<int> u = vector_oracle::from_vmap<int>(3, {{0, 4}, {1, 5}, {2, 4}});
  ewise_add(w, no_mask, ratio10{}, plus{}, w, u);  // w = w ratio10 (w + u)
  CHECK(w.get(0) == 2);   // 1 / 5 * 10
  CHECK(w.get(1) == 5);   // w had no entry: t = 5 stands
  CHECK(w.get(2) == 4);   // 3 / 7 * 10 = 4.28
  int s = 1;
  reduce(s, ratio10{}, plus_monoid{}, u);  // 1 / 13 * 10
  CHECK(s == 0);
  s = 3;
  reduce(s, ratio10{}, plus_monoid{}, u);  // 3 / 13 * 10 = 2.3
  CHECK(s == 2);
  Scalar<int> t(7);
  reduce(t, ratio10{}, plus_monoid{}, u);  // 7 / 13 * 10 = 5.38
  CHECK(t.get() == 5);
}
