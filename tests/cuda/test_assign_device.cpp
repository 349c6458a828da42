// extract, assign and subassign on device matrices against the host backend: index
// lists of every kind (all, ranges up and down, lists unsorted and, where
// allowed, with repeats), every mask mode, replace, an accumulator or none,
// A transposed, casts between value types, sizes around one tile; the line
// forms (a row or column of C or A and a vector) the same way. Values are
// copied or folded by plus on small integers, so results must be identical.
#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "../oracle.hpp"
#include "../tgb_catch.hpp"
#include "../vector_oracle.hpp"
#include "device_compare.hpp"

using namespace tgb;

namespace {

using oracle::on;

// Index lists over an object of n elements: all, a range, a range downwards
// with stride -3, a shuffled part of [0, n) (empty where n is 0), and
// (repeats) a list that repeats indices. Named for the messages.
struct named_list {
  index_list L;
  const char* name;
};
std::vector<named_list> lists_for(std::mt19937_64& rng, index_t n, bool repeats) {
  std::vector<named_list> out;
  out.push_back({index_list(all), "all"});
  out.push_back({index_list::range(n / 3, n), "range"});
  out.push_back({index_list::range(n - 1, -1, -3), "range down by 3"});
  if (n == 0) {
    out.push_back({index_list(std::vector<index_t>{}), "empty list"});
    return out;
  }
  std::vector<index_t> perm(static_cast<std::size_t>(n));
  std::iota(perm.begin(), perm.end(), index_t(0));
  std::shuffle(perm.begin(), perm.end(), rng);
  perm.resize(static_cast<std::size_t>(n / 2 + 1));
  out.push_back({index_list(perm), "shuffled part"});
  if (repeats) {
    std::uniform_int_distribution<index_t> any(0, n - 1);
    std::vector<index_t> rep(static_cast<std::size_t>(n + 3));
    for (auto& x : rep) x = any(rng);
    out.push_back({index_list(rep), "with repeats"});
  }
  return out;
}

struct shape_t {
  index_t m, n;
};
const std::vector<shape_t> kShapes = {{0, 5}, {5, 0}, {1, 17}, {16, 1}, {17, 45}, {40, 17}, {150, 45}};

// last_lists: only the last that many row lists (the shuffled part and the
// one with repeats, for the sanitizers: racecheck runs about a hundred times
// slower), else all of them.
template <class TC, class TA>
void extract_assign_for(std::uint64_t seed, const std::vector<shape_t>& shapes = kShapes, std::size_t last_lists = 0) {
  std::mt19937_64 rng(seed);
  for (const shape_t& shape : shapes) {
    const index_t m = shape.m, n = shape.n;
    const auto A = oracle::random_matrix<TA>(rng, m, n, 0.3);
    const auto At = oracle::random_matrix<TA>(rng, n, m, 0.3);
    const auto rows = lists_for(rng, m, true), cols = lists_for(rng, n, true);
    for (std::size_t a = last_lists ? rows.size() - std::min(last_lists, rows.size()) : 0; a < rows.size(); ++a) {
      const named_list& I = rows[a];
      const named_list& J = cols[(a + seed) % cols.size()];
      const index_t ni = I.L.count(m), nj = J.L.count(n);
      INFO("I " << I.name << " (" << ni << "), J " << J.name << " (" << nj << ")");
      // Extract: C is |I| x |J|.
      const auto C0 = oracle::random_matrix<TC>(rng, ni, nj, 0.3);
      device_test::both(rng, C0, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
        extract(C, mk, acc, on(A, w), I.L, J.L, d);
      }, "extract");
      device_test::both(rng, C0, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
        extract(C, mk, acc, on(At, w), I.L, J.L, d.with_transpose_a());
      }, "extract, A transposed");
      // Assign into an m x n C: lists without repeats for a matrix source,
      // any for a scalar.
      const auto D0 = oracle::random_matrix<TC>(rng, m, n, 0.3);
      device_test::both(rng, D0, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
        assign(C, mk, acc, TA(3), I.L, J.L, d);
      }, "assign a scalar");
      device_test::both(rng, D0, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
        assign(C, mk, acc, Scalar<TA>(), I.L, J.L, d);
      }, "assign an empty scalar");
      if (std::string(I.name) == "with repeats" || std::string(J.name) == "with repeats") {
        // Unmasked, a scalar subassign takes repeats (the device drops them).
        const auto M = oracle::random_matrix<int>(rng, ni, nj, 0.5);
        device_test::one(D0, M, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
          subassign(C, mk, acc, TA(2), I.L, J.L, d);
        }, "subassign a scalar, repeated indices, no mask", 0, false, true);
        continue;
      }
      // subassign: the mask is |I| x |J|, over C(I,J) alone.
      device_test::both(rng, D0, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
        subassign(C, mk, acc, TA(2), I.L, J.L, d);
      }, "subassign a scalar", ni, nj);
      const auto S = oracle::random_matrix<TA>(rng, ni, nj, 0.4);
      const auto St = oracle::random_matrix<TA>(rng, nj, ni, 0.4);
      device_test::both(rng, D0, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
        assign(C, mk, acc, on(S, w), I.L, J.L, d);
      }, "assign a matrix");
      device_test::both(rng, D0, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
        assign(C, mk, acc, on(St, w), I.L, J.L, d.with_transpose_a());
      }, "assign a matrix, A transposed");
      device_test::both(rng, D0, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
        subassign(C, mk, acc, on(S, w), I.L, J.L, d);
      }, "subassign a matrix", ni, nj);
      device_test::both(rng, D0, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
        subassign(C, mk, acc, on(St, w), I.L, J.L, d.with_transpose_a());
      }, "subassign a matrix, A transposed", ni, nj);
    }
  }
}

}  // namespace

