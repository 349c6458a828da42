// Reading and writing files when things go wrong (issue 15): Matrix Market
// banners, empty and binary input, values that overflow their type, messages
// with file and 1-based line, memory bounds while reading (gzip included),
// atomic writes (a writer killed mid-way) and write errors.
#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <memory_resource>
#include <sstream>
#include <thread>

#include "../oracle.hpp"
#include "../tgb_catch.hpp"

using namespace tgb;

namespace {

std::string invalid_dir() { return std::string(TGB_TEST_DATA_DIR) + "/invalid"; }

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

std::string trim(const std::string& s) {
  const std::size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep)) out.push_back(trim(cur));
  return out;
}

// A fresh folder under /tmp, removed with its files at the end of the scope.
struct temp_dir {
  std::string path;
  temp_dir() {
    char name[] = "/tmp/tgb_io_rel_XXXXXX";
    REQUIRE(mkdtemp(name) != nullptr);
    path = name;
  }
  ~temp_dir() {
    if (DIR* d = opendir(path.c_str())) {
      while (dirent* e = readdir(d))
        if (std::string(e->d_name) != "." && std::string(e->d_name) != "..")
          std::remove((path + "/" + e->d_name).c_str());
      closedir(d);
    }
    rmdir(path.c_str());
  }
  std::vector<std::string> files() const {
    std::vector<std::string> out;
    if (DIR* d = opendir(path.c_str())) {
      while (dirent* e = readdir(d))
        if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") out.push_back(e->d_name);
      closedir(d);
    }
    return out;
  }
};

std::string write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// What f() throws: the exception's kind and message ("" and "none" if nothing).
template <class F>
std::pair<std::string, std::string> thrown(F f) {
  try {
    f();
  } catch (const domain_mismatch& e) {
    return {"domain_mismatch", e.what()};
  } catch (const io_error& e) {
    return {"io_error", e.what()};
  } catch (const out_of_memory& e) {
    return {"out_of_memory", e.what()};
  } catch (const tgb::error& e) {
    return {"error", e.what()};
  }
  return {"none", ""};
}

void check_message(const std::string& msg, std::initializer_list<std::string> fragments) {
  INFO("message: " << msg);
  for (const auto& f : fragments) {
    INFO("fragment: " << f);
    CHECK(msg.find(f) != std::string::npos);
  }
  CHECK(msg.find('\n') == std::string::npos);
}

// Counts what tgb allocates through the host memory resource.
struct counting_resource : std::pmr::memory_resource {
  std::atomic<std::size_t> now{0}, peak{0};
  void* do_allocate(std::size_t bytes, std::size_t align) override {
    const std::size_t n = now += bytes;
    std::size_t p = peak.load();
    while (n > p && !peak.compare_exchange_weak(p, n)) {
    }
    return std::pmr::new_delete_resource()->allocate(bytes, align);
  }
  void do_deallocate(void* p, std::size_t bytes, std::size_t align) override {
    now -= bytes;
    std::pmr::new_delete_resource()->deallocate(p, bytes, align);
  }
  bool do_is_equal(const std::pmr::memory_resource& o) const noexcept override { return this == &o; }
};

const char* kLowerBanner = "%%matrixmarket matrix coordinate real general\n4 4 2\n1 2 7\n3 1 9\n";

}  // namespace

TEST_CASE("the invalid-file corpus: every file is rejected with file, line and reason", "[io][errors][corpus]") {
  const std::string listing = slurp(invalid_dir() + "/EXPECTED.txt");
  REQUIRE(!listing.empty());
  int checked = 0;
  std::istringstream lines(listing);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto parts = split(line, '|');
    REQUIRE(parts.size() == 3);
    const std::string path = invalid_dir() + "/" + parts[0];
#if !defined(TGB_TEST_HAVE_ZLIB)
    if (path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0) continue;
#endif
    INFO(parts[0]);
    for (int as = 0; as < 2; ++as) {
      // As a graph (format detected) and as what its name says.
      const bool mm = parts[0].find(".mtx") != std::string::npos;
      const auto [kind, msg] = thrown([&] {
        if (as == 0) (void)io::read_graph<double>(path);
        else if (mm) (void)io::read_matrix_market<double>(path);
        else (void)io::read_edge_list<double>(path);
      });
      if (as == 1 && !mm && parts[0].rfind("percent-comment-first", 0) == 0) {
        // An explicit edge list may start with a '%' comment.
        CHECK(kind == "none");
        continue;
      }
      CHECK(kind == parts[1]);
      check_message(msg, {path});
      for (const auto& frag : split(parts[2], ';'))
        if (!frag.empty()) check_message(msg, {frag});
    }
    ++checked;
  }
  CHECK(checked >= 10);
}

