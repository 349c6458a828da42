// Matrix Market and edge-list I/O: real files with known answers, round
// trips, and malformed input that must fail with a message naming the file,
// the line and the problem.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>

#include "../oracle.hpp"
#include "../tgb_catch.hpp"

using namespace tgb;

namespace {

std::string data(const std::string& f) { return std::string(TGB_TEST_DATA_DIR) + "/" + f; }

// Expects f() to throw E whose message contains every fragment.
template <class E, class F>
void expect_error(F f, std::initializer_list<const char*> fragments) {
  try {
    f();
    FAIL("no exception");
  } catch (const E& e) {
    const std::string msg = e.what();
    for (const char* frag : fragments) {
      INFO("message: " << msg);
      CHECK(msg.find(frag) != std::string::npos);
    }
  }
}

Matrix<double> mm(const std::string& text) { return io::parse_matrix_market<double>(text, "t.mtx"); }

}  // namespace

TEST_CASE("real matrices: sizes and known triangle counts", "[io][real]") {
  struct known {
    const char* file;
    index_t n;
    std::int64_t tri;
  };
  const known cases[] = {{"karate.mtx", 34, 45},         {"A.mtx", 7, 11},
                         {"jagmesh7.mtx", 1138, 2016},   {"bcsstk13.mtx", 2003, 342300},
                         {"LFAT5.mtx", 14, 0},           {"dolphins.mtx", 62, 95},
                         {"polbooks.mtx", 105, 560},     {"netscience.mtx", 1589, 3764},
                         {"ca-GrQc.mtx", 5242, 48260},   {"crack.mtx", 10240, 20141},
                         {"west0067.mtx", 67, 120},      {"add32.mtx", 4960, 4998},
                         {"luxembourg.mtx", 114599, 68}, {"ldbc-undirected-example.mtx", 9, 4},
                         {"ldbc-cdlp-undirected-example.mtx", 8, 6}, {"ldbc-wcc-example.mtx", 10, 5}};
  for (const auto& k : cases) {
    INFO(k.file);
    const auto A = io::read_matrix_market<double>(data(k.file));
    CHECK(A.nrows() == k.n);
    CHECK(A.ncols() == k.n);
    CHECK(triangle_count(A) == k.tri);
  }
  const auto K = io::read_matrix_market<bool>(data("karate.mtx"));
  CHECK(K.nvals() == 156);  // 78 stored, mirrored
  const auto lp = io::read_matrix_market<double>(data("lp_afiro.mtx"));
  CHECK(lp.nrows() == 27);
  CHECK(lp.ncols() == 51);
  CHECK(lp.nvals() == 102);
}

TEST_CASE("typed example files read as their types", "[io][real]") {
  const auto b = io::read_matrix_market<bool>(data("matrix_bool.mtx"));
  const auto i = io::read_matrix_market<std::int64_t>(data("matrix_int64.mtx"));
  const auto f = io::read_matrix_market<double>(data("matrix_fp64.mtx"));
  CHECK(b.nvals() == 12);
  CHECK(i.nvals() == 12);
  CHECK(f.nvals() == 12);
  // west0067 is real: reading it as int is a domain error, not a truncation.
  expect_error<domain_mismatch>([] { io::read_matrix_market<int>(data("west0067.mtx")); },
                                {"west0067.mtx", "real values", "int32"});
}

TEST_CASE("write then read gives the same matrix for every type", "[io][roundtrip]") {
  std::mt19937_64 rng(5);
  auto check = [&](auto tag) {
    using T = decltype(tag);
    auto A = oracle::random_matrix<T>(rng, 37, 19, 0.2);
    std::ostringstream os;
    io::write_matrix_market(os, A);
    auto B = io::parse_matrix_market<T>(os.str());
    REQUIRE(oracle::diff(oracle::to_map(B), oracle::to_map(A)) == "");
  };
  check(bool{});
  check(std::int32_t{});
  check(std::int64_t{});
  check(float{});
  check(double{});
  // Values that need all 17 digits, and the non-finite ones.
  std::vector<index_t> r{0, 0, 1, 1}, c{0, 1, 0, 1};
  std::vector<double> v{0.1 + 0.2, -1.0 / 3.0, std::numeric_limits<double>::infinity(),
                        std::numeric_limits<double>::quiet_NaN()};
  auto A = Matrix<double>::from_coo(2, 2, r, c, v, no_duplicates);
  std::ostringstream os;
  io::write_matrix_market(os, A);
  CHECK(os.str().rfind("%%MatrixMarket matrix coordinate real general\n2 2 4\n1 1 0.30000000000000004\n", 0) == 0);
  auto B = io::parse_matrix_market<double>(os.str());
  CHECK(*B.get(0, 0) == 0.1 + 0.2);
  CHECK(*B.get(0, 1) == -1.0 / 3.0);
  CHECK(std::isinf(*B.get(1, 0)));
  CHECK(std::isnan(*B.get(1, 1)));
  // Files on disk, too.
  const std::string path = "tgb_test_roundtrip.mtx";
  io::write_matrix_market(path, A);
  CHECK(io::read_matrix_market<double>(path).nvals() == 4);
  std::remove(path.c_str());
}

