// dev-only: times rows::product (row saxpy) on one matrix, fp64 plus_times,
// prints median ms and a checksum (compare across variants).
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>
#include <cuda_runtime.h>
#include "tgb/tgb.hpp"
#include "tgb/detail/cuda/row_spgemm.cuh"
#include "suite.hpp"

using tgb::index_t; using tgb::offset_t; using tgb::stream_t;
template <class T> using dbuf = tgb::detail::device_buffer<T>;
using drm = tgb::detail::device_row_matrix<double>;

int main(int argc, char** argv) {
  std::string what = argc > 1 ? argv[1] : "uniform";
  int reps = argc > 2 ? std::atoi(argv[2]) : 10;
  tgb::Matrix<double> M;
  if (what == "uniform") M = bench::uniform_random(index_t(1) << 20, 8).build();
  else if (what == "uniform16") M = bench::uniform_random(index_t(1) << 18, 16).build();
  else if (what == "uniform4") M = bench::uniform_random(index_t(1) << 20, 4).build();
  else if (what == "rmat") M = bench::rmat(16, 8).build();
  else M = tgb::io::read_graph<double>(what, tgb::io::duplicates::keep_first);
  tgb::csr<double> c = M.to_csr();
  const index_t n = M.nrows();
  std::vector<std::int32_t> col(c.colidx.begin(), c.colidx.end());
  std::vector<double> val(c.values.size());
  for (size_t p = 0; p < val.size(); ++p) val[p] = double((p * 2654435761u) % 1000) / 997.0 - 0.3;
  stream_t s = tgb::current_stream();
  drm A;
  A.nrows = n; A.ncols = M.ncols(); A.nnz = offset_t(col.size());
  A.row_ptr = dbuf<offset_t>::from_host(c.rowptr.data(), c.rowptr.size(), s);
  A.col = dbuf<std::int32_t>::from_host(col.data(), col.size(), s);
  A.values = dbuf<double>::from_host(val.data(), val.size(), s);
  tgb::detail::cuda::rows::row_tuning tune{0, double(1 << 22)};
  std::vector<float> ms;
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0); cudaEventCreate(&e1);
  drm C;
  for (int r = 0; r < reps + 2; ++r) {
    C = drm{};
    cudaEventRecord(e0, (cudaStream_t)s);
    C = tgb::detail::cuda::rows::product<double>(A, A, tgb::plus_monoid{}, tgb::times{}, tune, s);
    cudaEventRecord(e1, (cudaStream_t)s);
    cudaEventSynchronize(e1);
    float t; cudaEventElapsedTime(&t, e0, e1);
    if (r >= 2) ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  auto rp = C.row_ptr.to_host(); auto cc = C.col.to_host(); auto cv = C.values.to_host();
  double sum = 0; unsigned long long h = 0; bool sorted = true;
  for (index_t i = 0; i < n; ++i)
    for (offset_t p = rp[i]; p < rp[i + 1]; ++p) {
      sum += cv[p] * (1 + (cc[p] % 7));
      h = h * 1000003ull + (unsigned long long)cc[p];
      if (p > rp[i] && cc[p] <= cc[p - 1]) sorted = false;
    }
  std::printf("%-28s n=%lld nnzA=%lld nnzC=%lld median_ms=%.3f min_ms=%.3f sum=%.10e colhash=%llx sorted=%d\n",
              what.substr(what.rfind('/') + 1).c_str(), (long long)n, (long long)A.nnz, (long long)C.nnz,
              ms[ms.size() / 2], ms[0], sum, h, int(sorted));
  return 0;
}
