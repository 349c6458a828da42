// kronecker, diag_matrix and diag_vector (include/tgb/construct.hpp): hand-checked cases, the
// Kronecker product against products formed entry by entry, with masks,
// accumulators, replace and transposes, and diag's round trips.
#include <random>
#include <tuple>
#include <vector>

#include "../tgb_catch.hpp"
#include "tgb/tgb.hpp"

using namespace tgb;

namespace {
template <class T>
std::vector<std::tuple<index_t, index_t, T>> triples(const Matrix<T>& A) {
  const coo<T> c = A.to_coo();
  std::vector<std::tuple<index_t, index_t, T>> out;
  for (std::size_t q = 0; q < c.values.size(); ++q) out.emplace_back(c.rows[q], c.cols[q], c.values[q]);
  return out;
}
Matrix<double> random_matrix(std::mt19937_64& rng, index_t m, index_t n, double density) {
  std::bernoulli_distribution keep(density);
  std::uniform_int_distribution<int> val(-4, 9);
  std::vector<index_t> r, c;
  std::vector<double> v;
  for (index_t i = 0; i < m; ++i)
    for (index_t j = 0; j < n; ++j)
      if (keep(rng)) r.push_back(i), c.push_back(j), v.push_back(val(rng));
  return Matrix<double>::from_coo(m, n, r, c, v, no_duplicates);
}
// kron(op(A), op(B)) entry by entry, from dense arrays.
Matrix<double> naive_kron(const Matrix<double>& A, const Matrix<double>& B, bool ta, bool tb) {
  const auto a = triples(A), b = triples(B);
  const index_t am = ta ? A.ncols() : A.nrows(), an = ta ? A.nrows() : A.ncols();
  const index_t bm = tb ? B.ncols() : B.nrows(), bn = tb ? B.nrows() : B.ncols();
  std::vector<index_t> r, c;
  std::vector<double> v;
  for (const auto& [i0, j0, x] : a)
    for (const auto& [k0, l0, y] : b) {
      const index_t i = ta ? j0 : i0, j = ta ? i0 : j0, k = tb ? l0 : k0, l = tb ? k0 : l0;
      r.push_back(i * bm + k);
      c.push_back(j * bn + l);
      v.push_back(x - 2 * y);
    }
  return Matrix<double>::from_coo(am * bm, an * bn, r, c, v, no_duplicates);
}
struct x_minus_2y {
  double operator()(double x, double y) const { return x - 2 * y; }
};
}  // namespace

TEST_CASE("kronecker: a hand-checked product", "[ops][kronecker]") {
  const auto A = Matrix<double>::from_coo(2, 2, std::vector<index_t>{0, 0, 1}, std::vector<index_t>{0, 1, 1},
                                          std::vector<double>{1, 2, 3}, no_duplicates);
  const auto B = Matrix<double>::from_coo(2, 2, std::vector<index_t>{0, 1}, std::vector<index_t>{1, 0},
                                          std::vector<double>{5, 6}, no_duplicates);
  Matrix<double> C(4, 4);
  kronecker(C, no_mask, no_accum, times{}, A, B);
  using E = std::vector<std::tuple<index_t, index_t, double>>;
  REQUIRE(triples(C) == E{{0, 1, 5}, {0, 3, 10}, {1, 0, 6}, {1, 2, 12}, {2, 3, 15}, {3, 2, 18}});
  // A' (x) B: A'(1, 0) = 2.
  kronecker(C, no_mask, no_accum, times{}, A, B, descriptor{}.with_transpose_a());
  REQUIRE(triples(C) == E{{0, 1, 5}, {1, 0, 6}, {2, 1, 10}, {2, 3, 15}, {3, 0, 12}, {3, 2, 18}});
  // Typecast to C's type: 1 * 0.5 as int is 0, kept as a stored zero.
  const auto H = Matrix<double>::from_coo(1, 1, std::vector<index_t>{0}, std::vector<index_t>{0},
                                          std::vector<double>{0.5}, no_duplicates);
  Matrix<int> K(2, 2);
  kronecker(K, no_mask, no_accum, times{}, A, H);
  REQUIRE(triples(K) == std::vector<std::tuple<index_t, index_t, int>>{{0, 0, 0}, {0, 1, 1}, {1, 1, 1}});
  // Shapes: C must be 4 x 4 here; a failed call leaves C as it was.
  Matrix<double> W(4, 3);
  REQUIRE_THROWS_AS(kronecker(W, no_mask, no_accum, times{}, A, B), dimension_mismatch);
  REQUIRE(W.nvals() == 0);
  Matrix<double> E0(0, 8);
  kronecker(E0, no_mask, no_accum, times{}, Matrix<double>(0, 2), Matrix<double>(5, 4));
  REQUIRE(E0.nvals() == 0);
}

