// libFuzzer target: a matrix from arbitrary triplets. The bytes give the
// shape (up to 300 x 300, or out of range) and then (row, col, value)
// triplets, some out of range. A valid build must hold exactly the triplets
// (duplicates summed) and survive transpose, select and mxm against a map.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <vector>

#include "tgb/tgb.hpp"

namespace {
struct reader {
  const std::uint8_t* p;
  std::size_t n;
  template <class T>
  T get() {
    T v{};
    const std::size_t k = std::min(n, sizeof(T));
    std::memcpy(&v, p, k);
    p += k, n -= k;
    return v;
  }
};
}  // namespace

// A service with a memory budget: any one array above 4 MB is refused with
// tgb::out_of_memory (libFuzzer would report the allocation itself). It also
// bounds the dimensions, whose cost still grows with the row count
// (fuzz_matrix_market.cpp says why that matters under the fuzzer).
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  tgb::set_host_allocation_limit(std::size_t(4) << 20);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  reader in{data, size};
  const std::uint8_t mode = in.get<std::uint8_t>();
  tgb::index_t nr = in.get<std::uint16_t>() % 301, nc = in.get<std::uint16_t>() % 301;
  if (mode & 1) nr = -tgb::index_t(nr) - 1;                      // a bad shape
  if (mode & 2) nc = tgb::index_t(1) << (30 + (mode >> 4));      // huge, maybe past the limit
  std::vector<std::int64_t> r, c;
  std::vector<std::int32_t> v;
  while (in.n >= 5) {
    r.push_back(in.get<std::int16_t>());
    c.push_back(in.get<std::int16_t>());
    v.push_back(in.get<std::int8_t>());
  }
  try {
    const auto A = tgb::Matrix<std::int32_t>::from_coo(nr, nc, r, c, v, tgb::plus{});
    std::map<std::pair<std::int64_t, std::int64_t>, std::int32_t> want;
    for (std::size_t k = 0; k < r.size(); ++k) want[{r[k], c[k]}] += v[k];
    const auto got = A.to_coo();
    if (got.rows.size() != want.size()) __builtin_trap();
    std::size_t k = 0;
    for (const auto& [pos, x] : want) {
      if (got.rows[k] != pos.first || got.cols[k] != pos.second || got.values[k] != x) __builtin_trap();
      ++k;
    }
    if (A.ncols() > 4096) return 0;
    tgb::Matrix<std::int32_t> T(A.ncols(), A.nrows()), L(A.nrows(), A.ncols()), P(A.nrows(), A.nrows());
    tgb::transpose(T, tgb::no_mask, tgb::no_accum, A);
    if (T.nvals() != A.nvals()) __builtin_trap();
    tgb::select(L, tgb::no_mask, tgb::no_accum, tgb::tril{}, A, 0);
    if (A.nrows() == A.ncols()) tgb::mxm(P, tgb::structure(L), tgb::no_accum, tgb::plus_times, A, T);
    else tgb::mxm(P, tgb::no_mask, tgb::no_accum, tgb::plus_times, A, T);
  } catch (const tgb::error&) {
  }
  return 0;
}
