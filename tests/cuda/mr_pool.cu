// The counting cuda::mr pool of mr_pool.hpp: a user-written stream-ordered
// resource (cudaMallocAsync underneath) that satisfies
// cuda::mr::async_resource_with<device_accessible>, adapted for tgb.
#include "tgb/cuda/memory_resource.hpp"

#include <cuda_runtime.h>

#include <atomic>
#include <new>

#include "mr_pool.hpp"

namespace tgb_test {

namespace {

class counting_pool {
 public:
  explicit counting_pool(std::size_t limit) : limit_(limit) {}
  void* allocate(std::size_t bytes, std::size_t) { return allocate_async(bytes, 0, cuda::stream_ref(cudaStream_t(0))); }
  void deallocate(void* p, std::size_t bytes, std::size_t) noexcept {
    deallocate_async(p, bytes, 0, cuda::stream_ref(cudaStream_t(0)));
  }
  void* allocate_async(std::size_t bytes, std::size_t, cuda::stream_ref s) {
    if (live_ + bytes > limit_) throw std::bad_alloc();
    void* p = nullptr;
    if (cudaMallocAsync(&p, bytes, s.get()) != cudaSuccess) {
      cudaGetLastError();
      throw std::bad_alloc();
    }
    live_ += bytes;
    ++allocations_;
    if (live_ > peak_) peak_ = live_;
    return p;
  }
  void deallocate_async(void* p, std::size_t bytes, std::size_t, cuda::stream_ref s) noexcept {
    cudaFreeAsync(p, s.get());
    live_ -= bytes;
  }
  bool operator==(const counting_pool& o) const noexcept { return this == &o; }
  bool operator!=(const counting_pool& o) const noexcept { return this != &o; }
  friend void get_property(const counting_pool&, cuda::mr::device_accessible) noexcept {}

  pool_stats stats() const { return pool_stats{allocations_, live_, peak_}; }

 private:
  std::size_t limit_;
  std::size_t live_ = 0, peak_ = 0, allocations_ = 0;
};

static_assert(cuda::mr::async_resource_with<counting_pool, cuda::mr::device_accessible>,
              "the test pool is a cuda::mr async resource");

counting_pool* g_pool = nullptr;
tgb::cuda_mr_resource* g_adaptor = nullptr;
tgb::device_memory_resource* g_previous = nullptr;

}  // namespace

void install_counting_pool(std::size_t limit_bytes) {
  g_pool = new counting_pool(limit_bytes);
  g_adaptor = new tgb::cuda_mr_resource(*g_pool);
  g_previous = tgb::set_device_memory_resource(g_adaptor);
}

void uninstall_counting_pool() {
  tgb::set_device_memory_resource(g_previous);
  // Kept alive: buffers allocated from them may still be returned later.
}

pool_stats counting_pool_stats() {
  cudaDeviceSynchronize();
  return g_pool ? g_pool->stats() : pool_stats{};
}

}  // namespace tgb_test
