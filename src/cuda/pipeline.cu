// tgb CUDA backend: mxm's planner (plan_product), type-independent: the tile
// path's pairs, their sort into candidate C tiles, the symbolic step on bit
// masks and the compaction into C's pattern. Tile rows whose tiles are
// hypersparse go to the row path (row_route.cu routes them, row_symbolic.cu
// makes their pattern). Everything stays on the device; the host reads back
// only the sizes it must allocate by.
#include <algorithm>
#include <utility>

#include <cub/device/device_segmented_sort.cuh>

#include "tgb/detail/cuda/common.cuh"
#include "tgb/detail/cuda/plan.hpp"
#include "row_route.cuh"
#include "shared.cuh"
#include "tgb/detail/tile/elementwise.hpp"
#include "tgb/detail/tile/spgemm.hpp"

namespace tgb::detail::cuda {

namespace {

constexpr int kThreads = 256;

__global__ void k_tile_rows(const offset_t* tile_ptr, index_t tm, offset_t nt, index_t* row) {
  for (offset_t t = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; t < nt; t += offset_t(gridDim.x) * blockDim.x)
    row[t] = last_le(tile_ptr, tm + 1, t);
}

// Pairs of each A tile; none for tile rows the row path takes (route != 0).
__global__ void k_pair_counts(offset_t na, const tile_index_t* a_col, const offset_t* b_tile_ptr,
                              const index_t* a_row, const std::uint8_t* route, offset_t* cnt) {
  for (offset_t a = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; a <= na; a += offset_t(gridDim.x) * blockDim.x)
    cnt[a] = a < na && !(route && route[a_row[a]]) ? b_tile_ptr[a_col[a] + 1] - b_tile_ptr[a_col[a]] : 0;
}

// Tile rows of at most this many pairs on average, none past kRowSortMaxRow,
// sort them by a segmented sort within each row; else one radix sort over
// (I, J) does. Measured (H200, A*A): lap2d, 9 pairs a row, 1.33 -> 1.24 ms;
// stencil27, 484 a row, 5.0 -> 5.7 ms (CUB sorts a segment past a warp's
// share with a block of its own). A row past kRowSortMaxRow would leave
// shared memory for passes over global memory, one block for the whole row.
constexpr offset_t kRowSortMaxPairs = 64;
constexpr offset_t kRowSortMaxRow = 2048;

// st[0] = the pairs (pair_off[na]); st[1] = the most pairs of one tile row
// (st zeroed before).
__global__ void k_pair_stats(index_t tm, const offset_t* a_tile_ptr, const offset_t* pair_off, offset_t na,
                             offset_t* st) {
  const index_t I = blockIdx.x * index_t(blockDim.x) + threadIdx.x;
  unsigned long long n = I < tm ? static_cast<unsigned long long>(pair_off[a_tile_ptr[I + 1]] -
                                                                  pair_off[a_tile_ptr[I]])
                                : 0ull;
  for (int o = 16; o > 0; o >>= 1) {
    const unsigned long long m = __shfl_xor_sync(0xFFFFFFFFu, n, o);
    n = m > n ? m : n;
  }
  if ((threadIdx.x & 31) == 0 && n) atomicMax(reinterpret_cast<unsigned long long*>(st + 1), n);
  if (I == 0) st[0] = pair_off[na];
}

// Eight threads per A tile, over its (A tile, B tile) pairs: each pair's C
// tile key, or `invalid` when the mask prunes that C tile (step 1, pruned
// by the mask's tiles). (A thread a pair, finding its A tile by binary
// search, took 0.23 ms on stencil27, H200 r25.)
constexpr int kPairLanes = 8;
__global__ void k_fill_pairs(offset_t na, const offset_t* pair_off, const index_t* a_row, const tile_index_t* a_col,
                             const offset_t* b_tile_ptr, const tile_index_t* b_col, index_t c_tile_cols, mask_ref M,
                             const std::uint8_t* mask_flags, std::uint64_t invalid, std::uint64_t* key,
                             std::uint32_t* key_j, std::uint64_t* val) {
  const offset_t g = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  const offset_t a = g / kPairLanes;
  if (a >= na) return;
  const offset_t p0 = pair_off[a], n = pair_off[a + 1] - p0;
  if (n == 0) return;
  const index_t I = a_row[a];
  const offset_t b0 = b_tile_ptr[a_col[a]];
  for (offset_t i = g % kPairLanes; i < n; i += kPairLanes) {
    const offset_t b = b0 + i;
    const index_t J = b_col[b];
    bool pruned = false;
    if (M.active) {
      const offset_t t = M.tile(I, J);
      // flags: bit 0 some bit admits, bit 1 every position inside the matrix is set
      pruned = M.complement ? (t >= 0 && (mask_flags[t] & 2)) : (t < 0 || !(mask_flags[t] & 1));
    }
    if (key_j) key_j[p0 + i] = std::uint32_t(J);  // unmasked: sorted within the tile row
    else key[p0 + i] = pruned ? invalid : std::uint64_t(I) * std::uint64_t(c_tile_cols) + std::uint64_t(J);
    val[p0 + i] = (std::uint64_t(a) << 32) | std::uint64_t(b);
  }
}

// First pair of each tile row (its first A tile's), I = 0 .. tm.
__global__ void k_row_pair_off(index_t tm, const offset_t* a_tile_ptr, const offset_t* pair_off, offset_t* seg) {
  for (index_t I = blockIdx.x * index_t(blockDim.x) + threadIdx.x; I <= tm; I += index_t(gridDim.x) * blockDim.x)
    seg[I] = pair_off[a_tile_ptr[I]];
}

// Pairs sorted by J within their tile row -> their C tile keys.
__global__ void k_pair_keys(offset_t n, const std::uint32_t* key_j, const std::uint64_t* val, const index_t* a_row,
                            index_t c_tile_cols, std::uint64_t* key) {
  for (offset_t p = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; p < n; p += offset_t(gridDim.x) * blockDim.x)
    key[p] = std::uint64_t(a_row[offset_t(val[p] >> 32)]) * std::uint64_t(c_tile_cols) + key_j[p];
}

// Tile rows of at most kWarpRowPairs pairs, unmasked (the by-row case of
// step 1): one warp a tile row sorts its pairs by J in registers, a bitonic
// sort over the lanes on (J, position), so that equal J keep their k order
// (stable), and counts its distinct J, the row's candidate C tiles. With
// k_row_candidates after a scan of the counts, it does what the segmented
// sort, the keys and the run heads did in nine launches (lap2d's A*A: 25
// pairs a tile row, about 150 of 1,060 us, H100 ncu r98).
constexpr int kWarpRowPairs = 32;
__global__ void k_sort_row_pairs(index_t tm, const offset_t* seg, const std::uint32_t* kj, const std::uint64_t* val,
                                 std::uint32_t* kj_out, std::uint64_t* val_out, offset_t* row_cand) {
  const index_t I = index_t((blockIdx.x * offset_t(blockDim.x) + threadIdx.x) >> 5);
  const int lane = static_cast<int>(threadIdx.x & 31u);
  if (I > tm) return;  // whole warps leave together
  if (I == tm) {       // the scan's last slot
    if (lane == 0) row_cand[tm] = 0;
    return;
  }
  const offset_t s0 = seg[I];
  const int n = static_cast<int>(seg[I + 1] - s0);
  std::uint64_t k = lane < n ? (std::uint64_t(kj[s0 + lane]) << 32) | std::uint32_t(lane) : ~std::uint64_t(0);
  const std::uint64_t v = lane < n ? val[s0 + lane] : 0;
  for (int size = 2; size <= 32; size <<= 1)
    for (int stride = size >> 1; stride > 0; stride >>= 1) {
      const std::uint64_t o = __shfl_xor_sync(0xFFFFFFFFu, k, stride);
      const bool keep_min = ((lane & size) == 0) == ((lane & stride) == 0);
      k = keep_min ? (o < k ? o : k) : (o > k ? o : k);
    }
  const std::uint64_t vs = __shfl_sync(0xFFFFFFFFu, v, static_cast<int>(k & 31u));
  const std::uint32_t J = std::uint32_t(k >> 32);
  const std::uint32_t prev = __shfl_up_sync(0xFFFFFFFFu, J, 1);
  const unsigned heads = __ballot_sync(0xFFFFFFFFu, lane < n && (lane == 0 || J != prev));
  if (lane < n) {
    kj_out[s0 + lane] = J;
    val_out[s0 + lane] = vs;
  }
  if (lane == 0) row_cand[I] = __popc(heads);
}

// The candidates of the sorted tile rows: key I * c_tile_cols + J, and the
// run [begin, end) of its pairs; coff = the scan of k_sort_row_pairs' counts.
__global__ void k_row_candidates(index_t tm, const offset_t* seg, const std::uint32_t* kj, index_t c_tile_cols,
                                 const offset_t* coff, std::uint64_t* ckey, offset_t* begin, offset_t* end) {
  const index_t I = index_t((blockIdx.x * offset_t(blockDim.x) + threadIdx.x) >> 5);
  const int lane = static_cast<int>(threadIdx.x & 31u);
  if (I >= tm) return;
  const offset_t s0 = seg[I];
  const int n = static_cast<int>(seg[I + 1] - s0);
  const std::uint32_t J = lane < n ? kj[s0 + lane] : 0;
  const std::uint32_t prev = __shfl_up_sync(0xFFFFFFFFu, J, 1);
  const bool head = lane < n && (lane == 0 || J != prev);
  const unsigned heads = __ballot_sync(0xFFFFFFFFu, head);
  if (!head) return;
  const unsigned after = lane == 31 ? 0u : heads & ~((2u << lane) - 1u);
  const offset_t c = coff[I] + __popc(heads & ((1u << lane) - 1u));
  ckey[c] = std::uint64_t(I) * std::uint64_t(c_tile_cols) + J;
  begin[c] = s0 + lane;
  end[c] = s0 + (after ? __ffs(static_cast<int>(after)) - 1 : n);
}

__global__ void k_mask_flags(offset_t nt, const offset_t* tile_ptr, index_t tm, const tile_index_t* tile_col,
                             const row_bits* bits, index_t nrows, index_t ncols, std::uint8_t* flags) {
  for (offset_t t = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; t < nt; t += offset_t(gridDim.x) * blockDim.x) {
    const index_t I = last_le(tile_ptr, tm + 1, t);
    const row_bits valid = tile::valid_columns(ncols, index_t(tile_col[t]) * tile_dim);
    const index_t rows = nrows - I * tile_dim;
    bool any = false, full = true;
    for (int r = 0; r < tile_dim; ++r) {
      any |= bits[16 * t + r] != 0;
      if (r < rows) full &= (bits[16 * t + r] & valid) == valid;
    }
    flags[t] = std::uint8_t((any ? 1 : 0) | (full ? 2 : 0));
  }
}

// Number of keys below `invalid` in a sorted array.
__global__ void k_count_valid(offset_t n, const std::uint64_t* key, std::uint64_t invalid, offset_t* out) {
  *out = lower_bound(key, n, invalid);
}

__global__ void k_seg_end(offset_t nc, const offset_t* begin, const offset_t* nvalid, offset_t* end) {
  for (offset_t c = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; c < nc; c += offset_t(gridDim.x) * blockDim.x)
    end[c] = c + 1 < nc ? begin[c + 1] : *nvalid;
}

// Step 2, 16 threads per candidate C tile (one half-warp), thread r on
// local row r: OR of B's row bits selected by A's row r over the tile pairs,
// AND the mask. The pairs come 16 at a time (for_each_pair); per pair
// thread r stages B's row r in shared memory, so that A's row bits and B's
// rows load side by side (a thread reading its pair, then A's row, then the
// B rows it selects took 162 us of lap2d's A*A and 592 of stencil27's, H200
// r84).
__global__ void k_symbolic(offset_t nc, const std::uint64_t* ckey, index_t c_tile_cols, const offset_t* begin,
                           const offset_t* end, const std::uint64_t* pairs, const row_bits* a_mask,
                           const row_bits* b_mask, mask_ref M, row_bits* c_mask, offset_t* count) {
  __shared__ row_bits b_rows[kThreads];
  const offset_t g = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  const offset_t c = g / tile_dim;
  const int r = static_cast<int>(g % tile_dim);
  row_bits bits = 0;
  if (c < nc) {  // a candidate's 16 threads are one half-warp
    const unsigned half = 0xFFFFu << (threadIdx.x & 16u);
    const row_bits* staged = b_rows + (threadIdx.x & ~15u);
    for_each_pair(pairs, begin[c], end[c], half, r, [&](offset_t a, offset_t b) {
      __syncwarp(half);  // the previous pair's rows have been read
      b_rows[threadIdx.x] = b_mask[16 * b + r];
      const std::uint32_t ka = a_mask[16 * a + r];
      __syncwarp(half);
      bits = row_bits(bits | tile::symbolic_row(ka, staged));
    });
    if (M.active) {
      index_t I, J;
      split_tile_key(ckey[c], std::uint64_t(c_tile_cols), I, J);
      bits = row_bits(bits & M.allowed(M.tile(I, J), r));
    }
    c_mask[16 * c + r] = bits;
  }
  const int n = half_warp_sum(c < nc ? tile::popcount16(bits) : 0);
  if (c < nc && r == 0) count[c] = n;
}

// Kept candidates (count > 0) -> tiles: column, row, offset, carries, and
// each row's bits, start and column indices, 16 threads a candidate, thread
// r on local row r (its bits, the row starts by a scan over the half-warp,
// its columns written from its bits). One kernel: a thread a candidate
// copying its 16 rows' bits, then 16 threads a tile reading them back for
// the starts and columns, took 122 + 67 us of lap2d's A*A and 170 + 100 of
// stencil27's (H200 r84, ncu). No grid-stride loop: grid_for's 2^31 blocks
// cover any candidate count here, as for k_a_entries and k_fill_pairs; a
// candidate's 16 threads are one half-warp, and leave together.
__global__ void k_compact(offset_t nc, const std::uint64_t* ckey, index_t tile_cols, const row_bits* cmask,
                          const offset_t* count, const offset_t* keep_idx, const offset_t* off,
                          const offset_t* carry0, const offset_t* carry1, tile_index_t* tile_col, index_t* tile_row,
                          offset_t* tile_offset, row_bits* mask, std::uint8_t* row_ptr, std::uint8_t* col_idx,
                          offset_t* out0, offset_t* out1) {
  const offset_t g = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  const offset_t c = g / tile_dim;
  const int r = static_cast<int>(g % tile_dim);
  if (c >= nc || count[c] == 0) return;
  const unsigned half = 0xFFFFu << (threadIdx.x & 16u);  // this candidate's half-warp
  const offset_t t = keep_idx[c], e0 = off[c];
  std::uint32_t bits = cmask[16 * c + r];
  mask[16 * t + r] = row_bits(bits);
  const int n = tile::popcount16(bits);
  int incl = n;
  for (int o = 1; o < tile_dim; o <<= 1) {
    const int v = __shfl_up_sync(half, incl, o, tile_dim);
    if (r >= o) incl += v;
  }
  const int first = incl - n;
  row_ptr[16 * t + r] = static_cast<std::uint8_t>(first);
  std::uint8_t* out = col_idx + e0 + first;
  while (bits) {
    *out++ = static_cast<std::uint8_t>(tile::lowest_bit(bits));
    bits &= bits - 1;
  }
  if (r == 0) {
    index_t I, J;
    split_tile_key(ckey[c], std::uint64_t(tile_cols), I, J);
    tile_col[t] = tile_index_t(J);
    tile_row[t] = I;
    tile_offset[t] = e0;
    if (carry0) out0[t] = carry0[c];
    if (carry1) out1[t] = carry1[c];
  }
}

__global__ void k_keep_flags(offset_t nc, const offset_t* count, offset_t* keep) {
  for (offset_t c = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; c <= nc; c += offset_t(gridDim.x) * blockDim.x)
    keep[c] = c < nc && count[c] > 0 ? 1 : 0;
}

// The kept candidates and the entries, side by side for one read-back; off
// (an exclusive scan of count over nc) gets its total at off[nc].
__global__ void k_finish_sizes(offset_t nc, const offset_t* keep_idx, const offset_t* count, offset_t* off,
                               offset_t* sizes) {
  const offset_t total = nc ? off[nc - 1] + count[nc - 1] : 0;
  off[nc] = total;
  sizes[0] = keep_idx[nc];
  sizes[1] = total;
}

}  // namespace

device_buffer<index_t> tile_rows_of(const device_pattern& p, stream_t s) {
  device_buffer<index_t> row(p.ntiles, s);
  if (p.ntiles)
    k_tile_rows<<<grid_for(p.ntiles, kThreads), kThreads, 0, native(s)>>>(p.tile_ptr.data(), p.tile_rows(), p.ntiles,
                                                                           row.data());
  check(cudaGetLastError(), "tile rows");
  return row;
}

device_pattern finish_pattern(index_t nrows, index_t ncols, candidates& c, stream_t s) {
  device_pattern p;
  p.nrows = nrows;
  p.ncols = ncols;
  const offset_t nc = c.n;
  device_buffer<offset_t> keep(nc + 1, s), keep_idx(nc + 1, s), off(nc + 1, s), both(2, s);
  k_keep_flags<<<grid_for(nc + 1, kThreads), kThreads, 0, native(s)>>>(nc, c.count.data(), keep.data());
  exclusive_sum(keep.data(), keep_idx.data(), nc + 1, s);
  // Entry offsets over all candidates (empty ones add nothing); one read-back
  // for both sizes.
  if (nc) exclusive_sum(c.count.data(), off.data(), nc, s);
  k_finish_sizes<<<1, 1, 0, native(s)>>>(nc, keep_idx.data(), c.count.data(), off.data(), both.data());
  check(cudaGetLastError(), "finish pattern");
  offset_t sizes[2];
  copy_device_to_host(sizes, both.data(), sizeof(sizes), s);
  const offset_t nt = sizes[0];
  p.ntiles = nt;
  p.nnz = sizes[1];
  p.tile_col = device_buffer<tile_index_t>(nt, s);
  p.tile_offset = device_buffer<offset_t>(nt + 1, s);
  p.row_mask = device_buffer<row_bits>(16 * nt, s);
  p.row_ptr = device_buffer<std::uint8_t>(16 * nt, s);
  p.col_idx = device_buffer<std::uint8_t>(p.nnz, s);
  p.tile_ptr = device_buffer<offset_t>(tiles_for(nrows) + 1, s);
  device_buffer<index_t> row(nt, s);
  device_buffer<offset_t> out0(c.carry0.data() ? nt : 0, s), out1(c.carry1.data() ? nt : 0, s);
  if (nc)
    k_compact<<<grid_for(16 * nc, kThreads), kThreads, 0, native(s)>>>(
        nc, c.key.data(), tiles_for(ncols), c.mask.data(), c.count.data(), keep_idx.data(), off.data(),
        c.carry0.data(), c.carry1.data(), p.tile_col.data(), row.data(), p.tile_offset.data(), p.row_mask.data(),
        p.row_ptr.data(), p.col_idx.data(), out0.data(), out1.data());
  k_set<<<1, 1, 0, native(s)>>>(p.tile_offset.data() + nt, p.nnz);
  k_tile_ptr<<<grid_for(tiles_for(nrows) + 1, kThreads), kThreads, 0, native(s)>>>(tiles_for(nrows), row.data(), nt,
                                                                                     p.tile_ptr.data());
  check(cudaGetLastError(), "finish pattern");
  c.carry0.swap(out0);
  c.carry1.swap(out1);
  return p;
}

namespace {
// Bits 0/1 of each mask tile: "admits something", "admits everything".
device_buffer<std::uint8_t> mask_flags(const mask_arg& M, stream_t s) {
  if (!M.pat) return device_buffer<std::uint8_t>();
  const device_pattern& m = *M.pat;
  device_buffer<std::uint8_t> f(m.ntiles, s);
  if (m.ntiles)
    k_mask_flags<<<grid_for(m.ntiles, kThreads), kThreads, 0, native(s)>>>(
        m.ntiles, m.tile_ptr.data(), m.tile_rows(), m.tile_col.data(), M.bits, m.nrows, m.ncols, f.data());
  check(cudaGetLastError(), "mask flags");
  return f;
}

device_pattern empty_pattern(index_t nrows, index_t ncols, stream_t s) {
  device_pattern p;
  p.nrows = nrows;
  p.ncols = ncols;
  p.tile_ptr = device_buffer<offset_t>(tiles_for(nrows) + 1, s);
  p.tile_offset = device_buffer<offset_t>(1, s);
  check(cudaMemsetAsync(p.tile_ptr.data(), 0, (tiles_for(nrows) + 1) * sizeof(offset_t), native(s)), "pattern");
  check(cudaMemsetAsync(p.tile_offset.data(), 0, sizeof(offset_t), native(s)), "pattern");
  return p;
}

}  // namespace

product_plan plan_product(const device_pattern& A, const device_pattern& B, const mask_arg& M,
                          const device_row_routing& routing, bool row_path_ok, stream_t s) {
  product_plan plan;
  const offset_t na = A.ntiles;
  const index_t ctc = B.tile_cols();
  const index_t tm = A.tile_rows();
  phase(s, "plan start");
  device_buffer<index_t> a_row = tile_rows_of(A, s);
  // Step 1: every (A tile, B tile) pair of the tile path's rows, keyed by
  // its C tile; pruned pairs get the key `invalid` and sort last. The pairs
  // are counted first over every tile row: routing passes over A's entries
  // and B's rows before its read-back (0.2 ms on luxembourg, H100 at
  // 45f2a6c), so products under min_pairs, where it cannot pay, skip it.
  offset_t npairs = -1;
  device_buffer<std::uint8_t> route;
  device_buffer<offset_t> cnt(na + 1, s), off(na + 1, s);
  auto count_pairs = [&] {
    k_pair_counts<<<grid_for(na + 1, kThreads), kThreads, 0, native(s)>>>(na, A.tile_col.data(), B.tile_ptr.data(),
                                                                           a_row.data(), route.data(), cnt.data());
    exclusive_sum(cnt.data(), off.data(), na + 1, s);
  };
  count_pairs();
  // One read-back: the pairs, and the most pairs of one tile row.
  offset_t stats[2];
  {
    device_buffer<offset_t> st(2, s);
    check(cudaMemsetAsync(st.data(), 0, 2 * sizeof(offset_t), native(s)), "pair counts");
    k_pair_stats<<<grid_for(tm, kThreads), kThreads, 0, native(s)>>>(tm, A.tile_ptr.data(), off.data(), na,
                                                                       st.data());
    check(cudaGetLastError(), "pair counts");
    copy_device_to_host(stats, st.data(), sizeof(stats), s);
  }
  const offset_t all_pairs = stats[0], row_pairs_max = stats[1];
  if (row_path_ok && all_pairs >= routing.min_pairs) {
    // Routing's one read-back gives the bins' sizes and the tile path's pairs.
    route = route_rows(A, B, a_row.data(), routing, plan.rows, npairs, s);
    if (route.size()) count_pairs();
  }
  if (npairs < 0) npairs = all_pairs;
  phase(s, "route rows");
  plan.npairs = npairs;
  device_pattern c1;
  if (npairs == 0) {  // no tile path: no read-backs for it
    c1 = empty_pattern(A.nrows, B.ncols, s);
    a_row = device_buffer<index_t>();
  } else {
  const std::uint64_t invalid = std::uint64_t(A.tile_rows()) * std::uint64_t(ctc);
  // Pairs come in A's tile order, so by tile row: unmasked (no pruned pairs
  // to move past the end), a segmented sort by J within each tile row does
  // what the sort by (I, J) does, on 4-byte keys, where the rows hold few
  // pairs (kRowSortMaxPairs on average, none past kRowSortMaxRow); a warp
  // a tile row sorts them where none holds more than kWarpRowPairs.
  const bool by_row = !M.pat && npairs < offset_t(INT32_MAX) && tm < index_t(INT32_MAX) &&
                      npairs <= kRowSortMaxPairs * offset_t(tm) && row_pairs_max <= kRowSortMaxRow;
  const bool by_warp = by_row && row_pairs_max <= kWarpRowPairs;
  device_buffer<std::uint64_t> key(by_warp ? 0 : npairs, s), val(npairs, s);
  candidates c;
  device_buffer<offset_t> begin, end;
  if (by_row) {
    device_buffer<std::uint32_t> kj(npairs, s), kj2(npairs, s);
    device_buffer<std::uint64_t> v2(npairs, s);
    device_buffer<offset_t> seg(tm + 1, s);
    k_fill_pairs<<<grid_for(kPairLanes * na, kThreads), kThreads, 0, native(s)>>>(
        na, off.data(), a_row.data(), A.tile_col.data(), B.tile_ptr.data(), B.tile_col.data(), ctc, ref(M), nullptr,
        invalid, nullptr, kj.data(), val.data());
    k_row_pair_off<<<grid_for(tm + 1, kThreads), kThreads, 0, native(s)>>>(tm, A.tile_ptr.data(), off.data(),
                                                                          seg.data());
    check(cudaGetLastError(), "tile pairs");
    phase(s, "tile pairs");
    if (by_warp) {
      device_buffer<offset_t> rc(tm + 1, s), coff(tm + 1, s);
      k_sort_row_pairs<<<grid_for(32 * (offset_t(tm) + 1), kThreads), kThreads, 0, native(s)>>>(
          tm, seg.data(), kj.data(), val.data(), kj2.data(), v2.data(), rc.data());
      check(cudaGetLastError(), "pair sort");
      exclusive_sum(rc.data(), coff.data(), tm + 1, s);
      c.n = read_back(coff.data() + tm, s);
      c.key = device_buffer<std::uint64_t>(c.n, s);
      begin = device_buffer<offset_t>(c.n, s);
      end = device_buffer<offset_t>(c.n, s);
      if (c.n)
        k_row_candidates<<<grid_for(32 * offset_t(tm), kThreads), kThreads, 0, native(s)>>>(
            tm, seg.data(), kj2.data(), ctc, coff.data(), c.key.data(), begin.data(), end.data());
      check(cudaGetLastError(), "candidates");
    } else {
      with_temp(s, [&](void* t, std::size_t& b) {
        return cub::DeviceSegmentedSort::StableSortPairs(t, b, kj.data(), kj2.data(), val.data(), v2.data(),
                                                         int(npairs), int(tm), seg.data(), seg.data() + 1, native(s));
      });
      k_pair_keys<<<grid_for(npairs, kThreads), kThreads, 0, native(s)>>>(npairs, kj2.data(), v2.data(),
                                                                           a_row.data(), ctc, key.data());
      check(cudaGetLastError(), "pair keys");
    }
    val.swap(v2);
    cnt = device_buffer<offset_t>();
    off = device_buffer<offset_t>();
    a_row = device_buffer<index_t>();
  } else {
    {
      device_buffer<std::uint8_t> flags = mask_flags(M, s);
      k_fill_pairs<<<grid_for(kPairLanes * na, kThreads), kThreads, 0, native(s)>>>(
          na, off.data(), a_row.data(), A.tile_col.data(), B.tile_ptr.data(), B.tile_col.data(), ctc, ref(M),
          flags.data(), invalid, key.data(), nullptr, val.data());
      check(cudaGetLastError(), "tile pairs");
    }
    phase(s, "tile pairs");
    cnt = device_buffer<offset_t>();
    off = device_buffer<offset_t>();
    a_row = device_buffer<index_t>();
    sort_pairs(key, val, npairs, bits_for(invalid), s);
  }
  phase(s, "pair sort");
  // Candidate C tiles: runs of equal keys; their pairs come in increasing k
  // (the sort is stable and pairs were made in increasing k).
  if (!by_warp) {
    heads_to_candidates(key, npairs, invalid, c.key, begin, c.n, s);
    device_buffer<offset_t> nvalid(1, s);
    end = device_buffer<offset_t>(c.n, s);
    k_count_valid<<<1, 1, 0, native(s)>>>(npairs, key.data(), invalid, nvalid.data());
    if (c.n)
      k_seg_end<<<grid_for(c.n, kThreads), kThreads, 0, native(s)>>>(c.n, begin.data(), nvalid.data(), end.data());
  }
  key = device_buffer<std::uint64_t>();
  // Step 2: symbolic on bit masks.
  c.mask = device_buffer<row_bits>(16 * c.n, s);
  c.count = device_buffer<offset_t>(c.n, s);
  if (c.n)
    k_symbolic<<<grid_for(16 * c.n, kThreads), kThreads, 0, native(s)>>>(
        c.n, c.key.data(), ctc, begin.data(), end.data(), val.data(), A.row_mask.data(), B.row_mask.data(), ref(M),
        c.mask.data(), c.count.data());
  check(cudaGetLastError(), "symbolic");
  phase(s, "tile symbolic");
  c.carry0.swap(begin);
  c.carry1.swap(end);
  c1 = finish_pattern(A.nrows, B.ncols, c, s);
  phase(s, "tile pattern");
  plan.seg_begin.swap(c.carry0);
  plan.seg_end.swap(c.carry1);
  plan.pairs.swap(val);
  }
  plan.tile_path_tiles = c1.ntiles;
  product_plan::rows_t& rows = plan.rows;
  if (rows.total() == 0) {
    plan.C = std::move(c1);
    return plan;
  }
  merge_row_path(plan, c1, A, B, M, s);
  return plan;
}

}  // namespace tgb::detail::cuda
