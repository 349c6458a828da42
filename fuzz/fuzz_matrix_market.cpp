// libFuzzer target: Matrix Market text, read as each value type with each
// duplicate policy. Anything but a tgb::error is a bug; so is a matrix that
// does not round-trip through the writer.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "tgb/tgb.hpp"

template <class T>
void read_as(const std::string& text, tgb::io::duplicates dup) {
  try {
    const tgb::Matrix<T> A = tgb::io::parse_matrix_market<T>(text, "fuzz", dup);
    if (A.nvals() > 100000) return;
    std::ostringstream os;
    tgb::io::write_matrix_market(os, A);
    const std::string out = os.str();
    const tgb::Matrix<T> B = tgb::io::parse_matrix_market<T>(out, "round-trip", tgb::io::duplicates::error);
    const auto a = A.to_coo(), b = B.to_coo();
    if (a.rows != b.rows || a.cols != b.cols) __builtin_trap();
  } catch (const tgb::error&) {
  }
}

// A service with a memory budget: any one array above 4 MB is refused with
// tgb::out_of_memory (libFuzzer would report the allocation itself). The
// budget also bounds the dimensions (row pointers are 8 bytes a row): work
// and memory still grow with the row count, not the entries (issue 15, item
// 5), and each input is parsed, written and parsed again in four types, so
// a 3.6-million-row header with three entries took 22 s under the fuzzer's
// instrumentation (past its 10 s timeout) at a 64 MB budget.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  tgb::set_host_allocation_limit(std::size_t(4) << 20);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  read_as<double>(text, tgb::io::duplicates::error);
  read_as<std::int64_t>(text, tgb::io::duplicates::sum);
  read_as<bool>(text, tgb::io::duplicates::keep_first);
  read_as<float>(text, tgb::io::duplicates::keep_last);
  return 0;
}
