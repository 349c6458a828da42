// ewise_add, ewise_mult, apply, select, reduce and transpose on the host:
// hand-checked cases and randomized cases against the oracle, each through
// the same mask/accum/replace write-back as mxm.
#include <random>

#include "../oracle.hpp"
#include "../tgb_catch.hpp"

using namespace tgb;
using oracle::dmap;

namespace {

Matrix<int> small(std::vector<index_t> r, std::vector<index_t> c, std::vector<int> v, index_t m = 3, index_t n = 3) {
  return Matrix<int>::from_coo(m, n, r, c, v, no_duplicates);
}

// Runs op(C, mask) for a random mask mode and checks C against the oracle's
// write-back of T_want.
template <class TC, class Run, class Acc>
void check_writeback(std::mt19937_64& rng, index_t m, index_t n, const dmap<TC>& T_want, Run run, const Acc& acc,
                     const std::string& what) {
  auto C0 = oracle::random_matrix<TC>(rng, m, n, 0.3);
  auto Mm = oracle::random_matrix<int>(rng, m, n, 0.5);
  for (int mode = 0; mode < 5; ++mode)
    for (int rep = 0; rep < 2; ++rep)
      for (int ac = 0; ac < 2; ++ac) {
        Matrix<TC> C = C0;
        descriptor d;
        d.replace = rep == 1;
        const oracle::mask_spec ms = oracle::with_mask_mode(mode, Mm, [&](const auto& mask) {
          if (ac) run(C, mask, acc, d);
          else run(C, mask, no_accum, d);
        });
        const auto want = oracle::writeback<TC>(oracle::to_map(C0), T_want, ms,
                                                ac ? std::optional<Acc>(acc) : std::optional<Acc>(), d.replace);
        INFO(what << " mask=" << mode << " replace=" << rep << " accum=" << ac << " shape " << m << " x " << n);
        REQUIRE(oracle::diff(oracle::to_map(C), want) == "");
      }
}

}  // namespace

TEST_CASE("ewise_add and ewise_mult by hand", "[ewise][hand]") {
  auto A = small({0, 1}, {0, 1}, {1, 2});
  auto B = small({1, 2}, {1, 2}, {10, 20});
  Matrix<int> C(3, 3);
  ewise_add(C, no_mask, no_accum, plus{}, A, B);
  CHECK(C.nvals() == 3);
  CHECK(*C.get(0, 0) == 1);
  CHECK(*C.get(1, 1) == 12);
  CHECK(*C.get(2, 2) == 20);
  ewise_mult(C, no_mask, no_accum, times{}, A, B);
  CHECK(C.nvals() == 1);
  CHECK(*C.get(1, 1) == 20);
  // A monoid works as the operator too.
  ewise_add(C, no_mask, no_accum, max_monoid{}, A, B);
  CHECK(*C.get(1, 1) == 10);
  Matrix<int> wrong(2, 3);
  CHECK_THROWS_AS(ewise_add(wrong, no_mask, no_accum, plus{}, A, B), dimension_mismatch);
}

TEST_CASE("apply with unary operators and bound scalars", "[apply][hand]") {
  auto A = small({0, 2}, {1, 2}, {3, -4});
  Matrix<int> C(3, 3);
  apply(C, no_mask, no_accum, ainv{}, A);
  CHECK(*C.get(0, 1) == -3);
  CHECK(*C.get(2, 2) == 4);
  apply(C, no_mask, no_accum, bind2nd(minus{}, 1), A);
  CHECK(*C.get(0, 1) == 2);
  apply(C, no_mask, no_accum, bind1st(minus{}, 1), A);
  CHECK(*C.get(0, 1) == -2);
  apply(C, no_mask, no_accum, abs_op{}, A);
  CHECK(*C.get(2, 2) == 4);
  Matrix<double> D(3, 3);
  apply(D, no_mask, no_accum, [](int x) { return x * 0.5; }, A);
  CHECK(*D.get(0, 1) == 1.5);
  Matrix<int> T(3, 3);
  apply(T, no_mask, no_accum, identity{}, A, descriptor{}.with_transpose_a());
  CHECK(*T.get(1, 0) == 3);
}

