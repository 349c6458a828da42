// The per-tile routines of include/tgb/detail/tile, compiled for the GPU and
// for the host from the same source.
#include <cuda_runtime.h>

#include <stdexcept>

#include "tgb/detail/tile/elementwise.hpp"
#include "tgb/detail/tile/spgemm.hpp"
#include "tile_kernels.hpp"

namespace tgb_test {

namespace {

using namespace tgb;
using namespace tgb::detail;

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// Raw arrays of one matrix, resident wherever the pointers point.
template <class T>
struct tiles_raw {
  const offset_t* offset;
  const std::uint8_t* row_ptr;
  const row_bits* mask;
  const std::uint8_t* col;
  const T* val;
  TGB_HD tile::tile_ref_t<T> at(offset_t t) const {
    return tile::tile_ref_t<T>{row_ptr + 16 * t, mask + 16 * t, col + offset[t], val + offset[t],
                               static_cast<int>(offset[t + 1] - offset[t])};
  }
};

// The predefined semirings are host constexpr variables; device code builds
// its own (empty) objects of the same types.
template <class T, class F>
TGB_HD void with_semiring(int s, F&& f) {
  switch (s) {
    case 0: f(decltype(plus_times){}); break;
    case 1: f(decltype(min_plus){}); break;
    case 2: f(decltype(any_second){}); break;
    default: f(decltype(max_min){}); break;
  }
}

// One tile pair: everything the tests compare.
template <class T>
TGB_HD void one_pair(int p, tiles_raw<T> a, tiles_raw<T> b, const row_bits* allowed, bool replace, int semiring,
                     row_bits* c_mask, T* sparse_vals, T* dense_vals, row_bits* wb_mask, T* wb_vals) {
  const auto at = a.at(p), bt = b.at(p);
  row_bits* cm = c_mask + 16 * p;
  for (int r = 0; r < 16; ++r) cm[r] = 0;
  tile::symbolic_or(at.row_mask, bt.row_mask, cm);
  for (int r = 0; r < 16; ++r) cm[r] &= allowed[16 * p + r];
  std::uint8_t rp[16];
  tile::row_ptr_from_masks(cm, rp);
  row_bits written[16] = {};
  row_bits written_d[16] = {};
  T acc[tile_area];
  with_semiring<T>(semiring, [&](const auto& sr) {
    tile::numeric_sparse(sr.add, sr.mul, at, bt, cm, rp, sparse_vals + tile_area * p, written);
    tile::numeric_dense(sr.add, sr.mul, at, bt, cm, acc, written_d);
  });
  tile::compress_dense(cm, acc, dense_vals + tile_area * p);
  tile::writeback_bits(at.row_mask, bt.row_mask, allowed + 16 * p, true, replace, wb_mask + 16 * p);
  tile::writeback_values(at, bt, allowed + 16 * p, plus{}, wb_mask + 16 * p, wb_vals + tile_area * p);
}

template <class T>
__global__ void pairs_kernel(int n, tiles_raw<T> a, tiles_raw<T> b, const row_bits* allowed, bool replace,
                             int semiring, row_bits* c_mask, T* sparse_vals, T* dense_vals, row_bits* wb_mask,
                             T* wb_vals) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < n) one_pair(p, a, b, allowed, replace, semiring, c_mask, sparse_vals, dense_vals, wb_mask, wb_vals);
}

