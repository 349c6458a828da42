// A user's cuda::mr resource as tgb's device memory resource: every
// allocation goes through it, each buffer goes back to the resource it came
// from (also after the resource changes), and a resource that refuses
// memory makes operations throw out_of_memory with their output unchanged.
#include <cstdint>
#include <random>

#include "../oracle.hpp"
#include "../tgb_catch.hpp"
#include "mr_pool.hpp"

using namespace tgb;

using oracle::on_device;

TEST_CASE("a cuda::mr resource serves tgb's device allocations", "[cuda][memory][mr]") {
  std::mt19937_64 rng(9);
  const auto A = oracle::random_matrix<std::int64_t>(rng, 300, 200, 0.05);
  const auto B = oracle::random_matrix<std::int64_t>(rng, 200, 250, 0.05);
  Matrix<std::int64_t> want(300, 250);
  mxm(want, no_mask, no_accum, plus_times, A, B);

  // Allocated from the default resource, freed while the pool is installed.
  Matrix<std::int64_t> early = on_device(A);
  const std::size_t before = device_bytes_in_use();
  tgb_test::install_counting_pool(~std::size_t(0));
  std::size_t peak = 0;
  {
    const Matrix<std::int64_t> dA = on_device(A), dB = on_device(B);
    Matrix<std::int64_t> C = on_device(Matrix<std::int64_t>(300, 250));
    mxm(C, no_mask, no_accum, plus_times, dA, dB);
    const tgb_test::pool_stats s = tgb_test::counting_pool_stats();
    REQUIRE(s.allocations > 0);
    // Everything tgb allocated since the switch lives in the pool.
    REQUIRE(s.live_bytes == device_bytes_in_use() - before);
    peak = s.peak_bytes;
    C.to(backend::host);
    REQUIRE(oracle::diff(oracle::to_map(C), oracle::to_map(want)) == "");
  }
  REQUIRE(tgb_test::counting_pool_stats().live_bytes == 0);
  early = Matrix<std::int64_t>();  // back to the default pool, not to ours
  REQUIRE(tgb_test::counting_pool_stats().live_bytes == 0);
  tgb_test::uninstall_counting_pool();

  // Pools too small for the product: out_of_memory and C as it was, or the
  // right answer; never anything else. (peak is the unaccumulated product's:
  // merging into C takes more, so the last pool is unbounded.)
  const auto C0 = oracle::random_matrix<std::int64_t>(rng, 300, 250, 0.02);
  const Matrix<std::int64_t> dA = on_device(A), dB = on_device(B);
  int refused = 0, computed = 0;
  for (std::size_t limit : {std::size_t(0), std::size_t(1) << 10, std::size_t(1) << 14, peak / 8, peak / 2, peak * 2,
                            ~std::size_t(0)}) {
    Matrix<std::int64_t> C = on_device(C0);
    tgb_test::install_counting_pool(limit);
    bool threw = false;
    try {
      mxm(C, no_mask, plus{}, plus_times, dA, dB);
    } catch (const out_of_memory&) {
      threw = true;
    }
    tgb_test::uninstall_counting_pool();
    // A refusal returned every temporary; a result goes back to the pool
    // when it leaves the device, though the pool is no longer installed.
    if (threw) REQUIRE(tgb_test::counting_pool_stats().live_bytes == 0);
    C.to(backend::host);
    REQUIRE(tgb_test::counting_pool_stats().live_bytes == 0);
    INFO("limit " << limit << (threw ? ": refused" : ": computed"));
    if (threw) {
      ++refused;
      REQUIRE(oracle::diff(oracle::to_map(C), oracle::to_map(C0)) == "");
    } else {
      ++computed;
      Matrix<std::int64_t> w = C0;
      mxm(w, no_mask, plus{}, plus_times, A, B);
      REQUIRE(oracle::diff(oracle::to_map(C), oracle::to_map(w)) == "");
    }
  }
  REQUIRE(refused >= 1);
  REQUIRE(computed >= 1);
}
