// The row path of the device mxm (rowpath.cuh) against the host backend:
// every bin (hash bins, dense accumulator, hub rows) reached by lowering the
// bin limits through mxm_policy::device_routing, every mask mode, the predefined
// semirings the issue names and a user-defined one, sizes around one tile,
// empty rows. Values are small integers, so every sum is exact: patterns
// and values must equal the host's.
#include <array>
#include <random>
#include <vector>

#include "../oracle.hpp"
#include "rowpath_semiring.hpp"
#include "tgb/detail/cuda/plan.hpp"
#include "../tgb_catch.hpp"

using namespace tgb;

namespace {

using oracle::on_host;

// Tuning modes: which bins the rows may take (every tile row is routed to
// the row path whatever its tiles, even in small products).
// all_hubs: every row a hub, on bitmaps; hubs_sorted: the same with the
// hubs' products sorted instead.
enum mode { hash_bins, small_shared, all_hubs, hubs_sorted, dense_first, defaults, kModes };
// The device runs its planner (tile_gustavson), whose row path this file
// tests; row saxpy has tests of its own (test_row_saxpy_device.cpp).
detail::mxm_policy tuned(int m) {
  detail::mxm_policy p;
  p.method = detail::mxm_method::tile_gustavson;
  detail::device_row_routing& t = p.device_routing;
  t.row_path = true;
  t.min_pairs = 0;
  if (m == defaults) return p;
  t.max_products_per_pair = 1e18;
  t.dense_max_tiles = m == dense_first ? 32 : 0;
  if (m == dense_first) t.dense_min_fill = 0.0;
  t.max_shared_products = m == small_shared ? 128 : (m == all_hubs || m == hubs_sorted) ? 0 : 4096;
  t.hub_bitmap = m != hubs_sorted;
  return p;
}

std::array<long long, 8> hits{};  // rows per bin over the whole file

// A structure with small nonzero integer values, built in any value type.
struct trip {
  index_t m = 0, n = 0;
  std::vector<index_t> r, c;
  std::vector<int> v;
  template <class T>
  Matrix<T> as() const {
    std::vector<T> t(v.size());
    for (std::size_t q = 0; q < v.size(); ++q) t[q] = static_cast<T>(v[q]);
    return Matrix<T>::from_coo(m, n, r, c, t, tgb::first{});
  }
};

// An m x n structure whose scalar row i has deg[(i / 16) % deg.size()]
// entries (every seventh row none) in columns [c0, c0 + width).
trip skewed(std::mt19937_64& rng, index_t m, index_t n, const std::vector<int>& deg, index_t c0 = 0,
           index_t width = -1) {
  if (width < 0) width = n - c0;
  trip x;
  x.m = m;
  x.n = n;
  std::uniform_int_distribution<index_t> col(0, width > 0 ? width - 1 : 0);
  std::uniform_int_distribution<int> val(1, 4);
  for (index_t i = 0; i < m && width > 0; ++i) {
    if (i % 7 == 3) continue;
    const int d = deg[std::size_t(i / 16) % deg.size()];
    for (int q = 0; q < d; ++q) {
      x.r.push_back(i);
      x.c.push_back(c0 + col(rng));
      x.v.push_back((rng() & 1) ? val(rng) : -val(rng));
    }
  }
  return x;
}

trip random_coo(std::mt19937_64& rng, index_t m, index_t n, double density) {
  trip x;
  x.m = m;
  x.n = n;
  std::bernoulli_distribution keep(density);
  std::uniform_int_distribution<int> val(-4, 4);
  for (index_t i = 0; i < m; ++i)
    for (index_t j = 0; j < n; ++j)
      if (keep(rng)) {
        x.r.push_back(i);
        x.c.push_back(j);
        const int w = val(rng);
        x.v.push_back(w == 0 ? 1 : w);
      }
  return x;
}

template <class TC, class TA, class TB, class SR, class Acc>
void compare(const detail::mxm_policy& planner, std::mt19937_64& rng, const SR& sr, const Acc& acc,
             const Matrix<TA>& A, const Matrix<TB>& B, int mask, bool replace, bool accum) {
  const index_t m = A.nrows(), n = B.ncols();
  const auto C0 = oracle::random_matrix<TC>(rng, m, n, 0.05);
  const auto M = oracle::random_matrix<int>(rng, m, n, 0.3);
  descriptor d;
  d.replace = replace;
  auto run = [&](Matrix<TC>& C, const Matrix<TA>& a, const Matrix<TB>& b, const Matrix<int>& mm, bool device) {
    oracle::with_mask_mode(mask, mm, [&](const auto& mk) {
      if (!device) {
        if (accum) mxm(C, mk, acc, sr, a, b, d);
        else mxm(C, mk, no_accum, sr, a, b, d);
      } else {
        if (accum) detail::mxm_cuda(C, mk, acc, sr, a, b, d, planner);
        else detail::mxm_cuda(C, mk, no_accum, sr, a, b, d, planner);
      }
    });
  };
  Matrix<TC> host = C0;
  run(host, A, B, M, false);
  Matrix<TC> dev = oracle::on_device(C0);
  run(dev, oracle::on_device(A), oracle::on_device(B), oracle::on_device(M), true);
  const auto& st = detail::cuda::last_product_stats();
  for (int b = 0; b < 8; ++b) hits[std::size_t(b)] += st.rows[b];
  INFO("mask " << mask << " replace " << replace << " accum " << accum << " A " << A.nrows() << "x" << A.ncols()
               << " nnz " << A.nvals() << " B nnz " << B.nvals() << " bins " << st.rows[0] << " " << st.rows[1] << " "
               << st.rows[2] << " " << st.rows[3] << " " << st.rows[4] << " " << st.rows[5] << " dense "
               << st.rows[6] << " hubs " << st.rows[7]);
  REQUIRE(dev.location() == backend::cuda);
  REQUIRE(dev.nvals() == host.nvals());
  REQUIRE(oracle::diff(oracle::to_map(on_host(dev)), oracle::to_map(host), 0) == "");
}

// The semirings of the issue on one (A, B) structure; plus_times in every
// mask mode, the others in a rotating one.
void all_semirings(const detail::mxm_policy& pol, std::mt19937_64& rng, const trip& A, const trip& B, int& rot) {
  const auto Ad = A.as<double>(), Bd = B.as<double>();
  for (int mask = 0; mask < 5; ++mask)
    compare<double, double, double>(pol, rng, plus_times, plus{}, Ad, Bd, mask, mask == 2, mask == 4);
  const auto Ab = A.as<bool>(), Bb = B.as<bool>();
  const auto Ai = A.as<std::int64_t>(), Bi = B.as<std::int64_t>();
  compare<double, double, double>(pol, rng, min_plus, min{}, Ad, Bd, rot++ % 5, false, false);
  compare<bool, bool, bool>(pol, rng, lor_land, lor{}, Ab, Bb, rot++ % 5, true, false);
  compare<std::int64_t, bool, bool>(pol, rng, plus_pair, plus{}, Ab, Bb, rot++ % 5, false, true);
  compare<std::int64_t, std::int64_t, std::int64_t>(pol, rng, rowpath_test::bor_skew, plus{}, Ai, Bi, rot++ % 5, false,
                                                    false);
  compare<std::int64_t, std::int64_t, std::int64_t>(pol, rng, rowpath_test::bor_skew, plus{}, Ai, Bi, rot++ % 5, true,
                                                    false);
}

}  // namespace

