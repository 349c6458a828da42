// tgb: the host memory resource and its default, a cache of freed large
// blocks in front of new/delete.
//
// Why a cache: an operation's workspaces and results (a vector's bitmap, a
// row kernel's arrays) are large, short-lived and of the same sizes from one
// call to the next, as in every step of a BFS. glibc serves a block above its
// mmap threshold with fresh pages from the kernel and gives them back on
// free, so each step paid a page fault per 4 KiB it touched (rmat16 BFS at
// 0.7x SuiteSparse as the first graph of a process, 2.0x as the last; the
// threshold raised by hand: 1.7x). SuiteSparse:GraphBLAS kept a free pool for
// the same reason.
//
// The rule: a block of at least kMinCached bytes is rounded up to a size
// class (four per power of two, so at most 25% more) and, when freed, kept in
// its class's list while the cache holds at most its limit (default: 1/32 of
// physical memory, at most 256 MiB; set_host_cache_limit). A request of a
// class takes a kept block first. When new/delete fails, the cache is given
// back and the request tried once more. Blocks under 64 KiB or over 64 MiB
// go to new/delete as they are.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory_resource>
#include <mutex>
#include <new>
#include <string>

#include <unistd.h>

#include "tgb/detail/buffer.hpp"
#include "tgb/error.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define TGB_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TGB_ASAN 1
#endif
#endif
#ifdef TGB_ASAN
#include <sanitizer/asan_interface.h>
#endif

namespace tgb {

namespace {

std::size_t physical_memory() noexcept {
  const long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && size > 0 ? std::size_t(pages) * std::size_t(size) : 0;
}

class block_cache final : public std::pmr::memory_resource {
 public:
  static constexpr std::size_t kMinCached = std::size_t(64) << 10, kMaxCached = std::size_t(64) << 20;
  // Every cached-class block comes from new/delete at this alignment, so
  // any request of alignment up to it can take any block of its class.
  static constexpr std::size_t kAlign = 64;

  block_cache() noexcept : limit_(std::min<std::size_t>(std::size_t(256) << 20, physical_memory() / 32)) {}

  std::size_t set_limit(std::size_t bytes) noexcept {
    std::size_t old;
    {
      std::lock_guard<std::mutex> lock(m_);
      old = limit_;
      limit_ = bytes;
    }
    trim(bytes);
    return old;
  }
  std::size_t limit() const noexcept {
    std::lock_guard<std::mutex> lock(m_);
    return limit_;
  }
  std::size_t held() const noexcept {
    std::lock_guard<std::mutex> lock(m_);
    return held_;
  }
  void release() noexcept { trim(0); }

 private:
  // A kept block: the link lives in its first bytes (blocks are >= 64 KiB).
  struct kept {
    kept* next;
  };
  static constexpr int kClasses = 64 * 4;

  // The class of a request of b >= kMinCached bytes: with 2^e < b <= 2^(e+1),
  // b rounded up to a multiple of 2^(e-2).
  static int class_of(std::size_t b, std::size_t& rounded) noexcept {
    const int e = 63 - __builtin_clzll(static_cast<unsigned long long>(b - 1));
    const std::size_t q = std::size_t(1) << (e - 2);
    rounded = (b + q - 1) / q * q;
    return e * 4 + static_cast<int>(rounded / q - 5);
  }
  // Whether a block is made in a class (rounded, at kAlign): by its size
  // and alignment alone, so that its free finds the same answer.
  static bool in_class(std::size_t bytes, std::size_t align) noexcept {
    return bytes >= kMinCached && bytes <= kMaxCached && align <= kAlign;
  }

