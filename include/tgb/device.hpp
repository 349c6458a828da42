// tgb: device memory and streams. Every device allocation tgb makes goes
// through a device memory resource (default: the stream-ordered pool of
// cudaMallocAsync), and device work is issued on the calling thread's current
// stream (default: the default stream; set with stream_scope).
#pragma once

#include <cstddef>

#include "tgb/config.hpp"

namespace tgb {

class device_memory_resource {
 public:
  virtual ~device_memory_resource() = default;
  // Stream-ordered: the memory may be used by work on `s` once issued. The
  // block must be aligned to 256 bytes, as cudaMalloc's are (the kernels
  // store 16-byte vectors); tgb refuses a misaligned one with panic.
  virtual void* allocate(std::size_t bytes, stream_t s) = 0;
  virtual void deallocate(void* p, std::size_t bytes, stream_t s) noexcept = 0;
};

// cudaMallocAsync / cudaFreeAsync on the device's default pool.
device_memory_resource* default_device_memory_resource() noexcept;
// The resource tgb allocates from; set_... returns the previous one (nullptr
// restores the default). Each buffer goes back to the resource it came from,
// so the resource may change while matrices live; a resource must outlive
// what was allocated from it. For a cuda::mr resource see
// <tgb/cuda/memory_resource.hpp>.
device_memory_resource* get_device_memory_resource() noexcept;
device_memory_resource* set_device_memory_resource(device_memory_resource* r) noexcept;

// Bytes tgb holds on the device now, and the most it held since the last reset.
std::size_t device_bytes_in_use() noexcept;
std::size_t device_peak_bytes() noexcept;
void reset_device_peak_bytes() noexcept;

// The stream device operations of this thread are issued on.
stream_t current_stream() noexcept;
// Makes `s` the current stream of this thread until the scope ends.
class stream_scope {
 public:
  explicit stream_scope(stream_t s) noexcept;
  ~stream_scope();
  stream_scope(const stream_scope&) = delete;
  stream_scope& operator=(const stream_scope&) = delete;

 private:
  stream_t previous_;
};

}  // namespace tgb
