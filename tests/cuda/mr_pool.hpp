// A counting cuda::mr pool for the tests, installed into tgb through
// tgb::cuda_mr_resource (the .cu file beside this one: CCCL's memory-resource
// headers stay out of the Catch2 translation units).
#pragma once

#include <cstddef>

namespace tgb_test {

struct pool_stats {
  std::size_t allocations = 0;  // calls to allocate_async
  std::size_t live_bytes = 0;   // allocated and not yet returned
  std::size_t peak_bytes = 0;
};

// Makes a fresh counting pool (which refuses to hold more than limit_bytes,
// throwing std::bad_alloc) tgb's memory resource; the previous one comes
// back with uninstall. Not reentrant.
void install_counting_pool(std::size_t limit_bytes);
void uninstall_counting_pool();
pool_stats counting_pool_stats();  // waits for the device first

}  // namespace tgb_test
