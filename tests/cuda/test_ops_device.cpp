// The element-wise operations, reductions and the graph algorithms on the GPU
// against the host backend: every mask mode, replace, accumulator and
// transpose, casts between types, sizes 0 to 300. No floating-point sums are
// involved except MCL's, so values must be identical; MCL clusters must be
// the same partition.
#include <cuda_runtime.h>

#include <cstdio>
#include <random>
#include <sstream>
#include <thread>

#include "../graphs.hpp"
#include "../oracle.hpp"
#include "../tgb_catch.hpp"
#include "device_compare.hpp"

using namespace tgb;

namespace {

using oracle::on;

using device_test::both;

template <class TC, class TA>
void ops_for(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const index_t shapes[] = {0, 1, 15, 16, 17, 33, 300};
  for (index_t m : shapes)
    for (index_t n : {index_t(1), index_t(17), index_t(40)})
      for (double density : {0.02, 0.4}) {
        const auto A = oracle::random_matrix<TA>(rng, m, n, density);
        const auto B = oracle::random_matrix<TA>(rng, m, n, density);
        const auto At = oracle::random_matrix<TA>(rng, n, m, density);
        const auto C0 = oracle::random_matrix<TC>(rng, m, n, 0.3);
        const auto Ct0 = oracle::random_matrix<TC>(rng, n, m, 0.3);
        both(rng, C0, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
          ewise_add(C, mk, acc, times{}, on(A, w), on(B, w), d);
        }, "ewise_add times");
        both(rng, C0, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
          ewise_mult(C, mk, acc, min{}, on(A, w), on(At, w), d.with_transpose_b());
        }, "ewise_mult min, B transposed");
        both(rng, C0, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
          ewise_union(C, mk, acc, max{}, on(A, w), 3, on(B, w), -2, d);
        }, "ewise_union max, fills 3 and -2");
        both(rng, C0, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
          ewise_union(C, mk, acc, times{}, on(A, w), 0.5, on(At, w), 2, d.with_transpose_b());
        }, "ewise_union times, fills 0.5 and 2, B transposed");
        both(rng, C0, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
          apply(C, mk, acc, ainv{}, on(A, w), d);
        }, "apply ainv");
        both(rng, C0, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
          apply(C, mk, acc, bind2nd(max{}, 1), on(At, w), d.with_transpose_a());
        }, "apply bind2nd max, A transposed");
        both(rng, C0, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
          apply(C, mk, acc, bind1st(minus{}, 3), on(A, w), d);
        }, "apply bind1st minus");
        both(rng, C0, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
          select(C, mk, acc, tril{}, on(A, w), 1, d);
        }, "select tril 1");
        both(rng, C0, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
          select(C, mk, acc, offdiag{}, on(At, w), 0, d.with_transpose_a());
        }, "select offdiag, A transposed");
        both(rng, C0, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
          select(C, mk, acc, value_gt{}, on(A, w), 0.5, d);
        }, "select value_gt 0.5");
        both(rng, C0, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
          apply_index(C, mk, acc, rowindex{}, on(A, w), 2, d);
        }, "apply_index rowindex 2");
        both(rng, C0, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
          apply_index(C, mk, acc, diagindex{}, on(At, w), -1, d.with_transpose_a());
        }, "apply_index diagindex -1, A transposed");
        both(rng, C0, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
          apply_index(C, mk, acc, value_gt{}, on(A, w), 0.5, d);
        }, "apply_index value_gt 0.5");
        both(rng, Ct0, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
          transpose(C, mk, acc, on(A, w), d);
        }, "transpose");
        both(rng, C0, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
          transpose(C, mk, acc, on(A, w), d.with_transpose_a());
        }, "transpose twice");
        // Reductions: rows, columns, everything.
        for (bool tr : {false, true}) {
          Vector<TC> wh(tr ? n : m), wg(tr ? n : m);
          const descriptor d = descriptor{}.with_transpose_a(tr);
          reduce(wh, no_mask, no_accum, max_monoid{}, A, d);
          reduce(wg, no_mask, no_accum, max_monoid{}, on(A, backend::cuda), d);
          REQUIRE(wg.entries() == wh.entries());
          reduce(wh, no_mask, no_accum, plus_monoid{}, A, d);
          reduce(wg, no_mask, no_accum, plus_monoid{}, on(A, backend::cuda), d);
          REQUIRE(wg.entries() == wh.entries());
        }
        REQUIRE(reduce(min_monoid{}, on(A, backend::cuda)) == reduce(min_monoid{}, A));
        REQUIRE(reduce(plus_monoid{}, on(A, backend::cuda)) == reduce(plus_monoid{}, A));
        TC s = TC(1), t = TC(1);
        reduce(s, plus{}, plus_monoid{}, A);
        reduce(t, plus{}, plus_monoid{}, on(A, backend::cuda));
        REQUIRE(s == t);
      }
}

