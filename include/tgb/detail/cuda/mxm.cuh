// tgb CUDA backend: the per-type and per-semiring parts of mxm (step 3 and
// the write-back values), plus the transpose and value masks. Include it
// (through <tgb/cuda/mxm.cuh>) in a .cu file to instantiate mxm for a
// semiring or types the library does not ship.
#pragma once

#include <algorithm>
#include <string>
#include <type_traits>

#include <memory>

#include "tgb/detail/cuda/common.cuh"
#include "tgb/detail/cuda/dot.cuh"
#include "tgb/detail/cuda/plan.hpp"
#include "tgb/detail/cuda/row_numeric.cuh"
#include "tgb/detail/cuda/rowpath.cuh"
#include "tgb/detail/tile/elementwise.hpp"
#include "tgb/detail/tile/spgemm.hpp"
#include "tgb/detail/row_storage.hpp"
#include "tgb/backend.hpp"

namespace tgb::detail::cuda {

inline constexpr int kNumericThreads = 128;  // 8 C tiles per block, 16 threads each
inline constexpr int kNumericWarps = 4;      // k_numeric_warp: C tiles per block, one warp each
inline constexpr int kStageStride = tile_dim + 1;  // padded rows: column reads of 16 rows hit 16 banks

// Shared memory of one warp of k_numeric_warp: A's and B's tile of the current
// pair expanded to padded 16 x 17 arrays, their row bits and row starts
// (rounded up to 16 bytes: the next warp's arrays stay aligned).
template <class TC>
constexpr std::size_t numeric_stage_bytes() {
  static_assert(alignof(TC) <= 16, "the per-warp arrays are aligned to 16 bytes");
  return (2 * tile_dim * kStageStride * sizeof(TC) + 2 * tile_dim * (sizeof(tile::row_bits) + 1) + 15) / 16 * 16;
}

// The warp expands tile t (compressed) into dst[r * 17 + c], cast to TC, and
// its row bits into bits[r]: lane l takes stored entries l, l + 32, ...
// (coalesced), finding each one's row among the row starts (rp, 16 bytes of
// the warp's shared memory). Absent positions keep stale values; the bits
// say which are present.
template <class TC, class T>
__device__ inline void stage_tile(const pattern_ref& P, const T* vals, offset_t t, TC* dst, tile::row_bits* bits,
                                  std::uint8_t* rp, int lane) {
  const offset_t e0 = P.tile_offset[t];
  const int n = static_cast<int>(P.tile_offset[t + 1] - e0);
  if (lane < tile_dim) {
    bits[lane] = P.row_mask[16 * t + lane];
    rp[lane] = P.row_ptr[16 * t + lane];
  }
  __syncwarp();
  for (int e = lane; e < n; e += 32) {
    int r = 0;
#pragma unroll
    for (int step = 8; step > 0; step >>= 1)
      if (rp[r + step] <= e) r += step;
    dst[r * kStageStride + P.col_idx[e0 + e]] = static_cast<TC>(vals[e0 + e]);
  }
}

// Step 3 where tile pairs hold many products (mxm_policy::
// device_warp_pair_products), one warp per C tile: for each of the tile's
// (A, B) pairs, in increasing k, the warp expands both tiles into shared
// memory, then lane l folds row l / 2, columns 8 (l % 2) to 8 (l % 2) + 7 of
// C in registers, in increasing k within the pair (the order of
// tile::numeric_row, so results match the host's). Loads are coalesced and
// shared by the warp. (On dense tiles k_numeric ran at 0.1-0.2 TFLOPS fp64,
// the FEM blocks: its dense rows all fell on one bank, H200 ncu r25; padded,
// it still took 1.6x the warps' time there.)
template <class TC, class TA, class TB, class Add, class Mul>
__global__ void __launch_bounds__(32 * kNumericWarps)
    k_numeric_warp(offset_t nc, pattern_ref C, const offset_t* map, const offset_t* begin, const offset_t* end,
                   const std::uint64_t* pairs, pattern_ref A, const TA* a_vals, pattern_ref B, const TB* b_vals,
                   Add add, Mul mul, TC* c_vals) {
  extern __shared__ __align__(16) unsigned char smem[];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  TC* as = reinterpret_cast<TC*>(smem + warp * numeric_stage_bytes<TC>());
  TC* bs = as + tile_dim * kStageStride;
  tile::row_bits* am = reinterpret_cast<tile::row_bits*>(bs + tile_dim * kStageStride);
  tile::row_bits* bm = am + tile_dim;
  std::uint8_t* arp = reinterpret_cast<std::uint8_t*>(bm + tile_dim);
  std::uint8_t* brp = arp + tile_dim;
  const offset_t u = blockIdx.x * offset_t(kNumericWarps) + warp;  // the tile path's tile u is C's tile c
  if (u >= nc) return;                                              // whole warps leave together
  const offset_t c = map ? map[u] : u;
  const int r = lane >> 1, h = lane & 1;
  const tile::row_bits cm = C.row_mask[16 * c + r];
  const std::uint32_t mine = (std::uint32_t(cm) >> (8 * h)) & 0xFFu;  // this lane's 8 columns
  TC acc[8];
  tile::row_bits written = 0;
  for (offset_t p = begin[u], pe = end[u]; p < pe; ++p) {
    const std::uint64_t pr = pairs[p];
    __syncwarp();  // the previous pair's reads are done
    stage_tile(A, a_vals, offset_t(pr >> 32), as, am, arp, lane);
    stage_tile(B, b_vals, offset_t(pr & 0xFFFFFFFFu), bs, bm, brp, lane);
    __syncwarp();
    if (!mine) continue;
    std::uint32_t ks = am[r];
    while (ks) {
      const int k = tile::lowest_bit(ks);
      ks &= ks - 1;
      const std::uint32_t js = (std::uint32_t(bm[k]) >> (8 * h)) & mine;
      if (!js) continue;
      const TC av = as[r * kStageStride + k];
      const TC* brow = bs + k * kStageStride + 8 * h;
#pragma unroll
      for (int j = 0; j < 8; ++j)
        if ((js >> j) & 1u) tile::accumulate(add, acc[j], written, j, mul(av, brow[j]));
    }
  }
  if (!mine) return;
  TC* out = c_vals + C.tile_offset[c] + C.row_ptr[16 * c + r] + (h ? tile::popcount16(cm & 0xFFu) : 0);
  int n = 0;
#pragma unroll
  for (int j = 0; j < 8; ++j)
    if ((mine >> j) & 1u) out[n++] = acc[j];
}

// Step 3 for products of sparse tiles: 16 threads per C tile (one half-warp),
// thread r owning local row r. The tile's (A, B) pairs come 16 at a time
// (for_each_pair); for each pair, in increasing k, thread r stages B's row r
// (bits, start) in shared memory for the half-warp, walks A's row r by its
// bits (no column indices), and folds each product into a 16-slot row in
// shared memory compressed into C's slots at the end (C tiles of at least
// dense_min entries, mxm_policy::device_dense_tile_threshold: all by
// default; rows padded to 17 slots, so that the rows of a half-warp do not
// share a bank), or straight into C's compressed slots. A thread a row
// reading its pair, then A's and B's column indices one after another, spent
// most of lap2d's A*A waiting on that chain of loads (ncu, H200 r84: 0.70 of
// 1.21 ms). The order of the folds is the host's tile::numeric_row: results
// equal.
template <class TC, class TA, class TB, class Add, class Mul>
__global__ void __launch_bounds__(kNumericThreads)
    k_numeric(offset_t nc, pattern_ref C, const offset_t* map, const offset_t* begin, const offset_t* end,
              const std::uint64_t* pairs, pattern_ref A, const TA* a_vals, pattern_ref B, const TB* b_vals, Add add,
              Mul mul, offset_t dense_min, TC* c_vals) {
  static_assert(alignof(TC) <= 16, "shared memory is aligned to 16 bytes");
  extern __shared__ __align__(16) unsigned char smem[];
  __shared__ row_bits b_bits[kNumericThreads];    // B's row k of the current pair, for the half-warp
  __shared__ std::uint8_t b_start[kNumericThreads];
  TC* acc = reinterpret_cast<TC*>(smem) + threadIdx.x * kStageStride;  // (1,16) per thread
  const offset_t g = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  const int r = static_cast<int>(g % tile_dim);
  const unsigned half = 0xFFFFu << (threadIdx.x & 16u);
  const int row0 = static_cast<int>(threadIdx.x & ~15u);  // the half-warp's B rows in b_bits, b_start
  // As many blocks as stay resident, each half-warp taking tiles a grid
  // apart: a block a few tiny tiles (lap2d's A*A) held the SMs at 47% of
  // the warps they can hold (H100 ncu r100), on block starts and waits for
  // a block's slowest tile. A tile's 16 threads are one half-warp: they
  // loop and leave together.
  const offset_t step = offset_t(gridDim.x) * (blockDim.x / tile_dim);
  for (offset_t u = g / tile_dim; u < nc; u += step) {  // the tile path's tile u is C's tile c
    const offset_t c = map ? map[u] : u;
    const std::uint32_t cm = C.row_mask[16 * c + r];
    TC* out = c_vals + C.tile_offset[c] + C.row_ptr[16 * c + r];
    const bool dense = C.tile_offset[c + 1] - C.tile_offset[c] >= dense_min;
    row_bits written = 0;
    for_each_pair(pairs, begin[u], end[u], half, r, [&](offset_t a, offset_t b) {
      __syncwarp(half);  // the previous pair's B rows have been read
      b_bits[threadIdx.x] = B.row_mask[16 * b + r];
      b_start[threadIdx.x] = B.row_ptr[16 * b + r];
      std::uint32_t ka = 0;
      const TA* av = nullptr;
      if (cm) {
        ka = A.row_mask[16 * a + r];
        av = a_vals + A.tile_offset[a] + A.row_ptr[16 * a + r];
      }
      const TB* bv = b_vals + B.tile_offset[b];
      __syncwarp(half);
      int n = 0;  // the rank of k in A's row: its value's place
      for (; ka; ka &= ka - 1, ++n) {
        const int k = tile::lowest_bit(ka);
        const std::uint32_t kb = b_bits[row0 + k];
        std::uint32_t js = kb & cm;
        if (!js) continue;
        const TC x = static_cast<TC>(av[n]);
        const TB* brow = bv + b_start[row0 + k];
        for (; js; js &= js - 1) {
          const int j = tile::lowest_bit(js);
          const TC y = mul(x, static_cast<TC>(brow[tile::rank_below(kb, j)]));
          if (dense) tile::accumulate(add, acc[j], written, j, y);
          else tile::accumulate(add, out[tile::rank_below(cm, j)], written, j, y);
        }
      }
    });
    if (dense && cm) tile::compress_dense_row(cm, acc, out);
  }
}

// The row path's numeric pass (rowpath.cuh): C's pattern is in place; each
// bin's rows fold their products into their sorted keys' slots, hub rows
// fold the runs of their sorted products. Templated on the semiring like
// k_numeric: every semiring, user-defined ones included, runs it.
template <class TC, class TA, class TB, class Add, class Mul>
void launch_row_numeric(const product_plan& plan, const device_tile_matrix<TA>& A, const device_tile_matrix<TB>& B,
                        const Add& add, const Mul& mul, TC* values, stream_t s) {
  const auto& rows = plan.rows;
  if (rows.total() == 0) return;
  const index_t tm = A.pat.tile_rows();
  const rowpath::csr_ref csr{rows.b_row_ptr.data(), rows.b_col.data(), rows.b_pos.data()};
  const rowpath::csr_ref a_csr =
      rows.a_is_b ? csr : rowpath::csr_ref{rows.a_row_ptr.data(), rows.a_col.data(), rows.a_pos.data()};
  const offset_t nb = B.pat.nnz;
  device_buffer<TB> b_csr_vals(nb, s);
  if (nb)
    rowpath::k_gather<TB><<<grid_for(nb, 256), 256, 0, native(s)>>>(nb, rows.b_pos.data(), B.values.data(),
                                                                   b_csr_vals.data());
  check(cudaGetLastError(), "row path values");
  auto kernel = rowpath::k_row_numeric<TC, TA, TB, Add, Mul>;
  // Opt in to what the largest non-empty bin needs (not the dense bin's size
  // when it is empty), and say so clearly where the GPU cannot give it.
  std::size_t need = 0;
  for (int b = 0; b < rowpath::kBins; ++b)
    if (rows.count[b]) need = std::max(need, rowpath::numeric_bytes<TC>(rowpath::numeric_capacity(b)));
  if (need) {
    int dev = 0, limit = 0;
    check(cudaGetDevice(&dev), "row path");
    check(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev), "row path");
    if (need > std::size_t(limit))
      throw not_implemented("tgb: mxm's row path needs " + std::to_string(need) + " bytes of shared memory per block for " +
                            std::to_string(sizeof(TC)) + "-byte values; this GPU gives " + std::to_string(limit) +
                            " (set mxm_policy::device_routing.row_path = false)");
    check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(need)), "row path");
  }
  for (int b = 0; b < rowpath::kBins; ++b) {
    if (rows.count[b] == 0) continue;
    const int cap = rowpath::numeric_capacity(b), glog = rowpath::numeric_group_log2(b);
    const std::size_t bytes = rowpath::numeric_bytes<TC>(cap);
    kernel<<<unsigned(rows.count[b]), 16 << glog, bytes, native(s)>>>(
        rows.list.data() + index_t(b) * tm, cap, glog, A.pat.nrows, a_csr, A.values.data(), csr, b_csr_vals.data(),
        rows.jmin.data(), rows.keys.data(), rows.key_off.data(), rows.entry_base.data(), add, mul, values);
    check(cudaGetLastError(), "row path numeric");
  }
  if (rows.count[rowpath::kHub] && rows.hub_bitmap) {
    const offset_t nh = rows.count[rowpath::kHub];
    device_buffer<std::uint8_t> written(plan.C.nnz, s);
    check(cudaMemsetAsync(written.data(), 0, plan.C.nnz, native(s)), "hub numeric");
    const rowpath::hub_bitmap_ref H{index_t(nh), rows.list.data() + index_t(rowpath::kHub) * tm, rows.hub_woff.data(),
                                    rows.hub_bits.data(), rows.hub_rank.data()};
    constexpr int kHubThreads = 256;  // 8 (hub, row) warps a block
    rowpath::k_hub_numeric_bitmap<TC, TA, TB><<<grid_for(nh * tile_dim * 32, kHubThreads), kHubThreads, 0, native(s)>>>(
        H, A.pat.nrows, a_csr, A.values.data(), csr, b_csr_vals.data(), rows.jmin.data(), rows.entry_base.data(), add, mul,
        values, written.data());
    check(cudaGetLastError(), "hub numeric");
  } else if (rows.count[rowpath::kHub]) {
    const rowpath::hub_ref H{rows.hub_products,    rows.hub_key.data(), rows.hub_val.data(),
                             rows.hub_rank.data(), rows.hub_first.data(), rows.hub_off.data(),
                             rows.list.data() + index_t(rowpath::kHub) * tm, rows.hub_invalid};
    rowpath::k_hub_numeric<TC, TA, TB><<<grid_for(rows.hub_products, 256), 256, 0, native(s)>>>(
        H, ref(A.pat), rowpath::a_ref{rows.a_prod.data(), rows.a_k.data(), rows.a_r.data()}, A.values.data(), csr,
        B.values.data(), rows.entry_base.data(), add, mul, values);
    check(cudaGetLastError(), "hub numeric");
  }
}