TEST_CASE("apply_index on matrices: positions and value comparisons as values", "[apply][hand]") {
  // A(0,1) = 3, A(2,0) = -4, A(2,2) = 5; positions past one tile too.
  auto A = small({0, 2, 2, 20}, {1, 0, 2, 17}, {3, -4, 5, 9}, 21, 18);
  Matrix<std::int64_t> C(21, 18);
  apply_index(C, no_mask, no_accum, rowindex{}, A, 1);  // i + 1
  CHECK(C.nvals() == 4);
  CHECK(*C.get(0, 1) == 1);
  CHECK(*C.get(2, 0) == 3);
  CHECK(*C.get(20, 17) == 21);
  apply_index(C, no_mask, no_accum, colindex{}, A, -1);  // j - 1
  CHECK(*C.get(0, 1) == 0);
  CHECK(*C.get(2, 0) == -1);
  CHECK(*C.get(20, 17) == 16);
  apply_index(C, no_mask, no_accum, diagindex{}, A, 0);  // j - i
  CHECK(*C.get(2, 0) == -2);
  CHECK(*C.get(2, 2) == 0);
  CHECK(C.nvals() == 4);  // a zero is a value, not a missing entry
  apply_index(C, no_mask, no_accum, value_gt{}, A, 3);  // bool, cast to int64
  CHECK(*C.get(0, 1) == 0);
  CHECK(*C.get(2, 2) == 1);
  // Transposed: positions are A''s, so A(2,0) is at (0,2), its row index 0.
  Matrix<std::int64_t> T(18, 21);
  apply_index(T, no_mask, no_accum, rowindex{}, A, 0, descriptor{}.with_transpose_a());
  CHECK(*T.get(0, 2) == 0);
  CHECK(*T.get(17, 20) == 17);
  // Masked, with an accumulator: only (2,2) is admitted; C(2,2) = 7 + (2 + 10).
  Matrix<std::int64_t> D = Matrix<std::int64_t>::from_coo(21, 18, std::vector<index_t>{2, 5},
                                                          std::vector<index_t>{2, 5}, std::vector<std::int64_t>{7, 8},
                                                          no_duplicates);
  const auto M = small({2}, {2}, {1}, 21, 18);
  apply_index(D, M, plus{}, rowindex{}, A, 10);
  CHECK(D.nvals() == 2);
  CHECK(*D.get(2, 2) == 19);
  CHECK(*D.get(5, 5) == 8);
  // A Scalar thunk; an empty one throws and leaves the output as it was.
  apply_index(D, no_mask, no_accum, colindex{}, A, Scalar<int>(2));
  CHECK(*D.get(0, 1) == 3);
  const auto before = oracle::to_map(D);
  CHECK_THROWS_AS(apply_index(D, no_mask, no_accum, colindex{}, A, Scalar<int>()), empty_object);
  Matrix<std::int64_t> wrong(18, 18);
  CHECK_THROWS_AS(apply_index(wrong, no_mask, no_accum, rowindex{}, A, 0), dimension_mismatch);
  CHECK_THROWS_AS(apply_index(D, Matrix<bool>(3, 3), no_accum, rowindex{}, A, 0), dimension_mismatch);
  CHECK(oracle::to_map(D) == before);
}

