// The two host forms of a Vector (sparse and bitmap), by hand: the storage
// rule, set_form, element access, build, resize and equality in each form;
// the operations that work on the sparse form as it is (their results and the
// form they leave); a BFS step sequence; and the strong guarantee of the
// sparse paths under failing allocations. Every operation against the oracle
// in each form: test_vector_random.cpp.
#include <random>

#include "../failing_resource.hpp"
#include "../tgb_catch.hpp"
#include "../vector_oracle.hpp"

using namespace tgb;
using namespace vector_oracle;

TEST_CASE("Vector forms: the rule, set_form, element access, build, resize, equality", "[vector][forms][api]") {
  Vector<int> v(1000);
  CHECK(v.form() == vector_form::sparse);  // a new vector holds nothing: sparse
  CHECK(v.nvals() == 0);
  v.set(5, 1);  // element writes take the bitmap
  CHECK(v.form() == vector_form::bitmap);
  CHECK(v.get(5) == std::optional<int>(1));
  v.set_form(vector_form::automatic);  // 1 entry of 1000: the rule picks sparse
  CHECK(v.form() == vector_form::sparse);
  CHECK(v.get(5) == std::optional<int>(1));
  CHECK(!v.get(4));
  CHECK(!v.get(6));
  CHECK(v.present()[5] == 1);  // the bitmap view of a sparse vector
  CHECK(v.present()[4] == 0);
  CHECK(v.values()[5] == 1);
  CHECK(v.form() == vector_form::sparse);  // kept beside it
  CHECK(v.nvals() == 1);
  v.remove(5);
  CHECK(v.nvals() == 0);
  CHECK(!v.get(5));

  // build: few tuples give the sparse form, dup folding in input order.
  auto b = Vector<int>::from_coo(1000, std::vector<index_t>{7, 3, 7, 999}, std::vector<int>{1, 2, 3, 4}, minus{});
  CHECK(b.form() == vector_form::sparse);
  CHECK(show(to_vmap(b)) == show(vmap<int>{{3, 2}, {7, -2}, {999, 4}}));
  CHECK_THROWS_AS(Vector<int>::from_coo(1000, std::vector<index_t>{7, 3, 7}, std::vector<int>{1, 2, 3}),
                  invalid_value);
  CHECK_THROWS_AS(Vector<int>::from_coo(10, std::vector<index_t>{10}, std::vector<int>{1}), index_out_of_bounds);
  std::vector<index_t> many;
  for (index_t i = 0; i < 1000; i += 10) many.push_back(i);
  auto d = Vector<int>::from_coo(1000, many, std::vector<int>(many.size(), 2));
  CHECK(d.form() == vector_form::bitmap);  // 100 of 1000 > 1/16
  CHECK(d.nvals() == 100);

  // The same entries in the two forms are equal; one value apart, not.
  Vector<int> bs = b, bb = b;
  bb.set_form(vector_form::bitmap);
  CHECK(bs.form() == vector_form::sparse);
  CHECK(bb.form() == vector_form::bitmap);
  CHECK(bs == bb);
  CHECK(bb == bs);
  bb.set(7, 0);
  CHECK(bs != bb);
  CHECK(bb != bs);

  // resize keeps the entries below the new size; the rule picks the form for it.
  Vector<int> r = b;  // {3, 7, 999}
  r.resize(600);
  CHECK(r.form() == vector_form::sparse);
  CHECK(show(to_vmap(r)) == show(vmap<int>{{3, 2}, {7, -2}}));
  r.resize(5);  // {3}: 1 entry of 5 is more than 1/16
  CHECK(r.form() == vector_form::bitmap);
  CHECK(show(to_vmap(r)) == show(vmap<int>{{3, 2}}));
  r.resize(2000);  // grows: 1 of 2000
  CHECK(r.form() == vector_form::sparse);
  CHECK(r.size() == 2000);
  CHECK(show(to_vmap(r)) == show(vmap<int>{{3, 2}}));

  // set_form forces a form on the vector and on results written into it.
  Vector<int> full = Vector<int>::from_dense(std::vector<int>(64, 3));
  full.set_form(vector_form::sparse);
  CHECK(full.form() == vector_form::sparse);
  CHECK(full.nvals() == 64);
  Vector<int> w(64);
  w.set_form(vector_form::sparse);
  apply(w, no_mask, no_accum, ainv{}, full);
  CHECK(w.form() == vector_form::sparse);
  CHECK(w.nvals() == 64);
  CHECK(w.get(63) == std::optional<int>(-3));
  assign(w, no_mask, plus{}, 1, all);  // an in-place update goes back to sparse
  CHECK(w.form() == vector_form::sparse);
  CHECK(w.get(0) == std::optional<int>(-2));
  w.clear();
  CHECK(w.form() == vector_form::sparse);
  w.set_form(vector_form::bitmap);
  CHECK(w.form() == vector_form::bitmap);
  w.clear();
  CHECK(w.form() == vector_form::bitmap);
  CHECK(w.nvals() == 0);
  Vector<int> one(64);
  one.set(9, 4);
  one.set_form(vector_form::sparse);
  apply(w, no_mask, no_accum, ainv{}, one);  // 1 entry of 64, bitmap by request
  CHECK(w.form() == vector_form::bitmap);
  CHECK(show(to_vmap(w)) == show(vmap<int>{{9, -4}}));

  // A sum of doubles over more than one block of 65,536 positions folds in
  // the same order in both forms (the bitmap reduction's blocks).
  Vector<double> big(131072);
  big.set(0, 1e16), big.set(70000, 1.0), big.set(70001, 1.0);
  Vector<double> big_sparse = big;
  big_sparse.set_form(vector_form::sparse);
  big.set_form(vector_form::bitmap);
  CHECK(reduce(plus_monoid{}, big_sparse) == reduce(plus_monoid{}, big));
  CHECK(reduce(plus_monoid{}, big) == 1e16 + 2.0);
}

