// tgb command line: dispatch and exit statuses (0 success, 1 usage error,
// 2 bad input or failure), always with a one-line message on stderr.
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "tgb/error.hpp"

namespace {

const char* kUsage =
    "usage: tgb COMMAND [options]\n"
    "commands:\n"
    "  info FILE [--json]                     shape, entries and tile statistics of a matrix or graph\n"
    "  mxm A B [-o C] [--semiring NAME] [--type bool|int32|int64|fp32|fp64]\n"
    "          [--mask M] [--complement] [--structure] [--replace]\n"
    "          [--accum OP] [--init C0] [--transpose-a] [--transpose-b]\n"
    "          [--backend auto|host|cuda] [--repeat N] [--json]\n"
    "                                         C<M> = accum(C0, A*B) over a semiring; C as Matrix Market\n"
    "  tc GRAPH [--backend B] [--json]        triangles of the undirected graph: 'triangles: N'\n"
    "  bfs GRAPH --sources 0,5,9 [--parents] [--undirected] [-o FILE] [--backend B] [--json]\n"
    "                                         BFS levels from every source at once: one line per vertex,\n"
    "                                         one level per source, -1 where unreached; --parents (one\n"
    "                                         source): 'LEVEL PARENT' per vertex\n"
    "  mcl GRAPH [-I 2.0] [--prune 1e-4] [-S 1100] [-R 1400] [--max-iter N] [--undirected]\n"
    "          [-o FILE] [--backend B] [--quiet]\n"
    "                                         Markov clustering: one cluster per line, largest first\n"
    "  sssp GRAPH --source S [--delta D] [--undirected] [-o FILE] [--json]\n"
    "                                         shortest path lengths (Bellman-Ford) over the file's weights:\n"
    "                                         one per vertex, 'inf' where unreached\n"
    "  pagerank GRAPH [--damping 0.85] [--iterations 20] [--undirected] [-o FILE] [--json]\n"
    "                                         PageRank as LDBC Graphalytics defines it: one rank per vertex\n"
    "  cc GRAPH [-o FILE] [--json]            (weakly) connected components: per vertex the smallest id\n"
    "                                         of its component\n"
    "  lcc GRAPH [--undirected] [-o FILE] [--backend B] [--json]\n"
    "                                         local clustering coefficient (Graphalytics): one per vertex\n"
    "  ktruss GRAPH -k K [-o FILE] [--backend B] [--json]\n"
    "                                         the k-truss: 'k-truss: E edges, V vertices'; -o: its edges\n"
    "  bc GRAPH [--sources 0,5,9] [--batch 64] [--undirected] [-o FILE] [--backend B] [--json]\n"
    "                                         betweenness centrality (Brandes, unnormalized, weights\n"
    "                                         ignored): one per vertex, from the sources given or all\n"
    "  demo [--data DIR]                      the algorithms and products on bundled real graphs\n"
    "GRAPH is Matrix Market or an edge list (0-based 'src dst [weight]', optionally .gz);\n"
    "B is auto (the GPU when there is one), host or cuda; sssp, pagerank, cc and bfs --parents run on\n"
    "the host (with --backend cuda they fail: not implemented); bc runs on the host unless --backend\n"
    "cuda. 'tgb COMMAND --help' for one command.\n"
    "info, mxm and the graph commands take --max-memory SIZE (4G, 512M, bytes): the budget for all\n"
    "host memory, reads included (default: physical memory).\n"
    "  help                                   this text\n";

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

}  // namespace

namespace tgb::cli {
int print_version();  // version.cpp
}

int main(int argc, char** argv) {
  if (argc >= 2 && (std::strcmp(argv[1], "--version") == 0 || std::strcmp(argv[1], "version") == 0)) {
    try {
      return tgb::cli::print_version();
    } catch (const std::exception& e) {
      std::cerr << "tgb: error: " << one_line(e.what()) << "\n";
      return 2;
    }
  }
  if (argc < 2) {
    std::cerr << "tgb: error: no command given (try 'tgb help')\n";
    return 1;
  }
  const std::string cmd = argv[1];
  std::vector<std::string> args(argv + 2, argv + argc);
  try {
    if (cmd == "help" || cmd == "--help" || cmd == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (cmd == "info") return tgb::cli::cmd_info(args);
    if (cmd == "mxm") return tgb::cli::cmd_mxm(args);
    if (cmd == "demo") return tgb::cli::cmd_demo(args);
    if (cmd == "tc") return tgb::cli::cmd_tc(args);
    if (cmd == "bfs") return tgb::cli::cmd_bfs(args);
    if (cmd == "mcl") return tgb::cli::cmd_mcl(args);
    if (cmd == "sssp") return tgb::cli::cmd_sssp(args);
    if (cmd == "pagerank") return tgb::cli::cmd_pagerank(args);
    if (cmd == "cc") return tgb::cli::cmd_cc(args);
    if (cmd == "lcc") return tgb::cli::cmd_lcc(args);
    if (cmd == "ktruss") return tgb::cli::cmd_ktruss(args);
    if (cmd == "bc") return tgb::cli::cmd_bc(args);
    throw tgb::cli::usage_error("unknown command '" + cmd + "' (try 'tgb help')");
  } catch (const tgb::cli::usage_error& e) {
    std::cerr << "tgb: usage error: " << one_line(e.what()) << "\n";
    return 1;
  } catch (const tgb::out_of_memory& e) {
    std::cerr << "tgb: error: " << one_line(e.what()) << tgb::cli::memory_budget_note() << "\n";
    return 2;
  } catch (const tgb::error& e) {
    std::cerr << "tgb: error: " << one_line(e.what()) << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "tgb: error: out of memory" << tgb::cli::memory_budget_note() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "tgb: error: " << one_line(e.what()) << "\n";
    return 2;
  }
}
