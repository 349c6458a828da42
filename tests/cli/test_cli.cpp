// The tgb command line: exit statuses, one-line errors, output that reads
// back exactly, and results equal to the library's.
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>

#include "../oracle.hpp"
#include "../tgb_catch.hpp"

using namespace tgb;

namespace {

struct result {
  int status;
  std::string out, err;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

result run(const std::string& args) {
  // A private stderr file: CTest runs test cases in parallel.
  char err_name[] = "/tmp/tgb_cli_stderr_XXXXXX";
  const int fd = mkstemp(err_name);
  REQUIRE(fd >= 0);
  close(fd);
  const std::string err_file = err_name;
  const std::string cmd = std::string(TGB_CLI_PATH) + " " + args + " 2>" + err_file;
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::string out;
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int st = pclose(p);
  result r{WIFEXITED(st) ? WEXITSTATUS(st) : -1, out, slurp(err_file)};
  std::remove(err_file.c_str());
  return r;
}

std::string data(const std::string& f) { return std::string(TGB_TEST_DATA_DIR) + "/" + f; }

std::string write_temp(const std::string& name, const std::string& text) {
  std::ofstream(name, std::ios::binary) << text;
  return name;
}

template <class T>
std::string write_matrix(const std::string& name, const Matrix<T>& m) {
  io::write_matrix_market(name, m);
  return name;
}

int lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

}  // namespace

TEST_CASE("usage errors exit 1 with one line on stderr", "[cli]") {
  for (const char* args : {"", "frobnicate", "mxm", "mxm a.mtx", "mxm a b --semiring nope", "mxm a b --type int8",
                           "mxm a b --repeat 0", "mxm a b --accum nope", "mxm a b --complement", "info",
                           "info --bogus x", "mxm a b --backend tpu", "mxm a b --mask"}) {
    INFO("tgb " << args);
    const result r = run(args);
    CHECK(r.status == 1);
    CHECK(lines(r.err) == 1);
    CHECK(r.out.empty());
  }
  const result h = run("help");
  CHECK(h.status == 0);
  CHECK(h.out.find("usage: tgb") != std::string::npos);
}

TEST_CASE("bad input exits 2 naming the file and line", "[cli][errors]") {
  const std::string bad = write_temp("tgb_cli_bad.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1\n");
  result r = run("info " + bad);
  CHECK(r.status == 2);
  CHECK(lines(r.err) == 1);
  CHECK(r.err.find("tgb_cli_bad.mtx:3") != std::string::npos);
  r = run("mxm " + bad + " " + bad);
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  r = run("mxm no_such_file.mtx " + data("karate.mtx"));
  CHECK(r.status == 2);
  CHECK(r.err.find("no_such_file.mtx") != std::string::npos);
  // Dimension mismatch: 27 x 51 times itself.
  r = run("mxm " + data("lp_afiro.mtx") + " " + data("lp_afiro.mtx"));
  CHECK(r.status == 2);
  CHECK(r.err.find("dimension") == std::string::npos);  // the message states the shapes
  CHECK(r.err.find("27 x 51") != std::string::npos);
  // Domain: a real file read as int32.
  r = run("mxm " + data("west0067.mtx") + " " + data("west0067.mtx") + " --type int32");
  CHECK(r.status == 2);
  CHECK(r.err.find("real values") != std::string::npos);
  std::remove(bad.c_str());
}

TEST_CASE("info prints shape and tile statistics", "[cli]") {
  result r = run("info " + data("karate.mtx"));
  REQUIRE(r.status == 0);
  CHECK(r.out.find("rows:            34") != std::string::npos);
  CHECK(r.out.find("stored entries:  156") != std::string::npos);
  const auto K = io::read_matrix_market<double>(data("karate.mtx"));
  CHECK(r.out.find("non-empty tiles: " + std::to_string(K.ntiles())) != std::string::npos);
  r = run("info --json " + data("karate.mtx"));
  REQUIRE(r.status == 0);
  CHECK(r.out.find("\"nvals\":156") != std::string::npos);
  CHECK(r.out.find("\"tile_histogram\"") != std::string::npos);
}

TEST_CASE("mxm output equals the library's and reads back exactly", "[cli][mxm]") {
  const auto A = io::read_matrix_market<double>(data("west0067.mtx"));
  Matrix<double> want(A.nrows(), A.ncols());
  mxm(want, no_mask, no_accum, plus_times, A, A);
  result r = run("mxm " + data("west0067.mtx") + " " + data("west0067.mtx"));
  REQUIRE(r.status == 0);
  CHECK(r.err.find("plus_times") != std::string::npos);  // statistics on stderr
  const auto got = io::parse_matrix_market<double>(r.out);
  CHECK(oracle::diff(oracle::to_map(got), oracle::to_map(want)) == "");
  // Sorted by (row, col), 1-based.
  const auto coo = want.to_coo();
  std::ostringstream first;
  first << (coo.rows[0] + 1) << ' ' << (coo.cols[0] + 1) << ' ';
  CHECK(r.out.find("\n" + first.str()) != std::string::npos);
  // To a file, with JSON statistics on stdout.
  r = run("mxm " + data("west0067.mtx") + " " + data("west0067.mtx") + " -o tgb_cli_c.mtx --json --repeat 3");
  REQUIRE(r.status == 0);
  CHECK(r.out.find("\"nvals\":" + std::to_string(want.nvals())) != std::string::npos);
  CHECK(r.out.find("\"repeat\":3") != std::string::npos);
  CHECK(oracle::diff(oracle::to_map(io::read_matrix_market<double>("tgb_cli_c.mtx")), oracle::to_map(want)) == "");
  std::remove("tgb_cli_c.mtx");
}

TEST_CASE("masks, accumulator, replace, transposes and types match the library", "[cli][mxm][mask]") {
  std::mt19937_64 rng(3);
  const auto A = oracle::random_matrix<std::int64_t>(rng, 40, 30, 0.1);
  const auto B = oracle::random_matrix<std::int64_t>(rng, 40, 35, 0.1);
  const auto M = oracle::random_matrix<std::int64_t>(rng, 30, 35, 0.4);
  const auto C0 = oracle::random_matrix<std::int64_t>(rng, 30, 35, 0.3);
  const std::string fa = write_matrix("tgb_cli_a.mtx", A), fb = write_matrix("tgb_cli_b.mtx", B),
                    fm = write_matrix("tgb_cli_m.mtx", M), fc = write_matrix("tgb_cli_c0.mtx", C0);
  const std::string base = "mxm " + fa + " " + fb + " --transpose-a --type int64 --mask " + fm + " --init " + fc;
  descriptor d = descriptor{}.with_transpose_a();
  {
    Matrix<std::int64_t> want = C0;
    mxm(want, M, no_accum, min_plus, A, B, d);
    const result r = run(base + " --semiring min_plus");
    REQUIRE(r.status == 0);
    CHECK(oracle::diff(oracle::to_map(io::parse_matrix_market<std::int64_t>(r.out)), oracle::to_map(want)) == "");
  }
  {
    Matrix<std::int64_t> want = C0;
    mxm(want, complement(structure(M)), plus{}, plus_times, A, B, d.with_replace());
    const result r = run(base + " --complement --structure --accum plus --replace");
    REQUIRE(r.status == 0);
    CHECK(oracle::diff(oracle::to_map(io::parse_matrix_market<std::int64_t>(r.out)), oracle::to_map(want)) == "");
  }
  {
    Matrix<std::int64_t> want = C0;
    mxm(want, structure(M), max{}, max_plus, A, B, d);
    const result r = run(base + " --structure --accum max --semiring max_plus");
    REQUIRE(r.status == 0);
    CHECK(oracle::diff(oracle::to_map(io::parse_matrix_market<std::int64_t>(r.out)), oracle::to_map(want)) == "");
  }
  {
    // B' with bool lor_land: A is 40 x 30, so A' * (B')' needs B as 35 x 40.
    const auto Ab = oracle::random_matrix<bool>(rng, 40, 30, 0.1);
    const auto Bt = oracle::random_matrix<bool>(rng, 35, 40, 0.1);
    write_matrix("tgb_cli_ab.mtx", Ab);
    write_matrix("tgb_cli_bt.mtx", Bt);
    Matrix<bool> want(30, 35);
    mxm(want, no_mask, no_accum, lor_land, Ab, Bt, d.with_transpose_b());
    const result r =
        run("mxm tgb_cli_ab.mtx tgb_cli_bt.mtx --type bool --semiring lor_land --transpose-a --transpose-b");
    REQUIRE(r.status == 0);
    CHECK(r.out.rfind("%%MatrixMarket matrix coordinate integer general", 0) == 0);
    CHECK(oracle::diff(oracle::to_map(io::parse_matrix_market<bool>(r.out)), oracle::to_map(want)) == "");
    std::remove("tgb_cli_bt.mtx");
    std::remove("tgb_cli_ab.mtx");
  }
  for (const char* t : {"int32", "fp32", "fp64"}) {
    INFO(t);
    const result r = run("mxm " + fa + " " + fb + " --transpose-a --type " + t);
    REQUIRE(r.status == 0);
    Matrix<double> want(30, 35), Ad(40, 30), Bd(40, 35);
    apply(Ad, no_mask, no_accum, identity{}, A);
    apply(Bd, no_mask, no_accum, identity{}, B);
    mxm(want, no_mask, no_accum, plus_times, Ad, Bd, d);
    CHECK(oracle::diff(oracle::to_map(io::parse_matrix_market<double>(r.out)), oracle::to_map(want)) == "");
  }
  for (const auto& f : {fa, fb, fm, fc}) std::remove(f.c_str());
}

TEST_CASE("backend cuda runs on a GPU and fails cleanly without one", "[cli][backend]") {
  const result r = run("mxm " + data("karate.mtx") + " " + data("karate.mtx") + " --backend cuda");
  const result h = run("mxm " + data("karate.mtx") + " " + data("karate.mtx") + " --backend host");
  CHECK(h.status == 0);
  if (cuda_device_count() > 0) {
    CHECK(r.status == 0);
    CHECK(r.out == h.out);
  } else {
    CHECK(r.status == 2);
    CHECK(lines(r.err) == 1);
    CHECK(r.out.empty());
  }
}

TEST_CASE("demo computes the known answers", "[cli][demo]") {
  const result r = run("demo --data " + std::string(TGB_TEST_DATA_DIR));
  CHECK(r.status == 0);
  CHECK(r.out.find("All results match the known answers") != std::string::npos);
  CHECK(r.out.find("WRONG") == std::string::npos);
  const result bad = run("demo --data /nonexistent");
  CHECK(bad.status == 2);
}

TEST_CASE("tc prints the triangle count, as text and JSON", "[cli][algorithms]") {
  const result r = run("tc " + data("karate.mtx"));
  CHECK(r.status == 0);
  CHECK(r.out == "triangles: 45\n");
  const result g = run("tc " + data("polbooks.mtx") + " --backend host --json");
  CHECK(g.status == 0);
  CHECK(g.out.find("\"triangles\":560") != std::string::npos);
  CHECK(g.out.find("\"backend\":\"host\"") != std::string::npos);
  const result bad = run("tc " + data("lp_afiro.mtx"));  // 27 x 51: not a graph
  CHECK(bad.status == 2);
  CHECK(lines(bad.err) == 1);
  CHECK(run("tc").status == 1);
  CHECK(run("tc " + data("karate.mtx") + " --sources 1").status == 1);
  // Weighted files count their pattern's triangles (netscience: real weights;
  // 3,764 triangles by networkx's triangles() on the same edges).
  const result w = run("tc " + data("netscience.mtx") + " --backend host");
  CHECK(w.status == 0);
  CHECK(w.out == "triangles: 3764\n");
}

TEST_CASE("bfs writes one line per vertex with one level per source", "[cli][algorithms]") {
  const std::string out = "/tmp/tgb_cli_bfs_levels.txt";
  const result r = run("bfs " + data("karate.mtx") + " --sources 30,0 -o " + out);
  CHECK(r.status == 0);
  const auto A = io::read_matrix_market<bool>(data("karate.mtx"));
  const auto lv = dense_levels(msbfs(A, {30, 0}));
  std::ostringstream want;
  for (std::size_t v = 0; v < 34; ++v) want << lv[v] << ' ' << lv[34 + v] << '\n';
  CHECK(slurp(out) == want.str());
  std::remove(out.c_str());
  // The known column for source 30 (LAGraph's test), to stdout.
  const result s = run("bfs " + data("karate.mtx") + " --sources 30");
  CHECK(s.out.substr(0, 8) == "2\n1\n2\n2\n");
  CHECK(lines(s.out) == 34);
  // A directed edge list: unreachable is -1 unless --undirected.
  const std::string g = write_temp("/tmp/tgb_cli_bfs_chain.txt", "0 1\n1 2\n3 2\n");
  CHECK(run("bfs " + g + " --sources 0,3").out == "0 -1\n1 -1\n2 1\n-1 0\n");
  CHECK(run("bfs " + g + " --sources 0 --undirected").out == "0\n1\n2\n3\n");
  const result j = run("bfs " + g + " --sources 0 --json");
  CHECK(j.out.find("\"reached\":[3]") != std::string::npos);
  CHECK(j.out.find("\"levels\":[[0],[1],[2],[-1]]") != std::string::npos);
  std::remove(g.c_str());
  CHECK(run("bfs " + data("karate.mtx")).status == 1);                    // no sources
  CHECK(run("bfs " + data("karate.mtx") + " --sources 0,x").status == 1);  // not a number
  const result far = run("bfs " + data("karate.mtx") + " --sources 34");
  CHECK(far.status == 2);
  CHECK(far.err.find("source 34") != std::string::npos);
}

TEST_CASE("mcl writes clusters largest first with progress on stderr", "[cli][algorithms]") {
  const result r = run("mcl " + data("karate.mtx"));
  CHECK(r.status == 0);
  CHECK(lines(r.out) == 2);
  CHECK(r.out.substr(0, r.out.find('\n')) == "2\t8\t9\t14\t15\t18\t20\t22\t23\t24\t25\t26\t27\t28\t29\t30\t31\t32\t33");
  CHECK(r.err.find("iteration   1") != std::string::npos);
  const result q = run("mcl " + data("karate.mtx") + " --quiet -I 3 --prune 1e-3 --max-iter 50");
  CHECK(q.status == 0);
  CHECK(q.err.empty());
  const auto A = io::read_matrix_market<double>(data("karate.mtx"));
  mcl_params p;
  p.inflation = 3;
  p.prune = 1e-3;
  p.max_iter = 50;
  CHECK(lines(q.out) == static_cast<int>(markov_clustering(A, p).clusters.size()));
  CHECK(run("mcl " + data("karate.mtx") + " -I -1").status == 1);
  CHECK(run("mcl " + data("karate.mtx") + " --prune abc").status == 1);
  CHECK(run("mcl /nonexistent.mtx").status == 2);
}

TEST_CASE("every write is checked, stdout included", "[cli][errors][write]") {
  if (access("/dev/full", W_OK) != 0) return;  // no full device here
  const std::string k = data("karate.mtx");
  for (const std::string& args :
       {"info " + k, "info --json " + k, "tc " + k, "tc --json " + k, "bfs " + k + " --sources 0",
        "bfs " + k + " --sources 0 --json", "mcl --quiet " + k, "mxm " + k + " " + k,
        "mxm " + k + " " + k + " -o /tmp/tgb_cli_unused.mtx --json"}) {
    INFO("tgb " << args << " > /dev/full");
    const result r = run(args + " > /dev/full");
    CHECK(r.status == 2);
    CHECK(lines(r.err) == 1);
    CHECK(r.err.find("write failed") != std::string::npos);
  }
  std::remove("/tmp/tgb_cli_unused.mtx");
  // -o to a full device: the file's write error, not exit 0.
  const result o = run("bfs " + k + " --sources 0 -o /dev/full");
  CHECK(o.status == 2);
  CHECK(o.err.find("/dev/full") != std::string::npos);
}

TEST_CASE("invalid files, empty input and folders exit 2 naming the file", "[cli][errors][corpus]") {
  const std::string dir = std::string(TGB_TEST_DATA_DIR) + "/invalid";
  std::istringstream listing(slurp(dir + "/EXPECTED.txt"));
  std::string line;
  int n = 0;
  while (std::getline(listing, line)) {
    if (line.empty() || line[0] == '#') continue;
    const std::string name = line.substr(0, line.find(' '));
    INFO(name);
    for (const std::string cmd : {"info ", "tc "}) {
      // The graph commands merge duplicate edges on purpose.
      if (cmd == "tc " && name.rfind("duplicate", 0) == 0) continue;
      const result r = run(cmd + dir + "/" + name);
      CHECK(r.status == 2);
      CHECK(lines(r.err) == 1);
      CHECK(r.err.find(name) != std::string::npos);
      CHECK(r.out.empty());
    }
    ++n;
  }
  CHECK(n >= 10);
  // An empty file used to be a 0 x 0 graph with "triangles: 0".
  const result e = run("tc /dev/null");
  CHECK(e.status == 2);
  CHECK(e.err.find("no data") != std::string::npos);
  CHECK(e.out.empty());
  const result z = run("info /dev/zero");
  CHECK(z.status == 2);
  CHECK(z.err.find("NUL byte") != std::string::npos);
  const result f = run("info " + std::string(TGB_TEST_DATA_DIR));
  CHECK(f.status == 2);
  CHECK(f.err.find("is a folder") != std::string::npos);
  CHECK(f.err.find("basic_string") == std::string::npos);
  // The lower-case banner: Matrix Market, 4 x 4 with 2 entries.
  const std::string low = write_temp("/tmp/tgb_cli_lower.mtx", "%%matrixmarket matrix coordinate real general\n4 4 2\n1 2 7\n3 1 9\n");
  const result l = run("info " + low);
  CHECK(l.status == 0);
  CHECK(l.out.find("rows:            4\n") != std::string::npos);
  CHECK(l.out.find("stored entries:  2\n") != std::string::npos);
  std::remove(low.c_str());
}

TEST_CASE("the memory budget (--max-memory) bounds reading and computing", "[cli][limits]") {
  const std::string k = data("karate.mtx"), b = data("bcsstk13.mtx");
  const result tiny = run("info " + k + " --max-memory 1K");
  CHECK(tiny.status == 2);
  CHECK(lines(tiny.err) == 1);
  CHECK(tiny.err.find("karate.mtx:24:") != std::string::npos);  // the size line
  CHECK(tiny.err.find("memory limit") != std::string::npos);
  CHECK(run("tc " + k + " --max-memory 1G").out == "triangles: 45\n");
  // Enough to read bcsstk13 but not to square it on the host (the budget
  // counts host memory): the error names the operation.
  const result mx = run("mxm " + b + " " + b + " --max-memory 9M --backend host");
  CHECK(mx.status == 2);
  CHECK(lines(mx.err) == 1);
  CHECK(mx.err.find("computing C = A*B") != std::string::npos);
  CHECK(mx.err.find("--max-memory") != std::string::npos);
  CHECK(mx.out.empty());
  for (const char* bad : {"x", "0", "12Q", "-5", ""})
    CHECK(run("info " + k + " --max-memory '" + bad + "'").status == 1);
  CHECK(run("info " + k + " --max-memory").status == 1);
}

TEST_CASE("a killed mxm -o leaves the old file or the whole new one", "[cli][atomic]") {
  char dir_name[] = "/tmp/tgb_cli_kill_XXXXXX";
  REQUIRE(mkdtemp(dir_name) != nullptr);
  const std::string dir = dir_name, out = dir + "/C.mtx", old_text = "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 5\n";
  write_temp(out, old_text);
  auto temps = [&] {
    std::vector<std::string> t;
    if (DIR* d = opendir(dir.c_str())) {
      while (dirent* e = readdir(d))
        if (std::string(e->d_name).rfind(".C.mtx.tgb-tmp-", 0) == 0) t.push_back(dir + "/" + e->d_name);
      closedir(d);
    }
    return t;
  };
  const std::string b = data("bcsstk13.mtx");  // C has 396773 entries, about 11 MB of text
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    const int devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, 1);
    dup2(devnull, 2);
    execl(TGB_CLI_PATH, TGB_CLI_PATH, "mxm", b.c_str(), b.c_str(), "--backend", "host", "-o", out.c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  // Kill it while the result is being written; until then the old file stays.
  bool saw_temp = false, partial = false;
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    if (!temps().empty()) {
      saw_temp = true;
      kill(child, SIGKILL);
      break;
    }
    const std::string now = slurp(out);
    if (now != old_text && now.size() < 1000000) partial = true;  // neither the old nor a whole C
    if (waitpid(child, &status, WNOHANG) == child) break;
    usleep(500);
  }
  if (!saw_temp) kill(child, SIGKILL);
  waitpid(child, &status, 0);
  CHECK(saw_temp);
  CHECK_FALSE(partial);
  const std::string after = slurp(out);
  if (after != old_text) CHECK(io::read_matrix_market<double>(out).nvals() == 396773);
  for (const auto& t : temps()) std::remove(t.c_str());
  std::remove(out.c_str());
  rmdir(dir.c_str());
}

