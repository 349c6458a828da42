// mxm on the GPU against the host backend: the same randomized cases (every
// semiring, mask mode, replace, accumulator and transpose) and the real
// matrices. Patterns and integer/bool/min/max/any values must be identical;
// floating-point plus within 1e-12 relative (the GPU contracts a*b+c into
// one fused multiply-add).
#include <cuda_runtime.h>

#include <cmath>
#include <random>

#include "../oracle.hpp"
#include "tgb/detail/cuda/plan.hpp"
#include "../tgb_catch.hpp"

using namespace tgb;

namespace {

using oracle::on_device;

using oracle::on_host;

struct dcase {
  int mask;
  bool replace, accum, ta, tb;
  index_t m, k, n;
  double density;
  double side_density = 0.5;  // of the mask (C's start: 0.6 of it)
};

// pol: the device's method policy (nullptr: the public mxm, automatic).
template <class TC, class TA, class TB, class SR, class Acc>
void check_device(std::mt19937_64& rng, const SR& sr, const Acc& acc, const dcase& c, double tol,
                  const detail::mxm_policy* pol = nullptr) {
  const auto A = oracle::random_matrix<TA>(rng, c.ta ? c.k : c.m, c.ta ? c.m : c.k, c.density);
  const auto B = oracle::random_matrix<TB>(rng, c.tb ? c.n : c.k, c.tb ? c.k : c.n, c.density);
  const auto C0 = oracle::random_matrix<TC>(rng, c.m, c.n, 0.6 * c.side_density);
  const auto M = oracle::random_matrix<int>(rng, c.m, c.n, c.side_density);
  descriptor d;
  d.replace = c.replace;
  d.transpose_a = c.ta;
  d.transpose_b = c.tb;
  auto run = [&](Matrix<TC>& C, const Matrix<TA>& a, const Matrix<TB>& b, const Matrix<int>& m,
                 const detail::mxm_policy* p) {
    auto go = [&](const auto& mask) {
      if (!p) {
        if (c.accum) mxm(C, mask, acc, sr, a, b, d);
        else mxm(C, mask, no_accum, sr, a, b, d);
      } else {
        if (c.accum) detail::mxm_cuda(C, mask, acc, sr, a, b, d, *p);
        else detail::mxm_cuda(C, mask, no_accum, sr, a, b, d, *p);
      }
    };
    oracle::with_mask_mode(c.mask, m, go);
  };
  Matrix<TC> host = C0;
  run(host, A, B, M, nullptr);
  Matrix<TC> dev = on_device(C0);
  run(dev, on_device(A), on_device(B), on_device(M), pol);
  REQUIRE(dev.location() == backend::cuda);
  INFO("mask " << c.mask << " replace " << c.replace << " accum " << c.accum << " ta " << c.ta << " tb " << c.tb
               << " m " << c.m << " k " << c.k << " n " << c.n << " density " << c.density);
  REQUIRE(dev.nvals() == host.nvals());
  REQUIRE(oracle::diff(oracle::to_map(on_host(dev)), oracle::to_map(host), tol) == "");
}

template <class TC, class TA, class TB, class SR, class Acc>
void all_device_combinations(std::uint64_t seed, const SR& sr, const Acc& acc, double tol = 0,
                             const detail::mxm_policy* pol = nullptr) {
  std::mt19937_64 rng(seed);
  const index_t shapes[] = {0, 1, 15, 16, 17, 33, 70};
  const double dens[] = {0.002, 0.05, 0.3, 0.9};
  std::uniform_int_distribution<int> ps(0, 6), pd(0, 3);
  for (int mask = 0; mask < 5; ++mask)
    for (int rep = 0; rep < 2; ++rep)
      for (int ac = 0; ac < 2; ++ac)
        for (int tr = 0; tr < 4; ++tr) {
          dcase c{mask, rep == 1, ac == 1, (tr & 1) != 0, (tr & 2) != 0, shapes[ps(rng)], shapes[ps(rng)],
                  shapes[ps(rng)], dens[pd(rng)]};
          check_device<TC, TA, TB>(rng, sr, acc, c, tol, pol);
        }
}

std::string data(const std::string& f) { return std::string(TGB_TEST_DATA_DIR) + "/" + f; }

}  // namespace

