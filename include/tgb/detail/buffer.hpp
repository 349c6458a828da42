// tgb: owning host arrays. Every host allocation of matrix storage goes
// through the process-wide host memory resource, so a failing resource turns
// into tgb::out_of_memory and tests can make the k-th allocation fail.
#pragma once

#include <cstring>
#include <memory_resource>
#include <new>
#include <string>
#include <type_traits>
#include <utility>

#include "tgb/config.hpp"
#include "tgb/error.hpp"

namespace tgb {

// The resource that tgb's host storage allocates from (default:
// default_host_memory_resource()).
std::pmr::memory_resource* host_memory_resource() noexcept;
// Replaces it (null: the default); returns the previous one. Not thread-safe
// with running operations.
std::pmr::memory_resource* set_host_memory_resource(std::pmr::memory_resource* r) noexcept;
// The default: new/delete behind a cache of freed blocks of 64 KiB to 64 MiB
// (sizes rounded up to four classes per power of two), so that the same
// workspaces from one call to the next are not fresh pages each time.
// Thread-safe; a resource a caller installs may use it as its upstream.
std::pmr::memory_resource* default_host_memory_resource() noexcept;
// The most bytes the cache keeps while no one uses them (default: 1/32 of
// physical memory, at most 256 MiB); 0 turns keeping off and gives back what
// it held. Returns the previous limit.
std::size_t set_host_cache_limit(std::size_t bytes) noexcept;
std::size_t host_cache_limit() noexcept;
// The bytes the cache keeps now, and giving them all back to the system.
std::size_t host_cache_bytes() noexcept;
void release_host_cache() noexcept;
// The largest single host array tgb will try to allocate, in bytes (default:
// the machine's physical memory). A larger request throws out_of_memory at
// once instead of relying on overcommit, where touching it would bring the
// OOM killer. 0 removes the limit; returns the previous limit.
std::size_t set_host_allocation_limit(std::size_t bytes) noexcept;
std::size_t host_allocation_limit() noexcept;

namespace detail {

[[noreturn]] void throw_out_of_memory(std::size_t bytes, const char* what);

template <class T>
class buffer {
  static_assert(std::is_trivially_copyable_v<T>, "tgb stores trivially copyable values only");

 public:
  buffer() = default;
  explicit buffer(std::size_t n) { allocate(n); }
  buffer(std::size_t n, const T& fill) {
    allocate(n);
    for (std::size_t i = 0; i < n; ++i) data_[i] = fill;
  }
  buffer(const buffer& o) {
    allocate(o.size_);
    if (size_) std::memcpy(static_cast<void*>(data_), o.data_, size_ * sizeof(T));
  }
  buffer(buffer&& o) noexcept { swap(o); }
  buffer& operator=(const buffer& o) {
    if (this != &o) {
      buffer tmp(o);
      swap(tmp);
    }
    return *this;
  }
  buffer& operator=(buffer&& o) noexcept {
    buffer tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  ~buffer() { release(); }

  void swap(buffer& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(res_, o.res_);
  }

  // Scratch use: makes room for at least n elements; contents are not kept.
  void ensure(std::size_t n) {
    if (n > size_) {
      buffer tmp(n);
      swap(tmp);
    }
  }

  // Takes over n elements at p that `owner` frees (its deallocate is called
  // once, on release); nothing is copied. import_csr's adopted arrays.
  static buffer adopt(T* p, std::size_t n, std::pmr::memory_resource* owner) noexcept {
    buffer b;
    b.data_ = p;
    b.size_ = n;
    b.res_ = owner;
    return b;
  }
  // The resource that frees the elements (null when empty).
  std::pmr::memory_resource* resource() const noexcept { return res_; }
  // Lets go of the elements without freeing them: their owner (resource())
  // now answers for them.
  void forget() noexcept {
    data_ = nullptr;
    size_ = 0;
    res_ = nullptr;
  }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  T& operator[](std::size_t i) noexcept { return data_[i]; }
  const T& operator[](std::size_t i) const noexcept { return data_[i]; }
  T* begin() noexcept { return data_; }
  T* end() noexcept { return data_ + size_; }
  const T* begin() const noexcept { return data_; }
  const T* end() const noexcept { return data_ + size_; }

 private:
  void allocate(std::size_t n) {
    if (n == 0) return;
    if (n > std::size_t(-1) / sizeof(T)) throw_out_of_memory(std::size_t(-1), "array size overflows");
    const std::size_t limit = host_allocation_limit();
    if (limit && n * sizeof(T) > limit)
      throw_out_of_memory(n * sizeof(T), "one array larger than the host allocation limit (physical memory)");
    std::pmr::memory_resource* r = host_memory_resource();
    void* p = nullptr;
    try {
      p = r->allocate(n * sizeof(T), alignof(T) < 16 ? 16 : alignof(T));
    } catch (const std::bad_alloc&) {
      throw_out_of_memory(n * sizeof(T), "host allocation failed");
    }
    data_ = static_cast<T*>(p);
    size_ = n;
    res_ = r;
  }
  void release() noexcept {
    if (data_) res_->deallocate(data_, size_ * sizeof(T), alignof(T) < 16 ? 16 : alignof(T));
    data_ = nullptr;
    size_ = 0;
    res_ = nullptr;
  }

  T* data_ = nullptr;
  std::size_t size_ = 0;
  std::pmr::memory_resource* res_ = nullptr;
};

}  // namespace detail
}  // namespace tgb
