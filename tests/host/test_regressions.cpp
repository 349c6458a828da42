// Inputs the fuzzers (fuzz/, scripts/fuzz.sh) found problems with, replayed
// on every run: each must parse or fail with a tgb::error, and the ones with
// a known right answer must give it.
#include <dirent.h>

#include <fstream>
#include <limits>
#include <sstream>

#include "../tgb_catch.hpp"
#include "tgb/tgb.hpp"

using namespace tgb;

namespace {
std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}
std::vector<std::string> files_in(const std::string& dir) {
  std::vector<std::string> out;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d))
      if (e->d_name[0] != '.') out.push_back(dir + "/" + e->d_name);
    closedir(d);
  }
  return out;
}
template <class T>
void parses_or_throws(const std::string& text, io::duplicates dup) {
  try {
    (void)io::parse_matrix_market<T>(text, "regression", dup);
  } catch (const tgb::error&) {
  }
}
}  // namespace

TEST_CASE("fuzzer regressions: Matrix Market inputs parse or fail cleanly", "[regression][io]") {
  const auto files = files_in(std::string(TGB_FUZZ_DIR) + "/regressions/matrix_market");
  REQUIRE(!files.empty());
  for (const auto& f : files) {
    INFO(f);
    const std::string text = slurp(f);
    parses_or_throws<double>(text, io::duplicates::error);
    parses_or_throws<std::int64_t>(text, io::duplicates::sum);
    parses_or_throws<bool>(text, io::duplicates::keep_first);
    parses_or_throws<float>(text, io::duplicates::keep_last);
  }
}

TEST_CASE("integer sums wrap instead of overflowing (found by the fuzzer)", "[regression][limits]") {
  // int64-sum-overflow.mtx holds (1,2) = INT64_MAX and a duplicate (1,2) = 6.
  const auto A = io::parse_matrix_market<std::int64_t>(
      slurp(std::string(TGB_FUZZ_DIR) + "/regressions/matrix_market/int64-sum-overflow.mtx"), "r", io::duplicates::sum);
  REQUIRE(A.get(0, 1) == std::numeric_limits<std::int64_t>::min() + 5);
  REQUIRE(plus{}(std::numeric_limits<std::int32_t>::max(), 1) == std::numeric_limits<std::int32_t>::min());
  REQUIRE(times{}(std::int64_t(1) << 62, std::int64_t(4)) == 0);
  REQUIRE(ainv{}(std::numeric_limits<std::int64_t>::min()) == std::numeric_limits<std::int64_t>::min());
  REQUIRE(abs_op{}(std::int8_t(-128)) == std::int8_t(-128));
  REQUIRE(minus{}(std::uint32_t(0), std::uint32_t(1)) == std::numeric_limits<std::uint32_t>::max());
}

TEST_CASE("fuzzer regressions: edge lists and triplets", "[regression][io][limits]") {
  // Edge-list inputs must parse or fail cleanly; with a 4 GB limit on one
  // array, the 13-billion-vertex edge list of one edge reads as hypersparse
  // rows (it used to be refused: per-row arrays), and so does an empty
  // 2^36 x 4 matrix (it was 2^32 tile rows of pointers).
  const std::size_t prev = set_host_allocation_limit(std::size_t(4) << 30);
  for (const auto& f : files_in(std::string(TGB_FUZZ_DIR) + "/regressions/edge_list")) {
    INFO(f);
    try {
      (void)io::parse_edge_list<double>(slurp(f), "regression", io::duplicates::sum);
    } catch (const tgb::error&) {
    }
  }
  const auto huge =
      io::parse_edge_list<double>(slurp(std::string(TGB_FUZZ_DIR) + "/regressions/edge_list/huge-vertex-id.txt"));
  CHECK(huge.nrows() == 13333333331);
  CHECK(huge.form() == storage_form::hyper);
  CHECK(huge.get(0, 13333333330) == 1333333333333333.0);
  const Matrix<double> tall(index_t(1) << 36, 4);
  CHECK(tall.stored_bytes() < 64);
  // Its tile copy (what an operation would read) is refused, not attempted.
  REQUIRE_THROWS_AS(tall.tiles(), out_of_memory);
  set_host_allocation_limit(prev);
  // Zero triplets in a non-empty shape (a null array was offset).
  const std::vector<std::int64_t> none;
  const auto E = Matrix<std::int32_t>::from_coo(69, 40, none, none, std::vector<std::int32_t>{}, plus{});
  REQUIRE(E.nvals() == 0);
  REQUIRE(E.nrows() == 69);
}