TEST_CASE("device mxm equals host: plus_times on every type", "[cuda][mxm]") {
  all_device_combinations<double, double, double>(1, plus_times, plus{}, 1e-12);
  all_device_combinations<float, float, float>(2, plus_times, plus{}, 1e-5);
  all_device_combinations<std::int32_t, std::int32_t, std::int32_t>(3, plus_times, plus{});
  all_device_combinations<std::int64_t, std::int64_t, std::int64_t>(4, plus_times, min{});
  all_device_combinations<bool, bool, bool>(5, plus_times, lor{});
}

TEST_CASE("device mxm equals host: min/max, boolean, pair, first/second, any", "[cuda][mxm]") {
  all_device_combinations<double, double, double>(11, min_plus, min{});
  all_device_combinations<std::int64_t, std::int64_t, std::int64_t>(12, min_plus, plus{});
  all_device_combinations<float, float, float>(13, max_plus, max{});
  all_device_combinations<std::int32_t, std::int32_t, std::int32_t>(14, max_plus, plus{});
  all_device_combinations<double, double, double>(15, min_times, min{});
  all_device_combinations<std::int64_t, std::int64_t, std::int64_t>(16, max_times, max{});
  all_device_combinations<std::int32_t, std::int32_t, std::int32_t>(17, min_max, min{});
  all_device_combinations<double, double, double>(18, max_min, max{});
  all_device_combinations<std::int32_t, std::int32_t, std::int32_t>(19, plus_min, plus{});
  all_device_combinations<bool, bool, bool>(21, lor_land, lor{});
  all_device_combinations<std::int64_t, bool, bool>(22, plus_pair, plus{});
  all_device_combinations<bool, bool, bool>(23, any_pair, lor{});
  all_device_combinations<double, double, double>(24, plus_first, plus{}, 1e-12);
  all_device_combinations<std::int64_t, std::int64_t, std::int64_t>(25, plus_second, plus{});
  all_device_combinations<std::int32_t, std::int32_t, std::int32_t>(26, min_first, min{});
  all_device_combinations<double, double, double>(27, min_second, min{});
  all_device_combinations<std::int32_t, std::int32_t, std::int32_t>(28, any_second, second{});
}

TEST_CASE("device mxm equals host on larger and denser shapes", "[cuda][mxm][large]") {
  std::mt19937_64 rng(41);
  for (double density : {0.0005, 0.01, 0.1}) {
    for (int mask : {0, 1, 4}) {
      dcase c{mask, mask == 1, mask == 4, false, mask == 4, 611, 700, 557, density};
      check_device<double, double, double>(rng, plus_times, plus{}, c, 1e-12);
      check_device<std::int64_t, std::int64_t, std::int64_t>(rng, min_plus, min{}, c, 0);
    }
  }
  dcase full{0, false, false, false, false, 96, 96, 96, 1.0};  // full tiles: dense accumulator
  check_device<double, double, double>(rng, plus_times, plus{}, full, 1e-12);
  full.mask = 3;
  check_device<bool, bool, bool>(rng, lor_land, lor{}, full, 0);
}

// Routing between the tile path and the row path (hypersparse tile rows):
// every family of cases runs with the row path off, with every tile row that
// fits a block sent to it, and with the default routing (applied to small
// products too).
namespace {
// The planner (tile_gustavson, not row saxpy) with routing mode 0 (tile path
// only), 1 (every tile row that fits a block to the row path) or 2 (the
// default rule, applied to small products too).
detail::mxm_policy routed(int mode) {
  detail::mxm_policy p;
  p.method = detail::mxm_method::tile_gustavson;
  detail::device_row_routing& r = p.device_routing;
  r.row_path = mode != 0;
  if (mode == 1) r.max_products_per_pair = 1e18;
  if (mode != 0) r.min_pairs = 0;  // route even small test products
  return p;
}
}  // namespace