TEST_CASE("row path: every bin equals host, every mask mode and semiring", "[cuda][mxm][rowpath]") {
  std::mt19937_64 rng(2013);
  int rot = 0;
  for (int md = 0; md < kModes; ++md) {
    INFO("mode " << md);
    const detail::mxm_policy pol = tuned(md);
    // Tile rows from a handful of products to tens of thousands (hubs).
    const trip A = skewed(rng, 300, 400, {0, 1, 2, 3, 5, 8, 12, 20, 40, 90});
    const trip B = skewed(rng, 400, 350, {1, 2, 4, 6, 9, 16});
    all_semirings(pol, rng, A, B, rot);
    // B's columns in a window of 12 tile columns: spans the dense bin holds.
    const trip Bn = skewed(rng, 400, 700, {3, 8, 20}, 100, 190);
    all_semirings(pol, rng, A, Bn, rot);
  }
  // Every bin was reached somewhere above.
  for (int b = 0; b < 8; ++b) {
    INFO("bin " << b);
    CHECK(hits[std::size_t(b)] > 0);
  }
}

TEST_CASE("row path: sizes around one tile, empty rows and empty products", "[cuda][mxm][rowpath]") {
  std::mt19937_64 rng(2014);
  int rot = 0;
  for (int md = 0; md < kModes; ++md) {
    INFO("mode " << md);
    const detail::mxm_policy pol = tuned(md);
    for (index_t sz : {1, 15, 16, 17, 33}) {
      for (double dens : {0.05, 0.4, 1.0}) {
        const trip A = random_coo(rng, sz, sz + 3, dens), B = random_coo(rng, sz + 3, sz, dens);
        compare<double, double, double>(pol, rng, plus_times, plus{}, A.as<double>(), B.as<double>(), rot % 5,
                                        rot % 2 == 0, rot % 3 == 0);
        ++rot;
        compare<bool, bool, bool>(pol, rng, lor_land, lor{}, A.as<bool>(), B.as<bool>(), rot++ % 5, false, false);
      }
    }
    // A's rows meet only empty rows of B: products with no entries.
    trip A, B;
    A.m = A.n = B.m = B.n = 40;
    A.r = {3, 35};
    A.c = {20, 21};
    A.v = {1, 2};
    B.r = {5};
    B.c = {7};
    B.v = {1};
    compare<double, double, double>(pol, rng, plus_times, plus{}, A.as<double>(), B.as<double>(), 0, false, false);
    compare<double, double, double>(pol, rng, min_plus, min{}, A.as<double>(), B.as<double>(), 3, true, false);
  }
}

