// libFuzzer target: edge lists, as text and (through gunzip) as gzip data.
// Anything but a tgb::error is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "tgb/tgb.hpp"

// A service with a memory budget: any one array above 4 MB is refused with
// tgb::out_of_memory (libFuzzer would report the allocation itself). It also
// bounds the dimensions, whose cost still grows with the row count
// (fuzz_matrix_market.cpp says why that matters under the fuzzer).
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  tgb::set_host_allocation_limit(std::size_t(4) << 20);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    const auto A = tgb::io::parse_edge_list<double>(bytes, "fuzz", tgb::io::duplicates::sum);
    if (A.nrows() != A.ncols()) __builtin_trap();
  } catch (const tgb::error&) {
  }
  try {
    const std::string text = tgb::io::detail::gunzip(bytes, "fuzz.gz");
    const auto A = tgb::io::parse_edge_list<std::int64_t>(text, "fuzz.gz", tgb::io::duplicates::keep_first);
    (void)A;
  } catch (const tgb::error&) {
  }
  return 0;
}