TEST_CASE("device mxm: the row path and the tile path both equal host", "[cuda][mxm][rowpath]") {
  for (int mode : {0, 1, 2}) {
    INFO("routing " << mode);
    const detail::mxm_policy planner = routed(mode);
    all_device_combinations<double, double, double>(101 + mode, plus_times, plus{}, 1e-12, &planner);
    all_device_combinations<std::int64_t, bool, bool>(111 + mode, plus_pair, plus{}, 0, &planner);
    all_device_combinations<bool, bool, bool>(131 + mode, lor_land, lor{}, 0, &planner);
    std::mt19937_64 rng(161 + mode);
    // Hypersparse shapes: a few entries per row over many tile columns, with
    // sparse masks in every mode, rectangular, transposed.
    for (int mask = 0; mask < 5; ++mask) {
      dcase c{mask, mask == 2, mask % 2 == 1, false, mask == 3, 2500, 2000, 3000, 3.0 / 2000, 0.004};
      check_device<double, double, double>(rng, plus_times, plus{}, c, 1e-12, &planner);
      check_device<std::int64_t, std::int64_t, std::int64_t>(rng, min_plus, min{}, c, 0, &planner);
      c.density = 40.0 / 2000;  // up to thousands of products per tile row: the larger bins
      check_device<float, float, float>(rng, max_times, max{}, c, 0, &planner);
    }
  }
}

TEST_CASE("device mxm: the row path folds in increasing k, as the host", "[cuda][mxm][rowpath]") {
  // The row path stores each product before adding it, so no multiply-add is
  // fused and its floating-point sums are the host's bit for bit.
  // (The planner's row path; row saxpy folds by compare-and-swap in an
  // order that varies, test_row_saxpy_device.cpp.)
  const detail::mxm_policy planner = routed(1);
  std::mt19937_64 rng(171);
  const auto A = oracle::random_matrix<double>(rng, 5000, 5000, 5.0 / 5000);
  Matrix<double> host(5000, 5000), dev = on_device(Matrix<double>(5000, 5000));
  mxm(host, no_mask, no_accum, plus_times, A, A);
  const auto dA = on_device(A);
  detail::mxm_cuda(dev, no_mask, no_accum, plus_times, dA, dA, descriptor{}, planner);
  REQUIRE(host.nvals() > 100000);
  CHECK(oracle::diff(oracle::to_map(on_host(dev)), oracle::to_map(host), 0) == "");
}

// The device's methods forced (the dot where a usable mask is given, its
// Gustavson form elsewhere), against the host's automatic choice.
TEST_CASE("device mxm: every method equals host", "[cuda][mxm][dot]") {
  for (auto method : {detail::mxm_method::row_dot, detail::mxm_method::tile_gustavson, detail::mxm_method::row_saxpy}) {
    INFO("method " << int(method));
    detail::mxm_policy pol;
    pol.method = method;
    all_device_combinations<double, double, double>(201, plus_times, plus{}, 1e-12, &pol);
    all_device_combinations<std::int64_t, bool, bool>(202, plus_pair, plus{}, 0, &pol);
    all_device_combinations<bool, bool, bool>(203, lor_land, lor{}, 0, &pol);
    all_device_combinations<std::int64_t, std::int64_t, std::int64_t>(204, min_plus, min{}, 0, &pol);
    all_device_combinations<std::int32_t, std::int32_t, std::int32_t>(205, any_second, second{}, 0, &pol);
    all_device_combinations<float, float, float>(206, max_times, max{}, 0, &pol);
    std::mt19937_64 rng(207);
    // Hypersparse and skewed shapes: rows much longer than others (the dot
    // searches instead of merging), sparse masks.
    for (int mask = 1; mask < 5; ++mask) {
      dcase c{mask, mask == 2, mask % 2 == 1, mask == 1, mask >= 3, 2500, 2000, 3000, 3.0 / 2000, 0.004};
      check_device<double, double, double>(rng, plus_times, plus{}, c, 1e-12, &pol);
      c.density = 0.2;
      c.k = 300;
      check_device<std::int64_t, std::int64_t, std::int64_t>(rng, min_plus, min{}, c, 0, &pol);
    }
  }
}

