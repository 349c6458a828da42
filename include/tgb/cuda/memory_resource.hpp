// tgb: device allocations from a CCCL memory resource (cuda::mr).
//
// tgb allocates every device buffer through tgb::device_memory_resource
// (default: cudaMallocAsync on the device's pool). This header adapts any
// stream-ordered cuda::mr resource to it, so that an application's own pool
// (or one from RMM, or a counting/limiting wrapper) serves tgb too:
//
//   my_pool pool;                                 // a cuda::mr async resource
//   tgb::cuda_mr_resource adaptor{pool};          // holds a reference to it
//   tgb::set_device_memory_resource(&adaptor);    // tgb allocates from pool
//   ...
//   tgb::set_device_memory_resource(nullptr);     // back to the default
//
// Both the resource and the adaptor must outlive every tgb device matrix
// allocated through them. cuda::mr is experimental in CCCL 3: this header
// defines LIBCUDACXX_ENABLE_EXPERIMENTAL_MEMORY_RESOURCE if the includer has
// not (include it before any other CCCL header, or define the macro
// yourself). It needs the CCCL headers on the include path (nvcc has them;
// for a host compiler add the toolkit's include/cccl).
#pragma once

#ifndef LIBCUDACXX_ENABLE_EXPERIMENTAL_MEMORY_RESOURCE
#define LIBCUDACXX_ENABLE_EXPERIMENTAL_MEMORY_RESOURCE
#endif

#include <cuda_runtime_api.h>

#include <cuda/memory_resource>
#include <cuda/stream_ref>
#include <exception>
#include <string>

#include "tgb/device.hpp"
#include "tgb/error.hpp"

namespace tgb {

class cuda_mr_resource final : public device_memory_resource {
 public:
  using resource_ref = cuda::mr::async_resource_ref<cuda::mr::device_accessible>;
  // Alignment tgb asks for: enough for any value type and for CUB's scratch.
  static constexpr std::size_t alignment = 256;

  explicit cuda_mr_resource(resource_ref r) noexcept : r_(r) {}

  // Failures of the resource (whatever it throws) become tgb::out_of_memory,
  // so a failed operation leaves its output unchanged as with the default.
  void* allocate(std::size_t bytes, stream_t s) override {
    try {
      return r_.allocate_async(bytes, alignment, ::cuda::stream_ref(reinterpret_cast<cudaStream_t>(s)));
    } catch (const std::exception& e) {
      throw out_of_memory("tgb: the cuda::mr resource could not allocate " + std::to_string(bytes) +
                          " bytes: " + e.what());
    } catch (...) {
      throw out_of_memory("tgb: the cuda::mr resource could not allocate " + std::to_string(bytes) + " bytes");
    }
  }
  void deallocate(void* p, std::size_t bytes, stream_t s) noexcept override {
    r_.deallocate_async(p, bytes, alignment, ::cuda::stream_ref(reinterpret_cast<cudaStream_t>(s)));
  }

 private:
  resource_ref r_;
};

}  // namespace tgb
