// The host mxm's methods (tile Gustavson, tile dot, row saxpy, row dot), each
// forced through the policy and chosen automatically, against the naive
// oracle: every mask mode, replace, accumulator and transpose, shapes around
// the tile size, empty and hub rows, several semirings including a
// user-defined one; the method rule; out-of-memory sweeps of the row paths.
#include <atomic>
#include <memory_resource>
#include <random>
#include <sstream>

#include "../failing_resource.hpp"
#include "../oracle.hpp"
#include "../tgb_catch.hpp"

using namespace tgb;
using detail::host::mxm_method;
using detail::host::mxm_policy;

namespace {

const mxm_method kMethods[] = {mxm_method::automatic, mxm_method::tile_gustavson, mxm_method::tile_dot,
                               mxm_method::row_saxpy, mxm_method::row_dot};
const char* method_name(mxm_method m) {
  switch (m) {
    case mxm_method::tile_gustavson: return "tile_gustavson";
    case mxm_method::tile_dot: return "tile_dot";
    case mxm_method::row_saxpy: return "row_saxpy";
    case mxm_method::row_dot: return "row_dot";
    default: return "automatic";
  }
}

const index_t kShapes[] = {0, 1, 15, 16, 17, 33, 70};
const double kDensities[] = {0.01, 0.05, 0.3, 0.9};

// A random matrix with a hub row and a hub column (mostly full) and every
// seventh row empty.
template <class T>
Matrix<T> hub_matrix(std::mt19937_64& rng, index_t nrows, index_t ncols, double density) {
  const auto base = oracle::to_map(oracle::random_matrix<T>(rng, nrows, ncols, density));
  oracle::dmap<T> m;
  for (const auto& [k, v] : base)
    if (k.first % 7 != 3) m[k] = v;
  if (nrows > 2 && ncols > 2) {
    std::bernoulli_distribution keep(0.85);
    const index_t hr = nrows / 2, hc = ncols / 3;
    for (index_t j = 0; j < ncols; ++j)
      if (keep(rng)) m[{hr, j}] = oracle::random_value<T>(rng, true);
    for (index_t i = 0; i < nrows; ++i)
      if (i % 7 != 3 && keep(rng)) m[{i, hc}] = oracle::random_value<T>(rng, true);
  }
  return oracle::from_map(nrows, ncols, m);
}

struct config {
  int mask_mode;  // 0 none, 1 value, 2 structure, 3 complement value, 4 complement structure
  bool replace, accum, ta, tb, hubs;
  index_t m, k, n;
  double density;
  // C and the mask matrix kept in rows (set_storage), so a T in rows merges
  // with C row by row (host::rows_writeback) instead of through tiles.
  bool rows = false;
  std::string str() const {
    std::ostringstream os;
    os << "mask=" << mask_mode << " rows=" << rows << " replace=" << replace << " accum=" << accum << " ta=" << ta << " tb=" << tb
       << " hubs=" << hubs << " m=" << m << " k=" << k << " n=" << n << " density=" << density;
    return os.str();
  }
};

template <class T>
Matrix<T> make(std::mt19937_64& rng, bool hubs, index_t r, index_t c, double d) {
  return hubs ? hub_matrix<T>(rng, r, c, d) : oracle::random_matrix<T>(rng, r, c, d);
}

template <class TC, class TA, class TB, class SR, class Acc>
void check_case(std::mt19937_64& rng, const SR& sr, const Acc& acc, const config& cfg, const mxm_policy& pol,
                double tol) {
  auto A = make<TA>(rng, cfg.hubs, cfg.ta ? cfg.k : cfg.m, cfg.ta ? cfg.m : cfg.k, cfg.density);
  auto B = make<TB>(rng, cfg.hubs, cfg.tb ? cfg.n : cfg.k, cfg.tb ? cfg.k : cfg.n, cfg.density);
  auto C0 = oracle::random_matrix<TC>(rng, cfg.m, cfg.n, 0.3);
  auto Mm = oracle::random_matrix<int>(rng, cfg.m, cfg.n, 0.4);
  descriptor d;
  d.replace = cfg.replace;
  d.transpose_a = cfg.ta;
  d.transpose_b = cfg.tb;
  Matrix<TC> C = C0;
  if (cfg.rows) {
    C.set_storage(storage_control::rows);
    Mm.set_storage(storage_control::rows);
  }
  auto run = [&](const auto& mask) {
    if (cfg.accum) detail::mxm_host(C, mask, acc, sr, A, B, d, pol);
    else detail::mxm_host(C, mask, no_accum, sr, A, B, d, pol);
  };
  const oracle::mask_spec ms = oracle::with_mask_mode(cfg.mask_mode, Mm, run);
  auto Am = oracle::to_map(A), Bm = oracle::to_map(B);
  if (cfg.ta) Am = oracle::transposed(Am);
  if (cfg.tb) Bm = oracle::transposed(Bm);
  const auto T = oracle::product<TC>(Am, Bm, sr);
  const auto want = oracle::writeback<TC>(oracle::to_map(C0), T, ms,
                                          cfg.accum ? std::optional<Acc>(acc) : std::optional<Acc>(), cfg.replace);
  INFO(cfg.str() << " method=" << method_name(pol.method) << " dense_row_ratio=" << pol.dense_row_ratio);
  REQUIRE(C.nrows() == cfg.m);
  REQUIRE(C.ncols() == cfg.n);
  REQUIRE(oracle::diff(oracle::to_map(C), want, tol) == "");
}

// Every method x mask x replace x accum x transpose combination on random
// shapes and densities; the row saxpy with its hash table only, with its
// dense accumulator only, and by its own rule.
template <class TC, class TA, class TB, class SR, class Acc>
void all_methods(std::uint64_t seed, const SR& sr, const Acc& acc, double tol = 0.0) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> pick_shape(0, 6), pick_density(0, 3);
  for (mxm_method method : kMethods)
    for (double ratio : {16.0, 1e-12, 1e12}) {
      if (ratio != 16.0 && method != mxm_method::row_saxpy) continue;
      mxm_policy pol;
      pol.method = method;
      pol.dense_row_ratio = ratio;
      for (int mask = 0; mask < 5; ++mask)
        for (int flags = 0; flags < 16; ++flags) {
          config cfg{mask,
                     (flags & 1) != 0,
                     (flags & 2) != 0,
                     (flags & 4) != 0,
                     (flags & 8) != 0,
                     (flags + mask) % 3 == 0,
                     kShapes[pick_shape(rng)],
                     kShapes[pick_shape(rng)],
                     kShapes[pick_shape(rng)],
                     kDensities[pick_density(rng)],
                     ((flags >> 1) + mask) % 2 == 0};
          check_case<TC, TA, TB>(rng, sr, acc, cfg, pol, tol);
        }
    }
}

}  // namespace