// Write-back values: 16 threads per output tile.
template <class TC, class Accum>
__global__ void k_writeback_values(offset_t nt, pattern_ref out, const offset_t* c_tile, const offset_t* t_tile,
                                   pattern_ref C, const TC* c_vals, pattern_ref T, const TC* t_vals, mask_ref M,
                                   Accum accum, TC* o_vals) {
  const offset_t g = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  const offset_t u = g / tile_dim;
  const int r = static_cast<int>(g % tile_dim);
  if (u >= nt) return;
  const index_t I = last_le(out.tile_ptr, out.tile_rows + 1, u);
  const index_t J = out.tile_col[u];
  const row_bits allowed = M.allowed(M.active ? M.tile(I, J) : -1, r);
  const tile::tile_ref_t<TC> none{nullptr, nullptr, nullptr, nullptr, 0};
  const auto ct = c_tile[u] >= 0 ? tile_of(C, c_vals, c_tile[u]) : none;
  const auto tt = t_tile[u] >= 0 ? tile_of(T, t_vals, t_tile[u]) : none;
  tile::writeback_row_values(ct, tt, r, allowed, accum, out.row_mask[16 * u + r],
                             o_vals + out.tile_offset[u] + out.row_ptr[16 * u + r]);
}

template <class U>
__global__ void k_value_mask(offset_t nt, pattern_ref m, const U* vals, row_bits* bits) {
  for (offset_t t = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; t < nt; t += offset_t(gridDim.x) * blockDim.x) {
    const auto tr = tile_of(m, vals, t);
    for (int r = 0; r < tile_dim; ++r) {
      row_bits keep = 0;
      for (int q = tr.row_begin(r); q < tr.row_end(r); ++q)
        if (tr.values[q] != U(0)) keep = row_bits(keep | (1u << tr.col_idx[q]));
      bits[16 * t + r] = keep;
    }
  }
}

