// Where a GPU BFS level's time goes on luxembourg: each vector operation of a
// push level timed alone (wall clock with a device sync after, median of 200),
// and whole BFS runs (automatic and push-only).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include "tgb/tgb.hpp"
using namespace tgb;
using clk = std::chrono::steady_clock;
template <class F>
double med_us(F&& f, int reps = 200) {
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    cudaDeviceSynchronize();
    auto a = clk::now();
    f();
    cudaDeviceSynchronize();
    t.push_back(std::chrono::duration<double, std::micro>(clk::now() - a).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}
int main(int argc, char** argv) {
  Matrix<double> A = io::read_graph<double>(argv[1], io::duplicates::keep_first);
  const index_t n = A.nrows();
  for (int where = 0; where < 2; ++where) {
    Matrix<double> G = A;
    if (where) G.to(backend::cuda);
    const char* name = where ? "cuda" : "host";
    for (int rep = 0; rep < 3; ++rep) {
      auto t = clk::now();
      bfs_result r = bfs(G, 6397);
      cudaDeviceSynchronize();
      std::printf("%s bfs automatic %.3f ms (push %lld pull %lld)\n", name,
                  std::chrono::duration<double, std::milli>(clk::now() - t).count(), (long long)r.push_steps,
                  (long long)r.pull_steps);
    }
    bfs_options po;
    po.direction = bfs_direction::push;
    auto t = clk::now();
    bfs_result r = bfs(G, 6397, po);
    cudaDeviceSynchronize();
    std::printf("%s bfs push-only %.3f ms\n", name, std::chrono::duration<double, std::milli>(clk::now() - t).count());
  }
  // One push level, op by op, on the GPU: a frontier of 120 vertices.
  Matrix<bool> P(n, n);
  P.to(backend::cuda);
  {
    Matrix<double> G = A;
    G.to(backend::cuda);
    apply(P, no_mask, no_accum, one{}, G);
  }
  Vector<std::int64_t> q0(n), parent0(n), deg(n);
  for (index_t k = 0; k < 120; ++k) q0.set(k * (n / 120), k * (n / 120));
  for (index_t i = 0; i < n; i += 2) parent0.set(i, i);
  for (index_t i = 0; i < n; ++i) deg.set(i, 2);
  q0.to(backend::cuda);
  parent0.to(backend::cuda);
  deg.to(backend::cuda);
  Vector<std::int64_t> q = q0, parent = parent0, level = parent0, fdeg(n, backend::cuda);
  const descriptor replace = descriptor{}.with_replace();
  std::printf("op                      median us (wall, sync after)\n");
  std::printf("ewise_mult fdeg          %8.1f\n", med_us([&] { ewise_mult(fdeg, no_mask, no_accum, first{}, deg, q); }));
  std::printf("reduce fdeg (read-back)  %8.1f\n", med_us([&] { volatile auto s = reduce(plus_monoid{}, fdeg); (void)s; }));
  std::printf("ewise_mult + nvals       %8.1f\n", med_us([&] {
    ewise_mult(fdeg, no_mask, no_accum, first{}, deg, q);
    volatile auto k = fdeg.nvals();
    (void)k;
  }));
  Vector<std::int64_t> qq(n, backend::cuda);
  std::printf("vxm push masked          %8.1f\n", med_us([&] {
    qq = q;
    vxm(qq, complement(structure(parent)), no_accum, any_first, qq, P, replace);
  }));
  std::printf("  (copy of q alone)      %8.1f\n", med_us([&] { qq = q; }));
  std::printf("q.nvals() after product  %8.1f\n", med_us([&] {
    qq = q;
    vxm(qq, complement(structure(parent)), no_accum, any_first, qq, P, replace);
    volatile auto k = qq.nvals();
    (void)k;
  }));
  std::printf("assign parent<q> = q     %8.1f\n", med_us([&] { assign(parent, structure(q), no_accum, q, tgb::all); }));
  std::printf("assign level<q> = d      %8.1f\n", med_us([&] { assign(level, structure(q), no_accum, std::int64_t(3), tgb::all); }));
  std::printf("apply_index q            %8.1f\n", med_us([&] {
    qq = q;
    apply_index(qq, no_mask, no_accum, rowindex{}, qq, 0);
  }));
  std::printf("empty sync               %8.1f\n", med_us([&] {}));
}