TEST_CASE("device extract and assign equal host: same types", "[cuda][assign]") {
  extract_assign_for<std::int32_t, std::int32_t>(1);
  extract_assign_for<double, double>(2);
  extract_assign_for<bool, bool>(3);
}

TEST_CASE("device extract and assign, small cases for the sanitizers", "[cuda][assign][sanitize]") {
  extract_assign_for<double, std::int32_t>(7, {{20, 33}}, 2);
}

TEST_CASE("device extract and assign equal host: casts", "[cuda][assign]") {
  extract_assign_for<std::int64_t, bool>(4);
  extract_assign_for<float, std::int32_t>(5);
}

TEST_CASE("device extract and assign: a large matrix, hub rows and long index lists", "[cuda][assign]") {
  // Rows of thousands of entries next to empty ones, lists of thousands of
  // indices: the device's passes over many blocks.
  std::mt19937_64 rng(41);
  const index_t n = 5000;
  const auto R = oracle::random_matrix<double>(rng, n, n, 0.002);
  std::vector<index_t> r, c;
  std::vector<double> v;
  for (index_t j = 0; j < n; j += 2) r.push_back(7), c.push_back(j), v.push_back(double(j % 13));
  const auto H = Matrix<double>::from_coo(n, n, r, c, v, first{});
  Matrix<double> A(n, n);
  ewise_add(A, no_mask, no_accum, plus{}, R, H);
  const auto rows = lists_for(rng, n, true), cols = lists_for(rng, n, false);
  for (const auto& I : rows)
    for (const auto& J : cols) {
      INFO("I " << I.name << ", J " << J.name);
      const index_t ni = I.L.count(n), nj = J.L.count(n);
      Matrix<double> h(ni, nj), g = on(Matrix<double>(ni, nj), backend::cuda);
      extract(h, no_mask, no_accum, A, I.L, J.L);
      extract(g, no_mask, no_accum, on(A, backend::cuda), I.L, J.L);
      REQUIRE(g.location() == backend::cuda);
      REQUIRE(g.nvals() == h.nvals());
      REQUIRE(oracle::diff(oracle::to_map(on(g, backend::host)), oracle::to_map(h)) == "");
      if (std::string(I.name) == "with repeats") continue;
      const auto S = oracle::random_matrix<double>(rng, ni, nj, 0.01);
      Matrix<double> hc = A, gc = on(A, backend::cuda);
      assign(hc, no_mask, plus{}, S, I.L, J.L);
      assign(gc, no_mask, plus{}, on(S, backend::cuda), I.L, J.L);
      REQUIRE(oracle::diff(oracle::to_map(on(gc, backend::host)), oracle::to_map(hc)) == "");
      assign(hc, no_mask, no_accum, S, I.L, J.L);
      assign(gc, no_mask, no_accum, on(S, backend::cuda), I.L, J.L);
      REQUIRE(oracle::diff(oracle::to_map(on(gc, backend::host)), oracle::to_map(hc)) == "");
    }
}