TEST_CASE("mxm methods: plus_times, min_plus, max_times against the oracle", "[mxm][methods][random]") {
  all_methods<double, double, double>(101, plus_times, plus{}, 1e-12);
  all_methods<std::int64_t, std::int64_t, std::int64_t>(102, min_plus, min{});
  all_methods<float, float, float>(103, min_plus, min{});
  all_methods<std::int32_t, std::int32_t, std::int32_t>(104, max_times, max{});
  all_methods<std::int64_t, std::int32_t, double>(105, plus_times, plus{});  // mixed types
}

TEST_CASE("mxm methods: boolean, pair and any semirings against the oracle", "[mxm][methods][random]") {
  all_methods<bool, bool, bool>(111, lor_land, lor{});
  all_methods<std::int64_t, bool, bool>(112, plus_pair, plus{});
  all_methods<bool, bool, bool>(113, any_pair, lor{});
  all_methods<std::int32_t, std::int32_t, std::int32_t>(114, any_second, second{});
  all_methods<double, double, double>(115, min_first, min{});
}

TEST_CASE("mxm methods: a user-defined semiring with a terminal value", "[mxm][methods][random][user]") {
  auto mx = make_monoid([](std::int32_t a, std::int32_t b) { return a > b ? a : b; }, std::int32_t(0),
                        std::int32_t(100));
  auto sr = make_semiring(mx, [](std::int32_t a, std::int32_t b) { return std::int32_t(a * b % 211); });
  all_methods<std::int32_t, std::int32_t, std::int32_t>(121, sr, plus{});
}