TEST_CASE("a file that starts with '%' is Matrix Market or an error, never an edge list", "[io][banner]") {
  temp_dir d;
  // The example: a lower-case banner was read as a 5 x 5 edge list.
  for (const std::string& text :
       {std::string(kLowerBanner), " " + std::string(kLowerBanner), "\n\n  \n" + std::string(kLowerBanner),
        std::string("%%MATRIXMARKET MATRIX COORDINATE REAL GENERAL\n4 4 2\n1 2 7\n3 1 9\n"),
        std::string("\t%%MatrixMarket Matrix Coordinate Real General\r\n4 4 2\r\n1 2 7\r\n3 1 9\r\n")}) {
    INFO(text);
    const std::string f = write_text(d.path + "/g.mtx", text);
    for (int as = 0; as < 3; ++as) {
      const Matrix<double> A = as == 0   ? io::read_graph<double>(f)
                               : as == 1 ? io::read_matrix_market<double>(f)
                                         : io::parse_matrix_market<double>(text);
      CHECK(A.nrows() == 4);
      CHECK(A.ncols() == 4);
      CHECK(A.nvals() == 2);
      CHECK(A.get(0, 1) == 7.0);
      CHECK(A.get(2, 0) == 9.0);
    }
  }
  // Lines are numbered from the file's first line, blank ones included.
  const auto [kind, msg] =
      thrown([] { io::parse_matrix_market<double>("\n\n%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1\n", "b.mtx"); });
  CHECK(kind == "io_error");
  check_message(msg, {"b.mtx:5:", "row index 3"});
  // Edge lists that do not start with '%' still read, '%' comments later included.
  const std::string e = write_text(d.path + "/e.txt", "# edges\n0 1\n% a comment\n1 2\n");
  CHECK(io::read_graph<double>(e).nvals() == 2);
}

TEST_CASE("empty input, /dev/null, /dev/zero and folders are errors", "[io][errors][empty]") {
  for (const char* text : {"", "\n", "  \n\t\n", "# nothing\n"}) {
    INFO("'" << text << "'");
    auto [k1, m1] = thrown([&] { io::parse_edge_list<double>(text, "e.txt"); });
    CHECK(k1 == "io_error");
    check_message(m1, {"e.txt", "no data"});
    auto [k2, m2] = thrown([&] { io::parse_matrix_market<double>(text, "m.mtx"); });
    CHECK(k2 == "io_error");
    check_message(m2, {"m.mtx"});
  }
  CHECK(thrown([] { io::parse_matrix_market<double>("", "m.mtx"); }).second.find("no data") != std::string::npos);
  if (access("/dev/null", R_OK) == 0) {
    const auto [kind, msg] = thrown([] { io::read_graph<bool>("/dev/null"); });
    CHECK(kind == "io_error");
    check_message(msg, {"/dev/null", "no data"});
    CHECK(thrown([] { io::read_matrix_market<bool>("/dev/null"); }).second.find("no data") != std::string::npos);
  }
  if (access("/dev/zero", R_OK) == 0) {
    // Endless NUL bytes: refused at the first chunk, not buffered.
    const auto [kind, msg] = thrown([] { io::read_graph<bool>("/dev/zero"); });
    CHECK(kind == "io_error");
    check_message(msg, {"/dev/zero:1:", "NUL byte"});
  }
  // A folder: no "basic_string::_M_replace_aux".
  const auto [kind, msg] = thrown([] { io::read_graph<double>(TGB_TEST_DATA_DIR); });
  CHECK(kind == "io_error");
  check_message(msg, {TGB_TEST_DATA_DIR, "is a folder"});
}

