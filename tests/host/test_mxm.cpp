// mxm on the host backend: hand-checked cases, then randomized cases against
// the naive oracle over every semiring, mask mode, replace, accumulator and
// transpose combination.
#include <cmath>
#include <limits>
#include <random>

#include "../oracle.hpp"
#include "../tgb_catch.hpp"

using namespace tgb;
using oracle::dmap;

namespace {

template <class T>
Matrix<T> dense_matrix(std::initializer_list<std::initializer_list<std::optional<T>>> rows) {
  std::vector<index_t> r, c;
  std::vector<T> v;
  index_t i = 0, ncols = 0;
  for (const auto& row : rows) {
    index_t j = 0;
    for (const auto& x : row) {
      if (x) {
        r.push_back(i);
        c.push_back(j);
        v.push_back(*x);
      }
      ++j;
    }
    ncols = std::max(ncols, j);
    ++i;
  }
  return Matrix<T>::from_coo(i, ncols, r, c, v, no_duplicates);
}

const std::nullopt_t _ = std::nullopt;

}  // namespace

TEST_CASE("mxm plus_times on a hand-checked 2x2 product", "[mxm][hand]") {
  auto A = dense_matrix<double>({{1.0, 2.0}, {_, 3.0}});
  auto B = dense_matrix<double>({{4.0, _}, {5.0, 6.0}});
  Matrix<double> C(2, 2);
  mxm(C, no_mask, no_accum, plus_times, A, B);
  CHECK(C.nvals() == 4);
  CHECK(*C.get(0, 0) == 14.0);
  CHECK(*C.get(0, 1) == 12.0);
  CHECK(*C.get(1, 0) == 15.0);
  CHECK(*C.get(1, 1) == 18.0);
}

TEST_CASE("mxm min_plus creates entries on first write, never from a zero start", "[mxm][hand]") {
  // Path weights 0->1 (5), 1->2 (-3), 0->2 (7): two hops from 0 reach 2 at 2.
  auto A = dense_matrix<double>({{_, 5.0, 7.0}, {_, _, -3.0}, {_, _, _}});
  Matrix<double> C(3, 3);
  mxm(C, no_mask, no_accum, min_plus, A, A);
  CHECK(C.nvals() == 1);
  CHECK(*C.get(0, 2) == 2.0);
  CHECK_FALSE(C.get(0, 0).has_value());
  // max_plus over int: identity is lowest(), not 0, so negatives survive.
  auto B = dense_matrix<int>({{_, -5}, {-7, _}});
  Matrix<int> D(2, 2);
  mxm(D, no_mask, no_accum, max_plus, B, B);
  CHECK(*D.get(0, 0) == -12);
  CHECK(*D.get(1, 1) == -12);
}

TEST_CASE("mxm NaN handling in min/max monoids matches fmin/fmax", "[mxm][hand]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // C(0,0) = min(NaN + 1, 2 + 1): the NaN is ignored. C(1,0) = NaN + 1 alone stays NaN.
  auto A = dense_matrix<double>({{nan, 2.0}, {nan, _}});
  auto B = dense_matrix<double>({{1.0}, {1.0}});
  Matrix<double> C(2, 1);
  mxm(C, no_mask, no_accum, min_plus, A, B);
  CHECK(*C.get(0, 0) == 3.0);
  CHECK(std::isnan(*C.get(1, 0)));
  Matrix<double> D(2, 1);
  mxm(D, no_mask, no_accum, max_plus, A, B);
  CHECK(*D.get(0, 0) == 3.0);
}

TEST_CASE("min and max on floating point give std::fmin's and std::fmax's result for every pair", "[ops][hand]") {
  // The host writes them out (no libm call): NaNs and infinities must come
  // out as fmin/fmax give them. For +0 against -0 IEEE 754 lets either zero
  // be the answer (and compilers fold std::fmin either way): tgb's is the
  // first operand, as glibc's fmin and fmax return.
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const double v[] = {1.0, -1.0, 0.0, -0.0, nan, inf, -inf, 2.5, std::numeric_limits<double>::denorm_min()};
  auto same = [](double p, double q) {
    return (std::isnan(p) && std::isnan(q)) || p == q;
  };
  CHECK(!std::signbit(tgb::min{}(0.0, -0.0)));
  CHECK(std::signbit(tgb::min{}(-0.0, 0.0)));
  CHECK(!std::signbit(tgb::max{}(0.0f, -0.0f)));
  CHECK(std::signbit(tgb::max{}(-0.0f, 0.0f)));
  for (double a : v)
    for (double b : v) {
      INFO(a << " and " << b);
      CHECK(same(tgb::min{}(a, b), std::fmin(a, b)));
      CHECK(same(tgb::max{}(a, b), std::fmax(a, b)));
      CHECK(same(double(tgb::min{}(float(a), float(b))), double(std::fmin(float(a), float(b)))));
      CHECK(same(double(tgb::max{}(float(a), float(b))), double(std::fmax(float(a), float(b)))));
    }
}

