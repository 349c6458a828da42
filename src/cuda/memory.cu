// tgb CUDA backend: device memory resource, copies, streams.
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <string>

#include "tgb/backend.hpp"
#include "tgb/detail/cuda/common.cuh"

namespace tgb {

namespace {

class async_pool_resource final : public device_memory_resource {
 public:
  void* allocate(std::size_t bytes, stream_t s) override {
    void* p = nullptr;
    const cudaError_t e = cudaMallocAsync(&p, bytes, detail::cuda::native(s));
    if (e != cudaSuccess) {
      cudaGetLastError();
      if (e == cudaErrorMemoryAllocation)
        throw out_of_memory("tgb: device out of memory (" + std::to_string(bytes) + " bytes requested)");
      // No usable GPU is the caller's situation, not a fault of tgb: say so as
      // the build without the CUDA backend does.
      if (cuda_device_count() == 0)
        throw not_implemented("tgb: cannot allocate device memory: " + cuda_device_description());
      throw panic(std::string("tgb: cudaMallocAsync failed: ") + cudaGetErrorString(e));
    }
    return p;
  }
  void deallocate(void* p, std::size_t, stream_t s) noexcept override { cudaFreeAsync(p, detail::cuda::native(s)); }
};

async_pool_resource g_pool;
std::atomic<device_memory_resource*> g_resource{&g_pool};
std::atomic<std::size_t> g_in_use{0}, g_peak{0};
thread_local stream_t t_stream = nullptr;

}  // namespace

device_memory_resource* default_device_memory_resource() noexcept { return &g_pool; }
device_memory_resource* get_device_memory_resource() noexcept { return g_resource.load(); }
device_memory_resource* set_device_memory_resource(device_memory_resource* r) noexcept {
  return g_resource.exchange(r ? r : &g_pool);
}
std::size_t device_bytes_in_use() noexcept { return g_in_use.load(); }
std::size_t device_peak_bytes() noexcept { return g_peak.load(); }
void reset_device_peak_bytes() noexcept { g_peak.store(g_in_use.load()); }

stream_t current_stream() noexcept { return t_stream; }
stream_scope::stream_scope(stream_t s) noexcept : previous_(t_stream) { t_stream = s; }
stream_scope::~stream_scope() { t_stream = previous_; }

namespace detail {

void device_held_change(std::ptrdiff_t delta) noexcept {
  if (delta >= 0) {
    const std::size_t now = g_in_use.fetch_add(std::size_t(delta)) + std::size_t(delta);
    std::size_t peak = g_peak.load();
    while (now > peak && !g_peak.compare_exchange_weak(peak, now)) {
    }
  } else {
    g_in_use.fetch_sub(std::size_t(-delta));
  }
}

void* device_allocate(std::size_t bytes, stream_t s, device_memory_resource** from) {
  device_memory_resource* r = get_device_memory_resource();
  void* p = r->allocate(bytes, s);
  if (reinterpret_cast<std::uintptr_t>(p) % 256 != 0) {
    r->deallocate(p, bytes, s);
    throw panic("tgb: the device memory resource returned a block not aligned to 256 bytes");
  }
  *from = r;
  device_held_change(static_cast<std::ptrdiff_t>(bytes));
  return p;
}

void device_free(void* p, std::size_t bytes, stream_t s, device_memory_resource* from) noexcept {
  from->deallocate(p, bytes, s);
  device_held_change(-static_cast<std::ptrdiff_t>(bytes));
}


void copy_host_to_device(void* dst, const void* src, std::size_t bytes, stream_t s) {
  cuda::check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, cuda::native(s)), "copy to device");
  // The host array may be freed as soon as we return.
  cuda::check(cudaStreamSynchronize(cuda::native(s)), "copy to device");
}
void copy_device_to_host(void* dst, const void* src, std::size_t bytes, stream_t s) {
  cuda::check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, cuda::native(s)), "copy to host");
  cuda::check(cudaStreamSynchronize(cuda::native(s)), "copy to host");
}
void copy_device_to_device(void* dst, const void* src, std::size_t bytes, stream_t s) {
  cuda::check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, cuda::native(s)), "device copy");
}

void device_zero(void* p, std::size_t bytes, stream_t s) {
  if (bytes) cuda::check(cudaMemsetAsync(p, 0, bytes, cuda::native(s)), "memset");
}

namespace {
__global__ void k_count_nonzero(const std::uint8_t* p, index_t n, unsigned long long* out) {
  unsigned long long k = 0;
  for (index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x; i < n; i += index_t(gridDim.x) * blockDim.x)
    k += p[i] != 0;
  for (int o = 16; o > 0; o >>= 1) k += __shfl_down_sync(0xFFFFFFFFu, k, o);
  if ((threadIdx.x & 31) == 0 && k) atomicAdd(out, k);
}
}  // namespace

index_t device_count_nonzero(const std::uint8_t* p, index_t n, stream_t s) {
  if (n == 0) return 0;
  device_buffer<unsigned long long> out(1, s);
  device_zero(out.data(), sizeof(unsigned long long), s);
  const unsigned blocks = std::min<unsigned>(cuda::grid_for(n, 256), 4096);
  k_count_nonzero<<<blocks, 256, 0, cuda::native(s)>>>(p, n, out.data());
  cuda::check(cudaGetLastError(), "count");
  return static_cast<index_t>(cuda::read_back(out.data(), s));
}

device_pattern empty_device_pattern(index_t nrows, index_t ncols, stream_t s) {
  check_dimensions(nrows, ncols);
  device_pattern p;
  p.nrows = nrows;
  p.ncols = ncols;
  p.tile_ptr = device_buffer<offset_t>(static_cast<std::size_t>(tiles_for(nrows)) + 1, s);
  p.tile_offset = device_buffer<offset_t>(1, s);
  cuda::check(cudaMemsetAsync(p.tile_ptr.data(), 0, p.tile_ptr.size() * sizeof(offset_t), cuda::native(s)), "memset");
  cuda::check(cudaMemsetAsync(p.tile_offset.data(), 0, sizeof(offset_t), cuda::native(s)), "memset");
  return p;
}

}  // namespace detail
}  // namespace tgb