std::string data(const std::string& f) { return std::string(TGB_TEST_DATA_DIR) + "/" + f; }

}  // namespace

TEST_CASE("device element-wise operations equal host: same types", "[cuda][ops]") {
  ops_for<std::int32_t, std::int32_t>(1);
  ops_for<double, double>(2);
  ops_for<bool, bool>(3);
}

TEST_CASE("device element-wise operations equal host: casts", "[cuda][ops]") {
  ops_for<std::int64_t, bool>(4);
  ops_for<float, std::int32_t>(5);
  ops_for<bool, double>(6);
}

namespace {
// Every predefined operator, operands of two types into a third: the device
// must compute in the operator's domain as the host does (values 2.0 and
// 7.0, 0.5 and 0.25 agree only once cast).
template <class TC, class TA, class TB>
void cast_ops(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const auto A = oracle::cast_operand<TA>(rng, 40), B = oracle::cast_operand<TB>(rng, 40);
  const auto C0 = oracle::random_matrix<TC>(rng, 40, 40, 0.3);
  auto each = [&](const auto& op, const char* name) {
    both(rng, C0, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
      ewise_add(C, mk, acc, op, on(A, w), on(B, w), d);
    }, name);
    both(rng, C0, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
      ewise_mult(C, mk, acc, op, on(A, w), on(B, w), d);
    }, name);
    // the fills are cast to the operator's domain too
    const std::string with_fills = std::string(name) + ", ewise_union with fills 0.5 and 7";
    both(rng, C0, [&](Matrix<TC>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
      ewise_union(C, mk, acc, op, on(A, w), 0.5, on(B, w), 7, d);
    }, with_fills.c_str());
  };
  each(plus{}, "plus"), each(minus{}, "minus"), each(times{}, "times"), each(tgb::div{}, "div");
  each(min{}, "min"), each(max{}, "max"), each(first{}, "first"), each(second{}, "second");
  each(pair{}, "pair"), each(any{}, "any"), each(lor{}, "lor"), each(land{}, "land"), each(lxor{}, "lxor");
  each(eq{}, "eq"), each(ne{}, "ne"), each(lt{}, "lt"), each(gt{}, "gt"), each(le{}, "le"), each(ge{}, "ge");
  // power is left out: CUDA's pow is within 2 ulp, not correctly rounded, so
  // pow(x, 0.5) may land just under an integer the host's reaches and then
  // truncate one lower (seen on the H100: 2 against 3); apply's power cases
  // compare it on values where it is exact.
}
}  // namespace

TEST_CASE("device element-wise operators compute in their domain, as the host does", "[cuda][ops][cast]") {
  cast_ops<bool, double, double>(11);
  cast_ops<std::int32_t, double, double>(12);
  cast_ops<std::int64_t, std::int32_t, double>(13);
  cast_ops<double, float, std::int64_t>(14);
}

