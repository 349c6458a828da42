// Failure injection at every allocation of the process: this executable
// replaces the global operator new, so the k-th allocation after arming
// fails whoever makes it: tgb's buffers (through the default host memory
// resource), std::vector growth inside OpenMP regions, thread-local
// scratch. The sweep in test_reliability.cpp fails only the host memory
// resource's allocations and missed the std::vector ones, where a stale
// per-thread marker once corrupted the heap ('tgb mxm' under ulimit -v).
//
// For k = 0, 1, 2, ... until the operation succeeds, each failure must throw
// tgb::out_of_memory (nothing else), leave the output exactly as it was and
// give back every allocation it made while armed. The matrices have more
// than kParallelRows tile rows, so the parallel regions run; under the
// sanitizer build (scripts/sanitize.sh) ASan watches every access.
#include <omp.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <random>
#include <sstream>

#include "../oracle.hpp"
#include "../tgb_catch.hpp"

namespace {

std::atomic<long long> g_fail_at{-1};  // -1: disarmed
std::atomic<long long> g_count{0};     // allocations since arming
std::atomic<long long> g_live{0};      // made while armed and not yet freed
std::atomic<unsigned> g_generation{1};

// Every block carries a header just below the pointer handed out: the
// distance back to the malloc'ed base and the arming generation it was made
// in (0: disarmed), so a free knows whether it balances an armed allocation.
struct header {
  std::size_t offset;
  unsigned generation;
};
constexpr std::size_t kHeader = 64;

void* allocate(std::size_t n, std::size_t align, bool nothrow) {
  const long long fail_at = g_fail_at.load(std::memory_order_relaxed);
  unsigned gen = 0;
  if (fail_at >= 0) {
    if (g_count.fetch_add(1, std::memory_order_relaxed) == fail_at) {
      if (nothrow) return nullptr;
      throw std::bad_alloc();
    }
    gen = g_generation.load(std::memory_order_relaxed);
    g_live.fetch_add(1, std::memory_order_relaxed);
  }
  const std::size_t off = align > kHeader ? align : kHeader;
  void* base = std::malloc(n + off);
  if (!base) {
    if (gen) g_live.fetch_sub(1, std::memory_order_relaxed);
    if (nothrow) return nullptr;
    throw std::bad_alloc();
  }
  if (align > alignof(std::max_align_t) && reinterpret_cast<std::uintptr_t>(base) % align != 0) {
    // malloc's alignment is not enough: over-allocate and align by hand.
    std::free(base);
    base = std::malloc(n + 2 * off);
    if (!base) {
      if (gen) g_live.fetch_sub(1, std::memory_order_relaxed);
      if (nothrow) return nullptr;
      throw std::bad_alloc();
    }
    const std::uintptr_t b = reinterpret_cast<std::uintptr_t>(base);
    const std::uintptr_t q = (b + off + align - 1) / align * align;
    auto* h = reinterpret_cast<header*>(q) - 1;
    *h = header{static_cast<std::size_t>(q - b), gen};
    return reinterpret_cast<void*>(q);
  }
  char* q = static_cast<char*>(base) + off;
  *(reinterpret_cast<header*>(q) - 1) = header{off, gen};
  return q;
}

void release(void* p) noexcept {
  if (!p) return;
  const header h = *(static_cast<header*>(p) - 1);
  if (h.generation != 0 && h.generation == g_generation.load(std::memory_order_relaxed))
    g_live.fetch_sub(1, std::memory_order_relaxed);
  std::free(static_cast<char*>(p) - h.offset);
}

}  // namespace