template <class T>
__global__ void k_gather(offset_t n, const offset_t* idx, const T* src, T* dst) {
  for (offset_t e = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; e < n; e += offset_t(gridDim.x) * blockDim.x)
    dst[e] = src[idx[e]];
}

template <class U>
device_buffer<row_bits> value_mask_bits(const device_tile_matrix<U>& m, stream_t s) {
  device_buffer<row_bits> bits(16 * m.pat.ntiles, s);
  if (m.pat.ntiles)
    k_value_mask<<<grid_for(m.pat.ntiles, 256), 256, 0, native(s)>>>(m.pat.ntiles, ref(m.pat), m.values.data(),
                                                                      bits.data());
  check(cudaGetLastError(), "value mask");
  return bits;
}

template <class T>
device_tile_matrix<T> transpose(const device_tile_matrix<T>& a, stream_t s) {
  device_tile_matrix<T> t;
  device_buffer<offset_t> gather;
  t.pat = transpose_pattern(a.pat, gather, s);
  t.values = device_buffer<T>(t.pat.nnz, s);
  if (t.pat.nnz)
    k_gather<<<grid_for(t.pat.nnz, 256), 256, 0, native(s)>>>(t.pat.nnz, gather.data(), a.values.data(),
                                                               t.values.data());
  check(cudaGetLastError(), "transpose values");
  return t;
}