TEST_CASE("symmetric, skew-symmetric and array files", "[io]") {
  auto S = mm("%%MatrixMarket matrix coordinate real symmetric\n% c\n3 3 3\n1 1 1\n3 1 2.5\n3 2 -1\n");
  CHECK(S.nvals() == 5);
  CHECK(*S.get(0, 2) == 2.5);
  CHECK(*S.get(2, 0) == 2.5);
  auto K = mm("%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 4\n");
  CHECK(*K.get(1, 0) == 4);
  CHECK(*K.get(0, 1) == -4);
  auto G = mm("%%MatrixMarket matrix array real general\n2 3\n1\n2\n3\n4\n5\n6\n");
  CHECK(G.nvals() == 6);
  CHECK(*G.get(1, 0) == 2);  // column-major
  CHECK(*G.get(0, 1) == 3);
  auto Y = mm("%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n3\n");
  CHECK(*Y.get(0, 1) == 2);
  CHECK(*Y.get(1, 1) == 3);
  auto Z = mm("%%MatrixMarket matrix array integer skew-symmetric\n3 3\n1\n2\n3\n");
  CHECK(Z.nvals() == 6);
  CHECK(*Z.get(2, 1) == 3);
  CHECK(*Z.get(1, 2) == -3);
  auto E = mm("%%MatrixMarket matrix coordinate real general\n0 5 0\n");
  CHECK(E.nrows() == 0);
  CHECK(E.ncols() == 5);
  auto P = io::parse_matrix_market<std::int32_t>("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n");
  CHECK(*P.get(0, 1) == 1);  // pattern reads as 1
}

TEST_CASE("malformed Matrix Market input fails with file, line and reason", "[io][errors]") {
  expect_error<io_error>([] { mm(""); }, {"t.mtx:1", "empty"});
  expect_error<io_error>([] { mm("hello\n1 1 1\n"); }, {"t.mtx:1", "%%MatrixMarket"});
  expect_error<io_error>([] { mm("%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n"); },
                         {"t.mtx:1", "complex"});
  expect_error<io_error>([] { mm("%%MatrixMarket matrix coordinate real hermitian\n1 1 1\n1 1 1\n"); },
                         {"hermitian"});
  expect_error<io_error>([] { mm("%%MatrixMarket vector coordinate real general\n"); }, {"vector"});
  expect_error<io_error>([] { mm("%%MatrixMarket matrix coordinate real general\n"); }, {"size line"});
  expect_error<io_error>([] { mm("%%MatrixMarket matrix coordinate real general\n2 2\n"); }, {"t.mtx:2", "size line"});
  expect_error<io_error>([] { mm("%%MatrixMarket matrix coordinate real symmetric\n2 3 1\n1 1 1\n"); },
                         {"square"});
  expect_error<io_error>([] { mm("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n3 1 1\n"); },
                         {"t.mtx:4", "row index 3", "1..2"});
  expect_error<io_error>([] { mm("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n1 0 1\n"); },
                         {"t.mtx:4", "column index 0"});
  expect_error<io_error>([] { mm("%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1\n% pad\n% pad\n"); },
                         {"ends after 1 of 3"});
  expect_error<io_error>([] { mm("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n2 2 2\n"); },
                         {"t.mtx:4", "more data"});
  expect_error<io_error>([] { mm("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 x\n"); },
                         {"t.mtx:3", "'x'", "not a real"});
  expect_error<io_error>([] { mm("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1\n"); },
                         {"t.mtx:3", "row column value"});
  expect_error<io_error>([] { mm("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.5\n"); },
                         {"not a 64-bit integer"});
  expect_error<io_error>(
      [] { mm("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 99999999999999999999\n"); },
      {"not a 64-bit integer"});
  expect_error<io_error>([] { mm("%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 2 1\n"); },
                         {"above the diagonal"});
  expect_error<io_error>([] { mm("%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n1 1 1\n"); },
                         {"diagonal"});
  expect_error<io_error>([] { mm("%%MatrixMarket matrix array pattern general\n1 1\n"); }, {"array", "pattern"});
  expect_error<io_error>([] { mm("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n1 1 2\n"); },
                         {"t.mtx:4:", "duplicate entry (1, 1)", "line 3"});
  expect_error<io_error>([] { mm("%%MatrixMarket matrix coordinate real general\n-2 2 0\n"); }, {"negative"});
}

