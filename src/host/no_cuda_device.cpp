// tgb: device memory entry points for a build without the CUDA backend:
// every attempt to place data on a device says so.
#include <string>

#include "tgb/detail/device_storage.hpp"
#include "tgb/error.hpp"

namespace tgb {

namespace {
[[noreturn]] void no_cuda() { throw not_implemented("tgb: this build has no CUDA backend"); }
}  // namespace

device_memory_resource* default_device_memory_resource() noexcept { return nullptr; }
device_memory_resource* get_device_memory_resource() noexcept { return nullptr; }
device_memory_resource* set_device_memory_resource(device_memory_resource*) noexcept { return nullptr; }
std::size_t device_bytes_in_use() noexcept { return 0; }
std::size_t device_peak_bytes() noexcept { return 0; }
void reset_device_peak_bytes() noexcept {}
stream_t current_stream() noexcept { return nullptr; }
stream_scope::stream_scope(stream_t) noexcept : previous_(nullptr) {}
stream_scope::~stream_scope() = default;

namespace detail {
void* device_allocate(std::size_t, stream_t, device_memory_resource**) { no_cuda(); }
void device_free(void*, std::size_t, stream_t, device_memory_resource*) noexcept {}
void device_held_change(std::ptrdiff_t) noexcept {}
void copy_host_to_device(void*, const void*, std::size_t, stream_t) { no_cuda(); }
void copy_device_to_host(void*, const void*, std::size_t, stream_t) { no_cuda(); }
void copy_device_to_device(void*, const void*, std::size_t, stream_t) { no_cuda(); }
device_pattern empty_device_pattern(index_t, index_t, stream_t) { no_cuda(); }
void device_zero(void*, std::size_t, stream_t) { no_cuda(); }
index_t device_count_nonzero(const std::uint8_t*, index_t, stream_t) { no_cuda(); }
}  // namespace detail
}  // namespace tgb
