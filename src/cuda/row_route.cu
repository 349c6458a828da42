// tgb CUDA backend: the tile path's planner (pipeline.cu) sends the tile rows
// whose tiles are hypersparse to its row path (rowpath.cuh). This file routes
// them: per tile row its scalar products, tile pairs and tile-column span,
// then a bin by mxm_policy::device_routing, with one read-back.
#include <algorithm>
#include <cstdio>
#include <mutex>
#include <vector>

#include "tgb/detail/cuda/common.cuh"
#include "tgb/detail/cuda/plan.hpp"
#include "tgb/detail/cuda/rowpath.cuh"
#include "row_route.cuh"
#include "shared.cuh"

namespace tgb::detail::cuda {

namespace {

constexpr int kThreads = 256;


// Per entry of A (16 threads a tile, thread r on local row r): its global
// column, local row, and the length of B's row it meets (len[nnz] = 0 for
// the scan). One thread a tile wrote its entries one by one: 0.5 ms on
// stencil27, H200 r25.
__global__ void k_a_entries(offset_t na, pattern_ref A, const offset_t* b_row_ptr, index_t* a_k, std::uint8_t* a_r,
                            offset_t* len) {
  const offset_t g = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  const offset_t a = g / tile_dim;
  const int r = static_cast<int>(g % tile_dim);
  if (a > na) return;
  if (a == na) {
    if (r == 0) len[A.tile_offset[na]] = 0;
    return;
  }
  const offset_t e0 = A.tile_offset[a];
  const index_t k0 = index_t(A.tile_col[a]) << tile_shift;
  const int q1 = r + 1 < tile_dim ? A.row_ptr[16 * a + r + 1] : int(A.tile_offset[a + 1] - e0);
  for (int q = A.row_ptr[16 * a + r]; q < q1; ++q) {
    const index_t k = k0 + A.col_idx[e0 + q];
    a_k[e0 + q] = k;
    a_r[e0 + q] = std::uint8_t(r);
    len[e0 + q] = b_row_ptr[k + 1] - b_row_ptr[k];
  }
}

// Per tile row of A: tile pairs, and the span of B's tile columns it can reach.
__global__ void k_row_work(offset_t na, const index_t* a_row, pattern_ref A, pattern_ref B,
                           unsigned long long* pairs, std::uint32_t* jmin, std::uint32_t* jmax) {
  for (offset_t a = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; a < na; a += offset_t(gridDim.x) * blockDim.x) {
    const index_t I = a_row[a], K = A.tile_col[a];
    const offset_t b0 = B.tile_ptr[K], b1 = B.tile_ptr[K + 1];
    if (b0 == b1) continue;
    atomicAdd(pairs + I, static_cast<unsigned long long>(b1 - b0));
    atomicMin(jmin + I, B.tile_col[b0]);
    atomicMax(jmax + I, B.tile_col[b1 - 1]);
  }
}

// The routing policy (mxm_policy::device_routing), clamped to what the bins hold.
struct route_params {
  double ratio;
  long long max_shared;
  std::uint32_t dense_tiles;
  double dense_fill;
  long long dense_max;
};

// Counters of the routing (read back once).
enum : int {
  kCntHubs = rowpath::kHub,  // rows per bin come first
  kCntTileProducts = rowpath::kHub + 1,
  kCntRowProducts,
  kCntHubProducts,
  kCntHubWords,
  kCntTilePairs,
  kCntAllPairs,
  kCntRowRows,
  kCnt
};
constexpr std::uint8_t kRouteTile = 0, kRouteNone = 255;  // else 1 + bin

// Route of each tile row (see device_row_routing): row-path rows are appended to
// their bin's list and to `all`, get their place in the key scratch, and hub
// rows their product count (hub_f, by hub) and the 32-bit words of a bitmap
// over their span (hub_w: 256 positions a tile column).
__global__ void k_route(index_t tm, pattern_ref A, const offset_t* a_prod, const unsigned long long* pairs,
                        const std::uint32_t* jmin, const std::uint32_t* jmax, route_params prm, std::uint8_t* route,
                        unsigned long long* count, index_t* list, index_t* all, offset_t* key_off, offset_t* hub_f,
                        offset_t* hub_w) {
  for (index_t I = blockIdx.x * index_t(blockDim.x) + threadIdx.x; I < tm; I += index_t(gridDim.x) * blockDim.x) {
    const offset_t f = a_prod[rowpath::row_entry_end(A, I)] - a_prod[rowpath::row_entry_begin(A, I)];
    const unsigned long long p = pairs[I];
    atomicAdd(count + kCntAllPairs, p);
    int bin = -1;
    if (f > 0 && jmax[I] - jmin[I] <= rowpath::kMaxSpan && double(f) <= prm.ratio * double(p)) {
      const std::uint32_t tiles = jmax[I] - jmin[I] + 1;
      const bool dense = tiles <= prm.dense_tiles && f <= prm.dense_max;
      if (dense && (double(f) >= prm.dense_fill * 256.0 * tiles || f > prm.max_shared)) {
        bin = rowpath::kDenseBin;
      } else if (f <= prm.max_shared) {
        for (int b = 0; b < rowpath::kHashBins && bin < 0; ++b)
          if (f <= rowpath::hash_capacity(b)) bin = b;
      } else {
        bin = rowpath::kHub;
      }
    }
    route[I] = f == 0 ? kRouteNone : bin < 0 ? kRouteTile : std::uint8_t(1 + bin);
    if (f > 0 && bin < 0) {
      atomicAdd(count + kCntTileProducts, static_cast<unsigned long long>(f));
      atomicAdd(count + kCntTilePairs, p);
    }
    if (bin >= 0) {
      const unsigned long long at = atomicAdd(count + bin, 1ull);
      list[index_t(bin) * tm + index_t(at)] = I;
      all[atomicAdd(count + kCntRowRows, 1ull)] = I;
      key_off[I] = offset_t(atomicAdd(count + kCntRowProducts, static_cast<unsigned long long>(f)));
      if (bin == rowpath::kHub) {
        hub_f[at] = f;
        hub_w[at] = 8 * offset_t(jmax[I] - jmin[I] + 1);
        atomicAdd(count + kCntHubProducts, static_cast<unsigned long long>(f));
        atomicAdd(count + kCntHubWords, static_cast<unsigned long long>(hub_w[at]));
      }
    }
  }
}

constexpr double kRowPathMinShare = 0.2;

// Whether the current GPU gives a block the shared memory the row path's
// largest blocks ask for: the largest symbolic bin and the dense bin's
// numeric block for 8-byte values (104 KB). Hopper and the A100 do; GPUs of
// 99 KB (sm_86, sm_89, sm_120) or 64 KB (sm_75) per block keep every tile row
// on the tile path instead of failing at launch. Read once per device.
// (Value types of 9 to 16 bytes need up to 172 KB: launch_row_numeric checks.)
bool row_path_fits_device() {
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) return false;
  static std::mutex m;
  static std::vector<int> known;  // per device: -1 unknown, 0 no, 1 yes
  std::lock_guard<std::mutex> lock(m);
  if (known.size() <= std::size_t(dev)) known.resize(std::size_t(dev) + 1, -1);
  if (known[dev] < 0) {
    int limit = 0;
    if (cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess) {
      cudaGetLastError();
      limit = 0;
    }
    using big = rowpath::hash_block<rowpath::sym_shape<rowpath::kHashBins - 1>::threads,
                                    rowpath::sym_shape<rowpath::kHashBins - 1>::items>;
    const std::size_t need = std::max<std::size_t>(big::bytes, rowpath::numeric_bytes<double>(rowpath::kDenseSlots));
    known[dev] = std::size_t(limit) >= need ? 1 : 0;
  }
  return known[dev] == 1;
}

}  // namespace