TEST_CASE("select: triangles, diagonals and value comparisons", "[select][hand]") {
  // Full 3x3 with A(i,j) = 3i + j.
  std::vector<index_t> r, c;
  std::vector<int> v;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.push_back(i), c.push_back(j), v.push_back(3 * i + j);
  auto A = Matrix<int>::from_coo(3, 3, r, c, v, no_duplicates);
  Matrix<int> C(3, 3);
  select(C, no_mask, no_accum, tril{}, A, -1);  // strictly lower
  CHECK(C.nvals() == 3);
  CHECK(*C.get(2, 0) == 6);
  select(C, no_mask, no_accum, triu{}, A, 0);
  CHECK(C.nvals() == 6);
  select(C, no_mask, no_accum, diag{}, A, 1);
  CHECK(C.nvals() == 2);
  CHECK(*C.get(0, 1) == 1);
  select(C, no_mask, no_accum, offdiag{}, A, 0);
  CHECK(C.nvals() == 6);
  select(C, no_mask, no_accum, value_gt{}, A, 4);
  CHECK(C.nvals() == 4);
  select(C, no_mask, no_accum, value_le{}, A, 0);
  CHECK(C.nvals() == 1);
  select(C, no_mask, no_accum, value_eq{}, A, 7);
  CHECK(*C.get(2, 1) == 7);
  select(C, no_mask, no_accum, value_ne{}, A, 7);
  CHECK(C.nvals() == 8);
  select(C, no_mask, no_accum, value_ge{}, A, 8);
  CHECK(C.nvals() == 1);
  select(C, no_mask, no_accum, value_lt{}, A, 1);
  CHECK(C.nvals() == 1);
}

TEST_CASE("reduce to scalars and vectors", "[reduce][hand]") {
  auto A = small({0, 0, 2}, {0, 2, 1}, {5, -3, 7});
  CHECK(reduce(plus_monoid{}, A) == 9);
  CHECK(reduce(min_monoid{}, A) == -3);
  CHECK(reduce(max_monoid{}, A) == 7);
  Matrix<int> E(4, 4);
  CHECK(reduce(max_monoid{}, E) == std::numeric_limits<int>::lowest());  // identity when empty
  CHECK(reduce(plus_monoid{}, Matrix<double>(2, 2)) == 0.0);
  int s = 100;
  reduce(s, plus{}, plus_monoid{}, A);
  CHECK(s == 109);
  Vector<int> w(3);
  reduce(w, no_mask, no_accum, plus_monoid{}, A);
  CHECK(*w.get(0) == 2);
  CHECK_FALSE(w.get(1).has_value());  // empty row: no entry
  CHECK(*w.get(2) == 7);
  Vector<int> cols(3);
  reduce(cols, no_mask, no_accum, max_monoid{}, A, descriptor{}.with_transpose_a());
  CHECK(*cols.get(0) == 5);
  CHECK(*cols.get(1) == 7);
  CHECK(*cols.get(2) == -3);
  // Vector mask, accumulate, replace.
  Vector<bool> m(3);
  m.set(0, true);
  m.set(1, true);
  Vector<int> acc(3);
  acc.set(0, 1);
  acc.set(2, 1);
  reduce(acc, m, plus{}, plus_monoid{}, A, descriptor{}.with_replace());
  CHECK(*acc.get(0) == 3);
  CHECK_FALSE(acc.get(1).has_value());
  CHECK_FALSE(acc.get(2).has_value());  // outside the mask, replaced
  Vector<int> bad(4);
  CHECK_THROWS_AS(reduce(bad, no_mask, no_accum, plus_monoid{}, A), dimension_mismatch);
}

TEST_CASE("transpose with masks; double transpose via the descriptor", "[transpose][hand]") {
  auto A = small({0, 1}, {2, 0}, {4, 5}, 2, 3);
  Matrix<int> C(3, 2);
  transpose(C, no_mask, no_accum, A);
  CHECK(*C.get(2, 0) == 4);
  CHECK(*C.get(0, 1) == 5);
  Matrix<int> D(2, 3);
  transpose(D, no_mask, no_accum, A, descriptor{}.with_transpose_a());
  CHECK(*D.get(0, 2) == 4);
  CHECK_THROWS_AS(transpose(D, no_mask, no_accum, A), dimension_mismatch);
}