// The dot folds each entry's terms in increasing k, one product stored
// before it is added: its floating-point sums are the host's bit for bit.
TEST_CASE("device mxm: the dot method is the host's bit for bit", "[cuda][mxm][dot][sanitize]") {
  std::mt19937_64 rng(211);
  const auto A = oracle::random_matrix<double>(rng, 700, 900, 0.02);
  const auto B = oracle::random_matrix<double>(rng, 650, 900, 0.05);
  const auto M = oracle::random_matrix<int>(rng, 700, 650, 0.03);
  const descriptor d = descriptor{}.with_transpose_b();
  detail::mxm_policy pol;
  pol.method = detail::mxm_method::row_dot;
  Matrix<double> host(700, 650), dev = on_device(Matrix<double>(700, 650));
  detail::mxm_host(host, structure(M), no_accum, plus_times, A, B, d, pol);
  detail::mxm_cuda(dev, structure(on_device(M)), no_accum, plus_times, on_device(A), on_device(B), d, pol);
  REQUIRE(host.nvals() > 1000);
  CHECK(oracle::diff(oracle::to_map(on_host(dev)), oracle::to_map(host), 0) == "");
}

TEST_CASE("device mxm equals host on the real matrices", "[cuda][mxm][real]") {
  for (const char* f : {"karate.mtx", "west0067.mtx", "jagmesh7.mtx", "bcsstk13.mtx", "cryg2500.mtx", "netscience.mtx",
                        "ca-GrQc.mtx", "add32.mtx", "cage8.mtx", "fidapex6.mtx", "crack.mtx", "luxembourg.mtx"}) {
    INFO(f);
    const auto A = io::read_matrix_market<double>(data(f));
    const index_t n = A.nrows();
    Matrix<double> host(n, n);
    mxm(host, no_mask, no_accum, plus_times, A, A);
    Matrix<double> dev = on_device(Matrix<double>(n, n));
    const auto dA = on_device(A);
    mxm(dev, no_mask, no_accum, plus_times, dA, dA);
    CHECK(oracle::diff(oracle::to_map(on_host(dev)), oracle::to_map(host), 1e-12) == "");
    // The masked triangle product on the device gives the known count.
    const Matrix<bool> S = undirected_pattern(A);
    Matrix<bool> L(n, n);
    select(L, no_mask, no_accum, tril{}, S, -1);
    Matrix<std::int64_t> Ch(n, n);
    mxm(Ch, structure(L), no_accum, plus_pair, L, L, descriptor{}.with_transpose_b());
    const auto dL = on_device(L);
    Matrix<std::int64_t> Cd = on_device(Matrix<std::int64_t>(n, n));
    mxm(Cd, structure(dL), no_accum, plus_pair, dL, dL, descriptor{}.with_transpose_b());
    CHECK(oracle::diff(oracle::to_map(on_host(Cd)), oracle::to_map(Ch)) == "");
  }
}