void* operator new(std::size_t n) { return allocate(n, 0, false); }
void* operator new[](std::size_t n) { return allocate(n, 0, false); }
void* operator new(std::size_t n, std::align_val_t a) { return allocate(n, std::size_t(a), false); }
void* operator new[](std::size_t n, std::align_val_t a) { return allocate(n, std::size_t(a), false); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return allocate(n, 0, true); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return allocate(n, 0, true); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return allocate(n, std::size_t(a), true);
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return allocate(n, std::size_t(a), true);
}
void operator delete(void* p) noexcept { release(p); }
void operator delete[](void* p) noexcept { release(p); }
void operator delete(void* p, std::size_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t) noexcept { release(p); }
void operator delete(void* p, std::align_val_t) noexcept { release(p); }
void operator delete[](void* p, std::align_val_t) noexcept { release(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { release(p); }

using namespace tgb;

namespace {

// Runs op(C) on a copy of C0 with allocation k failing, for every k until it
// succeeds; returns the number of allocation points. A warm-up run first
// lets thread-local scratch reach its size, so it is not counted as a leak.
template <class TC, class Op>
long long sweep_all(const char* name, const Matrix<TC>& C0, Op op) {
  // The default resource's cache off: a failure it absorbs (its kept blocks
  // given back and the request tried again) would end the sweep early. The
  // cache's own failure path has its case below.
  struct no_cache {
    std::size_t prev = set_host_cache_limit(0);
    ~no_cache() { set_host_cache_limit(prev); }
  } off;
  {
    Matrix<TC> warm = C0;
    op(warm);
  }
  const auto before = oracle::to_map(C0);
  for (long long k = 0;; ++k) {
    Matrix<TC> C = C0;
    g_generation.fetch_add(1);
    g_live = 0;
    g_count = 0;
    g_fail_at = k;
    bool ok = false, oom = false;
    std::string other;
    try {
      op(C);
      ok = true;
    } catch (const out_of_memory&) {
      oom = true;
    } catch (const std::exception& e) {
      other = e.what();
    } catch (...) {
      other = "a non-standard exception";
    }
    g_fail_at = -1;
    const long long reached = g_count.load();
    INFO(name << ": allocation " << k << " of " << reached << (ok ? " (success)" : " (failed)"));
    INFO("unexpected exception: " << other);
    REQUIRE(other.empty());
    if (!ok) {
      REQUIRE(oom);
      REQUIRE(oracle::to_map(C) == before);
    }
    C = Matrix<TC>();  // the result's own storage, made while armed, goes now
    REQUIRE(g_live.load() == 0);
    if (ok) {
      REQUIRE(reached <= k);  // it succeeded because no allocation was failed
      std::printf("oom (operator new) %-38s %5lld allocation points\n", name, k);
      return k;
    }
    REQUIRE(k < 200000);
  }
}

}  // namespace

TEST_CASE("every allocation of the process fails in turn: operations throw out_of_memory and lose nothing",
          "[oom][errors]") {
  omp_set_num_threads(4);  // more threads than CI's cores: failures land inside busy parallel regions
  std::mt19937_64 rng(1234);
  const index_t n = 1100;  // 69 tile rows: past kParallelRows, so the parallel regions run
  const auto A = oracle::random_matrix<double>(rng, n, n, 0.003);
  const auto B = oracle::random_matrix<double>(rng, n, n, 0.003);
  const auto M = oracle::random_matrix<int>(rng, n, n, 0.002);
  const auto C0 = oracle::random_matrix<double>(rng, n, n, 0.002);
  const descriptor tb = descriptor{}.with_transpose_b();
  CHECK(sweep_all("mxm", C0, [&](Matrix<double>& C) { mxm(C, no_mask, no_accum, plus_times, A, B); }) > 0);
  CHECK(sweep_all("mxm, mask, accum, replace, B'", C0, [&](Matrix<double>& C) {
          mxm(C, M, plus{}, plus_times, A, B, tb.with_replace());
        }) > 0);
  CHECK(sweep_all("mxm, complemented structural mask", C0, [&](Matrix<double>& C) {
          mxm(C, complement(structure(M)), no_accum, min_plus, A, B);
        }) > 0);
  // The tile paths forced: the automatic rule sends these hypersparse inputs
  // to the row paths, and the marker bug lived in the tile path's symbolic step.
  detail::host::mxm_policy tile;
  tile.method = detail::host::mxm_method::tile_gustavson;
  CHECK(sweep_all("mxm, tile Gustavson forced", C0, [&](Matrix<double>& C) {
          detail::mxm_host(C, no_mask, no_accum, plus_times, A, B, descriptor{}, tile);
        }) > 0);
  tile.method = detail::host::mxm_method::tile_dot;
  CHECK(sweep_all("mxm, tile dot forced, structural mask", C0, [&](Matrix<double>& C) {
          detail::mxm_host(C, structure(M), no_accum, plus_times, A, B, tb, tile);
        }) > 0);
  CHECK(sweep_all("ewise_add, masked", C0, [&](Matrix<double>& C) {
          ewise_add(C, structure(M), no_accum, plus{}, A, B);
        }) > 0);
  CHECK(sweep_all("ewise_mult, accum", C0, [&](Matrix<double>& C) {
          ewise_mult(C, no_mask, plus{}, times{}, A, C0);
        }) > 0);
  CHECK(sweep_all("transpose", C0, [&](Matrix<double>& C) { transpose(C, no_mask, no_accum, A); }) > 0);
  CHECK(sweep_all("select, apply", C0, [&](Matrix<double>& C) {
          Matrix<double> T(n, n);
          select(T, no_mask, no_accum, triu{}, A, 1);
          apply(C, no_mask, no_accum, bind2nd(times{}, 3.0), T);
        }) > 0);
  const auto Ak = oracle::random_matrix<double>(rng, 100, 100, 0.03);
  const auto Bk = oracle::random_matrix<double>(rng, 11, 11, 0.2);
  CHECK(sweep_all("kronecker, mask, accum", C0, [&](Matrix<double>& C) {
          kronecker(C, structure(M), plus{}, times{}, Ak, Bk);
        }) > 0);
  const std::int64_t triangles = triangle_count(A);
  bool same = true;
  CHECK(sweep_all("triangle_count", C0, [&](Matrix<double>&) { same = same && triangle_count(A) == triangles; }) > 0);
  CHECK(same);
  std::ostringstream mm;
  io::write_matrix_market(mm, A);
  const std::string text = mm.str();
  CHECK(sweep_all("Matrix Market read", C0, [&](Matrix<double>& C) { C = io::parse_matrix_market<double>(text); }) >
        0);
}

TEST_CASE("the host cache gives its blocks back when the system refuses, then tries once more", "[oom][memory]") {
  std::pmr::memory_resource* r = default_host_memory_resource();
  const std::size_t prev = set_host_cache_limit(std::size_t(16) << 20);
  release_host_cache();
  // A kept block of one class; a request of another class whose first
  // operator new fails: the kept block goes back and the retry succeeds.
  void* kept = r->allocate(100000, 16);
  r->deallocate(kept, 100000, 16);
  REQUIRE(host_cache_bytes() > 0);
  g_generation.fetch_add(1);
  g_live = 0;
  g_count = 0;
  g_fail_at = 0;
  void* p = nullptr;
  try {
    p = r->allocate(300000, 16);
  } catch (const std::bad_alloc&) {
  }
  g_fail_at = -1;
  CHECK(p != nullptr);
  CHECK(g_count.load() == 2);
  CHECK(host_cache_bytes() == 0);
  if (p) {
    static_cast<char*>(p)[299999] = 1;
    r->deallocate(p, 300000, 16);
  }
  // With nothing kept, the refusal reaches the caller at once.
  release_host_cache();
  g_count = 0;
  g_fail_at = 0;
  bool refused = false;
  try {
    r->deallocate(r->allocate(300000, 16), 300000, 16);
  } catch (const std::bad_alloc&) {
    refused = true;
  }
  g_fail_at = -1;
  CHECK(refused);
  CHECK(g_count.load() == 1);
  release_host_cache();
  set_host_cache_limit(prev);
}
