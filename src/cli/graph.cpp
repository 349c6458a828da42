// tgb command line: the graph algorithms, `tc`, `bfs`, `mcl`, `lcc`,
// `ktruss`, `bc`, and the ones written on the Vector operations, `sssp`,
// `pagerank` and `cc` (and `bfs --parents`), which run on the host unless
// --backend cuda asks for the GPU.
#include <omp.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli.hpp"
#include "tgb/tgb.hpp"

namespace tgb::cli {

namespace {

struct graph_args {
  std::string file, out, backend = "auto";
  bool json = false, undirected = false, quiet = false, parents = false;
  std::vector<std::string> sources;
  std::string source;
  double damping = 0.85;
  long iterations = 20;
  double delta = -1;  // sssp --delta: delta-stepping's bucket width (0: automatic); < 0: Bellman-Ford
  double inflation = 2.0, prune = 1e-4;
  long max_iter = 100, select = 1100, recover = 1400;
  long k = 0;  // ktruss -k
  long batch = 64;  // bc --batch (0: all sources in one batch)
  std::size_t max_memory = 0;  // the budget in bytes, after parse()
};

double number(const std::string& cmd, const std::string& opt, const std::string& v, double lo, double hi) {
  char* end = nullptr;
  const double d = std::strtod(v.c_str(), &end);
  if (v.empty() || !end || *end || !(d >= lo && d <= hi))
    throw usage_error("tgb " + cmd + ": " + opt + " takes a number from " + std::to_string(lo) + " to " +
                      std::to_string(hi) + ", not '" + v + "'");
  return d;
}

long integer(const std::string& cmd, const std::string& opt, const std::string& v, long lo, long hi) {
  char* end = nullptr;
  const long long d = std::strtoll(v.c_str(), &end, 10);
  if (v.empty() || !end || *end || d < lo || d > hi)
    throw usage_error("tgb " + cmd + ": " + opt + " takes a whole number from " + std::to_string(lo) + " to " +
                      std::to_string(hi) + ", not '" + v + "'");
  return static_cast<long>(d);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  std::istringstream in(s);
  while (std::getline(in, cur, sep)) out.push_back(cur);
  return out;
}

// Parses the options every graph command shares plus the command's own.
graph_args parse(const std::string& cmd, const std::vector<std::string>& args) {
  graph_args g;
  for (std::size_t k = 0; k < args.size(); ++k) {
    const std::string& a = args[k];
    auto value = [&]() -> std::string {
      if (k + 1 >= args.size()) throw usage_error("tgb " + cmd + ": " + a + " needs a value");
      return args[++k];
    };
    if (a == "--backend") g.backend = value();
    else if (a == "--json" && cmd != "mcl") g.json = true;
    else if ((a == "-o" || a == "--output") && cmd != "tc") g.out = value();
    else if (a == "--undirected" && cmd != "tc") g.undirected = true;
    else if (a == "--sources" && (cmd == "bfs" || cmd == "bc")) g.sources = split(value(), ',');
    else if (a == "--batch" && cmd == "bc") g.batch = integer(cmd, a, value(), 0, 0x7fffffffL);
    else if (a == "--parents" && cmd == "bfs") g.parents = true;
    else if (a == "--source" && cmd == "sssp") g.source = value();
    else if (a == "--delta" && cmd == "sssp") g.delta = number(cmd, a, value(), 0, 1e300);
    else if (a == "--damping" && cmd == "pagerank") g.damping = number(cmd, a, value(), 0, 1);
    else if (a == "--iterations" && cmd == "pagerank") g.iterations = integer(cmd, a, value(), 0, 1000000);
    else if (a == "-I" && cmd == "mcl") g.inflation = number(cmd, a, value(), 1e-3, 1e3);
    else if (a == "--prune" && cmd == "mcl") g.prune = number(cmd, a, value(), 0, 1);
    else if (a == "--max-iter" && cmd == "mcl") g.max_iter = integer(cmd, a, value(), 0, 100000);
    else if (a == "-S" && cmd == "mcl") g.select = integer(cmd, a, value(), 1, 1000000000);
    else if (a == "-R" && cmd == "mcl") g.recover = integer(cmd, a, value(), 0, 1000000000);
    else if (a == "--quiet" && cmd == "mcl") g.quiet = true;
    else if (a == "-k" && cmd == "ktruss") g.k = integer(cmd, a, value(), 3, 0x7fffffffL);
    else if (a == "--max-memory") g.max_memory = parse_memory_size("tgb " + cmd, value());
    else if (!a.empty() && a[0] == '-') throw usage_error("tgb " + cmd + ": unknown option '" + a + "'");
    else if (g.file.empty()) g.file = a;
    else throw usage_error("tgb " + cmd + ": takes one graph file");
  }
  if (g.file.empty()) throw usage_error("tgb " + cmd + ": no graph file given");
  if (g.backend != "auto" && g.backend != "host" && g.backend != "cuda")
    throw usage_error("tgb " + cmd + ": --backend must be auto, host or cuda");
  g.max_memory = apply_memory_budget(g.max_memory);
  return g;
}

backend choose(const graph_args& g) {
  if (g.backend == "host") return backend::host;
  if (g.backend == "cuda") {
    if (cuda_device_count() == 0) throw not_implemented("--backend cuda: " + cuda_device_description());
    return backend::cuda;
  }
  return preferred_backend();
}

// The graph, duplicates merged, on the chosen backend. The graph commands
// read it as fp64, so that weighted and pattern files both load (tc keeps
// only the pattern: load_pattern).
template <class T>
Matrix<T> load(const graph_args& g, backend where) {
  io::read_options ro;
  ro.dup = io::duplicates::keep_first;
  ro.max_memory = g.max_memory;
  Matrix<T> A = io::read_graph<T>(g.file, ro);
  if (A.nrows() != A.ncols())
    throw dimension_mismatch(g.file + ": a graph needs a square matrix, this one is " + std::to_string(A.nrows()) +
                             " x " + std::to_string(A.ncols()));
  A.to(where);
  return A;
}

// The graph's pattern as bool, from pattern and weighted files alike: read
// as bool (1 byte a value); a file whose values bool cannot hold (weights)
// is read again as fp64 on the host and only its pattern kept, so the
// device never holds the weights.
Matrix<bool> load_pattern(const graph_args& g, backend where) {
  try {
    return load<bool>(g, where);
  } catch (const domain_mismatch&) {
  }
  const Matrix<double> W = load<double>(g, backend::host);
  Matrix<bool> P(W.nrows(), W.ncols());
  apply(P, no_mask, no_accum, one{}, W);
  P.to(where);
  return P;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  cuda_synchronize();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Output to -o FILE (written aside and renamed when complete, so that a
// killed or failed run leaves no partial file) or to stdout.
struct sink {
  std::unique_ptr<io::detail::atomic_output> file;
  std::ostream* os = &std::cout;
  explicit sink(const std::string& path) {
    if (path.empty() || path == "-") return;
    file = std::make_unique<io::detail::atomic_output>(path);
    os = &file->stream();
  }
  void done() {
    if (file) file->commit();
    finish_stdout();
  }
};

// `tgb COMMAND --help`: the command's usage on stdout.
bool print_help(const std::string& cmd, const std::vector<std::string>& args) {
  bool asked = false;
  for (const auto& a : args) asked = asked || a == "--help" || a == "-h";
  if (!asked) return false;
  static const std::pair<const char*, const char*> text[] = {
      {"tc", "usage: tgb tc GRAPH [--backend auto|host|cuda] [--json] [--max-memory SIZE]\n"
             "  triangles of the undirected graph: 'triangles: N'\n"},
      {"bfs", "usage: tgb bfs GRAPH --sources 0,5,9 [--parents] [--undirected] [-o FILE] [--backend B] [--json]\n"
              "  BFS levels from every source at once: one line per vertex, one level per source, -1 where\n"
              "  unreached. With --parents (one source only; host unless --backend cuda): 'LEVEL PARENT' per\n"
              "  vertex, -1 -1 where unreached; the source is its own parent.\n"},
      {"mcl", "usage: tgb mcl GRAPH [-I 2.0] [--prune 1e-4] [-S 1100] [-R 1400] [--max-iter N] [--undirected]\n"
              "               [-o FILE] [--backend B] [--quiet]\n"
              "  Markov clustering: one cluster per line, largest first\n"},
      {"sssp", "usage: tgb sssp GRAPH --source S [--delta D] [--undirected] [-o FILE] [--backend B] [--json]\n"
               "  single-source shortest paths (Bellman-Ford; host unless --backend cuda) over the file's\n"
               "  weights (pattern files: weight 1): one distance per vertex, 'inf' where unreached; a\n"
               "  negative cycle reachable from S is an error (exit status 2). --delta D: delta-stepping\n"
               "  with buckets of width D (0: the mean weight), nonnegative weights only\n"},
      {"pagerank", "usage: tgb pagerank GRAPH [--damping 0.85] [--iterations 20] [--undirected] [-o FILE]\n"
                   "                     [--backend B] [--json]\n"
                   "  PageRank as LDBC Graphalytics defines it (fixed iterations, dangling rank spread evenly;\n"
                   "  host unless --backend cuda): one rank per vertex\n"},
      {"lcc", "usage: tgb lcc GRAPH [--undirected] [-o FILE] [--backend B] [--json]\n"
              "  local clustering coefficient (LDBC Graphalytics): one per vertex, the edges among its\n"
              "  neighbours (either direction) over |N|(|N| - 1), 0 below two neighbours; --undirected:\n"
              "  the graph of A + A' (networkx's clustering())\n"},
      {"ktruss", "usage: tgb ktruss GRAPH -k K [-o FILE] [--backend B] [--json]\n"
                 "  the k-truss of the undirected graph (K >= 3: every edge in at least K - 2 of its\n"
                 "  triangles): 'k-truss: E edges, V vertices'; -o FILE gets one line 'U V SUPPORT' per\n"
                 "  edge (U < V, sorted), SUPPORT its triangles in the truss\n"},
      {"cc", "usage: tgb cc GRAPH [-o FILE] [--backend B] [--json]\n"
             "  (weakly) connected components (host unless --backend cuda): one component id per vertex,\n"
             "  the smallest vertex id of its component\n"},
      {"bc", "usage: tgb bc GRAPH [--sources 0,5,9] [--batch 64] [--undirected] [-o FILE] [--backend B] [--json]\n"
             "  betweenness centrality (Brandes, exact for the sources given; all vertices without\n"
             "  --sources), unnormalized: one value per vertex, the sum over the sources s of s's\n"
             "  dependency on it. Unweighted: only the pattern counts, a weighted file's values are\n"
             "  ignored. Edges as stored (a symmetric file holds both directions, so each unordered\n"
             "  pair counts twice: twice networkx's value for an undirected graph); --undirected adds\n"
             "  the reverse of every edge. --batch N: sources searched together (0: all at once). Runs\n"
             "  on the host unless --backend cuda.\n"},
  };
  for (const auto& [name, t] : text)
    if (cmd == name) std::cout << t;
  std::cout << "GRAPH is Matrix Market or an edge list (0-based 'src dst [weight]', optionally .gz); vertex ids\n"
               "in the output are 0-based. Every graph command takes --max-memory SIZE.\n";
  finish_stdout();
  return true;
}

// The algorithms on the Vector operations run on the host unless asked:
// auto and host load the graph there; --backend cuda runs them on the GPU
// (bfs --parents, sssp, pagerank, cc, bc).
backend vector_backend(const graph_args& g) { return g.backend == "cuda" ? choose(g) : backend::host; }

// With --json, the summary (`head`, fields without braces) and, without -o,
// the per-vertex values as "values"; the lines go to -o FILE, or to stdout
// without --json.
void per_vertex(const graph_args& g, const std::string& head, const std::vector<std::string>& lines,
                const std::vector<std::string>& json_values) {
  if (g.json) {
    std::cout << "{" << head;
    if (g.out.empty()) {
      std::cout << ",\"values\":[";
      for (std::size_t v = 0; v < json_values.size(); ++v) std::cout << (v ? "," : "") << json_values[v];
      std::cout << "]";
    }
    std::cout << "}\n";
    if (g.out.empty()) {
      finish_stdout();
      return;
    }
  }
  sink out(g.out);
  for (const auto& l : lines) *out.os << l << '\n';
  out.done();
}

std::string head_of(const char* cmd, const graph_args& g, backend where, index_t n) {
  return std::string("\"command\":\"") + cmd + "\",\"file\":\"" + json_escape(g.file) + "\",\"backend\":\"" +
         backend_name(where) + "\",\"vertices\":" + std::to_string(n);
}

std::string real_text(double x) {
  std::ostringstream s;
  s << std::setprecision(17) << x;
  return s.str();
}

int bfs_parents(const graph_args& g) {
  if (g.sources.size() != 1) throw usage_error("tgb bfs: --parents takes exactly one source");
  const backend where = vector_backend(g);
  const Matrix<double> A = load<double>(g, where);
  bfs_options opt;
  opt.symmetrize = g.undirected;
  const index_t s = integer("bfs", "--sources", g.sources[0], 0, 0x7fffffffffffffffL);
  const auto t0 = std::chrono::steady_clock::now();
  bfs_result r = in_context("tgb bfs: searching " + g.file, [&] { return bfs(A, s, opt); });
  cuda_synchronize();
  const double sec = seconds_since(t0);
  r.level.to(backend::host);
  r.parent.to(backend::host);
  const index_t n = A.nrows();
  std::vector<std::string> lines(static_cast<std::size_t>(n)), js(static_cast<std::size_t>(n));
  for (index_t v = 0; v < n; ++v) {
    const std::string l = std::to_string(r.level.present()[v] ? r.level.values()[v] : -1);
    const std::string p = std::to_string(r.parent.present()[v] ? r.parent.values()[v] : -1);
    lines[static_cast<std::size_t>(v)] = l + " " + p;
    js[static_cast<std::size_t>(v)] = "[" + l + "," + p + "]";
  }
  per_vertex(g, head_of("bfs", g, where, n) + ",\"sources\":[" + std::to_string(s) + "],\"reached\":[" +
                    std::to_string(r.level.nvals()) + "],\"push_steps\":" + std::to_string(r.push_steps) +
                    ",\"pull_steps\":" + std::to_string(r.pull_steps) + ",\"seconds\":" + real_text(sec),
             lines, js);
  return 0;
}

}  // namespace

int cmd_tc(const std::vector<std::string>& args) {
  if (print_help("tc", args)) return 0;
  const graph_args g = parse("tc", args);
  const backend where = choose(g);
  const Matrix<bool> A = load_pattern(g, where);
  const auto t0 = std::chrono::steady_clock::now();
  const std::int64_t n = in_context("tgb tc: counting the triangles of " + g.file, [&] { return triangle_count(A); });
  const double s = seconds_since(t0);
  if (g.json)
    std::cout << "{\"command\":\"tc\",\"file\":\"" << json_escape(g.file) << "\",\"backend\":\"" << backend_name(where)
              << "\",\"vertices\":" << A.nrows() << ",\"entries\":" << A.nvals() << ",\"triangles\":" << n
              << ",\"seconds\":" << s << "}\n";
  else
    std::cout << "triangles: " << n << "\n";
  finish_stdout();
  return 0;
}

int cmd_bfs(const std::vector<std::string>& args) {
  if (print_help("bfs", args)) return 0;
  const graph_args g = parse("bfs", args);
  if (g.sources.empty()) throw usage_error("tgb bfs: give the sources with --sources 0,5,9");
  if (g.parents) return bfs_parents(g);
  const backend where = choose(g);
  const Matrix<double> A = load<double>(g, where);
  std::vector<index_t> src;
  for (const auto& s : g.sources) src.push_back(integer("bfs", "--sources", s, 0, 0x7fffffffffffffffL));
  msbfs_options opt;
  opt.symmetrize = g.undirected;
  const auto t0 = std::chrono::steady_clock::now();
  const Matrix<std::int64_t> V =
      in_context("tgb bfs: searching " + g.file, [&] { return msbfs(A, src, opt); });
  const double s = seconds_since(t0);
  const std::vector<std::int64_t> lv = dense_levels(V);
  const std::size_t n = static_cast<std::size_t>(A.nrows()), k = src.size();
  sink out(g.out);
  if (g.json) {
    std::cout << "{\"command\":\"bfs\",\"file\":\"" << json_escape(g.file) << "\",\"backend\":\""
              << backend_name(where) << "\",\"vertices\":" << n << ",\"sources\":[";
    for (std::size_t q = 0; q < k; ++q) std::cout << (q ? "," : "") << src[q];
    std::cout << "],\"reached\":[";
    for (std::size_t q = 0; q < k; ++q) {
      std::size_t r = 0;
      for (std::size_t v = 0; v < n; ++v) r += lv[q * n + v] >= 0;
      std::cout << (q ? "," : "") << r;
    }
    std::cout << "],\"seconds\":" << s;
    if (g.out.empty()) {
      std::cout << ",\"levels\":[";
      for (std::size_t v = 0; v < n; ++v) {
        std::cout << (v ? ",[" : "[");
        for (std::size_t q = 0; q < k; ++q) std::cout << (q ? "," : "") << lv[q * n + v];
        std::cout << "]";
      }
      std::cout << "]";
    }
    std::cout << "}\n";
    if (g.out.empty()) {
      finish_stdout();
      return 0;
    }
  }
  std::string line;
  for (std::size_t v = 0; v < n; ++v) {
    line.clear();
    for (std::size_t q = 0; q < k; ++q) {
      if (q) line += ' ';
      line += std::to_string(lv[q * n + v]);
    }
    line += '\n';
    *out.os << line;
  }
  out.done();
  return 0;
}

int cmd_mcl(const std::vector<std::string>& args) {
  if (print_help("mcl", args)) return 0;
  const graph_args g = parse("mcl", args);
  const backend where = choose(g);
  Matrix<double> A = load<double>(g, where);
  if (g.undirected) {
    Matrix<double> S(A.nrows(), A.ncols());
    S.to(where);
    ewise_add(S, no_mask, no_accum, max{}, A, A, descriptor{}.with_transpose_b());
    A.swap(S);
  }
  mcl_params p;
  p.inflation = g.inflation;
  p.prune = g.prune;
  p.max_iter = static_cast<int>(g.max_iter);
  p.select = g.select;
  p.recover = g.recover;
  if (!g.quiet) {
    std::cerr << "tgb mcl: " << g.file << ", " << A.nrows() << " vertices, " << A.nvals() << " entries, backend "
              << backend_name(where) << ", inflation " << p.inflation << ", prune " << p.prune << "\n";
    p.progress = [](const mcl_progress& q) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "iteration %3d  entries %12lld  chaos %-12.6g  %.4f s\n", q.iteration,
                    static_cast<long long>(q.entries), q.chaos, q.seconds);
      std::cerr << buf;
    };
  }
  const mcl_result r = in_context("tgb mcl: clustering " + g.file, [&] { return markov_clustering(A, p); });
  if (!g.quiet)
    std::cerr << "tgb mcl: " << r.clusters.size() << " clusters after " << r.iterations << " iterations"
              << (r.converged ? "" : " (not converged: --max-iter reached)") << "\n";
  sink out(g.out);
  std::string line;
  for (const auto& c : r.clusters) {
    line.clear();
    for (std::size_t q = 0; q < c.size(); ++q) {
      if (q) line += '\t';
      line += std::to_string(c[q]);
    }
    line += '\n';
    *out.os << line;
  }
  out.done();
  return 0;
}

int cmd_sssp(const std::vector<std::string>& args) {
  if (print_help("sssp", args)) return 0;
  const graph_args g = parse("sssp", args);
  if (g.source.empty()) throw usage_error("tgb sssp: give the source with --source S");
  const index_t s = integer("sssp", "--source", g.source, 0, 0x7fffffffffffffffL);
  const backend where = vector_backend(g);
  Matrix<double> A = load<double>(g, where);
  if (g.undirected) {
    Matrix<double> S(A.nrows(), A.ncols());
    S.to(where);
    ewise_add(S, no_mask, no_accum, min{}, A, A, descriptor{}.with_transpose_b());
    A.swap(S);
  }
  const auto t0 = std::chrono::steady_clock::now();
  sssp_result r =
      in_context("tgb sssp: shortest paths in " + g.file, [&] {
        return g.delta >= 0 ? sssp_delta_stepping(A, s, {g.delta}) : sssp_bellman_ford(A, s);
      });
  cuda_synchronize();
  const double sec = seconds_since(t0);
  r.distance.to(backend::host);
  const index_t n = A.nrows();
  std::vector<std::string> lines(static_cast<std::size_t>(n)), js(static_cast<std::size_t>(n));
  for (index_t v = 0; v < n; ++v) {
    const bool has = r.distance.present()[v];
    lines[static_cast<std::size_t>(v)] = has ? real_text(r.distance.values()[v]) : "inf";
    js[static_cast<std::size_t>(v)] = has ? lines[static_cast<std::size_t>(v)] : "null";
  }
  per_vertex(g, head_of("sssp", g, where, n) + ",\"source\":" + std::to_string(s) +
                    ",\"reached\":" + std::to_string(r.distance.nvals()) + ",\"rounds\":" + std::to_string(r.rounds) +
                    ",\"method\":\"" + (g.delta >= 0 ? "delta-stepping" : "bellman-ford") + "\"" +
                    ",\"seconds\":" + real_text(sec),
             lines, js);
  return 0;
}

int cmd_pagerank(const std::vector<std::string>& args) {
  if (print_help("pagerank", args)) return 0;
  const graph_args g = parse("pagerank", args);
  const backend where = vector_backend(g);
  const Matrix<double> A = load<double>(g, where);
  pagerank_options opt;
  opt.damping = g.damping;
  opt.iterations = static_cast<int>(g.iterations);
  const auto t0 = std::chrono::steady_clock::now();
  Vector<double> pr = in_context("tgb pagerank: ranking " + g.file, [&] {
    return g.undirected ? pagerank(detail::graph_pattern(A, true), opt) : pagerank(A, opt);
  });
  cuda_synchronize();
  const double sec = seconds_since(t0);
  pr.to(backend::host);
  const index_t n = A.nrows();
  std::vector<std::string> lines(static_cast<std::size_t>(n));
  for (index_t v = 0; v < n; ++v) lines[static_cast<std::size_t>(v)] = real_text(pr.values()[v]);
  per_vertex(g, head_of("pagerank", g, where, n) + ",\"damping\":" + real_text(opt.damping) +
                    ",\"iterations\":" + std::to_string(opt.iterations) + ",\"seconds\":" + real_text(sec),
             lines, lines);
  return 0;
}

int cmd_cc(const std::vector<std::string>& args) {
  if (print_help("cc", args)) return 0;
  const graph_args g = parse("cc", args);
  const backend where = vector_backend(g);
  const Matrix<double> A = load<double>(g, where);
  const auto t0 = std::chrono::steady_clock::now();
  Vector<std::int64_t> c = in_context("tgb cc: components of " + g.file, [&] { return connected_components(A); });
  cuda_synchronize();
  const double sec = seconds_since(t0);
  c.to(backend::host);
  const index_t n = A.nrows();
  std::vector<std::string> lines(static_cast<std::size_t>(n));
  index_t count = 0;
  for (index_t v = 0; v < n; ++v) {
    lines[static_cast<std::size_t>(v)] = std::to_string(c.values()[v]);
    count += c.values()[v] == v;
  }
  per_vertex(g, head_of("cc", g, where, n) + ",\"components\":" + std::to_string(count) +
                    ",\"seconds\":" + real_text(sec),
             lines, lines);
  return 0;
}

int cmd_lcc(const std::vector<std::string>& args) {
  if (print_help("lcc", args)) return 0;
  const graph_args g = parse("lcc", args);
  const backend where = choose(g);  // a masked product and reductions: both backends
  const Matrix<double> A = load<double>(g, where);
  const auto t0 = std::chrono::steady_clock::now();
  lcc_options opt;
  opt.directed = !g.undirected;
  const Vector<double> c =
      in_context("tgb lcc: clustering coefficients of " + g.file, [&] { return local_clustering_coefficient(A, opt); });
  const double sec = seconds_since(t0);
  const index_t n = A.nrows();
  std::vector<std::string> lines(static_cast<std::size_t>(n));
  double sum = 0;
  for (index_t v = 0; v < n; ++v) {
    lines[static_cast<std::size_t>(v)] = real_text(c.values()[v]);
    sum += c.values()[v];
  }
  per_vertex(g, head_of("lcc", g, where, n) + ",\"directed\":" + (opt.directed ? "true" : "false") +
                    ",\"average\":" + real_text(n ? sum / static_cast<double>(n) : 0.0) +
                    ",\"seconds\":" + real_text(sec),
             lines, lines);
  return 0;
}

int cmd_bc(const std::vector<std::string>& args) {
  if (print_help("bc", args)) return 0;
  const graph_args g = parse("bc", args);
  std::vector<index_t> src;
  for (const auto& s : g.sources) src.push_back(integer("bc", "--sources", s, 0, 0x7fffffffffffffffL));
  // The host unless --backend cuda asks for the GPU (betweenness_centrality
  // runs where A lives, on operations that exist on both backends).
  const backend where = vector_backend(g);
  const Matrix<double> A = load<double>(g, where);
  bc_options opt;
  opt.batch = g.batch;
  opt.symmetrize = g.undirected;
  const auto t0 = std::chrono::steady_clock::now();
  const Vector<double> c = in_context("tgb bc: betweenness centrality of " + g.file,
                                      [&] { return betweenness_centrality(A, src, opt); });
  const double sec = seconds_since(t0);
  const index_t n = A.nrows();
  std::vector<std::string> lines(static_cast<std::size_t>(n));
  index_t top = -1;
  for (index_t v = 0; v < n; ++v) {
    lines[static_cast<std::size_t>(v)] = real_text(c.values()[v]);
    if (top < 0 || c.values()[v] > c.values()[top]) top = v;
  }
  const index_t used = src.empty() ? n : static_cast<index_t>(src.size());
  std::string head = head_of("bc", g, where, n) + ",\"sources\":" + std::to_string(used) +
                     ",\"all_sources\":" + (src.empty() ? "true" : "false") + ",\"batch\":" +
                     std::to_string(g.batch == 0 ? used : std::min<index_t>(g.batch, used)) +
                     ",\"undirected\":" + (g.undirected ? "true" : "false");
  if (top >= 0) head += ",\"max_vertex\":" + std::to_string(top) + ",\"max\":" + lines[static_cast<std::size_t>(top)];
  per_vertex(g, head + ",\"seconds\":" + real_text(sec), lines, lines);
  return 0;
}

int cmd_ktruss(const std::vector<std::string>& args) {
  if (print_help("ktruss", args)) return 0;
  const graph_args g = parse("ktruss", args);
  if (g.k == 0) throw usage_error("tgb ktruss: give K with -k K (3 or more)");
  const backend where = choose(g);  // masked products and select: both backends
  const Matrix<double> A = load<double>(g, where);
  const auto t0 = std::chrono::steady_clock::now();
  const ktruss_result r = in_context("tgb ktruss: the " + std::to_string(g.k) + "-truss of " + g.file,
                                     [&] { return ktruss(A, g.k); });
  const double sec = seconds_since(t0);
  const coo<std::int64_t> e = r.support.to_coo();  // (row, column) order
  std::vector<char> touched(static_cast<std::size_t>(A.nrows()), 0);
  index_t edges = 0, vertices = 0;
  for (std::size_t q = 0; q < e.rows.size(); ++q) {
    if (e.rows[q] < e.cols[q]) ++edges;
    if (!touched[static_cast<std::size_t>(e.rows[q])]++) ++vertices;
  }
  if (g.json)
    std::cout << "{" << head_of("ktruss", g, where, A.nrows()) << ",\"k\":" << g.k << ",\"edges\":" << edges
              << ",\"truss_vertices\":" << vertices << ",\"rounds\":" << r.rounds << ",\"seconds\":" << real_text(sec)
              << "}\n";
  else
    std::cout << "k-truss: " << edges << " edges, " << vertices << " vertices\n";
  if (!g.out.empty()) {
    sink out(g.out);
    for (std::size_t q = 0; q < e.rows.size(); ++q)
      if (e.rows[q] < e.cols[q]) *out.os << e.rows[q] << ' ' << e.cols[q] << ' ' << e.values[q] << '\n';
    out.done();
  } else {
    finish_stdout();
  }
  return 0;
}

}  // namespace tgb::cli