TEST_CASE("residence: moves round-trip, mixed operands are an error, streams are honoured", "[cuda][residence]") {
  std::mt19937_64 rng(7);
  const auto A = oracle::random_matrix<double>(rng, 50, 40, 0.1);
  Matrix<double> d = A;
  d.to(backend::cuda);
  CHECK(d.location() == backend::cuda);
  CHECK(d.nvals() == A.nvals());
  CHECK_THROWS_AS(d.get(0, 0), invalid_value);
  const Matrix<double> copy = d;  // device-to-device copy
  CHECK(copy.location() == backend::cuda);
  CHECK(oracle::diff(oracle::to_map(on_host(copy)), oracle::to_map(A)) == "");
  Matrix<double> C(50, 50);
  try {
    mxm(C, no_mask, no_accum, plus_times, d, A, descriptor{}.with_transpose_b());
    FAIL("mixed residence accepted");
  } catch (const invalid_value& e) {
    CHECK(std::string(e.what()).find("move them") != std::string::npos);
  }
  CHECK(C.location() == backend::host);
  CHECK(C.nvals() == 0);
  // The element-wise operations run on the device too; a user-defined
  // operator cannot, and says so without touching E.
  Matrix<double> E = on_device(Matrix<double>(50, 40)), EH(50, 40);
  ewise_add(E, no_mask, no_accum, plus{}, d, d);
  ewise_add(EH, no_mask, no_accum, plus{}, A, A);
  CHECK(oracle::diff(oracle::to_map(on_host(E)), oracle::to_map(EH)) == "");
  const auto before = E.nvals();
  CHECK_THROWS_AS(ewise_add(E, no_mask, no_accum, [](double x, double y) { return x - y; }, d, d), not_implemented);
  CHECK(E.nvals() == before);
  // Work on a caller's stream.
  cudaStream_t s;
  REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
  {
    stream_scope scope(reinterpret_cast<stream_t>(s));
    Matrix<double> Cs = on_device(Matrix<double>(50, 50));
    mxm(Cs, no_mask, no_accum, plus_times, d, d, descriptor{}.with_transpose_b());
    Matrix<double> H(50, 50);
    mxm(H, no_mask, no_accum, plus_times, A, A, descriptor{}.with_transpose_b());
    CHECK(oracle::diff(oracle::to_map(on_host(Cs)), oracle::to_map(H), 1e-12) == "");
    // ... and the element-wise operations and reductions on the same stream.
    Matrix<double> Ts = on_device(Matrix<double>(50, 50)), TH(50, 50);
    select(Ts, structure(Cs), no_accum, value_gt{}, Cs, 0.0);
    select(TH, structure(H), no_accum, value_gt{}, H, 0.0);
    CHECK(oracle::diff(oracle::to_map(on_host(Ts)), oracle::to_map(TH), 1e-12) == "");
    const double sg = reduce(plus_monoid{}, Ts), sh = reduce(plus_monoid{}, TH);
    CHECK(std::fabs(sg - sh) <= 1e-9 * std::max(1.0, std::fabs(sh)));
  }
  cudaStreamDestroy(s);
  // Unsupported combinations fail cleanly rather than at link time.
  const Matrix<std::int32_t> I = on_device(oracle::random_matrix<std::int32_t>(rng, 10, 10, 0.3));
  Matrix<std::int64_t> J = on_device(Matrix<std::int64_t>(10, 10));
  CHECK_THROWS_AS(mxm(J, no_mask, no_accum, plus_times, I, I), not_implemented);
}

TEST_CASE("device memory is accounted and returned", "[cuda][memory]") {
  const std::size_t before = device_bytes_in_use();
  {
    std::mt19937_64 rng(9);
    auto A = on_device(oracle::random_matrix<double>(rng, 300, 300, 0.05));
    Matrix<double> C = on_device(Matrix<double>(300, 300));
    reset_device_peak_bytes();
    mxm(C, no_mask, no_accum, plus_times, A, A);
    CHECK(device_peak_bytes() > device_bytes_in_use() - before);
  }
  CHECK(device_bytes_in_use() == before);
}

TEST_CASE("device mxm, small cases for the sanitizers", "[cuda][sanitize]") {
  // A few cases of each mask mode, small enough to run under racecheck, on
  // the tile path (its numeric step by a warp a tile, then by 16 threads a
  // tile: every tile in a dense row, or at 96 the sparse slots below that)
  // and on the row path.
  std::mt19937_64 rng(77);
  for (int mode : {0, 1, 2})
  for (int mask = 0; mask < 5; ++mask) {
    detail::mxm_policy pol = routed(mode == 1 ? 1 : 0);
    pol.device_warp_pair_products = mode == 2 ? 1e300 : 0.0;
    pol.device_dense_tile_threshold = mask % 2 ? 0 : 96;
    dcase c{mask, mask % 2 == 1, mask >= 3, mask == 2, mask == 4, 40, 33, 47, 0.1};
    check_device<double, double, double>(rng, plus_times, plus{}, c, 1e-12, &pol);
    c.density = 0.9;
    check_device<std::int32_t, std::int32_t, std::int32_t>(rng, min_plus, min{}, c, 0, &pol);
  }
}