TEST_CASE("device extract and assign: errors leave C unchanged", "[cuda][assign]") {
  std::mt19937_64 rng(43);
  const auto A = on(oracle::random_matrix<int>(rng, 20, 30, 0.3), backend::cuda);
  Matrix<int> C = on(oracle::random_matrix<int>(rng, 20, 30, 0.3), backend::cuda);
  const auto before = oracle::to_map(on(C, backend::host));
  const Matrix<int> S = on(oracle::random_matrix<int>(rng, 2, 2, 1.0), backend::cuda);
  Matrix<int> E = on(Matrix<int>(2, 2), backend::cuda);
  REQUIRE_THROWS_AS(assign(C, no_mask, no_accum, S, {1, 1}, {2, 3}), invalid_value);  // a repeated row
  REQUIRE_THROWS_AS(assign(C, no_mask, no_accum, S, {1, 20}, {2, 3}), index_out_of_bounds);
  REQUIRE_THROWS_AS(assign(C, no_mask, no_accum, S, {1, 2, 3}, {2, 3}), dimension_mismatch);
  REQUIRE_THROWS_AS(extract(E, no_mask, no_accum, A, {0, 30}, {0, 1}), index_out_of_bounds);
  REQUIRE_THROWS_AS(extract(E, no_mask, no_accum, A, {0}, {0, 1}), dimension_mismatch);
  const Matrix<int> host_S = on(S, backend::host);
  REQUIRE_THROWS_AS(assign(C, no_mask, no_accum, host_S, {1, 2}, {2, 3}), invalid_value);  // mixed residence
  auto user_op = [](int a, int b) { return a - 2 * b; };
  REQUIRE_THROWS_AS(assign(C, no_mask, user_op, S, {1, 2}, {2, 3}), not_implemented);
  const Matrix<int> M3 = on(oracle::random_matrix<int>(rng, 3, 2, 0.5), backend::cuda);
  REQUIRE_THROWS_AS(subassign(C, M3, no_accum, S, {1, 2}, {2, 3}), dimension_mismatch);  // the mask is |I| x |J|
  const Matrix<int> M2 = on(oracle::random_matrix<int>(rng, 2, 2, 0.5), backend::cuda);
  REQUIRE_THROWS_AS(subassign(C, M2, no_accum, 5, {1, 1}, {2, 3}), invalid_value);  // masked, a repeated row
  // The line forms: residence, sizes, the line's index, repeats and the accumulator.
  Vector<int> u(30), uh(30), u2(2);
  u.to(backend::cuda);
  u2.to(backend::cuda);
  uh.set(3, 1);
  Vector<int> w(20), w2(2);
  w.to(backend::cuda);
  w2.to(backend::cuda);
  REQUIRE_THROWS_AS(assign_row(C, no_mask, no_accum, uh, 1, all), invalid_value);  // u on the host
  REQUIRE_THROWS_AS(assign_row(C, no_mask, no_accum, u, 20, all), invalid_index);
  REQUIRE_THROWS_AS(assign_row(C, no_mask, no_accum, u, 1, {2, 3}), dimension_mismatch);
  REQUIRE_THROWS_AS(assign_col(C, no_mask, no_accum, u2, {1, 1}, 4), invalid_value);  // a repeated row
  REQUIRE_THROWS_AS(assign_col(C, no_mask, no_accum, w, all, 30), invalid_index);
  REQUIRE_THROWS_AS(assign_col(C, u, no_accum, w, all, 3), dimension_mismatch);  // the mask is over C's rows
  REQUIRE_THROWS_AS(assign_col(C, w, user_op, w, all, 3), not_implemented);
  REQUIRE_THROWS_AS(subassign_row(C, u, no_accum, u2, 1, {2, 3}), dimension_mismatch);  // the mask is |J|
  REQUIRE_THROWS_AS(subassign_col(C, no_mask, user_op, u2, {4, 5}, 3), not_implemented);
  REQUIRE_THROWS_AS(extract(w2, no_mask, no_accum, A, {0, 20}, 3), index_out_of_bounds);
  REQUIRE_THROWS_AS(extract(w2, no_mask, no_accum, A, {0, 1}, 30), invalid_index);
  REQUIRE_THROWS_AS(extract(w, no_mask, no_accum, A, {0, 1}, 3), dimension_mismatch);
  REQUIRE(w.nvals() == 0);
  REQUIRE(w2.nvals() == 0);
  REQUIRE(C.location() == backend::cuda);
  REQUIRE(oracle::to_map(on(C, backend::host)) == before);
  REQUIRE(E.nvals() == 0);
}