TEST_CASE("device element-wise operations: what the GPU cannot run is a clear error", "[cuda][ops][errors]") {
  std::mt19937_64 rng(1);
  auto A = on(oracle::random_matrix<int>(rng, 20, 20, 0.3), backend::cuda);
  Matrix<int> C = on(Matrix<int>(20, 20), backend::cuda);
  const auto before = C.nvals();
  auto user_op = [](int a, int b) { return a + 2 * b; };
  REQUIRE_THROWS_AS(ewise_add(C, no_mask, no_accum, user_op, A, A), not_implemented);
  REQUIRE_THROWS_AS(ewise_add(C, no_mask, user_op, plus{}, A, A), not_implemented);
  REQUIRE_THROWS_AS(ewise_union(C, no_mask, no_accum, user_op, A, 1, A, 2), not_implemented);
  auto user_index_op = [](int a, index_t i, index_t, int y) { return a + int(i) + y; };
  REQUIRE_THROWS_AS(apply_index(C, no_mask, no_accum, user_index_op, A, 0), not_implemented);
  REQUIRE_THROWS_AS(apply(C, no_mask, no_accum, [](int a) { return a + 1; }, A), not_implemented);
  REQUIRE(C.nvals() == before);
  REQUIRE(C.location() == backend::cuda);
  Matrix<int> H(20, 20);
  REQUIRE_THROWS_AS(ewise_add(H, no_mask, no_accum, plus{}, A, A), invalid_value);  // mixed residence
}

TEST_CASE("device algorithms equal host: triangle counts on real and random graphs", "[cuda][algorithms]") {
  for (const char* f : {"karate.mtx", "jagmesh7.mtx", "netscience.mtx", "ca-GrQc.mtx", "bcsstk13.mtx",
                        "luxembourg.mtx", "west0067.mtx"}) {
    INFO(f);
    const auto A = io::read_matrix_market<double>(data(f));
    REQUIRE(triangle_count(on(A, backend::cuda)) == triangle_count(A));
  }
  std::mt19937_64 rng(17);
  for (index_t n : {1, 17, 33, 1000, 20000}) {
    const auto e = graphs::power_law(rng, n, 8.0);
    const auto A = graphs::to_matrix<int>(n, e);
    REQUIRE(triangle_count(on(A, backend::cuda)) == graphs::triangles(n, e));
  }
}

TEST_CASE("device algorithms equal host: local clustering coefficients", "[cuda][algorithms]") {
  // The counts behind each coefficient are integers: the quotients agree
  // exactly, directed and undirected.
  for (const char* f : {"karate.mtx", "jagmesh7.mtx", "ca-GrQc.mtx", "west0067.mtx", "cage8.mtx"}) {
    INFO(f);
    const auto A = io::read_matrix_market<double>(data(f));
    for (bool directed : {true, false}) {
      lcc_options o;
      o.directed = directed;
      const auto d = local_clustering_coefficient(on(A, backend::cuda), o).extract_tuples();
      const auto h = local_clustering_coefficient(A, o).extract_tuples();
      REQUIRE(d == h);
    }
  }
}

TEST_CASE("device algorithms equal host: k-truss", "[cuda][algorithms]") {
  for (const char* f : {"karate.mtx", "jagmesh7.mtx", "ca-GrQc.mtx", "netscience.mtx"}) {
    INFO(f);
    const auto A = io::read_matrix_market<double>(data(f));
    for (std::int64_t k : {3, 4, 6}) {
      const ktruss_result d = ktruss(on(A, backend::cuda), k), h = ktruss(A, k);
      REQUIRE(d.support.location() == backend::cuda);
      REQUIRE(d.rounds == h.rounds);
      const auto dc = d.support.to_coo(), hc = h.support.to_coo();
      REQUIRE(dc.rows == hc.rows);
      REQUIRE(dc.cols == hc.cols);
      REQUIRE(dc.values == hc.values);
    }
  }
}

TEST_CASE("device algorithms equal host: BFS levels", "[cuda][algorithms]") {
  const auto K = io::read_matrix_market<bool>(data("karate.mtx"));
  const std::vector<std::int64_t> want{2, 1, 2, 2, 3, 3, 3, 2, 1, 2, 3, 3, 3, 2, 2, 2, 4,
                                       2, 2, 2, 2, 2, 2, 2, 3, 3, 2, 2, 2, 2, 0, 2, 1, 1};
  const auto V = msbfs(on(K, backend::cuda), {30});
  REQUIRE(V.location() == backend::cuda);
  REQUIRE(dense_levels(V) == want);
  std::mt19937_64 rng(19);
  for (index_t n : {16, 33, 2000, 30000}) {
    for (int kind = 0; kind < 2; ++kind) {
      const auto e = kind ? graphs::power_law(rng, n, 3.0) : graphs::erdos_renyi(rng, n, 2.0);
      const auto A = graphs::to_matrix<double>(n, e);
      std::vector<index_t> src;
      for (index_t k = 0; k < 64; ++k) src.push_back((k * 7919) % n);
      for (bool sym : {false, true}) {
        msbfs_options o;
        o.symmetrize = sym;
        INFO("n " << n << " kind " << kind << " symmetrize " << sym);
        REQUIRE(dense_levels(msbfs(on(A, backend::cuda), src, o)) == dense_levels(msbfs(A, src, o)));
      }
    }
  }
}

