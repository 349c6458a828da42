// tgb: CUDA runtime queries, and the check that this build has code for the
// GPU: a device whose architecture the build has neither a cubin nor
// JIT-able PTX for counts as unusable, and every attempt to use it says why
// (naming the GPU's architecture and the ones built) instead of failing
// later with "invalid device function".
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "tgb/backend.hpp"
#include "tgb/build_info.hpp"
#include "tgb/detail/cuda/common.cuh"
#include "tgb/device.hpp"
#include "tgb/error.hpp"

namespace tgb {

namespace {

// Compiled like every tgb kernel (same file set, same architectures), so
// whether the runtime can load it is whether it can load tgb's kernels.
__global__ void architecture_probe_kernel() {}

struct device_check {
  bool usable = false;
  std::string why;  // when not usable
};

std::string version_string(int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); }

// "sm_80;sm_90;compute_90" -> "sm_80, sm_90, compute_90 (PTX)".
std::string architectures_built() {
  std::string in = TGB_BUILD_CUDA_ARCHITECTURES, out;
  std::size_t start = 0;
  while (start <= in.size()) {
    std::size_t end = in.find(';', start);
    if (end == std::string::npos) end = in.size();
    const std::string a = in.substr(start, end - start);
    if (!a.empty()) {
      if (!out.empty()) out += ", ";
      out += a;
      if (a.rfind("compute_", 0) == 0) out += " (PTX)";
    }
    start = end + 1;
  }
  return out.empty() ? std::string("no architecture") : out;
}

device_check probe(int dev) {
  device_check r;
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, dev) != cudaSuccess) {
    cudaGetLastError();
    r.why = "CUDA device " + std::to_string(dev) + ": properties unavailable";
    return r;
  }
  const std::string sm = std::to_string(prop.major) + std::to_string(prop.minor);
  const std::string gpu = std::string("this GPU (") + prop.name + ", sm_" + sm + ")";
  cudaFuncAttributes attr{};
  const cudaError_t e = cudaFuncGetAttributes(&attr, architecture_probe_kernel);
  cudaGetLastError();  // not sticky, but leave nothing behind
  if (e == cudaSuccess) {
    r.usable = true;
    return r;
  }
  if (e == cudaErrorNoKernelImageForDevice || e == cudaErrorInvalidDeviceFunction) {
    r.why = gpu + " has no kernel image in this build of tgb (built for " + architectures_built() +
            "); rebuild with -DCMAKE_CUDA_ARCHITECTURES=" + sm + " (or native)";
  } else if (e == cudaErrorUnsupportedPtxVersion || e == cudaErrorInsufficientDriver) {
    int driver = 0;
    cudaDriverGetVersion(&driver);
    r.why = gpu + ": its driver (CUDA " + version_string(driver) + ") cannot load this build of tgb (CUDA " +
            TGB_BUILD_CUDA_VERSION + ", built for " + architectures_built() +
            "); update the driver, or rebuild with -DCMAKE_CUDA_ARCHITECTURES=" + sm + "-real";
  } else {
    r.why = gpu + " cannot run tgb's kernels: " + cudaGetErrorString(e);
  }
  return r;
}

// The check of the current device, made once per device and process.
const device_check* current_device_check() {
  static std::mutex m;
  static std::vector<device_check> checks;
  static std::vector<bool> done;
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  std::lock_guard<std::mutex> lock(m);
  if (static_cast<std::size_t>(dev) >= checks.size()) {
    checks.resize(dev + 1);
    done.resize(dev + 1, false);
  }
  if (!done[dev]) {
    checks[dev] = probe(dev);
    done[dev] = true;
  }
  return &checks[dev];
}

}  // namespace

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
  if (n == 0) return 0;
  try {
    const device_check* c = current_device_check();
    if (c == nullptr || !c->usable) return 0;  // cuda_device_description() says why
  } catch (...) {
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
  const device_check* c = current_device_check();
  if (c == nullptr) return "no current CUDA device";
  if (!c->usable) return c->why;
  int dev = 0;
  cudaGetDevice(&dev);
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, dev) != cudaSuccess)
    return "CUDA device " + std::to_string(dev) + " (properties unavailable)";
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  return std::string(prop.name) + " (sm_" + std::to_string(prop.major) + std::to_string(prop.minor) + ", " +
         std::to_string(prop.totalGlobalMem >> 20) + " MiB, " + std::to_string(prop.multiProcessorCount) +
         " SMs, driver " + version_string(driver) + ", runtime " + version_string(runtime) + ")";
}

}  // namespace tgb