// C<M, replace> = accum(C, T) on the device.
template <class TC>
device_tile_matrix<TC> writeback(const device_tile_matrix<TC>& C, const mask_arg& M, int accum_code, bool replace,
                                 device_tile_matrix<TC>&& T, bool t_within_mask, stream_t s) {
  const bool has_accum = accum_code >= 0;
  // T itself where it replaces C: no accumulator, and no mask, or T within
  // the mask and either replace or an empty C (nothing outside to keep).
  if (!has_accum && (!M.pat || ((replace || C.pat.nnz == 0) && t_within_mask))) return std::move(T);
  writeback_plan w = plan_writeback(C.pat, T.pat, M, has_accum, replace, s);
  device_tile_matrix<TC> out;
  out.pat = std::move(w.out);
  out.values = device_buffer<TC>(out.pat.nnz, s);
  if (out.pat.ntiles) {
    const unsigned grid = grid_for(16 * out.pat.ntiles, 256);
    if (has_accum)
      k_writeback_values<TC><<<grid, 256, 0, native(s)>>>(out.pat.ntiles, ref(out.pat), w.c_tile.data(),
                                                           w.t_tile.data(), ref(C.pat), C.values.data(), ref(T.pat),
                                                           T.values.data(), ref(M), coded_op{accum_code},
                                                           out.values.data());
    else
      k_writeback_values<TC><<<grid, 256, 0, native(s)>>>(out.pat.ntiles, ref(out.pat), w.c_tile.data(),
                                                           w.t_tile.data(), ref(C.pat), C.values.data(), ref(T.pat),
                                                           T.values.data(), ref(M), no_accum_t{}, out.values.data());
  }
  check(cudaGetLastError(), "write-back values");
  return out;
}