TEST_CASE("mxm methods: larger hypersparse and hub-heavy products", "[mxm][methods][random][large]") {
  std::mt19937_64 rng(131);
  for (mxm_method method : kMethods) {
    mxm_policy pol;
    pol.method = method;
    for (double density : {0.0005, 0.004, 0.03})
      for (int mask : {0, 2, 3}) {
        config cfg{mask, mask == 3, mask == 2, false, mask != 0, true, 300, 257, 290, density};
        check_case<double, double, double>(rng, plus_times, plus{}, cfg, pol, 1e-12);
        check_case<std::int64_t, bool, bool>(rng, plus_pair, plus{}, cfg, pol, 0);
        check_case<bool, bool, bool>(rng, any_pair, lor{}, cfg, pol, 0);
      }
  }
}

TEST_CASE("mxm methods: the masked triangle product L<L> = L plus_pair L'", "[mxm][methods]") {
  std::mt19937_64 rng(141);
  for (index_t n : {0, 1, 17, 200}) {
    const auto G = hub_matrix<bool>(rng, n, n, 0.03);
    Matrix<bool> S(n, n), L(n, n);
    ewise_add(S, no_mask, no_accum, lor{}, G, G, descriptor{}.with_transpose_b());
    select(L, no_mask, no_accum, tril{}, S, -1);
    auto Lm = oracle::to_map(L);
    const auto T = oracle::product<std::int64_t>(Lm, oracle::transposed(Lm), plus_pair);
    oracle::dmap<std::int64_t> want;
    for (const auto& [k, v] : T)
      if (Lm.count(k)) want[k] = v;
    for (mxm_method method : kMethods) {
      mxm_policy pol;
      pol.method = method;
      Matrix<std::int64_t> C(n, n);
      detail::mxm_host(C, structure(L), no_accum, plus_pair, L, L, descriptor{}.with_transpose_b(), pol);
      INFO("n=" << n << " method=" << method_name(method));
      REQUIRE(oracle::diff(oracle::to_map(C), want) == "");
    }
  }
}

TEST_CASE("mxm method rule: row paths on hypersparse tiles, dot on a sparse mask", "[mxm][methods]") {
  using detail::host::choose_mxm_method;
  std::mt19937_64 rng(151);
  const index_t n = 4000;
  const auto A = oracle::random_matrix<double>(rng, n, n, 0.0008);  // about 1 entry a tile
  const auto D = oracle::random_matrix<double>(rng, 64, 64, 0.9);   // full tiles
  detail::host::host_mask none;
  const mxm_policy pol;
  CHECK(choose_mxm_method(A.tiles().pat, false, A.tiles().pat, false, none, pol) == mxm_method::row_saxpy);
  CHECK(choose_mxm_method(D.tiles().pat, false, D.tiles().pat, false, none, pol) == mxm_method::tile_gustavson);
  Matrix<double> L(n, n);
  select(L, no_mask, no_accum, tril{}, A, -1);
  const auto M = detail::host::make_mask(structure(L), n, n);
  CHECK(choose_mxm_method(L.tiles().pat, false, L.tiles().pat, true, M, pol) == mxm_method::row_dot);
  const auto Mc = detail::host::make_mask(complement(structure(L)), n, n);
  CHECK(choose_mxm_method(L.tiles().pat, false, L.tiles().pat, true, Mc, pol) == mxm_method::row_saxpy);
  mxm_policy forced;
  forced.method = mxm_method::row_dot;  // no usable mask: its Gustavson form
  CHECK(choose_mxm_method(A.tiles().pat, false, A.tiles().pat, false, none, forced) == mxm_method::row_saxpy);
  forced.method = mxm_method::tile_dot;
  CHECK(choose_mxm_method(A.tiles().pat, false, A.tiles().pat, false, Mc, forced) == mxm_method::tile_gustavson);
}