// ---- TGB_TRACE phase breakdown (include/tgb/detail/cuda/common.cuh) -------

namespace tgb::detail::cuda {
bool tracing() {
  static const bool on = [] {
    const char* e = std::getenv("TGB_TRACE");
    return e && std::string(e) != "0";
  }();
  return on;
}

void phase(stream_t s, const char* name) {
  if (!tracing()) return;
  thread_local auto last = std::chrono::steady_clock::now();
  cudaStreamSynchronize(reinterpret_cast<cudaStream_t>(s));
  const auto now = std::chrono::steady_clock::now();
  std::fprintf(stderr, "tgb trace: %-24s %9.3f ms\n", name, std::chrono::duration<double, std::milli>(now - last).count());
  last = now;
}
}  // namespace tgb::detail::cuda

// ---- side streams (common.cuh) ---------------------------------------------

namespace tgb::detail::cuda {
namespace {
// This thread's side streams and events for the current device, made once
// and kept for the thread's life (destroying them at exit could outlive the
// CUDA context): 9 streams and 10 events per thread that runs row saxpy.
struct side_set {
  int device = -1;
  bool ok = false;
  cudaStream_t streams[fan_out::kMax] = {};
  cudaEvent_t fork = nullptr, joins[fan_out::kMax] = {};
};
side_set* sides() {
  thread_local side_set per[16];
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= 16) {
    cudaGetLastError();
    return nullptr;
  }
  side_set& set = per[dev];
  if (set.device != dev) {
    set.device = dev;
    bool ok = cudaEventCreateWithFlags(&set.fork, cudaEventDisableTiming) == cudaSuccess;
    for (int i = 0; ok && i < fan_out::kMax; ++i)
      ok = cudaStreamCreateWithFlags(&set.streams[i], cudaStreamNonBlocking) == cudaSuccess &&
           cudaEventCreateWithFlags(&set.joins[i], cudaEventDisableTiming) == cudaSuccess;
    if (!ok) cudaGetLastError();
    set.ok = ok;
  }
  return set.ok ? &set : nullptr;
}
}  // namespace

fan_out::fan_out(stream_t s, int n) : s_(s) {
  for (auto& x : side_) x = s;
  n = n < 1 ? 1 : (n > kMax ? kMax : n);
  side_set* set = n > 1 ? sides() : nullptr;
  if (!set) return;
  if (cudaEventRecord(set->fork, native(s)) != cudaSuccess) {
    cudaGetLastError();  // clears this call's error only
    return;
  }
  for (int i = 0; i < n; ++i) {
    if (cudaStreamWaitEvent(set->streams[i], set->fork, 0) != cudaSuccess) {
      cudaGetLastError();
      for (auto& x : side_) x = s;  // nothing was launched yet: streams that wait just idle
      n_ = 1;
      forked_ = false;
      return;
    }
    side_[i] = reinterpret_cast<stream_t>(set->streams[i]);
  }
  n_ = n;
  forked_ = true;
  set_ = set;
}

fan_out::~fan_out() {
  if (!forked_) return;
  side_set* set = static_cast<side_set*>(set_);
  for (int i = 0; i < kMax; ++i) {
    if (side_[i] == s_) continue;
    if (cudaEventRecord(set->joins[i], native(side_[i])) != cudaSuccess ||
        cudaStreamWaitEvent(native(s_), set->joins[i], 0) != cudaSuccess) {
      cudaGetLastError();
      cudaStreamSynchronize(native(side_[i]));  // the order s relies on, at worst by waiting
    }
  }
}
}  // namespace tgb::detail::cuda