TEST_CASE("element-wise, apply, select and transpose against the oracle", "[ewise][apply][select][transpose][random]") {
  std::mt19937_64 rng(99);
  for (index_t m : {0, 1, 17, 40})
    for (index_t n : {1, 16, 33})
      for (double density : {0.05, 0.5}) {
        auto A = oracle::random_matrix<int>(rng, m, n, density);
        auto B = oracle::random_matrix<int>(rng, m, n, density);
        const auto Am = oracle::to_map(A), Bm = oracle::to_map(B);
        dmap<int> add = Am, mult;
        for (const auto& [k, b] : Bm) {
          auto it = add.find(k);
          if (it == add.end()) add[k] = b;
          else {
            it->second = it->second * b;  // op = times on the union
            mult[k] = it->second;
          }
        }
        check_writeback<int>(
            rng, m, n, add,
            [&](Matrix<int>& C, const auto& mask, const auto& acc, const descriptor& d) {
              ewise_add(C, mask, acc, times{}, A, B, d);
            },
            plus{}, "ewise_add");
        check_writeback<int>(
            rng, m, n, mult,
            [&](Matrix<int>& C, const auto& mask, const auto& acc, const descriptor& d) {
              ewise_mult(C, mask, acc, times{}, A, B, d);
            },
            min{}, "ewise_mult");
        dmap<int> neg, lower, diagidx;
        for (const auto& [k, a] : Am) {
          neg[k] = -a;
          if (k.second <= k.first + 1) lower[k] = a;
          diagidx[k] = int(k.second - (k.first + 2));  // diagindex, thunk 2
        }
        check_writeback<int>(
            rng, m, n, diagidx,
            [&](Matrix<int>& C, const auto& mask, const auto& acc, const descriptor& d) {
              apply_index(C, mask, acc, diagindex{}, A, 2, d);
            },
            plus{}, "apply_index diagindex");
        check_writeback<int>(
            rng, m, n, neg,
            [&](Matrix<int>& C, const auto& mask, const auto& acc, const descriptor& d) {
              apply(C, mask, acc, ainv{}, A, d);
            },
            plus{}, "apply");
        check_writeback<int>(
            rng, m, n, lower,
            [&](Matrix<int>& C, const auto& mask, const auto& acc, const descriptor& d) {
              select(C, mask, acc, tril{}, A, 1, d);
            },
            max{}, "select");
        check_writeback<int>(
            rng, n, m, oracle::transposed(Am),
            [&](Matrix<int>& C, const auto& mask, const auto& acc, const descriptor& d) {
              transpose(C, mask, acc, A, d);
            },
            plus{}, "transpose");
        // Row and column reductions.
        Vector<int> w(m), wc(n);
        reduce(w, no_mask, no_accum, plus_monoid{}, A);
        reduce(wc, no_mask, no_accum, min_monoid{}, A, descriptor{}.with_transpose_a());
        std::map<index_t, int> rs, cm;
        for (const auto& [k, a] : Am) {
          rs[k.first] += a;
          auto it = cm.find(k.second);
          if (it == cm.end()) cm[k.second] = a;
          else it->second = std::min(it->second, a);
        }
        for (index_t i = 0; i < m; ++i) {
          if (rs.count(i)) REQUIRE(w.get(i) == std::optional<int>(rs[i]));
          else REQUIRE_FALSE(w.get(i).has_value());
        }
        for (index_t j = 0; j < n; ++j) {
          if (cm.count(j)) REQUIRE(wc.get(j) == std::optional<int>(cm[j]));
          else REQUIRE_FALSE(wc.get(j).has_value());
        }
        int total = 0;
        for (const auto& [k, a] : Am) total += a;
        REQUIRE(reduce(plus_monoid{}, A) == total);
      }
}