TEST_CASE("mxm boolean and counting semirings", "[mxm][hand]") {
  // Path graph 0-1-2-3 (symmetric).
  auto A = dense_matrix<bool>({{_, true, _, _}, {true, _, true, _}, {_, true, _, true}, {_, _, true, _}});
  Matrix<bool> R(4, 4);
  mxm(R, no_mask, no_accum, lor_land, A, A);
  // Two-hop reachability: 0->0, 0->2, 1->1, 1->3, 2->0, 2->2, 3->1, 3->3.
  CHECK(R.nvals() == 8);
  CHECK(*R.get(0, 2));
  CHECK_FALSE(R.get(0, 1).has_value());
  Matrix<std::int64_t> P(4, 4);
  mxm(P, no_mask, no_accum, plus_pair, A, A);
  CHECK(*P.get(1, 1) == 2);  // vertex 1 has two neighbours
  CHECK(*P.get(0, 2) == 1);
  Matrix<bool> Q(4, 4);
  mxm(Q, no_mask, no_accum, any_pair, A, A);
  CHECK(Q.nvals() == 8);
}

TEST_CASE("mxm masks: value, structure, complement, replace, accumulate", "[mxm][hand][mask]") {
  auto A = dense_matrix<int>({{1, 2}, {3, 4}});
  // A*A = [[7, 10], [15, 22]].
  auto M = dense_matrix<int>({{1, 0}, {_, 5}});  // stored: (0,0)=1 (0,1)=0 (1,1)=5
  auto C0 = dense_matrix<int>({{100, _}, {200, 300}});

  SECTION("value mask, merge") {
    Matrix<int> C = C0;
    mxm(C, M, no_accum, plus_times, A, A);
    CHECK(*C.get(0, 0) == 7);
    CHECK_FALSE(C.get(0, 1).has_value());  // M(0,1) is a stored zero: not written
    CHECK(*C.get(1, 0) == 200);            // outside the mask: kept
    CHECK(*C.get(1, 1) == 22);
  }
  SECTION("structural mask admits stored zeros") {
    Matrix<int> C = C0;
    mxm(C, structure(M), no_accum, plus_times, A, A);
    CHECK(*C.get(0, 1) == 10);
    CHECK(*C.get(1, 0) == 200);
  }
  SECTION("complemented value mask with replace") {
    Matrix<int> C = C0;
    mxm(C, complement(M), no_accum, plus_times, A, A, descriptor{}.with_replace());
    CHECK(C.nvals() == 2);
    CHECK(*C.get(0, 1) == 10);
    CHECK(*C.get(1, 0) == 15);
  }
  SECTION("complemented structural mask, merge") {
    Matrix<int> C = C0;
    mxm(C, complement(structure(M)), no_accum, plus_times, A, A);
    CHECK(*C.get(0, 0) == 100);
    CHECK_FALSE(C.get(0, 1).has_value());
    CHECK(*C.get(1, 0) == 15);
    CHECK(*C.get(1, 1) == 300);
  }
  SECTION("accumulator without mask") {
    Matrix<int> C = C0;
    mxm(C, no_mask, plus{}, plus_times, A, A);
    CHECK(*C.get(0, 0) == 107);
    CHECK(*C.get(0, 1) == 10);
    CHECK(*C.get(1, 0) == 215);
    CHECK(*C.get(1, 1) == 322);
  }
  SECTION("accumulator with value mask and replace") {
    Matrix<int> C = C0;
    mxm(C, M, min{}, plus_times, A, A, descriptor{}.with_replace());
    CHECK(C.nvals() == 2);
    CHECK(*C.get(0, 0) == 7);
    CHECK(*C.get(1, 1) == 22);
  }
}