// Opts a numeric kernel in to `bytes` of dynamic shared memory where that and
// its static_bytes are past the default 48 KB (values of more than about 22
// bytes), or says clearly that this GPU cannot give it.
template <class Kernel>
void numeric_shared_opt_in(Kernel kernel, std::size_t bytes, std::size_t value_bytes, std::size_t static_bytes = 0) {
  if (bytes + static_bytes <= 48 * 1024) return;
  int dev = 0, limit = 0;
  check(cudaGetDevice(&dev), "numeric");
  check(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev), "numeric");
  if (bytes + static_bytes > std::size_t(limit))
    throw not_implemented("tgb: mxm's tile path needs " + std::to_string(bytes + static_bytes) +
                          " bytes of shared memory per block for " + std::to_string(value_bytes) +
                          "-byte values; this GPU gives " + std::to_string(limit));
  check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)), "numeric");
}

// T = A * B by the tiled Gustavson planner (pipeline.cu), which sends the
// tile rows whose tiles are hypersparse to its row path (rowpath.cuh).
template <class TC, class TA, class TB, class Semiring>
device_tile_matrix<TC> product_gustavson(const mask_arg& M, const Semiring& sr, const device_tile_matrix<TA>& A,
                                         const device_tile_matrix<TB>& B, const mxm_policy& policy, stream_t s) {
  device_tile_matrix<TC> T;
  product_plan plan = plan_product(A.pat, B.pat, M, policy.device_routing, rowpath::value_fits<TC>, s);
  T.values = device_buffer<TC>(plan.C.nnz, s);
  // The row path's values (its pattern was written by the plan), then the
  // tile path's.
  launch_row_numeric<TC>(plan, A, B, sr.add, sr.mul, T.values.data(), s);
  phase(s, "row numeric");
  const offset_t nc = plan.tile_path_tiles;
  // A warp a C tile where tile pairs hold many products, else 16 threads a
  // tile (mxm_policy::device_warp_pair_products).
  const auto per_tile = [](const device_pattern& p) { return p.ntiles ? double(p.nnz) / double(p.ntiles) : 0.0; };
  const bool by_warps = per_tile(A.pat) * per_tile(B.pat) / tile_dim >= policy.device_warp_pair_products;
  if (nc && !by_warps) {
    const std::size_t smem = kNumericThreads * kStageStride * sizeof(TC);
    auto kernel = k_numeric<TC, TA, TB, std::decay_t<decltype(sr.add)>, std::decay_t<decltype(sr.mul)>>;
    numeric_shared_opt_in(kernel, smem, sizeof(TC), kNumericThreads * (sizeof(row_bits) + 1));  // + the staged B rows
    const unsigned blocks = rows::resident_blocks(reinterpret_cast<const void*>(kernel), kNumericThreads, smem,
                                                  offset_t(grid_for(16 * nc, kNumericThreads)));
    kernel<<<blocks, kNumericThreads, smem, native(s)>>>(
        nc, ref(plan.C), plan.tile_map.data(), plan.seg_begin.data(), plan.seg_end.data(), plan.pairs.data(),
        ref(A.pat), A.values.data(), ref(B.pat), B.values.data(), sr.add, sr.mul,
        offset_t(std::max(policy.device_dense_tile_threshold, 0)), T.values.data());
  }
  if (nc && by_warps) {
    const std::size_t smem = kNumericWarps * numeric_stage_bytes<TC>();
    numeric_shared_opt_in(k_numeric_warp<TC, TA, TB, std::decay_t<decltype(sr.add)>, std::decay_t<decltype(sr.mul)>>,
                          smem, sizeof(TC));
    k_numeric_warp<TC, TA, TB><<<grid_for(nc, kNumericWarps), 32 * kNumericWarps, smem, native(s)>>>(
        nc, ref(plan.C), plan.tile_map.data(), plan.seg_begin.data(), plan.seg_end.data(), plan.pairs.data(),
        ref(A.pat), A.values.data(), ref(B.pat), B.values.data(), sr.add, sr.mul, T.values.data());
  }
  check(cudaGetLastError(), "numeric");
  phase(s, "tile numeric");
  T.pat = std::move(plan.C);
  return T;
}