// Device copies of a host array, freed on scope exit.
template <class T>
struct dev_array {
  T* p = nullptr;
  explicit dev_array(std::size_t n, const T* src = nullptr) {
    check(cudaMalloc(&p, (n ? n : 1) * sizeof(T)), "cudaMalloc");
    if (src && n) check(cudaMemcpy(p, src, n * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
  }
  ~dev_array() { cudaFree(p); }
  std::vector<T> get(std::size_t n) const {
    std::vector<T> out(n);
    if (n) check(cudaMemcpy(out.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy back");
    return out;
  }
};

template <class T>
tiles_raw<T> raw_host(const tile_matrix<T>& m) {
  return {m.pat.tile_offset.data(), m.pat.row_ptr.data(), m.pat.row_mask.data(), m.pat.col_idx.data(),
          m.values.data()};
}

}  // namespace

template <class T>
tile_results<T> run_tiles_host(const tile_pairs<T>& in, int semiring) {
  const int n = static_cast<int>(in.a->pat.ntiles());
  tile_results<T> r;
  r.c_mask.assign(16 * n, 0);
  r.wb_mask.assign(16 * n, 0);
  r.sparse_vals.assign(tile_area * n, T());
  r.dense_vals.assign(tile_area * n, T());
  r.wb_vals.assign(tile_area * n, T());
  for (int p = 0; p < n; ++p)
    one_pair(p, raw_host(*in.a), raw_host(*in.b), in.allowed.data(), in.replace, semiring, r.c_mask.data(),
             r.sparse_vals.data(), r.dense_vals.data(), r.wb_mask.data(), r.wb_vals.data());
  return r;
}

template <class T>
tile_results<T> run_tiles_device(const tile_pairs<T>& in, int semiring) {
  const int n = static_cast<int>(in.a->pat.ntiles());
  auto upload = [](const tile_matrix<T>& m, dev_array<offset_t>& o, dev_array<std::uint8_t>& rp,
                   dev_array<row_bits>& mk, dev_array<std::uint8_t>& ci, dev_array<T>& v) {
    (void)m;
    return tiles_raw<T>{o.p, rp.p, mk.p, ci.p, v.p};
  };
  const tile_matrix<T>& A = *in.a;
  const tile_matrix<T>& B = *in.b;
  dev_array<offset_t> ao(A.pat.tile_offset.size(), A.pat.tile_offset.data()), bo(B.pat.tile_offset.size(), B.pat.tile_offset.data());
  dev_array<std::uint8_t> arp(A.pat.row_ptr.size(), A.pat.row_ptr.data()), brp(B.pat.row_ptr.size(), B.pat.row_ptr.data());
  dev_array<row_bits> am(A.pat.row_mask.size(), A.pat.row_mask.data()), bm(B.pat.row_mask.size(), B.pat.row_mask.data());
  dev_array<std::uint8_t> aci(A.pat.col_idx.size(), A.pat.col_idx.data()), bci(B.pat.col_idx.size(), B.pat.col_idx.data());
  dev_array<T> av(A.values.size(), A.values.data()), bv(B.values.size(), B.values.data());
  dev_array<row_bits> allowed(in.allowed.size(), in.allowed.data());
  dev_array<row_bits> cm(16 * n), wbm(16 * n);
  dev_array<T> sv(tile_area * n), dv(tile_area * n), wbv(tile_area * n);
  // Unwritten slots must compare equal to the host's value-initialized ones.
  check(cudaMemset(sv.p, 0, tile_area * n * sizeof(T)), "memset");
  check(cudaMemset(dv.p, 0, tile_area * n * sizeof(T)), "memset");
  check(cudaMemset(wbv.p, 0, tile_area * n * sizeof(T)), "memset");
  pairs_kernel<T><<<(n + 127) / 128, 128>>>(n, upload(A, ao, arp, am, aci, av), upload(B, bo, brp, bm, bci, bv),
                                            allowed.p, in.replace, semiring, cm.p, sv.p, dv.p, wbm.p, wbv.p);
  check(cudaGetLastError(), "kernel launch");
  check(cudaDeviceSynchronize(), "kernel");
  tile_results<T> r;
  r.c_mask = cm.get(16 * n);
  r.wb_mask = wbm.get(16 * n);
  r.sparse_vals = sv.get(tile_area * n);
  r.dense_vals = dv.get(tile_area * n);
  r.wb_vals = wbv.get(tile_area * n);
  return r;
}

template tile_results<double> run_tiles_device(const tile_pairs<double>&, int);
template tile_results<double> run_tiles_host(const tile_pairs<double>&, int);
template tile_results<std::int64_t> run_tiles_device(const tile_pairs<std::int64_t>&, int);
template tile_results<std::int64_t> run_tiles_host(const tile_pairs<std::int64_t>&, int);

bool device_available() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return n > 0;
}

std::string device_name() {
  cudaDeviceProp p{};
  return cudaGetDeviceProperties(&p, 0) == cudaSuccess ? std::string(p.name) : std::string("?");
}

}  // namespace tgb_test
