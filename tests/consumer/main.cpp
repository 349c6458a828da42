// Reads a graph, squares it and counts its triangles with the installed tgb;
// exits non-zero if anything is off.
#include <tgb/build_info.hpp>
#include <tgb/tgb.hpp>

#include <cstdio>
#include <cstring>
#include <string>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: tgb_consumer GRAPH.mtx\n");
    return 1;
  }
  // The installed header and the CMake package describe the same build (the
  // package's list arrives with commas for semicolons).
  std::string header_archs = TGB_BUILD_CUDA_ARCHITECTURES;
  for (char& c : header_archs)
    if (c == ';') c = ',';
  if (header_archs != TGB_PACKAGE_CUDA_ARCHITECTURES) {
    std::fprintf(stderr, "consumer: <tgb/build_info.hpp> says '%s', tgb_CUDA_ARCHITECTURES '%s'\n",
                 TGB_BUILD_CUDA_ARCHITECTURES, TGB_PACKAGE_CUDA_ARCHITECTURES);
    return 1;
  }
  try {
    const auto A = tgb::io::read_graph<double>(argv[1]);
    tgb::Matrix<double> C(A.nrows(), A.ncols());
    tgb::mxm(C, tgb::no_mask, tgb::no_accum, tgb::plus_times, A, A);
    const auto triangles = tgb::triangle_count(A);
    std::printf("consumer: %s is %lld x %lld with %lld entries; A*A has %lld; %lld triangles\n", argv[1],
                static_cast<long long>(A.nrows()), static_cast<long long>(A.ncols()),
                static_cast<long long>(A.nvals()), static_cast<long long>(C.nvals()),
                static_cast<long long>(triangles));
    return C.nvals() > 0 ? 0 : 1;
  } catch (const tgb::error& e) {
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return 2;
  }
}
