// Out-of-memory sweeps and concurrency on the host.
//
// Sweeps: a host memory resource that fails its k-th allocation, for k = 0,
// 1, 2, ... until the operation succeeds. Every failure must throw
// tgb::out_of_memory, leave the output exactly as it was, and give back
// every byte it took from the resource (the resource counts them; under the
// sanitizer build LeakSanitizer checks the rest). The number of allocation
// points swept per operation is printed.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <memory_resource>
#include <random>
#include <sstream>
#include <thread>

#include "../failing_resource.hpp"
#include "../oracle.hpp"
#include "../tgb_catch.hpp"

using namespace tgb;

namespace {

using oracle::failing_resource;

// Runs op(C) with the k-th allocation failing, for every k until it
// succeeds; returns the number of allocation points.
template <class TC, class Op>
long long sweep(const char* name, const Matrix<TC>& C0, Op op) {
  const auto before = oracle::to_map(C0);
  for (long long k = 0;; ++k) {
    failing_resource r(k);
    bool ok = false;
    {
      Matrix<TC> C = C0;
      ok = oracle::run_with(r, [&] { op(C); });
      if (!ok) {
        INFO(name << ": allocation " << k << " failed");
        REQUIRE(oracle::to_map(C) == before);
      }
    }
    INFO(name << ": allocation " << k << (ok ? " (success)" : " (failed)") << " leaked " << r.live()
              << " blocks");
    REQUIRE(r.live() == 0);
    if (ok) {
      std::printf("oom sweep %-34s %4lld allocation points\n", name, k);
      return k;
    }
    REQUIRE(k < 100000);
  }
}

}  // namespace

TEST_CASE("out of memory at every allocation: each operation throws and loses nothing", "[oom][errors]") {
  std::mt19937_64 rng(77);
  const auto A = oracle::random_matrix<double>(rng, 70, 70, 0.1);
  const auto B = oracle::random_matrix<double>(rng, 70, 70, 0.1);
  const auto M = oracle::random_matrix<int>(rng, 70, 70, 0.3);
  const auto C0 = oracle::random_matrix<double>(rng, 70, 70, 0.2);
  const char* modes[] = {"no mask", "value mask", "structural mask", "complemented mask",
                         "complemented structural mask"};
  for (int mode = 0; mode < 5; ++mode)
    for (int flags = 0; flags < 4; ++flags) {
      const descriptor d = descriptor{}.with_replace(flags & 1).with_transpose_b(flags & 2);
      const std::string name = std::string("mxm, ") + modes[mode] + (flags & 1 ? ", accum, replace" : "") +
                               (flags & 2 ? ", B'" : "");
      // (with_mask_mode would allocate after the operation; call it directly)
      REQUIRE(sweep(name.c_str(), C0, [&](Matrix<double>& C) {
                auto go = [&](const auto& mk) {
                  if (flags & 1) mxm(C, mk, plus{}, plus_times, A, B, d);
                  else mxm(C, mk, no_accum, plus_times, A, B, d);
                };
                switch (mode) {
                  case 0: go(no_mask); break;
                  case 1: go(M); break;
                  case 2: go(structure(M)); break;
                  case 3: go(complement(M)); break;
                  default: go(complement(structure(M)));
                }
              }) > 0);
    }
  sweep("ewise_add, masked, accumulated", C0, [&](Matrix<double>& C) {
    ewise_add(C, structure(M), plus{}, times{}, A, B);
  });
  sweep("ewise_mult", C0, [&](Matrix<double>& C) { ewise_mult(C, no_mask, no_accum, min{}, A, B); });
  sweep("apply bind2nd", C0, [&](Matrix<double>& C) { apply(C, complement(M), no_accum, bind2nd(times{}, 2.0), A); });
  sweep("select tril", C0, [&](Matrix<double>& C) { select(C, no_mask, no_accum, tril{}, A, 0); });
  sweep("transpose, masked, replace", C0, [&](Matrix<double>& C) {
    transpose(C, M, no_accum, A, descriptor{}.with_replace());
  });
  sweep("reduce to a vector (columns)", C0, [&](Matrix<double>&) {
    Vector<double> w(70);
    reduce(w, no_mask, no_accum, plus_monoid{}, A, descriptor{}.with_transpose_a());
  });
  sweep("from_coo", C0, [&](Matrix<double>& C) {
    const auto c = A.to_coo();
    C = Matrix<double>::from_coo(70, 70, c.rows, c.cols, c.values, plus{});
  });
  sweep("from_csr and to_csr", C0, [&](Matrix<double>& C) {
    const auto c = B.to_csr();
    Matrix<double> D = Matrix<double>::from_csr(70, 70, c.rowptr, c.colidx, c.values);
    C = D;
  });
  std::ostringstream mm;
  io::write_matrix_market(mm, A);
  const std::string text = mm.str();
  sweep("Matrix Market read", C0, [&](Matrix<double>& C) { C = io::parse_matrix_market<double>(text); });
  sweep("triangle_count", C0, [&](Matrix<double>&) { (void)triangle_count(A); });
  // The hypersparse paths (operands and C in hypersparse rows): merges and
  // transposes, accumulated into C row by row.
  auto hyper = [](Matrix<double> m) {
    m.set_storage(storage_control::hyper);
    return m;
  };
  const Matrix<double> HA = hyper(A), HB = hyper(B), HC = hyper(C0);
  REQUIRE((HA.form() == storage_form::hyper && HB.form() == storage_form::hyper && HC.form() == storage_form::hyper));
  sweep("ewise_add, hypersparse, accum, B'", HC, [&](Matrix<double>& C) {
    ewise_add(C, no_mask, plus{}, times{}, HA, HB, descriptor{}.with_transpose_b());
  });
  sweep("ewise_mult, hypersparse", HC, [&](Matrix<double>& C) { ewise_mult(C, no_mask, no_accum, min{}, HA, HB); });
  sweep("transpose, hypersparse, accum", HC, [&](Matrix<double>& C) { transpose(C, no_mask, plus{}, HA); });
}