// The tile path's numeric step folds C's tiles by a warp each (tiles
// expanded in shared memory) or by 16 threads each, into C's slots or (every
// tile, threshold 0) through a dense row in shared memory; all equal host, on
// every mask mode and the semiring families, on shapes from empty to full
// tiles.
TEST_CASE("device mxm: the tile path's numeric kernels equal host", "[cuda][mxm][tile]") {
  for (int mode : {0, 1, 2}) {
    const int by_threads = mode > 0;
    INFO((mode == 0 ? "a warp a tile" : mode == 1 ? "16 threads a tile, sparse and dense" : "16 threads a tile, every tile dense"));
    detail::mxm_policy pol = routed(0);  // the tile path only
    pol.device_warp_pair_products = by_threads ? 1e300 : 0.0;
    pol.device_dense_tile_threshold = mode == 2 ? 0 : 96;  // 96: the sparse slots below, dense rows above
    all_device_combinations<double, double, double>(301 + 13 * mode, plus_times, plus{}, 1e-12, &pol);
    all_device_combinations<bool, bool, bool>(303 + 13 * mode, lor_land, lor{}, 0, &pol);
    all_device_combinations<std::int64_t, std::int64_t, std::int64_t>(305 + 13 * mode, min_plus, min{}, 0, &pol);
    all_device_combinations<float, float, float>(307 + 13 * mode, max_times, max{}, 0, &pol);
    all_device_combinations<std::int64_t, bool, bool>(309 + 13 * mode, plus_pair, plus{}, 0, &pol);
    all_device_combinations<std::int32_t, std::int32_t, std::int32_t>(311 + 13 * mode, any_second, second{}, 0, &pol);
    std::mt19937_64 rng(313 + 13 * mode);
    for (int mask = 0; mask < 5; ++mask) {
      dcase full{mask, mask == 2, mask == 4, mask == 1, mask == 3, 150, 96, 133, 1.0};  // full tiles
      check_device<double, double, double>(rng, plus_times, plus{}, full, 1e-12, &pol);
      full.density = 0.4;
      check_device<std::int64_t, std::int64_t, std::int64_t>(rng, min_plus, min{}, full, 0, &pol);
    }
    // Unmasked tile rows of exactly 32 pairs, the bound of the warp a tile row
    // that sorts them (4 tiles of A a row times 8 of B's), and of 36, past it
    // (the segmented sort), with the last tile row short (m = 40).
    for (index_t n : {index_t(128), index_t(144)}) {
      const dcase edge{0, false, false, false, false, 40, 64, n, 1.0};
      check_device<double, double, double>(rng, plus_times, plus{}, edge, 1e-12, &pol);
    }
  }
}

// Unmasked tile rows of more pairs than a warp sorts (36: a band of six
// tiles a tile row, times itself), in as many tile rows as make CUB's
// segmented sort partition its segments (more than a few hundred; fewer take
// its one-kernel fallback, which the 36-pair rows above reach): C equals host.
TEST_CASE("device mxm: many tile rows of 36 pairs (the segmented pair sort) equal host", "[cuda][mxm][tile]") {
  std::mt19937_64 rng(417);
  const index_t tm = 1200, n = 16 * (tm + 5);
  std::uniform_int_distribution<int> local(0, 15);
  std::uniform_real_distribution<double> val(-2, 2);
  std::vector<index_t> r, c;
  std::vector<double> v;
  for (index_t I = 0; I < tm + 5; ++I)
    for (index_t J = I; J < std::min<index_t>(I + 6, tm + 5); ++J)
      for (int q = 0; q < 4; ++q)  // every tile of the band holds an entry
        r.push_back(16 * I + local(rng)), c.push_back(16 * J + local(rng)), v.push_back(val(rng));
  const auto A = Matrix<double>::from_coo(n, n, r, c, v, plus{});
  for (bool dense_rows : {false, true}) {
    detail::mxm_policy pol = routed(0);  // the tile path only
    pol.device_warp_pair_products = 1e300;
    pol.device_dense_tile_threshold = dense_rows ? 0 : 96;
    Matrix<double> host(n, n), dev = on_device(Matrix<double>(n, n));
    mxm(host, no_mask, no_accum, plus_times, A, A);
    detail::mxm_cuda(dev, no_mask, no_accum, plus_times, on_device(A), on_device(A), descriptor{}, pol);
    REQUIRE(host.nvals() > 30000);  // 42,496
    CHECK(oracle::diff(oracle::to_map(on_host(dev)), oracle::to_map(host), 1e-12) == "");
  }
}