namespace {
// The line forms on both backends: the column extract (and, transposed, the
// row), assign_row and assign_col (the mask over C's whole row or column),
// subassign_row and subassign_col (the mask over the list), in every mask
// mode, with replace and an accumulator or not, lists of every kind, the
// first, a middle and the last line, A in tiles and in rows.
template <class TC, class TA>
void lines_for(std::uint64_t seed, const std::vector<shape_t>& shapes, bool every_line = true) {
  std::mt19937_64 rng(seed);
  for (const shape_t& shape : shapes) {
    const index_t m = shape.m, n = shape.n;
    Matrix<TA> A = oracle::random_matrix<TA>(rng, m, n, 0.3), At = oracle::random_matrix<TA>(rng, n, m, 0.3);
    if (seed & 1) A.set_storage(storage_control::rows);
    const auto C0 = oracle::random_matrix<TC>(rng, m, n, 0.3);
    const auto rows = lists_for(rng, m, true), cols = lists_for(rng, n, true);
    for (index_t at : {(m + n) / 3, index_t(0), std::max(m, n) - 1}) {
      if (!every_line && at != (m + n) / 3) continue;
      const index_t i = std::min(at, m - 1), j = std::min(at, n - 1);
      for (const named_list& I : rows) {
        const index_t ni = I.L.count(m);
        INFO("C " << m << " x " << n << ", row " << i << ", column " << j << ", I " << I.name << " (" << ni << ")");
        const auto w0 = vector_oracle::random_vector<TC>(rng, ni, 0.3);
        device_test::both_vec(rng, w0, [&](Vector<TC>& w, const auto& mk, const auto& acc, descriptor d, backend b) {
          extract(w, mk, acc, on(A, b), I.L, j, d);
        }, "extract a column");
        device_test::both_vec(rng, w0, [&](Vector<TC>& w, const auto& mk, const auto& acc, descriptor d, backend b) {
          extract(w, mk, acc, on(At, b), I.L, j, d.with_transpose_a());
        }, "extract a row (A transposed)");
        if (std::string(I.name) == "with repeats") continue;
        const auto u = vector_oracle::random_vector<TA>(rng, ni, 0.6);
        device_test::both_line(rng, C0, m, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d,
                                               backend b) { assign_col(C, mk, acc, device_test::von(u, b), I.L, j, d); },
                               "assign_col");
        device_test::both_line(rng, C0, ni, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d,
                                                backend b) { subassign_col(C, mk, acc, device_test::von(u, b), I.L, j, d); },
                               "subassign_col");
      }
      for (const named_list& J : cols) {
        if (std::string(J.name) == "with repeats") continue;
        const index_t nj = J.L.count(n);
        INFO("C " << m << " x " << n << ", row " << i << ", J " << J.name << " (" << nj << ")");
        const auto u = vector_oracle::random_vector<TA>(rng, nj, 0.6);
        device_test::both_line(rng, C0, n, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d,
                                               backend b) { assign_row(C, mk, acc, device_test::von(u, b), i, J.L, d); },
                               "assign_row");
        device_test::both_line(rng, C0, nj, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d,
                                                backend b) { subassign_row(C, mk, acc, device_test::von(u, b), i, J.L, d); },
                               "subassign_row");
      }
    }
  }
}
const std::vector<shape_t> kLineShapes = {{1, 1}, {1, 17}, {16, 1}, {17, 45}, {40, 17}, {150, 45}};
}  // namespace

