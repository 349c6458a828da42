// A product with more than 2^31 stored entries (cuSPARSE's 32-bit indices
// cannot hold it): C = A A' for a dense 47,000 x 16 A has 47,000^2 =
// 2,209,000,000 entries, every one equal to 16 under plus_pair. About 12 GB
// of device memory.
#include <cuda_runtime.h>

#include <vector>

#include "../tgb_catch.hpp"
#include "tgb/tgb.hpp"

using namespace tgb;

TEST_CASE("a product with more than 2^31 entries", "[cuda][large][limits]") {
  std::size_t free_bytes = 0, total = 0;
  REQUIRE(cudaMemGetInfo(&free_bytes, &total) == cudaSuccess);
  if (free_bytes < (std::size_t(40) << 30)) {
    WARN("fewer than 40 GB of free device memory: the 2^31-entry product is not run");
    return;
  }
  const index_t n = 47000, k = 16;
  std::vector<index_t> r, c;
  for (index_t i = 0; i < n; ++i)
    for (index_t j = 0; j < k; ++j) r.push_back(i), c.push_back(j);
  Matrix<std::int32_t> A =
      Matrix<std::int32_t>::from_coo(n, k, r, c, std::vector<std::int32_t>(r.size(), 1), no_duplicates);
  A.to(backend::cuda);
  Matrix<std::int32_t> C(n, n);
  C.to(backend::cuda);
  mxm(C, no_mask, no_accum, plus_pair, A, A, descriptor{}.with_transpose_b());
  REQUIRE(C.nvals() == n * n);
  REQUIRE(C.nvals() > (offset_t(1) << 31));
  REQUIRE(reduce(min_monoid{}, C) == 16);
  REQUIRE(reduce(max_monoid{}, C) == 16);
  // select over all of them: its tile offsets pass 2^31 as well.
  Matrix<std::int32_t> corner(n, n);
  corner.to(backend::cuda);
  select(corner, no_mask, no_accum, value_eq{}, C, 16);
  REQUIRE(corner.nvals() == n * n);
}