TEST_CASE("mxm transposed inputs", "[mxm][hand]") {
  auto A = dense_matrix<int>({{1, 2, 3}});  // 1 x 3
  Matrix<int> C(3, 3), D(1, 1);
  mxm(C, no_mask, no_accum, plus_times, A, A, descriptor{}.with_transpose_a());  // A'A
  CHECK(*C.get(2, 1) == 6);
  CHECK(C.nvals() == 9);
  mxm(D, no_mask, no_accum, plus_times, A, A, descriptor{}.with_transpose_b());  // AA'
  CHECK(*D.get(0, 0) == 14);
}

TEST_CASE("mxm across tile boundaries and rectangular shapes", "[mxm][hand]") {
  // 17 x 33 times 33 x 18 with entries on the last row/column of each tile.
  std::vector<index_t> r{0, 15, 16, 16}, c{15, 16, 32, 0};
  std::vector<double> v{2, 3, 5, 7};
  auto A = Matrix<double>::from_coo(17, 33, r, c, v, no_duplicates);
  std::vector<index_t> br{15, 16, 32, 0}, bc{17, 0, 16, 17};
  std::vector<double> bv{11, 13, 17, 19};
  auto B = Matrix<double>::from_coo(33, 18, br, bc, bv, no_duplicates);
  Matrix<double> C(17, 18);
  mxm(C, no_mask, no_accum, plus_times, A, B);
  CHECK(C.nvals() == 4);
  CHECK(*C.get(0, 17) == 22.0);
  CHECK(*C.get(15, 0) == 39.0);
  CHECK(*C.get(16, 16) == 85.0);
  CHECK(*C.get(16, 17) == 133.0);
}

TEST_CASE("mxm with C aliased to an input and to the mask", "[mxm][hand][alias]") {
  auto A = dense_matrix<int>({{1, 1}, {_, 1}});
  Matrix<int> C = A;
  mxm(C, no_mask, no_accum, plus_times, C, C);  // C = C*C
  CHECK(*C.get(0, 1) == 2);
  CHECK(*C.get(0, 0) == 1);
  Matrix<int> D = A;
  mxm(D, D, plus{}, plus_times, A, A);  // D<D> += A*A
  CHECK(*D.get(0, 0) == 2);
  CHECK(*D.get(0, 1) == 3);
  CHECK_FALSE(D.get(1, 0).has_value());
}

TEST_CASE("mxm errors leave C unchanged", "[mxm][errors]") {
  auto A = dense_matrix<int>({{1, 2, 3}});
  Matrix<int> C = dense_matrix<int>({{9}});
  try {
    mxm(C, no_mask, no_accum, plus_times, A, A);
    FAIL("expected a dimension mismatch");
  } catch (const dimension_mismatch& e) {
    CHECK(e.info_code() == -6);
    CHECK(std::string(e.what()).find("1 x 3") != std::string::npos);
  }
  CHECK(C.nvals() == 1);
  CHECK(*C.get(0, 0) == 9);
  Matrix<int> M(2, 2);
  CHECK_THROWS_AS(mxm(C, M, no_accum, plus_times, A, A, descriptor{}.with_transpose_b()), dimension_mismatch);
  CHECK(*C.get(0, 0) == 9);
}

TEST_CASE("mxm user-defined semiring from plain function objects", "[mxm][hand][user]") {
  // (max, *) on int with a user monoid: max with identity 0 (valid for
  // non-negative data), terminal 100.
  auto mx = make_monoid([](int a, int b) { return a > b ? a : b; }, 0, 100);
  auto sr = make_semiring(mx, [](int a, int b) { return a * b; });
  auto A = dense_matrix<int>({{2, 3}, {50, 1}});
  Matrix<int> C(2, 2);
  mxm(C, no_mask, no_accum, sr, A, A);
  CHECK(*C.get(0, 0) == 150);  // max(2*2, 3*50)
  CHECK(*C.get(1, 0) == 100);  // max(50*2, ...) reaches the terminal 100 first
  CHECK(*C.get(1, 1) == 150);  // max(50*3, 1*1)
}

// ------------------------------------------------------------ randomized

