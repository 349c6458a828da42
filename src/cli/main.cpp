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
    "  demo [--data DIR]                      products and masked products on bundled real graphs\n"
    "  help                                   this text\n";

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

}  // namespace

int main(int argc, char** argv) {
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
    throw tgb::cli::usage_error("unknown command '" + cmd + "' (try 'tgb help')");
  } catch (const tgb::cli::usage_error& e) {
    std::cerr << "tgb: usage error: " << one_line(e.what()) << "\n";
    return 1;
  } catch (const tgb::error& e) {
    std::cerr << "tgb: error: " << one_line(e.what()) << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "tgb: error: out of memory\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "tgb: error: " << one_line(e.what()) << "\n";
    return 2;
  }
}