// The device's method: the policy's forced one, or the shared rule on the
// quantities measured here. The dot runs only where the mask allows it; row
// saxpy (row_spgemm.cuh) only unmasked, where an operand is in rows or the
// storage rule would keep it there; everything else is the planner, which
// routes each tile row itself.
template <class TA, class TB>
mxm_method device_method(const mask_arg& M, const device_operand<TA>& A, const device_operand<TB>& B,
                         const mxm_request& how, stream_t s) {
  const bool dot_ok = dot_usable(M.pat != nullptr, M.complement);
  const mxm_method forced = forced_method(how.policy, dot_ok);
  if (forced != mxm_method::automatic) {
    if (forced == mxm_method::row_saxpy && M.pat) return mxm_method::tile_gustavson;
    return forced == mxm_method::tile_dot ? mxm_method::row_dot : forced;
  }
  mxm_work w;
  w.device = true;
  if (dot_ok) {
    // The rule's line counts read tile patterns: the mask path converts.
    w = product_work(A.tiles->pat, how.transpose_a, B.tiles->pat, how.transpose_b, *M.pat, s);
    w.device = true;
    return choose_method(w, true, how.policy);
  }
  if (M.pat) return mxm_method::tile_gustavson;
  const auto rows_by_rule = [](const auto& op) {
    if (op.rows) return true;
    const device_pattern& p = op.tiles->pat;
    return choose_form(storage_control::automatic, backend::host, p.nrows, p.ncols, p.ntiles, p.nnz,
                       sizeof(*op.tiles->values.data())) == storage_form::rows;
  };
  w.row_operand = rows_by_rule(A) || rows_by_rule(B);
  return choose_method(w, false, how.policy);
}