// Tile rows of a few tiles (a band: the CSR view walks them by half-warps)
// next to tile rows of many (dense rows: whole warps), in one matrix: the
// masked dot product and the export to device CSR arrays against the host.
TEST_CASE("device CSR views and the dot over short and long tile rows", "[cuda][mxm][dot][convert][sanitize]") {
  std::mt19937_64 rng(213);
  const index_t n = 600;
  std::vector<index_t> r, c;
  std::vector<double> v;
  std::uniform_real_distribution<double> val(-2, 2);
  std::bernoulli_distribution keep(0.5);
  for (index_t i = 0; i < n; ++i)
    for (index_t j = std::max<index_t>(0, i - 20); j < std::min(n, i + 21); ++j)
      if ((i / 16) % 5 == 3 ? keep(rng) || (j % 7 == 0) : (keep(rng) && std::abs(i - j) < 20))
        r.push_back(i), c.push_back(j), v.push_back(val(rng));
  for (index_t i = 160; i < 192; ++i)  // two tile rows of 38 tiles
    for (index_t j = 0; j < n; j += 3) r.push_back(i), c.push_back(j), v.push_back(val(rng));
  const auto A = Matrix<double>::from_coo(n, n, r, c, v, first{});
  const auto M = oracle::random_matrix<int>(rng, n, n, 0.05);
  for (bool tb : {true, false}) {
    const descriptor d = descriptor{}.with_transpose_b(tb);
    detail::mxm_policy pol;
    pol.method = detail::mxm_method::row_dot;
    Matrix<double> host(n, n), dev = on_device(Matrix<double>(n, n));
    detail::mxm_host(host, structure(M), no_accum, plus_times, A, A, d, pol);
    detail::mxm_cuda(dev, structure(on_device(M)), no_accum, plus_times, on_device(A), on_device(A), d, pol);
    REQUIRE(host.nvals() > 1000);
    CHECK(oracle::diff(oracle::to_map(on_host(dev)), oracle::to_map(host), 0) == "");
  }
  // Export to CSR arrays on the device: the host's CSR, entry for entry.
  const auto dA = on_device(A);
  const auto h = A.to_csr();
  long long *rp = nullptr, *ci = nullptr;
  double* vals = nullptr;
  REQUIRE(cudaMalloc(&rp, sizeof(long long) * (n + 1)) == cudaSuccess);
  REQUIRE(cudaMalloc(&ci, sizeof(long long) * h.colidx.size()) == cudaSuccess);
  REQUIRE(cudaMalloc(&vals, sizeof(double) * h.values.size()) == cudaSuccess);
  dA.to_device_csr(rp, ci, vals);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);  // it was issued on tgb's current stream
  std::vector<long long> hrp(n + 1), hci(h.colidx.size());
  std::vector<double> hv(h.values.size());
  REQUIRE(cudaMemcpy(hrp.data(), rp, sizeof(long long) * hrp.size(), cudaMemcpyDeviceToHost) == cudaSuccess);
  REQUIRE(cudaMemcpy(hci.data(), ci, sizeof(long long) * hci.size(), cudaMemcpyDeviceToHost) == cudaSuccess);
  REQUIRE(cudaMemcpy(hv.data(), vals, sizeof(double) * hv.size(), cudaMemcpyDeviceToHost) == cudaSuccess);
  cudaFree(rp), cudaFree(ci), cudaFree(vals);
  for (index_t i = 0; i <= n; ++i) REQUIRE(hrp[i] == static_cast<long long>(h.rowptr[i]));
  for (std::size_t k = 0; k < hci.size(); ++k) {
    REQUIRE(hci[k] == static_cast<long long>(h.colidx[k]));
    REQUIRE(hv[k] == h.values[k]);
  }
}

