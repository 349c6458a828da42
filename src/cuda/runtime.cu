// tgb: CUDA runtime queries.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "tgb/backend.hpp"
#include "tgb/device.hpp"
#include "tgb/error.hpp"

namespace tgb {

bool cuda_compiled() noexcept { return true; }

void cuda_synchronize() {
  if (cuda_device_count() == 0) return;  // nothing can have been issued
  const cudaError_t e = cudaStreamSynchronize(reinterpret_cast<cudaStream_t>(current_stream()));
  if (e != cudaSuccess) {
    cudaGetLastError();
    throw panic(std::string("tgb: CUDA error: ") + cudaGetErrorString(e));
  }
}

int cuda_device_count() noexcept {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device" error
    return 0;
  }
  return n;
}

std::string cuda_device_description() {
  int n = 0;
  const cudaError_t err = cudaGetDeviceCount(&n);
  if (err != cudaSuccess) {
    cudaGetLastError();
    return std::string("no CUDA device: ") + cudaGetErrorString(err);
  }
  if (n == 0) return "no CUDA device";
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return "CUDA device 0 (properties unavailable)";
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  return std::string(prop.name) + " (sm_" + std::to_string(prop.major) + std::to_string(prop.minor) + ", " +
         std::to_string(prop.totalGlobalMem >> 20) + " MiB, " + std::to_string(prop.multiProcessorCount) +
         " SMs, driver " + std::to_string(driver / 1000) + "." + std::to_string((driver % 1000) / 10) +
         ", runtime " + std::to_string(runtime / 1000) + "." + std::to_string((runtime % 1000) / 10) + ")";
}

}  // namespace tgb

// ---- TGB_TRACE phase breakdown (include/tgb/detail/cuda/common.cuh) -------

namespace tgb::detail::cuda {
void phase(stream_t s, const char* name) {
  static const bool on = [] {
    const char* e = std::getenv("TGB_TRACE");
    return e && std::string(e) != "0";
  }();
  if (!on) return;
  thread_local auto last = std::chrono::steady_clock::now();
  cudaStreamSynchronize(reinterpret_cast<cudaStream_t>(s));
  const auto now = std::chrono::steady_clock::now();
  std::fprintf(stderr, "tgb trace: %-24s %9.3f ms\n", name, std::chrono::duration<double, std::milli>(now - last).count());
  last = now;
}
}  // namespace tgb::detail::cuda