TEST_CASE("bfs --parents, sssp, pagerank and cc write one line per vertex", "[cli][algorithms][vector]") {
  // 0 -> 1 (4), 0 -> 2 (1), 2 -> 1 (2), 1 -> 3 (-1); 4 alone.
  const std::string g = write_temp("/tmp/tgb_cli_vec_graph.mtx",
                                   "%%MatrixMarket matrix coordinate real general\n5 5 4\n"
                                   "1 2 4\n1 3 1\n3 2 2\n2 4 -1\n");
  CHECK(run("bfs " + g + " --sources 0 --parents").out == "0 0\n1 0\n1 0\n2 1\n-1 -1\n");
  CHECK(run("bfs " + g + " --sources 0,1 --parents").status == 1);
  const std::string out = "/tmp/tgb_cli_vec_out.txt";
  CHECK(run("sssp " + g + " --source 0 -o " + out).status == 0);
  CHECK(slurp(out) == "0\n3\n1\n2\ninf\n");
  std::remove(out.c_str());
  const result j = run("sssp " + g + " --source 0 --json");
  CHECK(j.out.find("\"reached\":4") != std::string::npos);
  CHECK(j.out.find("\"values\":[0,3,1,2,null]") != std::string::npos);
  CHECK(run("sssp " + g).status == 1);  // no source
  // Delta-stepping: the same distances where the weights are nonnegative, an error otherwise.
  const std::string pos = write_temp("/tmp/tgb_cli_vec_pos.txt", "0 1 4\n0 2 1\n2 1 2\n1 3 1\n");
  CHECK(run("sssp " + pos + " --source 0 --delta 1.5").out == "0\n3\n1\n4\n");
  CHECK(run("sssp " + pos + " --source 0 --delta 0 --json").out.find("\"method\":\"delta-stepping\"") !=
        std::string::npos);
  std::remove(pos.c_str());
  const result negd = run("sssp " + g + " --source 0 --delta 1");
  CHECK(negd.status == 2);
  CHECK(negd.err.find("negative edge weight") != std::string::npos);
  const result far = run("sssp " + g + " --source 5");
  CHECK(far.status == 2);
  CHECK(far.err.find("source 5") != std::string::npos);
  CHECK(run("cc " + g).out == "0\n0\n0\n0\n4\n");
  CHECK(run("cc " + g + " --json").out.find("\"components\":2") != std::string::npos);
  // PageRank: the pagerank of the library, digit for digit; ranks sum to 1.
  const auto A = io::read_matrix_market<double>(g);
  pagerank_options po;
  po.damping = 0.5;
  po.iterations = 7;
  const auto pr = pagerank(A, po);
  const result p = run("pagerank " + g + " --damping 0.5 --iterations 7");
  CHECK(p.status == 0);
  std::istringstream in(p.out);
  double sum = 0, x;
  for (index_t v = 0; v < 5; ++v) {
    REQUIRE(in >> x);
    CHECK(x == *pr.get(v));
    sum += x;
  }
  CHECK(std::fabs(sum - 1) < 1e-12);
  CHECK(run("pagerank " + g + " --damping 2").status == 1);
  // A reachable negative cycle exits 2 naming it.
  const std::string c = write_temp("/tmp/tgb_cli_vec_cycle.txt", "0 1 1\n1 2 -3\n2 1 1\n");
  const result neg = run("sssp " + c + " --source 0");
  CHECK(neg.status == 2);
  CHECK(neg.err.find("negative cycle") != std::string::npos);
  for (const char* cmd : {"sssp", "pagerank", "cc", "bfs", "tc", "mcl"}) {
    const result h = run(std::string(cmd) + " --help");
    CHECK(h.status == 0);
    CHECK(h.out.find(std::string("usage: tgb ") + cmd) != std::string::npos);
  }
  std::remove(g.c_str());
  std::remove(c.c_str());
}