TEST_CASE("Operations on sparse vectors: results by hand and the forms they leave", "[vector][forms][hand]") {
  // A path 0 - 1 - ... - 199 (both directions) in rows, and a hub 0 -> all.
  const index_t n = 200;
  std::vector<index_t> ri, ci;
  for (index_t i = 0; i + 1 < n; ++i) {
    ri.push_back(i), ci.push_back(i + 1);
    ri.push_back(i + 1), ci.push_back(i);
  }
  auto P = Matrix<bool>::from_coo(n, n, ri, ci, std::vector<int>(ri.size(), 1), no_duplicates);
  P.set_storage(storage_control::rows);

  // One BFS level: q<!struct(parent), replace> = q any.first P.
  Vector<std::int64_t> q(n), parent(n);
  q.set(50, 50);
  parent.set(50, 50);
  q.set_form(vector_form::automatic);
  REQUIRE(q.form() == vector_form::sparse);
  vxm(q, complement(structure(parent)), no_accum, any_first, q, P, descriptor{}.with_replace());
  CHECK(q.form() == vector_form::sparse);
  CHECK(show(to_vmap(q)) == show(vmap<std::int64_t>{{49, 50}, {51, 50}}));
  assign(parent, structure(q), no_accum, q, all);
  CHECK(show(to_vmap(parent)) == show(vmap<std::int64_t>{{49, 50}, {50, 50}, {51, 50}}));
  apply_index(q, no_mask, no_accum, rowindex{}, q, 0);
  CHECK(q.form() == vector_form::sparse);
  CHECK(show(to_vmap(q)) == show(vmap<std::int64_t>{{49, 49}, {51, 51}}));
  vxm(q, complement(structure(parent)), no_accum, any_first, q, P, descriptor{}.with_replace());
  CHECK(show(to_vmap(q)) == show(vmap<std::int64_t>{{48, 49}, {52, 51}}));
  // The parent's own entries through a sparse value mask: only the mask's
  // stored nonzero positions change.
  Vector<std::int64_t> level = Vector<std::int64_t>::from_dense(std::vector<std::int64_t>(n, 7));
  Vector<int> vm(n);
  vm.set(48, 1);
  vm.set(52, 0);  // stored zero: not admitted
  vm.set(60, 2);
  vm.set_form(vector_form::automatic);
  REQUIRE(vm.form() == vector_form::sparse);
  assign(level, vm, no_accum, q, all);  // 48 takes q(48); 60: q holds none, so deleted
  CHECK(level.get(48) == std::optional<std::int64_t>(49));
  CHECK(level.get(52) == std::optional<std::int64_t>(7));
  CHECK(!level.get(60));
  CHECK(level.nvals() == n - 1);
  assign(level, structure(q), plus{}, std::int64_t(100), all);
  CHECK(level.get(48) == std::optional<std::int64_t>(149));
  CHECK(level.get(52) == std::optional<std::int64_t>(107));
  CHECK(level.get(0) == std::optional<std::int64_t>(7));

  // Element-wise: a sparse operand against a full one (intersection: sparse
  // result), two sparse ones (union), with the fill values.
  const auto deg = Vector<std::int64_t>::from_dense(std::vector<std::int64_t>(n, 2));
  Vector<std::int64_t> fdeg(n);
  ewise_mult(fdeg, no_mask, no_accum, minus{}, deg, q);
  CHECK(fdeg.form() == vector_form::sparse);
  CHECK(show(to_vmap(fdeg)) == show(vmap<std::int64_t>{{48, -47}, {52, -49}}));
  CHECK(reduce(plus_monoid{}, fdeg) == -96);
  Vector<std::int64_t> a(n), b(n);
  a.set(3, 10), a.set(9, 20);
  b.set(9, 1), b.set(12, 2);
  a.set_form(vector_form::automatic);
  b.set_form(vector_form::automatic);
  REQUIRE((a.form() == vector_form::sparse && b.form() == vector_form::sparse));
  Vector<std::int64_t> t(n);
  ewise_add(t, no_mask, no_accum, minus{}, a, b);
  CHECK(show(to_vmap(t)) == show(vmap<std::int64_t>{{3, 10}, {9, 19}, {12, 2}}));
  ewise_union(t, no_mask, no_accum, minus{}, a, 100, b, 1000);
  CHECK(show(to_vmap(t)) == show(vmap<std::int64_t>{{3, -990}, {9, 19}, {12, 98}}));
  ewise_add(t, no_mask, plus{}, plus{}, a, b);  // w sparse, accum, no mask: merged
  CHECK(t.form() == vector_form::sparse);
  CHECK(show(to_vmap(t)) == show(vmap<std::int64_t>{{3, -980}, {9, 40}, {12, 100}}));
  select(t, no_mask, no_accum, value_gt{}, t, 50);
  CHECK(show(to_vmap(t)) == show(vmap<std::int64_t>{{12, 100}}));
  CHECK(reduce(min_monoid{}, Vector<std::int64_t>(n)) == min_monoid{}.identity<std::int64_t>());

  // A sparse operand against one held as a bitmap (the union copies the
  // bitmap and merges the sparse entries in), in both orders, through the
  // operator's domain: lt on doubles 2.5 < 2.75 into bool, minus on the
  // doubles cast to int64 after.
  Vector<double> s(n), d(n);
  s.set(3, 2.5), s.set(10, 4.0), s.set(199, -1.0);
  for (index_t i = 0; i < n; i += 3) d.set(i, 2.75);  // 0, 3, ..., 198: not 10 or 199
  s.set_form(vector_form::sparse);
  d.set_form(vector_form::bitmap);
  Vector<bool> lt_sd(n), lt_ds(n);
  ewise_union(lt_sd, no_mask, no_accum, lt{}, s, 100.0, d, 3.0);  // s < d, s alone: s < 3, d alone: 100 < d
  CHECK(lt_sd.nvals() == 69);  // d's 67 positions, 10 and 199
  CHECK(lt_sd.get(3) == std::optional<bool>(true));     // 2.5 < 2.75
  CHECK(lt_sd.get(10) == std::optional<bool>(false));    // 4 < 3
  CHECK(lt_sd.get(199) == std::optional<bool>(true));   // -1 < 3
  CHECK(lt_sd.get(6) == std::optional<bool>(false));    // 100 < 2.75
  CHECK(!lt_sd.get(4));
  ewise_union(lt_ds, no_mask, no_accum, lt{}, d, 3.0, s, 100.0);  // d < s, d alone: d < 100, s alone: 3 < s
  CHECK(lt_ds.nvals() == 69);
  CHECK(lt_ds.get(3) == std::optional<bool>(false));    // 2.75 < 2.5
  CHECK(lt_ds.get(10) == std::optional<bool>(true));     // 3 < 4
  CHECK(lt_ds.get(199) == std::optional<bool>(false));  // 3 < -1
  CHECK(lt_ds.get(6) == std::optional<bool>(true));     // 2.75 < 100
  Vector<std::int64_t> diff(n);
  ewise_add(diff, no_mask, no_accum, minus{}, s, d);  // minus on doubles: 2.5 - 2.75 = -0.25, then 0 in int64
  CHECK(diff.nvals() == 69);
  CHECK(diff.get(3) == std::optional<std::int64_t>(0));
  CHECK(diff.get(10) == std::optional<std::int64_t>(4));
  CHECK(diff.get(199) == std::optional<std::int64_t>(-1));
  CHECK(diff.get(6) == std::optional<std::int64_t>(2));
  ewise_add(diff, no_mask, no_accum, minus{}, d, s);  // 2.75 - 2.5 = 0.25: 0
  CHECK(diff.get(3) == std::optional<std::int64_t>(0));
  CHECK(diff.get(10) == std::optional<std::int64_t>(4));
  ewise_union(diff, no_mask, no_accum, minus{}, d, 0.5, s, 10.0);  // 2.75 - 2.5; d - 10; 0.5 - s
  CHECK(diff.get(10) == std::optional<std::int64_t>(-3));    // 0.5 - 4 = -3.5
  CHECK(diff.get(199) == std::optional<std::int64_t>(1));   // 0.5 + 1 = 1.5
  CHECK(diff.get(6) == std::optional<std::int64_t>(-7));    // 2.75 - 10 = -7.25
}