TEST_CASE("kronecker equals the product formed entry by entry, with masks and accumulators", "[ops][kronecker][random]") {
  std::mt19937_64 rng(53);
  for (int trial = 0; trial < 12; ++trial) {
    const index_t am = 1 + trial % 4, an = 2 + trial % 3, bm = 3 - trial % 3, bn = 1 + trial % 5;
    const bool ta = trial % 2, tb = (trial / 2) % 2;
    const auto A = random_matrix(rng, ta ? an : am, ta ? am : an, 0.5);
    const auto B = random_matrix(rng, tb ? bn : bm, tb ? bm : bn, 0.6);
    const descriptor d = descriptor{}.with_transpose_a(ta).with_transpose_b(tb);
    const Matrix<double> T = naive_kron(A, B, ta, tb);
    INFO("trial " << trial);
    Matrix<double> C(am * bm, an * bn);
    kronecker(C, no_mask, no_accum, x_minus_2y{}, A, B, d);
    REQUIRE(triples(C) == triples(T));
    // A mask, the plus accumulator and replace: the same as writing T with apply.
    const auto M = random_matrix(rng, am * bm, an * bn, 0.4);
    const auto C0 = random_matrix(rng, am * bm, an * bn, 0.5);
    for (bool replace : {false, true}) {
      Matrix<double> got = C0, want = C0;
      kronecker(got, structure(M), plus{}, x_minus_2y{}, A, B, d.with_replace(replace));
      apply(want, structure(M), plus{}, identity{}, T, descriptor{}.with_replace(replace));
      REQUIRE(triples(got) == triples(want));
      kronecker(got, complement(structure(M)), no_accum, x_minus_2y{}, A, B, d.with_replace(replace));
      apply(want, complement(structure(M)), no_accum, identity{}, T, descriptor{}.with_replace(replace));
      REQUIRE(triples(got) == triples(want));
    }
  }
}

TEST_CASE("diag_matrix and diag_vector: vectors to diagonal matrices and back", "[ops][diag]") {
  Vector<double> v(3);
  v.set(0, 1);
  v.set(2, 3);
  using E = std::vector<std::tuple<index_t, index_t, double>>;
  const Matrix<double> D0 = diag_matrix(v);
  REQUIRE(D0.nrows() == 3);
  REQUIRE(triples(D0) == E{{0, 0, 1}, {2, 2, 3}});
  const Matrix<double> D1 = diag_matrix(v, 1);
  REQUIRE((D1.nrows() == 4 && D1.ncols() == 4));
  REQUIRE(triples(D1) == E{{0, 1, 1}, {2, 3, 3}});
  const Matrix<double> Dm = diag_matrix(v, -2);
  REQUIRE((Dm.nrows() == 5 && Dm.ncols() == 5));
  REQUIRE(triples(Dm) == E{{2, 0, 1}, {4, 2, 3}});
  for (index_t k = -3; k <= 3; ++k) {
    INFO("k " << k);
    const Vector<double> back = diag_vector(diag_matrix(v, k), k);
    REQUIRE(back.size() == 3);
    REQUIRE(back.extract_tuples() == v.extract_tuples());
  }
  // Diagonals of a 3 x 5 matrix: lengths and entries.
  std::mt19937_64 rng(59);
  const auto A = random_matrix(rng, 3, 5, 0.7);
  const std::vector<std::pair<index_t, index_t>> lengths{{-3, 0}, {-2, 1}, {-1, 2}, {0, 3}, {2, 3}, {3, 2}, {4, 1}, {5, 0}};
  for (const auto& [k, len] : lengths) {
    INFO("k " << k);
    const Vector<double> w = diag_vector(A, k);
    REQUIRE(w.size() == len);
    for (index_t i = 0; i < len; ++i) {
      const index_t r = k >= 0 ? i : i - k, c = k >= 0 ? i + k : i;
      REQUIRE(w.get(i) == A.get(r, c));
    }
  }
}