TEST_CASE("threads running operations on distinct matrices give the one-by-one results", "[concurrency]") {
  std::mt19937_64 rng(5);
  constexpr int kThreads = 6;
  std::vector<Matrix<double>> A, B;
  for (int t = 0; t < kThreads; ++t) {
    A.push_back(oracle::random_matrix<double>(rng, 300, 300, 0.02));
    B.push_back(oracle::random_matrix<double>(rng, 300, 300, 0.02));
  }
  auto work = [&](int t) {
    Matrix<double> C(300, 300), D(300, 300);
    mxm(C, structure(A[t]), no_accum, plus_times, A[t], B[t], descriptor{}.with_transpose_b());
    ewise_add(D, no_mask, no_accum, max{}, C, B[t]);
    select(C, no_mask, no_accum, value_gt{}, D, 0.0);
    std::ostringstream s;
    s << triangle_count(A[t]) << ' ' << reduce(plus_monoid{}, C) << ' ' << C.nvals();
    return s.str();
  };
  std::vector<std::string> alone(kThreads), together(kThreads);
  for (int t = 0; t < kThreads; ++t) alone[t] = work(t);
  for (int round = 0; round < 3; ++round) {
    std::vector<std::thread> th;
    for (int t = 0; t < kThreads; ++t) th.emplace_back([&, t] { together[t] = work(t); });
    for (auto& x : th) x.join();
    REQUIRE(together == alone);
  }
}

TEST_CASE("the default host memory resource keeps freed blocks by size class and gives them back", "[memory]") {
  std::pmr::memory_resource* r = default_host_memory_resource();
  REQUIRE(host_memory_resource() == r);
  const std::size_t prev = set_host_cache_limit(std::size_t(16) << 20);
  release_host_cache();
  REQUIRE(host_cache_bytes() == 0);
  auto fill = [](void* p, std::size_t n, unsigned char v) {
    auto* b = static_cast<unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) b[i] = v;
  };
  // 100,000 bytes: class 7 * 2^14 = 114,688 (2^16 < 100,000 <= 2^17).
  void* p = r->allocate(100000, 16);
  fill(p, 100000, 1);
  r->deallocate(p, 100000, 16);
  CHECK(host_cache_bytes() == 114688);
  // Another size of the class takes the same block; one of another class does not.
  void* other = r->allocate(200000, 16);
  CHECK(other != p);
  CHECK(host_cache_bytes() == 114688);
  void* q = r->allocate(110000, 8);
  CHECK(q == p);
  CHECK(host_cache_bytes() == 0);
  fill(q, 110000, 2);
  r->deallocate(q, 110000, 8);
  r->deallocate(other, 200000, 16);
  CHECK(host_cache_bytes() == 114688 + 229376);
  // Blocks under 64 KiB, over 64 MiB, or aligned past 64 bytes are not kept.
  void* small = r->allocate(1000, 16);
  r->deallocate(small, 1000, 16);
  void* wide = r->allocate(std::size_t(65) << 20, 16);
  r->deallocate(wide, std::size_t(65) << 20, 16);
  void* aligned = r->allocate(100000, 128);
  CHECK(reinterpret_cast<std::uintptr_t>(aligned) % 128 == 0);
  r->deallocate(aligned, 100000, 128);
  CHECK(host_cache_bytes() == 114688 + 229376);
  // The limit bounds what is kept: lowered, the cache gives back down to it.
  CHECK(set_host_cache_limit(200000) == std::size_t(16) << 20);
  CHECK(host_cache_bytes() <= 200000);
  set_host_cache_limit(0);
  CHECK(host_cache_bytes() == 0);
  void* z = r->allocate(100000, 16);
  r->deallocate(z, 100000, 16);
  CHECK(host_cache_bytes() == 0);
  // Threads allocating and freeing at once: every block distinct while held.
  set_host_cache_limit(std::size_t(4) << 20);
  std::vector<std::thread> th;
  std::atomic<int> bad{0};
  for (int t = 0; t < 4; ++t)
    th.emplace_back([&, t] {
      for (int k = 0; k < 200; ++k) {
        const std::size_t n = 65536 + std::size_t(4096) * ((t * 7 + k) % 40);
        auto* b = static_cast<unsigned char*>(r->allocate(n, 16));
        fill(b, n, static_cast<unsigned char>(t + 1));
        for (std::size_t i = 0; i < n; i += 4096) bad += b[i] != t + 1;
        r->deallocate(b, n, 16);
      }
    });
  for (auto& x : th) x.join();
  CHECK(bad.load() == 0);
  CHECK(host_cache_bytes() <= std::size_t(4) << 20);
  // The same operations with and without keeping give the same answers.
  std::mt19937_64 rng(11);
  const Matrix<double> A = oracle::random_matrix<double>(rng, 20000, 20000, 0.0003);
  auto run = [&] {
    Vector<double> u(20000), w(20000);
    u.set(0, 1.0);
    std::ostringstream s;
    for (int step = 0; step < 6; ++step) {
      vxm(w, no_mask, no_accum, plus_times, u, A);
      u = w;
      s << u.nvals() << ' ' << reduce(plus_monoid{}, u) << ';';
    }
    return s.str();
  };
  set_host_cache_limit(0);
  const std::string without = run();
  set_host_cache_limit(std::size_t(16) << 20);
  const std::string with = run(), again = run();
  CHECK(with == without);
  CHECK(again == without);
  set_host_cache_limit(prev);
}