TEST_CASE("declared sizes are checked before anything is allocated", "[io][errors][limits]") {
  // Ten lines that declare 10^18 entries, or 2^62 rows: rejected at once.
  std::string ten_lines = "%%MatrixMarket matrix coordinate real general\n1000000000 1000000000 1000000000000000000\n";
  for (int k = 0; k < 8; ++k) ten_lines += "1 1 1\n";
  expect_error<io_error>([&] { mm(ten_lines); }, {"t.mtx:2", "declares 1000000000000000000 entries", "at most"});
  expect_error<io_error>([] { mm("%%MatrixMarket matrix coordinate real general\n4611686018427387904 1 1\n1 1 1\n"); },
                         {"t.mtx:2", "exceeds"});
  expect_error<io_error>([] { mm("%%MatrixMarket matrix array real general\n100000 100000\n1\n"); },
                         {"t.mtx:2", "declares", "at most"});
  expect_error<io_error>([] { mm("%%MatrixMarket matrix coordinate real general\n2 2 5\n1 1 1\n"); },
                         {"t.mtx:2", "declares 5 entries", "at most 2"});
}

TEST_CASE("values are converted to the requested type or rejected", "[io][errors]") {
  const std::string ints = "%%MatrixMarket matrix coordinate integer general\n1 2 2\n1 1 2\n1 2 3000000000\n";
  expect_error<domain_mismatch>([&] { io::parse_matrix_market<std::int32_t>(ints, "i.mtx"); },
                                {"i.mtx", "(1, 2)", "3000000000", "int32"});
  CHECK(*io::parse_matrix_market<std::int64_t>(ints).get(0, 1) == 3000000000LL);
  CHECK(*io::parse_matrix_market<double>(ints).get(0, 1) == 3e9);
  expect_error<domain_mismatch>([&] { io::parse_matrix_market<bool>(ints, "i.mtx"); }, {"not 0 or 1"});
  const std::string dup = "%%MatrixMarket matrix coordinate integer general\n1 1 2\n1 1 2\n1 1 5\n";
  CHECK(*io::parse_matrix_market<int>(dup, "d", io::duplicates::sum).get(0, 0) == 7);
  CHECK(*io::parse_matrix_market<int>(dup, "d", io::duplicates::keep_first).get(0, 0) == 2);
  CHECK(*io::parse_matrix_market<int>(dup, "d", io::duplicates::keep_last).get(0, 0) == 5);
}

TEST_CASE("edge lists: separators, comments, weights, gzip", "[io][edgelist]") {
  auto g = io::parse_edge_list<double>("# comment\n% also\n0 1\n1,2\n\n  2\t0\n");
  CHECK(g.nrows() == 3);
  CHECK(g.nvals() == 3);
  CHECK(*g.get(1, 2) == 1.0);
  auto w = io::parse_edge_list<double>("0 1 0.5\n3 0 2\n");
  CHECK(w.nrows() == 4);
  CHECK(*w.get(0, 1) == 0.5);
  CHECK(*w.get(3, 0) == 2.0);
  expect_error<io_error>([] { io::parse_edge_list<double>("0 1 1\n1 2\n", "e.txt"); }, {"e.txt:2", "no weight"});
  expect_error<io_error>([] { io::parse_edge_list<double>("0 -1\n", "e.txt"); }, {"e.txt:1", "negative"});
  expect_error<io_error>([] { io::parse_edge_list<double>("0 1 2 3\n", "e.txt"); }, {"e.txt:1"});
  expect_error<io_error>([] { io::parse_edge_list<double>("a b\n", "e.txt"); }, {"'a'"});
  expect_error<io_error>([] { io::parse_edge_list<double>("0 99999999999999\n", "e.txt"); }, {"exceeds"});
  auto email = io::read_edge_list<float>(data("email-Eu-core.csv"));
  CHECK(email.nrows() == 1005);
  CHECK(email.nvals() == 25571);
#if defined(TGB_TEST_HAVE_ZLIB)
  auto k = io::read_graph<bool>(data("karate-edges.txt.gz"));
  CHECK(k.nrows() == 34);
  CHECK(k.nvals() == 156);
  CHECK(oracle::diff(oracle::to_map(k), oracle::to_map(io::read_graph<bool>(data("karate.mtx")))) == "");
#endif
  expect_error<io_error>([] { io::read_graph<bool>("no/such/file.mtx"); }, {"no/such/file.mtx", "cannot open"});
}