// An operand in rows, transposed if asked: its own rows, or converted.
template <class T>
struct rows_operand {
  const device_row_matrix<T>* p = nullptr;
  device_row_matrix<T> owned;
  rows_operand(const device_operand<T>& op, bool transpose, stream_t s) {
    if (!transpose && op.rows) {
      p = op.rows;
      return;
    }
    if (transpose) {
      const device_tile_matrix<T> t = op.tiles ? cuda::transpose(*op.tiles, s) : cuda::transpose(tiles_of(*op.rows, s), s);
      owned = rows_of(t, s);
    } else {
      owned = rows_of(*op.tiles, s);
    }
    p = &owned;
  }
  const device_row_matrix<T>& operator*() const { return *p; }
};

// An operand as tiles: its own, or converted from its rows.
template <class T>
struct tiles_operand {
  const device_tile_matrix<T>* p = nullptr;
  device_tile_matrix<T> owned;
  tiles_operand(const device_operand<T>& op, stream_t s) {
    if (op.tiles) {
      p = op.tiles;
    } else {
      owned = tiles_of(*op.rows, s);
      p = &owned;
    }
  }
  const device_tile_matrix<T>& operator*() const { return *p; }
};

// C<M, replace> = accum(C, T) for a T in rows: T itself where it replaces C
// (no accumulator, and no mask, or replace, or C empty: T lies within the
// mask), else through the tile write-back.
template <class TC>
device_result<TC> finish_rows(device_operand<TC> C, const mask_arg& M, int accum_code, bool replace,
                              device_row_matrix<TC>&& T, stream_t s) {
  device_result<TC> out;
  if (accum_code < 0 && (!M.given() || replace || C.nnz() == 0)) {
    out.rows = std::make_unique<device_row_matrix<TC>>(std::move(T));
    return out;
  }
  std::unique_ptr<mask_tiles> mt;
  const mask_arg* m = &M;
  if (M.in_rows()) {
    mt = mask_to_tiles(M, s);
    m = &mt->arg;
  }
  device_tile_matrix<TC> t = tiles_of(T, s);
  T = device_row_matrix<TC>();
  const tiles_operand<TC> c(C, s);
  out.tiles = std::make_unique<device_tile_matrix<TC>>(
      writeback(*c, *m, accum_code, replace, std::move(t), /*t_within_mask=*/true, s));
  return out;
}

