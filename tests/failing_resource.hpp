// A host memory resource that fails its k-th allocation (and no other),
// counting the blocks still live: the out-of-memory sweeps install it with
// tgb::set_host_memory_resource. Thread-safe, since operations allocate
// inside their parallel regions.
#pragma once

#include <atomic>
#include <memory_resource>
#include <new>

#include "tgb/detail/buffer.hpp"
#include "tgb/error.hpp"

namespace oracle {

class failing_resource : public std::pmr::memory_resource {
 public:
  explicit failing_resource(long long fail_at) : fail_at_(fail_at) {}
  long long allocations() const { return count_; }
  long long live() const { return live_; }

 private:
  void* do_allocate(std::size_t bytes, std::size_t align) override {
    if (count_++ == fail_at_) throw std::bad_alloc();
    ++live_;
    return std::pmr::new_delete_resource()->allocate(bytes, align);
  }
  void do_deallocate(void* p, std::size_t bytes, std::size_t align) override {
    --live_;
    std::pmr::new_delete_resource()->deallocate(p, bytes, align);
  }
  bool do_is_equal(const std::pmr::memory_resource& o) const noexcept override { return this == &o; }
  long long fail_at_;
  std::atomic<long long> count_{0}, live_{0};
};

// Refuses any allocation that would take the live bytes past a limit (the
// memory-follows-the-entries checks of hypersparse rows).
class limited_resource : public std::pmr::memory_resource {
 public:
  explicit limited_resource(std::size_t limit) : limit_(limit) {}

 private:
  void* do_allocate(std::size_t bytes, std::size_t align) override {
    if (live_ + bytes > limit_) throw std::bad_alloc();
    live_ += bytes;
    return std::pmr::new_delete_resource()->allocate(bytes, align);
  }
  void do_deallocate(void* p, std::size_t bytes, std::size_t align) override {
    live_ -= bytes;
    std::pmr::new_delete_resource()->deallocate(p, bytes, align);
  }
  bool do_is_equal(const std::pmr::memory_resource& o) const noexcept override { return this == &o; }
  std::size_t limit_;
  std::atomic<std::size_t> live_{0};
};

// limited_resource installed as tgb's host memory resource for its
// lifetime (the previous one restored).
class host_budget {
 public:
  explicit host_budget(std::size_t limit) : r_(limit), prev_(tgb::set_host_memory_resource(&r_)) {}
  ~host_budget() { tgb::set_host_memory_resource(prev_); }
  host_budget(const host_budget&) = delete;
  host_budget& operator=(const host_budget&) = delete;

 private:
  limited_resource r_;
  std::pmr::memory_resource* prev_;
};

// Runs op() with r as tgb's host memory resource (the previous one restored
// whatever op throws): true if op returned, false if it threw
// tgb::out_of_memory; any other exception passes through.
template <class Op>
bool run_with(failing_resource& r, Op&& op) {
  struct restore {
    std::pmr::memory_resource* prev;
    ~restore() { tgb::set_host_memory_resource(prev); }
  } guard{tgb::set_host_memory_resource(&r)};
  try {
    op();
    return true;
  } catch (const tgb::out_of_memory&) {
    return false;
  }
}

}  // namespace oracle
