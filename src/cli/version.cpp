// tgb --version: the version, the backends compiled in, the CUDA toolkit and
// the architectures built (from <tgb/build_info.hpp>, generated at configure
// time), and the GPU of this machine as the library sees it.
#include <iostream>
#include <string>

#include "tgb/backend.hpp"
#include "tgb/build_info.hpp"

namespace tgb::cli {

int print_version() {
  std::cout << "tgb " << TGB_BUILD_VERSION << "\n";
  std::string backends = "host (OpenMP";
  if (std::string(TGB_BUILD_OPENMP_VERSION).size() > 0) backends += std::string(" ") + TGB_BUILD_OPENMP_VERSION;
  backends += ")";
  if (TGB_BUILD_HAS_CUDA) backends += ", cuda";
  std::cout << "backends:      " << backends << "\n";
  std::cout << "compiler:      " << TGB_BUILD_CXX_COMPILER << "\n";
  std::cout << "gzip input:    " << (TGB_BUILD_HAS_ZLIB ? "yes" : "no (built without zlib)") << "\n";
  if (TGB_BUILD_HAS_CUDA) {
    std::cout << "CUDA toolkit:  " << TGB_BUILD_CUDA_VERSION << "\n";
    std::string archs = TGB_BUILD_CUDA_ARCHITECTURES;
    for (char& c : archs)
      if (c == ';') c = ' ';
    std::cout << "architectures: " << archs << " (CMAKE_CUDA_ARCHITECTURES=" << TGB_BUILD_CUDA_ARCHITECTURES_CMAKE
              << ", " << TGB_BUILD_CUDA_ARCHITECTURES_ORIGIN << ")\n";
    std::cout << "GPU:           " << cuda_device_description() << "\n";
  } else {
    std::cout << "CUDA toolkit:  none (CUDA backend not compiled)\n";
  }
  return 0;
}

}  // namespace tgb::cli
