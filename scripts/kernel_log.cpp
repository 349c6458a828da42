// tgb: a preloaded shim that records which CUDA kernels a process launches,
// for the sanitizer coverage count (scripts/kernel-launches.sh).
//   LD_PRELOAD=libtgb_kernel_log.so TGB_KERNEL_LOG=out.txt tgb_tests_cuda ...
// Every kernel a <<<>>> launch (CUDA 13's stubs look each kernel up at its
// first launch: __cudaGetKernel) or a runtime launch call (cudaLaunchKernel,
// cudaLaunchKernelExC, cudaLaunchCooperativeKernel and their per-thread-stream
// forms; CUDA 12's stubs)
// reaches adds its mangled name, once, to the file named by TGB_KERNEL_LOG
// (appended as it is first seen, so a killed process keeps what it logged).
// A developer's tool: it is not part of the library and is not installed.
#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>

namespace {
std::mutex mu;
std::set<const void*>* seen = nullptr;

void note(const void* func) {
  std::lock_guard<std::mutex> lock(mu);
  if (!seen) seen = new std::set<const void*>;
  if (!seen->insert(func).second) return;
  using get_name_t = cudaError_t (*)(const char**, const void*);
  static auto get_name = reinterpret_cast<get_name_t>(dlsym(RTLD_NEXT, "cudaFuncGetName"));
  const char* name = nullptr;
  if (!get_name || get_name(&name, func) != cudaSuccess || !name) name = "(unnamed)";
  const char* path = std::getenv("TGB_KERNEL_LOG");
  if (FILE* f = std::fopen(path ? path : "kernels.txt", "a")) {
    std::fprintf(f, "%s\n", name);
    std::fclose(f);
  }
}

template <class F>
F next(const char* name) {
  return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}
}  // namespace

extern "C" {
// CUDA 13's <<<>>> stubs look their kernel up once, at their first launch,
// then launch it by handle (__cudaLaunchKernel): the look-up names it.
cudaError_t __cudaGetKernel(cudaKernel_t* handle, const void* func) {
  using fn = cudaError_t (*)(cudaKernel_t*, const void*);
  static fn real = next<fn>("__cudaGetKernel");
  const cudaError_t e = real(handle, func);
  note(func);
  return e;
}
cudaError_t cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args, size_t smem, cudaStream_t s) {
  using fn = cudaError_t (*)(const void*, dim3, dim3, void**, size_t, cudaStream_t);
  static fn real = next<fn>("cudaLaunchKernel");
  note(func);
  return real(func, grid, block, args, smem, s);
}
cudaError_t cudaLaunchKernel_ptsz(const void* func, dim3 grid, dim3 block, void** args, size_t smem, cudaStream_t s) {
  using fn = cudaError_t (*)(const void*, dim3, dim3, void**, size_t, cudaStream_t);
  static fn real = next<fn>("cudaLaunchKernel_ptsz");
  note(func);
  return real(func, grid, block, args, smem, s);
}
// Cooperative launches (the fused BFS's grid-wide kernel).
cudaError_t cudaLaunchCooperativeKernel(const void* func, dim3 grid, dim3 block, void** args, size_t smem,
                                        cudaStream_t s) {
  using fn = cudaError_t (*)(const void*, dim3, dim3, void**, size_t, cudaStream_t);
  static fn real = next<fn>("cudaLaunchCooperativeKernel");
  note(func);
  return real(func, grid, block, args, smem, s);
}
cudaError_t cudaLaunchCooperativeKernel_ptsz(const void* func, dim3 grid, dim3 block, void** args, size_t smem,
                                             cudaStream_t s) {
  using fn = cudaError_t (*)(const void*, dim3, dim3, void**, size_t, cudaStream_t);
  static fn real = next<fn>("cudaLaunchCooperativeKernel_ptsz");
  note(func);
  return real(func, grid, block, args, smem, s);
}
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args) {
  using fn = cudaError_t (*)(const cudaLaunchConfig_t*, const void*, void**);
  static fn real = next<fn>("cudaLaunchKernelExC");
  note(func);
  return real(config, func, args);
}
cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t* config, const void* func, void** args) {
  using fn = cudaError_t (*)(const cudaLaunchConfig_t*, const void*, void**);
  static fn real = next<fn>("cudaLaunchKernelExC_ptsz");
  note(func);
  return real(config, func, args);
}
}