namespace {

const index_t kShapes[] = {0, 1, 15, 16, 17, 33};
const double kDensities[] = {0.002, 0.05, 0.3, 0.9};

struct config {
  int mask_mode;  // 0 none, 1 value, 2 structure, 3 complement value, 4 complement structure
  bool replace;
  bool accum;
  bool ta, tb;
  index_t m, k, n;
  double density;
  std::string str() const {
    std::ostringstream os;
    os << "mask=" << mask_mode << " replace=" << replace << " accum=" << accum << " ta=" << ta << " tb=" << tb
       << " m=" << m << " k=" << k << " n=" << n << " density=" << density;
    return os.str();
  }
};

template <class TC, class TA, class TB, class SR, class Acc>
void check_case(std::mt19937_64& rng, const SR& sr, const Acc& acc, const config& cfg, double tol,
                const detail::host::mxm_policy* pol = nullptr) {
  auto A = oracle::random_matrix<TA>(rng, cfg.ta ? cfg.k : cfg.m, cfg.ta ? cfg.m : cfg.k, cfg.density);
  auto B = oracle::random_matrix<TB>(rng, cfg.tb ? cfg.n : cfg.k, cfg.tb ? cfg.k : cfg.n, cfg.density);
  auto C0 = oracle::random_matrix<TC>(rng, cfg.m, cfg.n, 0.3);
  auto Mm = oracle::random_matrix<int>(rng, cfg.m, cfg.n, 0.5);
  descriptor d;
  d.replace = cfg.replace;
  d.transpose_a = cfg.ta;
  d.transpose_b = cfg.tb;

  Matrix<TC> C = C0;
  auto run = [&](const auto& mask) {
    if (pol) {  // a forced method or knob: the host branch of mxm with that policy
      if (cfg.accum) detail::mxm_host(C, mask, acc, sr, A, B, d, *pol);
      else detail::mxm_host(C, mask, no_accum, sr, A, B, d, *pol);
    } else if (cfg.accum) {
      mxm(C, mask, acc, sr, A, B, d);
    } else {
      mxm(C, mask, no_accum, sr, A, B, d);
    }
  };
  const oracle::mask_spec ms = oracle::with_mask_mode(cfg.mask_mode, Mm, run);
  auto Am = oracle::to_map(A), Bm = oracle::to_map(B);
  if (cfg.ta) Am = oracle::transposed(Am);
  if (cfg.tb) Bm = oracle::transposed(Bm);
  const auto T = oracle::product<TC>(Am, Bm, sr);
  const auto want = oracle::writeback<TC>(oracle::to_map(C0), T, ms,
                                          cfg.accum ? std::optional<Acc>(acc) : std::optional<Acc>(), cfg.replace);
  INFO(cfg.str());
  REQUIRE(C.nrows() == cfg.m);
  REQUIRE(C.ncols() == cfg.n);
  REQUIRE(oracle::diff(oracle::to_map(C), want, tol) == "");
}

// Every mask x replace x accum x transpose combination, on random shapes
// from kShapes and random densities.
template <class TC, class TA, class TB, class SR, class Acc>
void all_combinations(std::uint64_t seed, const SR& sr, const Acc& acc, double tol = 0.0,
                      const detail::host::mxm_policy* pol = nullptr) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> pick_shape(0, 5), pick_density(0, 3);
  for (int mask = 0; mask < 5; ++mask)
    for (int rep = 0; rep < 2; ++rep)
      for (int ac = 0; ac < 2; ++ac)
        for (int tr = 0; tr < 4; ++tr) {
          config cfg{mask, rep == 1, ac == 1, (tr & 1) != 0, (tr & 2) != 0, kShapes[pick_shape(rng)],
                     kShapes[pick_shape(rng)], kShapes[pick_shape(rng)], kDensities[pick_density(rng)]};
          check_case<TC, TA, TB>(rng, sr, acc, cfg, tol, pol);
        }
}

}  // namespace

TEST_CASE("mxm random: plus_times on every type, every mask mode", "[mxm][random]") {
  all_combinations<double, double, double>(1, plus_times, plus{});
  all_combinations<float, float, float>(2, plus_times, plus{});
  all_combinations<std::int32_t, std::int32_t, std::int32_t>(3, plus_times, plus{});
  all_combinations<std::int64_t, std::int64_t, std::int64_t>(4, plus_times, min{});
  all_combinations<bool, bool, bool>(5, plus_times, lor{});
}