template <class TC, class TA, class TB, class Semiring>
device_result<TC> mxm(device_operand<TC> C, const mask_arg& M_in, int accum_code, bool replace, const Semiring& sr,
                      device_operand<TA> A, device_operand<TB> B, const mxm_request& how, stream_t s) {
  phase(s, "mxm start");
  const bool fits = rows::value_fits<TC> && rows_fit(how.transpose_a ? A.nrows() : A.ncols()) &&
                    rows_fit(how.transpose_b ? B.nrows() : B.ncols());
  // A mask in rows: the row dot reads it as it is (the rule deciding on the
  // rows of op(A) and op(B)'); every other method reads it as tiles.
  if (M_in.in_rows() && !M_in.complement && fits) {
    const mxm_method forced = forced_method(how.policy, true);
    if (forced == mxm_method::automatic || is_dot(forced)) {
      const rows_operand<TA> a(A, how.transpose_a, s);
      const rows_operand<TB> bt(B, !how.transpose_b, s);
      bool dot = forced != mxm_method::automatic;
      if (!dot) {
        const rows::csr_ref mr{M_in.nrows, M_in.ncols, M_in.nnz, M_in.row_ptr, M_in.col};
        mxm_work w = product_work_rows(rows::ref(*a), rows::ref(*bt), mr, s);
        w.device = true;
        dot = is_dot(choose_method(w, true, how.policy));
      }
      if (dot) {
        phase(s, "row dot: operands");
        device_row_matrix<TC> T = dot::product_rows<TC>(M_in, sr, *a, *bt, s);
        phase(s, "row dot");
        return finish_rows(C, M_in, accum_code, replace, std::move(T), s);
      }
    }
  }
  std::unique_ptr<mask_tiles> mt;
  if (M_in.in_rows()) mt = mask_to_tiles(M_in, s);
  const mask_arg& M = mt ? mt->arg : M_in;
  // A dot's rule reads tile patterns: operands in rows are converted once
  // here (an operand given twice, once).
  std::unique_ptr<tiles_operand<TA>> a_tiles;
  std::unique_ptr<tiles_operand<TB>> b_tiles;
  if (M.pat && dot_usable(true, M.complement)) {
    a_tiles = std::make_unique<tiles_operand<TA>>(A, s);
    const device_row_matrix<TA>* a_rows = A.rows;
    A = device_operand<TA>{&**a_tiles, nullptr};
    if constexpr (std::is_same_v<TA, TB>) {
      if (B.rows && B.rows == a_rows) B = device_operand<TB>{A.tiles, nullptr};
    }
    b_tiles = std::make_unique<tiles_operand<TB>>(B, s);
    B = device_operand<TB>{&**b_tiles, nullptr};
  }
  const mxm_method method = device_method(M, A, B, how, s);
  if (method == mxm_method::row_saxpy && !M.pat && fits) {
    device_row_matrix<TC> T;
    bool done = false;
    try {
      const rows_operand<TA> a(A, how.transpose_a, s);
      const rows_operand<TB> b(B, how.transpose_b, s);
      phase(s, "row saxpy: operands");
      T = rows::product<TC>(*a, *b, sr.add, sr.mul,
                            rows::row_tuning{how.policy.hub_window_bytes, how.policy.fused_bins_max_products},
                            s);
      phase(s, "row saxpy");
      done = true;
    } catch (const not_implemented&) {
      // A row past 2^29 entries, or a GPU whose blocks lack the largest
      // bin's shared memory: the planner takes the product.
    }
    if (done) return finish_rows(C, M, accum_code, replace, std::move(T), s);
  }
  device_tile_matrix<TC> T;
  {  // the operands' transposes and the plan's buffers go before the write-back
    const tiles_operand<TA> at0(A, s);
    const tiles_operand<TB> bt0(B, s);
    std::unique_ptr<device_tile_matrix<TA>> at;
    std::unique_ptr<device_tile_matrix<TB>> bt;
    if (how.transpose_a) at = std::make_unique<device_tile_matrix<TA>>(transpose(*at0, s));
    const device_tile_matrix<TA>& a = at ? *at : *at0;
    if (is_dot(method)) {
      // The dot reads the rows of op(B)': B itself where B' was asked.
      if (!how.transpose_b) bt = std::make_unique<device_tile_matrix<TB>>(transpose(*bt0, s));
      phase(s, "dot: transposes");
      T = dot::product<TC>(M, sr, a, bt ? *bt : *bt0, s);
      phase(s, "dot: products");
    } else {
      if (how.transpose_b) bt = std::make_unique<device_tile_matrix<TB>>(transpose(*bt0, s));
      T = product_gustavson<TC>(M, sr, a, bt ? *bt : *bt0, how.policy, s);
    }
  }
  device_result<TC> out;
  const tiles_operand<TC> c(C, s);
  out.tiles = std::make_unique<device_tile_matrix<TC>>(
      writeback(*c, M, accum_code, replace, std::move(T), /*t_within_mask=*/true, s));
  phase(s, "write-back");
  return out;
}

}  // namespace tgb::detail::cuda