// The tile dot takes 4 threads a mask tile where the mask's tiles hold few
// entries and 16 where they are dense (kTileDotFewEntries): both against the
// host, with masks, operands and the mask forced into tiles, value masks
// with false entries, a terminal monoid, and entries whose rows share no
// column (absent from C).
TEST_CASE("device tile dot: sparse and dense mask tiles equal the host", "[cuda][mxm][dot][sanitize]") {
  std::mt19937_64 rng(217);
  const index_t n = 480;
  std::bernoulli_distribution keep(0.6), truth(0.8);
  std::uniform_int_distribution<int> val(-3, 3);
  auto band = [&](index_t width, bool values) {
    std::vector<index_t> r, c;
    std::vector<int> v;
    for (index_t i = 0; i < n; ++i)
      for (index_t j = std::max<index_t>(0, i - width); j < std::min(n, i + width + 1); ++j)
        if (keep(rng)) r.push_back(i), c.push_back(j), v.push_back(values ? val(rng) : (truth(rng) ? 1 : 0));
    auto m = Matrix<int>::from_coo(n, n, r, c, v, first{});
    m.set_storage(storage_control::tiles);
    return m;
  };
  auto sparse = [&](double density) {
    std::bernoulli_distribution here(density);
    std::vector<index_t> r, c;
    std::vector<int> v;
    for (index_t i = 0; i < n; ++i)
      for (index_t j = 0; j < n; ++j)
        if (here(rng)) r.push_back(i), c.push_back(j), v.push_back(truth(rng) ? 1 : 0);
    auto m = Matrix<int>::from_coo(n, n, r, c, v, first{});
    m.set_storage(storage_control::tiles);
    return m;
  };
  const Matrix<int> A = band(24, true), B = band(30, true);
  const Matrix<int> dense_mask = band(20, false), sparse_mask = sparse(0.02);
  REQUIRE(double(dense_mask.nvals()) > 16.0 * double(dense_mask.tiles().pat.ntiles()));
  REQUIRE(double(sparse_mask.nvals()) <= 16.0 * double(sparse_mask.tiles().pat.ntiles()));
  detail::mxm_policy pol;
  pol.method = detail::mxm_method::row_dot;
  const descriptor d = descriptor{}.with_transpose_b();
  for (const Matrix<int>* M : {&dense_mask, &sparse_mask}) {
    for (bool by_value : {false, true}) {
      INFO("dense mask " << (M == &dense_mask) << ", value mask " << by_value);
      auto both = [&](auto sr, auto zero) {
        // Operands of C's type: the predefined semirings are built for the
        // device on equal types.
        using TC = decltype(zero);
        const auto as_tc = [&](const Matrix<int>& x) {
          Matrix<TC> y(n, n);
          apply(y, no_mask, no_accum, identity{}, x);
          y.set_storage(storage_control::tiles);
          return y;
        };
        const Matrix<TC> a = as_tc(A), b = as_tc(B);
        Matrix<TC> host(n, n), dev = on_device(Matrix<TC>(n, n));
        const auto dM = on_device(*M);
        if (by_value) {
          detail::mxm_host(host, *M, no_accum, sr, a, b, d, pol);
          detail::mxm_cuda(dev, dM, no_accum, sr, on_device(a), on_device(b), d, pol);
        } else {
          detail::mxm_host(host, structure(*M), no_accum, sr, a, b, d, pol);
          detail::mxm_cuda(dev, structure(dM), no_accum, sr, on_device(a), on_device(b), d, pol);
        }
        REQUIRE(host.nvals() > 100);
        CHECK(oracle::diff(oracle::to_map(on_host(dev)), oracle::to_map(host), 0) == "");
      };
      both(plus_times, std::int64_t{});
      both(min_plus, std::int64_t{});
      both(lor_land, bool{});
    }
  }
}