TEST_CASE("bc writes one betweenness centrality per vertex", "[cli][algorithms][bc]") {
  // A path 0 - 1 - 2 - 3 (a symmetric file: both directions; the weights are
  // ignored) and vertex 4 alone.
  const std::string g = write_temp("/tmp/tgb_cli_bc_path.mtx",
                                   "%%MatrixMarket matrix coordinate real symmetric\n5 5 3\n"
                                   "2 1 5\n3 2 0.5\n4 3 9\n");
  result r = run("bc " + g);
  CHECK(r.status == 0);
  CHECK(r.out == "0\n4\n4\n0\n0\n");
  CHECK(run("bc " + g + " --sources 0").out == "0\n2\n1\n0\n0\n");
  const std::string out = "/tmp/tgb_cli_bc_out.txt";
  CHECK(run("bc " + g + " --sources 3,0 --batch 1 -o " + out).status == 0);
  CHECK(slurp(out) == "0\n3\n3\n0\n0\n");
  r = run("bc " + g + " --json");
  CHECK(r.status == 0);
  CHECK(lines(r.out) == 1);
  for (const char* field : {"\"command\":\"bc\"", "\"vertices\":5", "\"sources\":5", "\"all_sources\":true",
                            "\"batch\":5", "\"max_vertex\":1", "\"max\":4", "\"values\":[0,4,4,0,0]"})
    CHECK(r.out.find(field) != std::string::npos);
  std::remove(out.c_str());
  r = run("bc " + g + " --sources 4 --batch 0 --json -o " + out);
  CHECK(r.status == 0);
  CHECK(r.out.find("\"values\"") == std::string::npos);
  CHECK(r.out.find("\"all_sources\":false") != std::string::npos);
  CHECK(slurp(out) == "0\n0\n0\n0\n0\n");
  std::remove(out.c_str());
  // A directed edge list, and the same with --undirected.
  const std::string d = write_temp("/tmp/tgb_cli_bc_chain.txt", "0 1\n1 2\n");
  CHECK(run("bc " + d).out == "0\n1\n0\n");
  CHECK(run("bc " + d + " --undirected").out == "0\n2\n0\n");
  // Karate: the library's values, digit for digit.
  const auto K = io::read_matrix_market<double>(data("karate.mtx"));
  const auto want = betweenness_centrality(K, {0, 33});
  r = run("bc " + data("karate.mtx") + " --sources 0,33 --backend host");
  CHECK(r.status == 0);
  std::istringstream in(r.out);
  double x;
  for (index_t v = 0; v < 34; ++v) {
    REQUIRE(in >> x);
    CHECK(x == *want.get(v));
  }
  // Errors: a source outside the graph or repeated exits 2 naming it; a bad
  // number or option is a usage error.
  r = run("bc " + g + " --sources 5");
  CHECK(r.status == 2);
  CHECK(lines(r.err) == 1);
  CHECK(r.err.find("source 5") != std::string::npos);
  r = run("bc " + g + " --sources 1,2,1");
  CHECK(r.status == 2);
  CHECK(r.err.find("more than once") != std::string::npos);
  CHECK(run("bc " + g + " --sources 0,x").status == 1);
  CHECK(run("bc " + g + " --batch -1").status == 1);
  CHECK(run("bc " + g + " --batch").status == 1);
  CHECK(run("bc " + g + " --parents").status == 1);
  CHECK(run("bc").status == 1);
  CHECK(run("bc " + data("lp_afiro.mtx")).status == 2);  // 27 x 51: not a graph
  const result h = run("bc --help");
  CHECK(h.status == 0);
  CHECK(h.out.find("usage: tgb bc") != std::string::npos);
  CHECK(run("help").out.find("  bc GRAPH") != std::string::npos);
  std::remove(g.c_str());
  std::remove(d.c_str());
}