TEST_CASE("values beyond the type are errors with their line; inf and nan stay readable", "[io][errors][overflow]") {
  const std::string head = "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n";
  auto [k64, m64] = thrown([&] { io::parse_matrix_market<double>(head + "2 2 1e400\n", "o.mtx"); });
  CHECK(k64 == "domain_mismatch");
  check_message(m64, {"o.mtx:4:", "'1e400'", "overflows fp64"});
  auto [kneg, mneg] = thrown([&] { io::parse_matrix_market<double>(head + "2 2 -1e400\n", "o.mtx"); });
  CHECK(kneg == "domain_mismatch");
  auto [k32, m32] = thrown([&] { io::parse_matrix_market<float>(head + "2 2 1e39\n", "o.mtx"); });
  CHECK(k32 == "domain_mismatch");
  check_message(m32, {"o.mtx:4:", "'1e39'", "overflows fp32"});
  // The same value fits fp64; the largest float still reads as fp32.
  CHECK(io::parse_matrix_market<double>(head + "2 2 1e39\n").get(1, 1) == 1e39);
  CHECK(io::parse_matrix_market<float>(head + "2 2 3.4028234e38\n").get(1, 1) == std::numeric_limits<float>::max());
  // Literals: inf and nan are values, not overflows; tiny values round to 0.
  const std::string lits =
      "%%MatrixMarket matrix coordinate real general\n2 2 4\n1 1 inf\n1 2 -inf\n2 1 nan\n2 2 1e-400\n";
  const auto F = io::parse_matrix_market<float>(lits);
  CHECK(std::isinf(*F.get(0, 0)));
  CHECK(*F.get(0, 0) > 0);
  CHECK(std::isinf(*F.get(0, 1)));
  CHECK(std::isnan(*F.get(1, 0)));
  CHECK(*F.get(1, 1) == 0.0f);
  const auto D = io::parse_matrix_market<double>(lits);
  CHECK(std::isinf(*D.get(0, 0)));
  CHECK(std::isnan(*D.get(1, 0)));
  // Edge-list weights, and integers beyond int32, are reported at their line too.
  auto [kw, mw] = thrown([] { io::parse_edge_list<float>("0 1 2.5\n1 2 -1e39\n", "w.txt"); });
  CHECK(kw == "domain_mismatch");
  check_message(mw, {"w.txt:2:", "overflows fp32"});
  auto [ki, mi] = thrown([] {
    io::parse_matrix_market<std::int32_t>("%%MatrixMarket matrix coordinate integer general\n1 2 2\n1 1 2\n1 2 3000000000\n",
                                          "i.mtx");
  });
  CHECK(ki == "domain_mismatch");
  check_message(mi, {"i.mtx:4:", "entry (1, 2)", "3000000000", "int32"});
  auto [kr, mr] = thrown([] { io::parse_edge_list<std::int64_t>("0 1 2\n1 2 0.5\n", "r.txt"); });
  CHECK(kr == "domain_mismatch");
  check_message(mr, {"r.txt:2:", "real values", "int64"});
}

TEST_CASE("duplicates are reported 1-based with both lines", "[io][errors][messages]") {
  auto [k, m] = thrown([] {
    io::parse_matrix_market<double>("%%MatrixMarket matrix coordinate real general\n% c\n3 3 3\n2 3 1\n1 1 1\n2 3 2\n", "d.mtx");
  });
  CHECK(k == "io_error");
  check_message(m, {"d.mtx:6:", "duplicate entry (2, 3)", "line 4"});
  // Symmetric files: the entry as written, not its mirrored half.
  auto [ks, ms] = thrown([] {
    io::parse_matrix_market<double>("%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n3 1 1\n2 2 1\n3 1 2\n", "s.mtx");
  });
  CHECK(ks == "io_error");
  check_message(ms, {"s.mtx:5:", "duplicate entry (3, 1)", "line 3"});
  // Edge lists write 0-based ids; the message uses the file's own numbers.
  auto [ke, me] = thrown([] { io::parse_edge_list<double>("# x\n0 1\n\n2 0\n0 1\n", "e.txt"); });
  CHECK(ke == "io_error");
  check_message(me, {"e.txt:5:", "duplicate edge (0, 1)", "line 2"});
}