TEST_CASE("device line forms equal host: same types", "[cuda][assign][lines]") {
  lines_for<std::int32_t, std::int32_t>(11, kLineShapes);
  lines_for<double, double>(12, kLineShapes);
  lines_for<bool, bool>(13, {{17, 45}, {40, 17}});
}

TEST_CASE("device line forms equal host: casts", "[cuda][assign][lines]") {
  lines_for<std::int64_t, bool>(14, {{17, 45}, {40, 17}});
  lines_for<float, std::int32_t>(15, {{17, 45}, {150, 45}});
}

TEST_CASE("device line forms, a small case for the sanitizers", "[cuda][assign][lines][sanitize]") {
  lines_for<double, std::int32_t>(16, {{20, 33}}, false);
}

// One call of each operation on a small operand, for racecheck (which runs
// about a hundred times slower than the kernels).
TEST_CASE("device extract, assign, subassign, kronecker and diagonals: one small call each", "[cuda][assign][race]") {
  std::mt19937_64 rng(47);
  const index_t m = 20, n = 33;
  const auto A = oracle::random_matrix<std::int32_t>(rng, m, n, 0.3);
  const auto rows = lists_for(rng, m, false), cols = lists_for(rng, n, false);
  const index_list &I = rows[3].L, &J = cols[2].L;  // a shuffled part, a range down by 3
  const index_t ni = I.count(m), nj = J.count(n);
  const auto C0 = oracle::random_matrix<double>(rng, ni, nj, 0.3), D0 = oracle::random_matrix<double>(rng, m, n, 0.3);
  const auto S = oracle::random_matrix<std::int32_t>(rng, ni, nj, 0.4);
  const auto Mx = oracle::random_matrix<int>(rng, ni, nj, 0.5), Md = oracle::random_matrix<int>(rng, m, n, 0.5);
  device_test::one(C0, Mx, [&](Matrix<double>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
    extract(C, mk, acc, on(A, w), I, J, d);
  }, "extract", 1, false, true);
  device_test::one(D0, Md, [&](Matrix<double>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
    assign(C, mk, acc, on(S, w), I, J, d);
  }, "assign a matrix", 2, true, false);
  device_test::one(D0, Md, [&](Matrix<double>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
    assign(C, mk, acc, 4, I, J, d);
  }, "assign a scalar", 3, false, false);
  device_test::one(D0, Mx, [&](Matrix<double>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
    subassign(C, mk, acc, on(S, w), I, J, d);
  }, "subassign a matrix", 4, true, false);
  const auto B = oracle::random_matrix<std::int32_t>(rng, 3, 2, 0.7);
  const auto K0 = oracle::random_matrix<double>(rng, 3 * m, 2 * n, 0.02);
  const auto Mk = oracle::random_matrix<int>(rng, 3 * m, 2 * n, 0.5);
  device_test::one(K0, Mk, [&](Matrix<double>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
    kronecker(C, mk, acc, times{}, on(B, w), on(A, w), d);
  }, "kronecker", 1, false, true);
  const Vector<std::int32_t> h = diag_vector(A, 2), g = diag_vector(on(A, backend::cuda), 2);
  Vector<std::int32_t> gh = g;
  gh.to(backend::host);
  REQUIRE(gh.extract_tuples() == h.extract_tuples());
  Vector<std::int32_t> gd = h;
  gd.to(backend::cuda);
  REQUIRE(oracle::diff(oracle::to_map(on(diag_matrix(gd, -3), backend::host)), oracle::to_map(diag_matrix(h, -3))) ==
          "");
}