namespace {
// C = A .op. B (union and intersection) against the GraphBLAS rule: both
// operands cast to the operator's domain D, the result cast to TC.
template <class TC, class TA, class TB, class Op>
void check_cast(std::mt19937_64& rng, const Op& op, const char* name) {
  using D = detail::op_domain_t<Op, TA, TB>;
  const index_t n = 20;
  const auto A = oracle::cast_operand<TA>(rng, n);
  const auto B = oracle::cast_operand<TB>(rng, n);
  const auto a = oracle::to_map(A), b = oracle::to_map(B);
  for (const bool add : {true, false}) {
    dmap<TC> want;
    for (const auto& [k, x] : a) {
      const auto it = b.find(k);
      if (it != b.end()) want[k] = detail::cast<TC>(op(detail::cast<D>(x), detail::cast<D>(it->second)));
      else if (add) want[k] = detail::cast<TC>(detail::cast<D>(x));
    }
    if (add)
      for (const auto& [k, y] : b)
        if (!a.count(k)) want[k] = detail::cast<TC>(detail::cast<D>(y));
    Matrix<TC> C(n, n);
    if (add) ewise_add(C, no_mask, no_accum, op, A, B);
    else ewise_mult(C, no_mask, no_accum, op, A, B);
    INFO(name << (add ? " ewise_add" : " ewise_mult"));
    REQUIRE(oracle::diff(oracle::to_map(C), want) == "");
  }
}

template <class TC, class TA, class TB>
void check_cast_all_ops(std::mt19937_64& rng) {
  check_cast<TC, TA, TB>(rng, plus{}, "plus");
  check_cast<TC, TA, TB>(rng, minus{}, "minus");
  check_cast<TC, TA, TB>(rng, times{}, "times");
  check_cast<TC, TA, TB>(rng, tgb::div{}, "div");
  check_cast<TC, TA, TB>(rng, min{}, "min");
  check_cast<TC, TA, TB>(rng, max{}, "max");
  check_cast<TC, TA, TB>(rng, first{}, "first");
  check_cast<TC, TA, TB>(rng, second{}, "second");
  check_cast<TC, TA, TB>(rng, pair{}, "pair");
  check_cast<TC, TA, TB>(rng, any{}, "any");
  check_cast<TC, TA, TB>(rng, lor{}, "lor");
  check_cast<TC, TA, TB>(rng, land{}, "land");
  check_cast<TC, TA, TB>(rng, lxor{}, "lxor");
  check_cast<TC, TA, TB>(rng, eq{}, "eq");
  check_cast<TC, TA, TB>(rng, ne{}, "ne");
  check_cast<TC, TA, TB>(rng, lt{}, "lt");
  check_cast<TC, TA, TB>(rng, gt{}, "gt");
  check_cast<TC, TA, TB>(rng, le{}, "le");
  check_cast<TC, TA, TB>(rng, ge{}, "ge");
  check_cast<TC, TA, TB>(rng, power{}, "power");
}

// A user operator that states its domain: operands are cast to int first.
struct int_eq {
  using domain = int;
  template <class T>
  constexpr T operator()(T a, T b) const { return T(a == b); }
};
}  // namespace

