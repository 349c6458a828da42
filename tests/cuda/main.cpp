// Main of the CUDA tests: exits 77 (CTest's "skipped") where no usable GPU
// exists (none, or one this build has no kernel image for), so such a
// machine reports the GPU tests as skipped with the reason, never passed.
#include <cstdio>
#include <cstring>

#include "tgb/backend.hpp"

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
  if (!listing && (!tgb_test::device_available() || tgb::cuda_device_count() == 0)) {
    std::printf("SKIPPED: %s\n", tgb::cuda_device_description().c_str());
    return 77;
  }
  return Catch::Session().run(argc, argv);
}