TEST_CASE("Sparse vector operations leave w unchanged when an allocation fails", "[vector][forms][oom]") {
  std::mt19937_64 rng(11);
  const index_t n = 3000;
  auto A = oracle::random_matrix<double>(rng, n, n, 0.001);
  A.set_storage(storage_control::rows);
  Vector<double> u(n), v(n), w0(n), ws(n);
  Vector<bool> m(n);
  for (index_t i = 0; i < n; i += 97) u.set(i, double(i % 7) + 1);
  for (index_t i = 0; i < n; i += 89) v.set(i, double(i % 5) + 1);
  for (index_t i = 0; i < n; i += 2) w0.set(i, 1.0);
  for (index_t i = 0; i < n; i += 150) ws.set(i, 2.0);
  for (index_t i = 0; i < n; i += 5) m.set(i, true);
  for (Vector<double>* x : {&u, &v, &ws}) x->set_form(vector_form::automatic);
  REQUIRE(u.form() == vector_form::sparse);
  REQUIRE(v.form() == vector_form::sparse);
  REQUIRE(ws.form() == vector_form::sparse);
  // (their bitmaps made now, outside the failing resources, should a path read them)
  u.present(), v.present();
  auto sweep = [&](const char* name, const Vector<double>& start, auto op) {
    // The answer without failures, then every allocation failed in turn.
    Vector<double> want = start;
    op(want);
    for (long long k = 0;; ++k) {
      oracle::failing_resource r(k);
      Vector<double> w = start;
      const bool ok = oracle::run_with(r, [&] { op(w); });
      INFO(name << ": allocation " << k);
      if (ok) {
        REQUIRE(w == want);
        return;
      }
      REQUIRE(w == start);
      REQUIRE(r.live() == 0);
    }
  };
  for (const Vector<double>* start : {&w0, &ws}) {
    sweep("vxm sparse push", *start, [&](Vector<double>& w) { vxm(w, no_mask, no_accum, min_plus, u, A); });
    sweep("vxm masked, replace", *start,
          [&](Vector<double>& w) { vxm(w, complement(m), no_accum, plus_times, u, A, descriptor{}.with_replace()); });
    sweep("mxv transposed, accum", *start,
          [&](Vector<double>& w) { mxv(w, no_mask, plus{}, plus_times, A, u, descriptor{}.with_transpose_a()); });
    sweep("ewise_mult", *start, [&](Vector<double>& w) { ewise_mult(w, no_mask, no_accum, times{}, u, w0); });
    sweep("ewise_add", *start, [&](Vector<double>& w) { ewise_add(w, no_mask, plus{}, plus{}, u, v); });
    sweep("ewise_union", *start, [&](Vector<double>& w) { ewise_union(w, m, no_accum, minus{}, u, 1.0, v, 2.0); });
    sweep("apply", *start, [&](Vector<double>& w) { apply(w, no_mask, no_accum, ainv{}, u); });
    sweep("select", *start, [&](Vector<double>& w) { select(w, no_mask, no_accum, value_gt{}, u, 3.0); });
    sweep("assign through a sparse mask", *start,
          [&](Vector<double>& w) { assign(w, structure(u), no_accum, v, all); });
  }
  // build from two vectors (into an empty w; repeated indices folded) and
  // assign through a vector of (distinct) indices.
  Vector<std::int64_t> Iv(n), J(n);
  Vector<double> X(n), uj(n / 3);
  for (index_t i = 0; i < n; i += 3) {
    Iv.set(i, (i * 7) % 100);
    X.set(i, double(i));
    J.set(i, n - 1 - i);
    uj.set(i / 3, double(i % 11));
  }
  sweep("build from vectors", Vector<double>(n), [&](Vector<double>& w) { build(w, Iv, X, plus{}); });
  sweep("assign through a vector of indices", w0, [&](Vector<double>& w) { assign(w, no_mask, plus{}, uj, J); });
}
