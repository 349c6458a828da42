// The shared tile routines on the GPU give exactly the host's results.
#include <random>

#include "../oracle.hpp"
#include "../tgb_catch.hpp"
#include "tile_kernels.hpp"

using namespace tgb;

namespace {

// n tiles side by side: a 16 x 16n matrix whose tile t has the given density.
template <class T>
Matrix<T> tiles_row(std::mt19937_64& rng, int n, std::vector<double> dens) {
  std::vector<index_t> r, c;
  std::vector<T> v;
  std::uniform_real_distribution<double> u(0, 1);
  for (int t = 0; t < n; ++t)
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j)
        if (u(rng) < dens[t % dens.size()] || (i == 0 && j == 0)) {
          r.push_back(i);
          c.push_back(16 * t + j);
          v.push_back(oracle::random_value<T>(rng));
        }
  return Matrix<T>::from_coo(16, 16 * n, r, c, v, no_duplicates);
}

template <class T>
void compare_pairs(std::uint64_t seed, int semiring) {
  std::mt19937_64 rng(seed);
  const int n = 600;
  const std::vector<double> dens{0.004, 0.05, 0.3, 0.7, 1.0};
  const Matrix<T> A = tiles_row<T>(rng, n, dens), B = tiles_row<T>(rng, n, {1.0, 0.02, 0.5, 0.2});
  REQUIRE(A.ntiles() == n);
  REQUIRE(B.ntiles() == n);
  tgb_test::tile_pairs<T> in{&A.tiles(), &B.tiles(), {}, (seed & 1) != 0};
  std::uniform_int_distribution<int> bits(0, 0xFFFF);
  for (int k = 0; k < 16 * n; ++k) in.allowed.push_back(k % 7 == 0 ? 0xFFFF : static_cast<std::uint16_t>(bits(rng)));
  const auto d = tgb_test::run_tiles_device(in, semiring);
  const auto h = tgb_test::run_tiles_host(in, semiring);
  CHECK(d.c_mask == h.c_mask);
  CHECK(d.sparse_vals == h.sparse_vals);
  CHECK(d.dense_vals == h.dense_vals);
  CHECK(d.wb_mask == h.wb_mask);
  CHECK(d.wb_vals == h.wb_vals);
  // The sparse and dense accumulators agree with each other as well.
  CHECK(h.sparse_vals == h.dense_vals);
}

}  // namespace

TEST_CASE("tile routines on the GPU equal the host's: plus_times fp64", "[cuda][tile]") {
  INFO(tgb_test::device_name());
  compare_pairs<double>(1, 0);
  compare_pairs<double>(2, 0);
}

TEST_CASE("tile routines on the GPU equal the host's: min_plus, any_second, max_min int64", "[cuda][tile]") {
  compare_pairs<std::int64_t>(3, 1);
  compare_pairs<std::int64_t>(4, 2);
  compare_pairs<std::int64_t>(5, 3);
}