TEST_CASE("mxm random: min/max semirings", "[mxm][random]") {
  all_combinations<double, double, double>(11, min_plus, min{});
  all_combinations<std::int64_t, std::int64_t, std::int64_t>(12, min_plus, plus{});
  all_combinations<float, float, float>(13, max_plus, max{});
  all_combinations<std::int32_t, std::int32_t, std::int32_t>(14, max_plus, plus{});
  all_combinations<double, double, double>(15, min_times, min{});
  all_combinations<std::int64_t, std::int64_t, std::int64_t>(16, max_times, max{});
  all_combinations<std::int32_t, std::int32_t, std::int32_t>(17, min_max, min{});
  all_combinations<double, double, double>(18, max_min, max{});
  all_combinations<std::int32_t, std::int32_t, std::int32_t>(19, plus_min, plus{});
}

TEST_CASE("mxm random: boolean, pair, first/second and any semirings", "[mxm][random]") {
  all_combinations<bool, bool, bool>(21, lor_land, lor{});
  all_combinations<std::int64_t, bool, bool>(22, plus_pair, plus{});
  all_combinations<bool, bool, bool>(23, any_pair, lor{});
  all_combinations<double, double, double>(24, plus_first, plus{});
  all_combinations<std::int64_t, std::int64_t, std::int64_t>(25, plus_second, plus{});
  all_combinations<std::int32_t, std::int32_t, std::int32_t>(26, min_first, min{});
  all_combinations<double, double, double>(27, min_second, min{});
  all_combinations<std::int32_t, std::int32_t, std::int32_t>(28, any_second, second{});
  all_combinations<std::int64_t, std::int32_t, double>(29, plus_times, plus{});  // mixed input types
}

TEST_CASE("mxm random: sparse and dense accumulators agree with the oracle", "[mxm][random][accumulator]") {
  detail::host::mxm_policy pol;
  pol.method = detail::host::mxm_method::tile_gustavson;
  for (int threshold : {0, 1000}) {
    pol.dense_tile_threshold = threshold;
    all_combinations<double, double, double>(31 + threshold, plus_times, plus{}, 0.0, &pol);
    all_combinations<std::int32_t, std::int32_t, std::int32_t>(33 + threshold, min_plus, min{}, 0.0, &pol);
  }
}

TEST_CASE("mxm random: larger shapes from hypersparse to dense tiles", "[mxm][random][large]") {
  std::mt19937_64 rng(41);
  for (double density : {0.001, 0.01, 0.08}) {
    for (int mask : {0, 1, 4}) {
      config cfg{mask, mask == 1, mask == 4, false, mask == 4, 211, 300, 257, density};
      check_case<double, double, double>(rng, plus_times, plus{}, cfg, 1e-12);
      check_case<std::int64_t, std::int64_t, std::int64_t>(rng, min_plus, min{}, cfg, 0);
    }
  }
  // Dense tiles: a fully stored 64 x 64 block.
  config cfg{0, false, false, false, false, 64, 64, 64, 1.0};
  check_case<double, double, double>(rng, plus_times, plus{}, cfg, 1e-12);
  cfg.mask_mode = 3;
  check_case<bool, bool, bool>(rng, lor_land, lor{}, cfg, 0);
}

TEST_CASE("mxm random: masked products by tile pairs and by tile dot products agree with the oracle",
          "[mxm][random][mask]") {
  using detail::host::mxm_method;
  for (auto method : {mxm_method::tile_gustavson, mxm_method::tile_dot}) {
    detail::host::mxm_policy pol;
    pol.method = method;
    all_combinations<double, double, double>(51, plus_times, plus{}, 0.0, &pol);
    all_combinations<std::int64_t, bool, bool>(52, plus_pair, plus{}, 0.0, &pol);
    all_combinations<std::int32_t, std::int32_t, std::int32_t>(53, any_second, second{}, 0.0, &pol);
    all_combinations<float, float, float>(54, min_plus, min{}, 0.0, &pol);
    pol.dense_tile_threshold = 0;  // the dense accumulator on every tile
    all_combinations<std::int64_t, std::int64_t, std::int64_t>(55, max_times, max{}, 0.0, &pol);
  }
}