product_stats& last_product_stats() {
  static product_stats st;
  return st;
}

device_buffer<std::uint8_t> route_rows(const device_pattern& A, const device_pattern& B, const index_t* a_row,
                                       const device_row_routing& tun, product_plan::rows_t& rows, offset_t& npairs,
                                       stream_t s) {
  const index_t tm = A.tile_rows();
  npairs = -1;
  last_product_stats() = product_stats{};
  if (!tun.row_path || A.ntiles == 0 || B.ntiles == 0 || !row_path_fits_device()) return {};
  rows.b_row_ptr = scalar_row_ptr(B, s);
  {
    device_buffer<offset_t> len(A.nnz + 1, s);
    rows.a_k = device_buffer<index_t>(A.nnz, s);
    rows.a_r = device_buffer<std::uint8_t>(A.nnz, s);
    rows.a_prod = device_buffer<offset_t>(A.nnz + 1, s);
    k_a_entries<<<grid_for(16 * (A.ntiles + 1), kThreads), kThreads, 0, native(s)>>>(
        A.ntiles, ref(A), rows.b_row_ptr.data(), rows.a_k.data(), rows.a_r.data(), len.data());
    check(cudaGetLastError(), "row work");
    exclusive_sum(len.data(), rows.a_prod.data(), A.nnz + 1, s);
  }
  device_buffer<unsigned long long> pairs(tm, s), count(kCnt, s);
  rows.jmin = device_buffer<std::uint32_t>(tm, s);
  rows.jmax = device_buffer<std::uint32_t>(tm, s);
  check(cudaMemsetAsync(pairs.data(), 0, tm * sizeof(unsigned long long), native(s)), "row work");
  check(cudaMemsetAsync(count.data(), 0, kCnt * sizeof(unsigned long long), native(s)), "row work");
  check(cudaMemsetAsync(rows.jmin.data(), 0xFF, tm * sizeof(std::uint32_t), native(s)), "row work");
  check(cudaMemsetAsync(rows.jmax.data(), 0, tm * sizeof(std::uint32_t), native(s)), "row work");
  k_row_work<<<grid_for(A.ntiles, kThreads), kThreads, 0, native(s)>>>(A.ntiles, a_row, ref(A), ref(B), pairs.data(),
                                                                        rows.jmin.data(), rows.jmax.data());
  device_buffer<std::uint8_t> route(tm, s);
  rows.list = device_buffer<index_t>((rowpath::kBins + 1) * tm, s);
  rows.all = device_buffer<index_t>(tm, s);
  rows.key_off = device_buffer<offset_t>(tm, s);
  device_buffer<offset_t> hub_f(tm + 1, s), hub_w(tm + 1, s);
  route_params prm;
  prm.ratio = tun.max_products_per_pair;
  prm.max_shared = std::min<long long>(tun.max_shared_products, rowpath::hash_capacity(rowpath::kHashBins - 1));
  prm.dense_tiles = std::uint32_t(std::clamp(tun.dense_max_tiles, 0, rowpath::kDenseSlots / 256));
  prm.dense_fill = tun.dense_min_fill;
  prm.dense_max = tun.dense_max_products;
  k_route<<<grid_for(tm, kThreads), kThreads, 0, native(s)>>>(tm, ref(A), rows.a_prod.data(), pairs.data(),
                                                               rows.jmin.data(), rows.jmax.data(), prm, route.data(),
                                                               count.data(), rows.list.data(), rows.all.data(),
                                                               rows.key_off.data(), hub_f.data(), hub_w.data());
  check(cudaGetLastError(), "row routing");
  unsigned long long n[kCnt];
  copy_device_to_host(n, count.data(), sizeof(n), s);
  // Both paths in one product cost a pass that places the tile path's tiles
  // beside the row path's: not worth it for a small share of the products.
  const unsigned long long tile_products = n[kCntTileProducts], row_products = n[kCntRowProducts];
  if ((long long)n[kCntAllPairs] < tun.min_pairs || row_products == 0 ||
      (tile_products > 0 && double(row_products) < kRowPathMinShare * double(tile_products + row_products))) {
    rows = product_plan::rows_t{};  // B's CSR and the spans go now, not when mxm returns
    npairs = offset_t(n[kCntAllPairs]);
    return {};
  }
  npairs = offset_t(n[kCntTilePairs]);
  static_assert(rowpath::kHub < 8, "product_stats holds the bins");
  for (int b = 0; b <= rowpath::kHub; ++b) {
    rows.count[b] = offset_t(n[b]);
    last_product_stats().rows[b] = (long long)n[b];
  }
  last_product_stats().row_path = true;
  if (tracing())
    std::fprintf(stderr,
                 "tgb trace: row path: rows per bin %llu %llu %llu %llu %llu %llu dense %llu hubs %llu; products: "
                 "row %llu (hubs %llu) tile %llu\n",
                 n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7], row_products, n[kCntHubProducts], tile_products);
  rows.nall = offset_t(n[kCntRowRows]);
  rows.key_total = offset_t(row_products);
  rows.hub_products = offset_t(n[kCntHubProducts]);
  const offset_t nh = rows.count[rowpath::kHub];
  if (nh) {
    k_set<<<1, 1, 0, native(s)>>>(hub_f.data() + nh, 0);
    rows.hub_off = device_buffer<offset_t>(nh + 1, s);
    exclusive_sum(hub_f.data(), rows.hub_off.data(), nh + 1, s);
    // Bitmaps for the hubs when their bits are few next to their products
    // and they fit the budget; the sort otherwise.
    const double words = double(n[kCntHubWords]);
    rows.hub_bitmap = tun.hub_bitmap && words * 32.0 <= tun.hub_bits_per_product * double(rows.hub_products) &&
                      words * 4.0 <= double(tun.hub_bitmap_max_bytes);
    if (rows.hub_bitmap) {
      rows.hub_words = offset_t(n[kCntHubWords]);
      k_set<<<1, 1, 0, native(s)>>>(hub_w.data() + nh, 0);
      rows.hub_woff = device_buffer<offset_t>(nh + 1, s);
      exclusive_sum(hub_w.data(), rows.hub_woff.data(), nh + 1, s);
    }
  }
  return route;
}

}  // namespace tgb::detail::cuda