TEST_CASE("device algorithms equal host: Markov clusters", "[cuda][algorithms][mcl]") {
  for (const char* f : {"karate.mtx", "dolphins.mtx", "polbooks.mtx", "netscience.mtx", "jagmesh7.mtx"}) {
    INFO(f);
    const auto A = io::read_matrix_market<double>(data(f));
    const auto h = markov_clustering(A);
    const auto g = markov_clustering(on(A, backend::cuda));
    // Floating-point sums differ in order (and the GPU fuses multiply-adds),
    // so the partitions are compared, not bits: identical clusters here.
    REQUIRE(g.clusters == h.clusters);
    REQUIRE(g.converged == h.converged);
  }
  std::mt19937_64 rng(23);
  std::vector<index_t> truth;
  const auto e = graphs::planted_partition(rng, 12, 30, 0.3, 0.01, truth);
  const auto A = graphs::to_matrix<double>(360, e);
  const auto h = markov_clustering(A), g = markov_clustering(on(A, backend::cuda));
  const double ari = graphs::adjusted_rand_index(graphs::labels(360, g.clusters), graphs::labels(360, h.clusters));
  INFO("ARI " << ari);
  REQUIRE(ari >= 0.99);
}

TEST_CASE("device element-wise operations, small cases for the sanitizers", "[cuda][sanitize]") {
  std::mt19937_64 rng(31);
  const auto A = oracle::random_matrix<double>(rng, 40, 33, 0.2);
  const auto C0 = oracle::random_matrix<double>(rng, 40, 33, 0.2);
  both(rng, C0, [&](Matrix<double>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
    ewise_add(C, mk, acc, plus{}, on(A, w), on(C0, w), d);
  }, "ewise_add");
  both(rng, C0, [&](Matrix<double>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
    ewise_union(C, mk, acc, minus{}, on(A, w), 1.5, on(C0, w), -2.0, d);
  }, "ewise_union");
  both(rng, C0, [&](Matrix<double>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
    select(C, mk, acc, triu{}, on(A, w), 0, d);
  }, "select");
  both(rng, C0, [&](Matrix<double>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
    apply_index(C, mk, acc, colindex{}, on(A, w), 1, d);
  }, "apply_index");
  Vector<double> v(40);
  reduce(v, no_mask, no_accum, plus_monoid{}, on(A, backend::cuda));
  const auto K = io::read_matrix_market<double>(data("karate.mtx"));
  REQUIRE(triangle_count(on(K, backend::cuda)) == 45);
  REQUIRE(markov_clustering(on(K, backend::cuda)).clusters.size() == 2);
}

namespace {

// Refuses its k-th allocation; everything else goes to the default pool.
struct failing_device_resource : device_memory_resource {
  explicit failing_device_resource(long long k) : fail_at(k) {}
  long long fail_at, count = 0;
  void* allocate(std::size_t bytes, stream_t s) override {
    if (count++ == fail_at) throw out_of_memory("test: device allocation refused");
    return default_device_memory_resource()->allocate(bytes, s);
  }
  void deallocate(void* p, std::size_t bytes, stream_t s) noexcept override {
    default_device_memory_resource()->deallocate(p, bytes, s);
  }
};

// Sweeps k until op(C) succeeds: each failure throws out_of_memory, leaves C
// as it was (on the device), and returns every byte (tgb's accounting).
template <class TC, class Op>
long long device_sweep(const char* name, const Matrix<TC>& C0_host, Op op) {
  const auto before = oracle::to_map(C0_host);
  for (long long k = 0;; ++k) {
    const std::size_t base = device_bytes_in_use();
    bool ok = false;
    {
      Matrix<TC> C = on(C0_host, backend::cuda);
      failing_device_resource r(k);
      device_memory_resource* prev = set_device_memory_resource(&r);
      try {
        op(C);
        ok = true;
      } catch (const out_of_memory&) {
      }
      set_device_memory_resource(prev);
      INFO(name << ": device allocation " << k);
      REQUIRE(C.location() == backend::cuda);
      if (!ok) REQUIRE(oracle::to_map(on(C, backend::host)) == before);
    }
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    INFO(name << ": device allocation " << k << (ok ? " (success)" : " (failed)"));
    REQUIRE(device_bytes_in_use() == base);
    if (ok) {
      std::printf("device oom sweep %-30s %4lld allocation points\n", name, k);
      return k;
    }
    REQUIRE(k < 100000);
  }
}

}  // namespace