  void* do_allocate(std::size_t bytes, std::size_t align) override {
    std::size_t rounded = bytes;
    const int c = in_class(bytes, align) ? class_of(bytes, rounded) : -1;
    if (c >= 0) {
      std::lock_guard<std::mutex> lock(m_);
      if (kept* k = free_[c]) {
        free_[c] = k->next;
        held_ -= rounded;
#ifdef TGB_ASAN
        ASAN_UNPOISON_MEMORY_REGION(k, rounded);
#endif
        return k;
      }
    }
    const std::size_t a = c >= 0 ? kAlign : align;
    try {
      return std::pmr::new_delete_resource()->allocate(rounded, a);
    } catch (const std::bad_alloc&) {
      // What the cache keeps may be what the system lacks: given back, the
      // request is tried once more (not when there was nothing to give).
      if (held() == 0) throw;
      release();
      return std::pmr::new_delete_resource()->allocate(rounded, a);
    }
  }

  void do_deallocate(void* p, std::size_t bytes, std::size_t align) override {
    std::size_t rounded = bytes;
    const int c = in_class(bytes, align) ? class_of(bytes, rounded) : -1;
    if (c >= 0) {
      std::lock_guard<std::mutex> lock(m_);
      if (held_ + rounded <= limit_) {
        kept* k = static_cast<kept*>(p);
        k->next = free_[c];
        free_[c] = k;
        held_ += rounded;
#ifdef TGB_ASAN
        // A read or write of a kept block is a use after free.
        ASAN_POISON_MEMORY_REGION(reinterpret_cast<char*>(p) + sizeof(kept), rounded - sizeof(kept));
#endif
        return;
      }
    }
    std::pmr::new_delete_resource()->deallocate(p, rounded, c >= 0 ? kAlign : align);
  }

  bool do_is_equal(const std::pmr::memory_resource& o) const noexcept override { return this == &o; }

  // Gives kept blocks back until the cache holds at most `bytes`.
  void trim(std::size_t bytes) noexcept {
    for (int c = kClasses - 1; c >= 0; --c) {
      for (;;) {
        kept* k = nullptr;
        std::size_t size = 0;
        {
          std::lock_guard<std::mutex> lock(m_);
          if (held_ <= bytes) return;
          k = free_[c];
          if (!k) break;
          free_[c] = k->next;
          size = (std::size_t(5 + c % 4)) << (c / 4 - 2);
          held_ -= size;
        }
#ifdef TGB_ASAN
        ASAN_UNPOISON_MEMORY_REGION(k, size);
#endif
        std::pmr::new_delete_resource()->deallocate(k, size, kAlign);
      }
    }
  }

  mutable std::mutex m_;
  kept* free_[kClasses] = {};
  std::size_t held_ = 0;
  std::size_t limit_;
};

// Never destroyed: blocks may be freed by static destructors after main.
block_cache& the_cache() noexcept {
  static block_cache* c = new block_cache();
  return *c;
}

std::atomic<std::pmr::memory_resource*> g_host_resource{nullptr};
std::atomic<std::size_t> g_host_limit{physical_memory()};

}  // namespace

std::size_t set_host_allocation_limit(std::size_t bytes) noexcept { return g_host_limit.exchange(bytes); }
std::size_t host_allocation_limit() noexcept { return g_host_limit.load(std::memory_order_relaxed); }

std::pmr::memory_resource* default_host_memory_resource() noexcept { return &the_cache(); }

std::pmr::memory_resource* host_memory_resource() noexcept {
  std::pmr::memory_resource* r = g_host_resource.load(std::memory_order_acquire);
  return r ? r : default_host_memory_resource();
}

std::pmr::memory_resource* set_host_memory_resource(std::pmr::memory_resource* r) noexcept {
  std::pmr::memory_resource* old = g_host_resource.exchange(r, std::memory_order_acq_rel);
  return old ? old : default_host_memory_resource();
}

std::size_t set_host_cache_limit(std::size_t bytes) noexcept { return the_cache().set_limit(bytes); }
std::size_t host_cache_limit() noexcept { return the_cache().limit(); }
std::size_t host_cache_bytes() noexcept { return the_cache().held(); }
void release_host_cache() noexcept { the_cache().release(); }

namespace detail {

void throw_out_of_memory(std::size_t bytes, const char* what) {
  throw tgb::out_of_memory(std::string("tgb: out of memory: ") + what + " (" + std::to_string(bytes) +
                           " bytes requested)");
}

}  // namespace detail
}  // namespace tgb
