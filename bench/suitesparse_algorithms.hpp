// The vector algorithms, LCC and the k-truss in SuiteSparse:GraphBLAS, in tgb's formulation
// (bench/suitesparse_algorithms.cpp); only where tgb-bench links SuiteSparse.
#pragma once

#if defined(TGB_BENCH_GRAPHBLAS)

#include <cstdint>
#include <memory>
#include <vector>

#include "tgb/tgb.hpp"

namespace bench::ss {

struct graph;  // A as a SuiteSparse matrix
std::shared_ptr<graph> load(const tgb::Matrix<double>& A);  // A on the host

tgb::Vector<std::int64_t> bfs(graph& g, tgb::index_t source, tgb::index_t* push, tgb::index_t* pull);  // levels
tgb::Vector<double> bellman_ford(graph& g, tgb::index_t source, tgb::index_t* rounds);
tgb::Vector<double> delta_stepping(graph& g, tgb::index_t source, tgb::index_t* rounds);  // delta automatic
tgb::Vector<double> pagerank(graph& g, double damping, int iterations);
tgb::Vector<std::int64_t> connected_components(graph& g);
tgb::Vector<double> lcc(graph& g);  // directed, LDBC's definition
tgb::Vector<double> betweenness(graph& g, const std::vector<tgb::index_t>& sources);  // one batch
// Each vertex's sum of its edges' supports in the k-truss.
tgb::Vector<std::int64_t> ktruss_support(graph& g, std::int64_t k, tgb::index_t* rounds);

}  // namespace bench::ss

#endif