TEST_CASE("device out of memory at every allocation: throws and loses nothing", "[cuda][oom]") {
  std::mt19937_64 rng(91);
  const auto Ah = oracle::random_matrix<double>(rng, 70, 70, 0.1);
  const auto Mh = oracle::random_matrix<int>(rng, 70, 70, 0.3);
  const auto C0 = oracle::random_matrix<double>(rng, 70, 70, 0.2);
  const Matrix<double> A = on(Ah, backend::cuda);
  const Matrix<int> M = on(Mh, backend::cuda);
  device_sweep("mxm, no mask", C0, [&](Matrix<double>& C) { mxm(C, no_mask, no_accum, plus_times, A, A); });
  device_sweep("mxm, value mask, accum", C0, [&](Matrix<double>& C) { mxm(C, M, plus{}, min_plus, A, A); });
  device_sweep("mxm, complemented structure, A'", C0, [&](Matrix<double>& C) {
    mxm(C, complement(structure(M)), no_accum, plus_times, A, A, descriptor{}.with_transpose_a().with_replace());
  });
  device_sweep("ewise_add, masked", C0, [&](Matrix<double>& C) { ewise_add(C, structure(M), no_accum, plus{}, A, C); });
  device_sweep("ewise_mult, accum", C0, [&](Matrix<double>& C) { ewise_mult(C, no_mask, max{}, times{}, A, A); });
  device_sweep("apply, complemented mask", C0, [&](Matrix<double>& C) {
    apply(C, complement(M), no_accum, bind2nd(power{}, 2.0), A);
  });
  device_sweep("select, replace", C0, [&](Matrix<double>& C) {
    select(C, M, no_accum, triu{}, A, 1, descriptor{}.with_replace());
  });
  device_sweep("transpose", C0, [&](Matrix<double>& C) { transpose(C, no_mask, plus{}, A); });
  device_sweep("reduce to a vector", C0, [&](Matrix<double>&) {
    Vector<double> w(70);
    reduce(w, no_mask, no_accum, max_monoid{}, A, descriptor{}.with_transpose_a());
  });
  device_sweep("triangle_count", C0, [&](Matrix<double>&) { (void)triangle_count(A); });
  device_sweep("move to the device", C0, [&](Matrix<double>& C) { C = on(Ah, backend::cuda); });
}

TEST_CASE("threads on their own streams give the one-by-one results", "[cuda][concurrency]") {
  std::mt19937_64 rng(8);
  constexpr int kThreads = 4;
  std::vector<Matrix<double>> A;
  for (int t = 0; t < kThreads; ++t) A.push_back(oracle::random_matrix<double>(rng, 2000, 2000, 0.003));
  auto work = [&](int t) {
    const Matrix<double> a = on(A[t], backend::cuda);
    Matrix<double> C = on(Matrix<double>(2000, 2000), backend::cuda), D = C;
    mxm(C, structure(a), no_accum, plus_times, a, a);
    ewise_add(D, no_mask, no_accum, max{}, C, a);
    std::ostringstream s;
    s << triangle_count(a) << ' ' << D.nvals() << ' ' << reduce(max_monoid{}, D);
    return s.str();
  };
  std::vector<std::string> alone(kThreads), together(kThreads);
  for (int t = 0; t < kThreads; ++t) alone[t] = work(t);
  std::vector<cudaStream_t> streams(kThreads);
  for (auto& s : streams) REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
  std::vector<std::thread> th;
  for (int t = 0; t < kThreads; ++t)
    th.emplace_back([&, t] {
      stream_scope scope(reinterpret_cast<stream_t>(streams[t]));
      together[t] = work(t);
    });
  for (auto& x : th) x.join();
  for (auto& s : streams) cudaStreamDestroy(s);
  REQUIRE(together == alone);
}