namespace {

using oracle::failing_resource;

}  // namespace

TEST_CASE("mxm row paths out of memory at every allocation: throw, keep C, leak nothing", "[mxm][methods][oom]") {
  std::mt19937_64 rng(161);
  // Large enough for parallel regions (more than 64 tile rows).
  const index_t n = 1100;
  const auto A = hub_matrix<double>(rng, n, n, 0.002);
  const auto Mm = oracle::random_matrix<int>(rng, n, n, 0.003);
  const auto C0 = oracle::random_matrix<double>(rng, n, n, 0.001);
  const auto before = oracle::to_map(C0);
  for (mxm_method method : {mxm_method::row_saxpy, mxm_method::row_dot})
    for (int mode = 0; mode < 3; ++mode)
      for (double ratio : {16.0, 1e12}) {
        mxm_policy pol;
        pol.method = method;
        pol.dense_row_ratio = ratio;
        long long k = 0;
        for (;; ++k) {
          failing_resource r(k);
          bool ok = false;
          {
            Matrix<double> C = C0;
            ok = oracle::run_with(r, [&] {
              const descriptor d = descriptor{}.with_transpose_b(mode == 1);
              if (mode == 0) detail::mxm_host(C, no_mask, no_accum, plus_times, A, A, d, pol);
              else if (mode == 1) detail::mxm_host(C, structure(Mm), plus{}, plus_times, A, A, d, pol);
              else detail::mxm_host(C, complement(Mm), no_accum, min_plus, A, A, d, pol);
            });
            INFO(method_name(method) << " mode " << mode << " allocation " << k);
            if (!ok) REQUIRE(oracle::to_map(C) == before);
          }
          INFO(method_name(method) << " mode " << mode << " allocation " << k << " leaked " << r.live());
          REQUIRE(r.live() == 0);
          if (ok) break;
          REQUIRE(k < 100000);
        }
        CHECK(k > 0);
      }
}

TEST_CASE("row saxpy past 2^22 tile columns: C's tiles counted by sorting and written by a merge",
          "[mxm][methods]") {
  // B has 2^27 + 5 columns (2^23 + 1 tile columns): too wide for the per-thread
  // tile-column stamps, so the saxpy counts a tile row's tiles by sorting its
  // tile columns and writes them by a 16-row merge; C stored as tiles, as
  // rows, and by the rule.
  const index_t n = 40, wide = (index_t(1) << 27) + 5;
  std::mt19937_64 rng(11);
  auto A = oracle::random_matrix<double>(rng, n, n, 0.15);
  oracle::dmap<double> bm;
  std::uniform_int_distribution<index_t> any_col(0, wide - 1), near_end(wide - 40, wide - 1), low(0, 47);
  std::uniform_int_distribution<int> val(1, 9);
  for (index_t k = 0; k < n; ++k)
    for (int e = 0; e < 6; ++e) {
      const index_t j = e < 2 ? any_col(rng) : e < 4 ? near_end(rng) : low(rng);
      bm[{k, j}] = double(val(rng));
    }
  const auto B = oracle::from_map<double>(n, wide, bm);
  const auto want = oracle::product<double>(oracle::to_map(A), bm, plus_times);
  mxm_policy pol;
  pol.method = mxm_method::row_saxpy;
  for (storage_control control : {storage_control::tiles, storage_control::rows, storage_control::automatic}) {
    Matrix<double> C(n, wide);
    C.set_storage(control);
    detail::mxm_host(C, no_mask, no_accum, plus_times, A, B, descriptor{}, pol);
    INFO("control " << int(control));
    if (control != storage_control::automatic)
      CHECK(C.form() == (control == storage_control::tiles ? storage_form::tiles : storage_form::rows));
    REQUIRE(oracle::diff(oracle::to_map(C), want, 0.0) == "");
  }
}