// Timings for the lead (hidden: run with "[rowpath-timing]"): C = A*A in fp64
// with the tile path only, the default routing, and routing at every size.
#include <chrono>
#include <cstdio>
#include <fstream>

#include <cuda_runtime.h>

namespace {
trip rmat(std::mt19937_64& rng, int scale, int edge_factor) {
  trip x;
  x.m = x.n = index_t(1) << scale;
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const std::size_t ne = std::size_t(edge_factor) << scale;
  for (std::size_t e = 0; e < ne; ++e) {
    index_t i = 0, j = 0;
    for (int l = 0; l < scale; ++l) {
      const double p = u(rng);
      const int q = p < 0.57 ? 0 : p < 0.76 ? 1 : p < 0.95 ? 2 : 3;
      i = (i << 1) | (q >> 1);
      j = (j << 1) | (q & 1);
    }
    x.r.push_back(i);
    x.c.push_back(j);
    x.v.push_back(1);
  }
  return x;
}

trip uniform(std::mt19937_64& rng, int scale, int per_row) {
  trip x;
  x.m = x.n = index_t(1) << scale;
  std::uniform_int_distribution<index_t> col(0, x.n - 1);
  for (index_t i = 0; i < x.m; ++i)
    for (int q = 0; q < per_row; ++q) {
      x.r.push_back(i);
      x.c.push_back(col(rng));
      x.v.push_back(1);
    }
  return x;
}

void time_square(const char* name, const Matrix<double>& A) {
  const auto dA = oracle::on_device(A);
  for (int mode : {0, 1, 2}) {
    detail::mxm_policy pol;
    pol.method = detail::mxm_method::tile_gustavson;
    pol.device_routing.row_path = mode != 0;
    if (mode == 2) pol.device_routing.min_pairs = 0;
    double best = 1e30;
    index_t nv = 0;
    for (int rep = 0; rep < 4; ++rep) {
      Matrix<double> C = oracle::on_device(Matrix<double>(A.nrows(), A.ncols()));
      cudaDeviceSynchronize();
      const auto t0 = std::chrono::steady_clock::now();
      detail::mxm_cuda(C, no_mask, no_accum, plus_times, dA, dA, descriptor{}, pol);
      cudaDeviceSynchronize();
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (rep > 0 && ms < best) best = ms;
      nv = C.nvals();
    }
    const auto& st = detail::cuda::last_product_stats();
    std::printf("%-14s %-12s %9.3f ms  nnz(C) %lld  rows/bin %lld %lld %lld %lld %lld %lld dense %lld hub %lld\n", name,
                mode == 0 ? "tile-only" : mode == 1 ? "default" : "route-all", best, (long long)nv, st.rows[0],
                st.rows[1], st.rows[2], st.rows[3], st.rows[4], st.rows[5], st.rows[6], st.rows[7]);
  }
}
}  // namespace

TEST_CASE("row path timings", "[.][rowpath-timing]") {
  std::mt19937_64 rng(5);
  time_square("rmat16_ef8", rmat(rng, 16, 8).as<double>());
  time_square("uniform2^17x8", uniform(rng, 17, 8).as<double>());
  for (const char* f : {"tests/data/luxembourg.mtx", "tests/data/ca-GrQc.mtx", "tests/data/email-Eu-core.csv"}) {
    if (!std::ifstream(f).good() || std::string(f).find(".mtx") == std::string::npos) continue;
    time_square(f + 11, io::read_matrix_market<double>(f));
  }
}