TEST_CASE("reading is bounded by a memory budget the caller sets", "[io][limits][budget]") {
  // 20000 entries: about 2 MB to read and build, refused under 1 MB at the size line.
  std::string text = "%%MatrixMarket matrix coordinate real general\n200 200 20000\n";
  for (int k = 0; k < 20000; ++k) text += std::to_string(k / 200 + 1) + " " + std::to_string(k % 200 + 1) + " 1.5\n";
  io::read_options small;
  small.max_memory = 1 << 20;
  auto [k, m] = thrown([&] { io::parse_matrix_market<double>(text, "big.mtx", small); });
  CHECK(k == "out_of_memory");
  check_message(m, {"big.mtx:2:", "20000 entries", "memory limit"});
  io::read_options roomy;
  roomy.max_memory = 64 << 20;
  CHECK(io::parse_matrix_market<double>(text, "big.mtx", roomy).nvals() == 20000);
  // Edge lists have no declared size: refused at the line where the budget runs out.
  std::string edges;
  for (int v = 0; v < 20000; ++v) edges += std::to_string(v) + " " + std::to_string((v * 7 + 1) % 20000) + "\n";
  auto [ke, me] = thrown([&] { io::parse_edge_list<double>(edges, "big.txt", small); });
  CHECK(ke == "out_of_memory");
  check_message(me, {"big.txt:", "edges", "memory limit"});
  CHECK(io::parse_edge_list<double>(edges, "big.txt", roomy).nvals() == 20000);
  // A vertex id far beyond the budget costs nothing: few edges among 6 x 10^10
  // vertices are stored in hypersparse rows, built without per-row arrays.
  const auto far = io::parse_edge_list<double>("0 1\n1 2\n2 60000000000\n", "far.txt", small);
  CHECK(far.nrows() == 60000000001);
  CHECK(far.nvals() == 3);
  CHECK(far.form() == storage_form::hyper);
  // The same id among enough edges to need a row pointer per row is refused
  // at its line, before any allocation.
  std::string dense_far = edges + "2 300000\n";
  io::read_options mid;
  mid.max_memory = 3 << 20;
  auto [kv, mv] = thrown([&] { io::parse_edge_list<double>(dense_far, "far.txt", mid); });
  CHECK(kv == "out_of_memory");
  check_message(mv, {"far.txt:20001:", "memory limit"});
  // Out of memory while building names the file and what was being built.
  const std::size_t prev = set_host_allocation_limit(4096);
  auto [kb, mb] = thrown([&] { io::parse_matrix_market<double>(text, "big.mtx", roomy); });
  set_host_allocation_limit(prev);
  CHECK(kb == "out_of_memory");
  check_message(mb, {"big.mtx", "building the 200 x 200 matrix"});
}

#if defined(TGB_TEST_HAVE_ZLIB)
TEST_CASE("gzip input is parsed while it is inflated, within the budget", "[io][limits][gzip]") {
  temp_dir d;
  // 4 million edges "0 1" compress to a few kilobytes; inflated they are 16 MB
  // of text and would be 4 million entries. With a 4 MB budget the read stops
  // early, and what tgb held never exceeded the budget.
  const std::string plain = d.path + "/many.txt", gz = plain + ".gz";
  {
    std::ofstream out(plain, std::ios::binary);
    std::string chunk;
    for (int k = 0; k < 100000; ++k) chunk += "0 1\n";
    for (int k = 0; k < 40; ++k) out << chunk;
  }
  REQUIRE(std::system(("gzip -9 -f " + plain).c_str()) == 0);
  struct stat st {};
  REQUIRE(stat(gz.c_str(), &st) == 0);
  CHECK(st.st_size < 100000);
  counting_resource counter;
  std::pmr::memory_resource* old = set_host_memory_resource(&counter);
  io::read_options opt;
  opt.max_memory = 4 << 20;
  opt.dup = io::duplicates::keep_first;
  const auto [kind, msg] = thrown([&] { io::read_edge_list<bool>(gz, opt); });
  set_host_memory_resource(old);
  CHECK(kind == "out_of_memory");
  check_message(msg, {gz + ":", "memory limit"});
  CHECK(counter.peak.load() <= std::size_t(4) << 20);
  CHECK(counter.now.load() == 0);
  // The known graph still reads, and its Matrix Market twin equals it.
  const auto k = io::read_graph<bool>(std::string(TGB_TEST_DATA_DIR) + "/karate-edges.txt.gz");
  CHECK(k.nvals() == 156);
}
#endif