TEST_CASE("element-wise operators compute in their domain, not in the output's type", "[ewise][cast]") {
  // The case that broke a connected-components program: eq on 2.0 and 7.0
  // into a bool matrix must compare the doubles.
  const auto A = Matrix<double>::from_coo(1, 2, std::vector<index_t>{0, 0}, std::vector<index_t>{0, 1},
                                          std::vector<double>{2.0, 0.5}, no_duplicates);
  const auto B = Matrix<double>::from_coo(1, 2, std::vector<index_t>{0, 0}, std::vector<index_t>{0, 1},
                                          std::vector<double>{7.0, 0.5}, no_duplicates);
  Matrix<bool> E(1, 2);
  ewise_mult(E, no_mask, no_accum, eq{}, A, B);
  CHECK(E.get(0, 0) == std::optional<bool>(false));
  CHECK(E.get(0, 1) == std::optional<bool>(true));
  Matrix<int> Q(1, 2);
  ewise_mult(Q, no_mask, no_accum, tgb::div{}, A, B);  // 2/7 and 1 in double, then cast: 0 and 1
  CHECK(Q.get(0, 0) == std::optional<int>(0));
  CHECK(Q.get(0, 1) == std::optional<int>(1));
  Matrix<bool> U(1, 2);
  ewise_mult(U, no_mask, no_accum, int_eq{}, A, B);  // int(0.5) == int(0.5), int(2) != int(7)
  CHECK(U.get(0, 0) == std::optional<bool>(false));
  CHECK(U.get(0, 1) == std::optional<bool>(true));
  std::mt19937_64 rng(2024);
  check_cast_all_ops<bool, double, double>(rng);
  check_cast_all_ops<int, double, double>(rng);
  check_cast_all_ops<std::int64_t, int, double>(rng);
  check_cast_all_ops<float, bool, int>(rng);
  check_cast_all_ops<double, float, std::int64_t>(rng);
}

TEST_CASE("integer division follows GraphBLAS where C leaves it undefined", "[ewise][hand]") {
  CHECK(tgb::div{}(7, 2) == 3);
  CHECK(tgb::div{}(-7, 2) == -3);
  CHECK(tgb::div{}(5, 0) == std::numeric_limits<int>::max());
  CHECK(tgb::div{}(-5, 0) == std::numeric_limits<int>::lowest());
  CHECK(tgb::div{}(0, 0) == 0);
  CHECK(tgb::div{}(std::numeric_limits<int>::lowest(), -1) == std::numeric_limits<int>::lowest());
  CHECK(tgb::div{}(true, false) == true);
  CHECK(tgb::div{}(1.0, 4.0) == 0.25);
}

TEST_CASE("casts from floating point to integers saturate and take NaN to 0, as in GraphBLAS", "[cast][hand]") {
  CHECK(detail::cast<int>(1e300) == std::numeric_limits<int>::max());
  CHECK(detail::cast<int>(-std::numeric_limits<double>::infinity()) == std::numeric_limits<int>::lowest());
  CHECK(detail::cast<std::int64_t>(std::nan("")) == 0);
  CHECK(detail::cast<std::int64_t>(9.3e18) == std::numeric_limits<std::int64_t>::max());
  CHECK(detail::cast<int>(-2.75) == -2);
  CHECK(detail::cast<bool>(0.25) == true);
  CHECK(detail::cast<float>(3) == 3.0f);
  // Through an operation: 1/0 in double into an int matrix.
  const auto A = Matrix<double>::from_coo(1, 2, std::vector<index_t>{0, 0}, std::vector<index_t>{0, 1},
                                          std::vector<double>{1.0, -1.0}, no_duplicates);
  const auto Z = Matrix<double>::from_coo(1, 2, std::vector<index_t>{0, 0}, std::vector<index_t>{0, 1},
                                          std::vector<double>{0.0, 0.0}, no_duplicates);
  Matrix<int> Q(1, 2);
  ewise_mult(Q, no_mask, no_accum, tgb::div{}, A, Z);
  CHECK(Q.get(0, 0) == std::optional<int>(std::numeric_limits<int>::max()));
  CHECK(Q.get(0, 1) == std::optional<int>(std::numeric_limits<int>::lowest()));
}

TEST_CASE("popcount16 counts every 16-bit mask and wider words", "[tile][hand]") {
  for (std::uint32_t x = 0; x < (1u << 16); ++x) {
    int n = 0;
    for (std::uint32_t y = x; y; y >>= 1) n += int(y & 1u);
    REQUIRE(detail::tile::popcount16(x) == n);
  }
  CHECK(detail::tile::popcount16(0xFFFFFFFFu) == 32);
  CHECK(detail::tile::popcount16(0x80010000u) == 2);
}
