// tgb-bench --algorithms: triangle counting, multi-source BFS and Markov
// clustering on each backend, then single-source BFS, Bellman-Ford SSSP and
// PageRank with the GPU checked against the host (bench/algorithms.cpp).
#pragma once

#include <fstream>
#include <string>
#include <vector>

#include "tgb/tgb.hpp"

namespace bench {

struct algorithm_options {
  int reps = 10, host_reps = 3;
  bool gpu = true, host = true, unmasked = true, mcl = true;
  std::vector<tgb::index_t> sources{64, 256, 1024};
  // MCL's first expansion squares the graph before pruning: on power-law
  // graphs with hubs that is most of n^2, so larger graphs are left out.
  tgb::index_t mcl_max_vertices = 20000;
  // The single-source BFS, SSSP (two ways), PageRank, components, LCC and 4-truss rows and their GPU/host
  // table; off leaves the mode's output as it was before they were added.
  bool vector_algorithms = true;
  // Only those (--vector-only): no triangle counting, MS-BFS or MCL.
  bool vector_only = false;
};

void run_algorithms(const std::string& name, const tgb::Matrix<double>& A, const algorithm_options& o,
                    std::ofstream* json);

}  // namespace bench
