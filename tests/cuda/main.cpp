// Main of the CUDA tests: exits 77 (CTest's "skipped") where no GPU exists,
// so a machine without one reports the GPU tests as skipped, not passed.
#include <cstdio>
#include <cstring>

#include "tile_kernels.hpp"

#if __has_include(<catch2/catch_session.hpp>)
#include <catch2/catch_session.hpp>
#else
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#endif

int main(int argc, char** argv) {
  bool listing = false;
  for (int k = 1; k < argc; ++k)
    if (std::strncmp(argv[k], "--list", 6) == 0) listing = true;
  if (!listing && !tgb_test::device_available()) {
    std::printf("SKIPPED: no CUDA device on this machine\n");
    return 77;
  }
  return Catch::Session().run(argc, argv);
}