TEST_CASE("a writer killed mid-way leaves the old file or the new one, never a part", "[io][atomic]") {
  temp_dir d;
  const std::string path = d.path + "/out.mtx";
  std::mt19937_64 rng(11);
  // Small enough that writing it needs no threads (the child is forked).
  const auto old_m = oracle::random_matrix<double>(rng, 50, 50, 0.1);
  const auto new_m = oracle::random_matrix<double>(rng, 400, 400, 0.25);
  io::write_matrix_market(path, old_m);
  const std::string old_text = slurp(path);
  std::ostringstream want_new;
  io::write_matrix_market(want_new, new_m);
  REQUIRE(old_text.rfind("%%MatrixMarket", 0) == 0);
  CHECK(d.files().size() == 1);  // no temporary left by a write that succeeded

  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    alarm(20);  // never outlive a broken parent
    for (;;) io::write_matrix_market(path, new_m);
  }
  // While the child rewrites the file again and again, every read sees a
  // whole file; once a temporary is being written, kill the child.
  bool saw_temp = false;
  int reads = 0, bad = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    const std::string now = slurp(path);
    ++reads;
    if (now != old_text && now != want_new.str()) ++bad;
    for (const auto& f : d.files())
      if (f.rfind(".out.mtx.", 0) == 0) saw_temp = true;
    if (saw_temp && reads > 20) break;
  }
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  CHECK(WIFSIGNALED(status));
  CHECK(saw_temp);
  CHECK(bad == 0);
  const std::string after = slurp(path);
  CHECK((after == old_text || after == want_new.str()));
  // The killed writer's temporary is the only other file: a dot name beside the target.
  for (const auto& f : d.files()) CHECK((f == "out.mtx" || f.rfind(".out.mtx.tgb-tmp-", 0) == 0));
}

TEST_CASE("a failed write leaves the target as it was and no temporary", "[io][atomic][errors]") {
  temp_dir d;
  const std::string path = d.path + "/t.mtx";
  const auto A = Matrix<double>::from_coo(2, 2, std::vector<index_t>{0}, std::vector<index_t>{1},
                                          std::vector<double>{3.0}, no_duplicates);
  io::write_matrix_market(path, A);
  const std::string before = slurp(path);
  {
    // Abandoned (an exception between opening and committing).
    io::detail::atomic_output out(path);
    out.stream() << "%%MatrixMarket matrix coordinate real general\n9 9 1\n";
  }
  CHECK(slurp(path) == before);
  CHECK(d.files().size() == 1);
  // A folder that does not exist, and a folder as the target.
  auto [k1, m1] = thrown([&] { io::write_matrix_market(d.path + "/no/such/dir/x.mtx", A); });
  CHECK(k1 == "io_error");
  check_message(m1, {"/no/such/dir/x.mtx"});
  auto [k2, m2] = thrown([&] { io::write_matrix_market(d.path, A); });
  CHECK(k2 == "io_error");
  check_message(m2, {"is a folder"});
  // A full device: the error is reported, not lost in a buffer.
  if (access("/dev/full", W_OK) == 0) {
    auto [k3, m3] = thrown([&] { io::write_matrix_market("/dev/full", A); });
    CHECK(k3 == "io_error");
    check_message(m3, {"/dev/full", "write failed"});
  }
  CHECK(d.files().size() == 1);
  CHECK(slurp(path) == before);
}