TEST_CASE("device triangle-counting variants equal host", "[cuda][algorithms]") {
  std::mt19937_64 rng(29);
  const auto e = graphs::power_law(rng, 5000, 8.0);
  const auto A = graphs::to_matrix<double>(5000, e);
  const std::int64_t want = graphs::triangles(5000, e);
  const Matrix<double> D = on(A, backend::cuda);
  for (tc_method m : {tc_method::sandia_ll, tc_method::sandia_uu})
    for (tc_order o : {tc_order::none, tc_order::ascending, tc_order::descending}) {
      INFO("method " << int(m) << " order " << int(o));
      REQUIRE(triangle_count(D, tc_options{m, o}) == want);
    }
}

TEST_CASE("device kronecker and diagonals equal host", "[cuda][ops]") {
  std::mt19937_64 rng(61);
  for (index_t m : {1, 5, 17})
    for (index_t n : {1, 3, 16}) {
      const auto A = oracle::random_matrix<std::int32_t>(rng, m, n, 0.4);
      const auto B = oracle::random_matrix<std::int32_t>(rng, n, m, 0.4);
      const auto C0 = oracle::random_matrix<std::int64_t>(rng, m * n, n * m, 0.05);
      both(rng, C0, [&](Matrix<std::int64_t>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
        kronecker(C, mk, acc, times{}, on(A, w), on(B, w), d);
      }, "kronecker times");
      {  // errors: C unchanged
        Matrix<std::int64_t> C = on(C0, backend::cuda);
        const auto before = oracle::to_map(on(C, backend::host));
        auto user_op = [](std::int32_t a, std::int32_t b) { return a - 2 * b; };
        REQUIRE_THROWS_AS(kronecker(C, no_mask, no_accum, user_op, on(A, backend::cuda), on(B, backend::cuda)),
                          not_implemented);
        const Matrix<int> bad = on(Matrix<int>(m * n + 1, n * m), backend::cuda);
        REQUIRE_THROWS_AS(kronecker(C, bad, no_accum, times{}, on(A, backend::cuda), on(B, backend::cuda)),
                          dimension_mismatch);
        REQUIRE(oracle::to_map(on(C, backend::host)) == before);
      }
      const auto D0 = oracle::random_matrix<double>(rng, n * m, m * n, 0.05);
      both(rng, D0, [&](Matrix<double>& C, const auto& mk, const auto& acc, descriptor d, backend w) {
        kronecker(C, mk, acc, minus{}, on(A, w), on(B, w), d.with_transpose_a().with_transpose_b());
      }, "kronecker minus, both transposed, int32 into fp64");
      // Diagonals: of A (every offset that meets it, and one past it) and
      // of vectors into matrices.
      for (index_t k : {-m, index_t(-2), index_t(0), index_t(1), n - 1, n}) {
        INFO("diagonal " << k << " of " << m << " x " << n);
        const Vector<std::int32_t> h = diag_vector(A, k), g = diag_vector(on(A, backend::cuda), k);
        REQUIRE(g.location() == backend::cuda);
        REQUIRE(g.size() == h.size());
        Vector<std::int32_t> gh = g;
        gh.to(backend::host);
        REQUIRE(gh.extract_tuples() == h.extract_tuples());
        Vector<double> v(n);
        for (index_t i = 0; i < n; i += 2) v.set(i, 0.5 * double(i) - 1);
        Vector<double> vd = v;
        vd.to(backend::cuda);
        const Matrix<double> Dh = diag_matrix(v, k), Dg = diag_matrix(vd, k);
        REQUIRE(Dg.location() == backend::cuda);
        REQUIRE(Dg.nrows() == Dh.nrows());
        REQUIRE(oracle::diff(oracle::to_map(on(Dg, backend::host)), oracle::to_map(Dh)) == "");
      }
    }
}
