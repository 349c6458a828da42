// tgb CUDA backend: the row path of mxm, for tile rows of C whose tiles are
// hypersparse. Where a tile row of A meets B in few scalar products per tile
// pair (one or two entries per tile: road networks, meshes, random graphs),
// forming and sorting tile pairs costs many times the products themselves
// (uniform random 2^20 x 8: 1.07 billion tile pairs for 67 million products).
// Such a tile row is computed by one thread block that expands its products
// (A's entries times B's rows, B in CSR), sorts them in shared memory by
// (tile column, local row, local column) with a stable block radix sort, and
// folds each run of equal keys in increasing k, as the host does. The sorted
// keys are already C's tile layout: tile-major, then row-major inside a tile.
// The symbolic pass (keys only, src/cuda/pipeline.cu) counts the tiles and
// entries of each such row; the numeric pass (mxm.cuh) writes them.
#pragma once

#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>
#include <type_traits>

#include "tgb/detail/cuda/common.cuh"

namespace tgb::detail::cuda::rowpath {

// B in CSR: for each scalar row, its entries' global columns and positions in
// B's value array.
struct csr_ref {
  const offset_t* row_ptr;
  const index_t* col;
  const offset_t* pos;
};

// Block shapes of the bins: a tile row with F products goes to the first bin
// with capacity >= F.
template <int Bin>
struct shape;
template <>
struct shape<0> {
  static constexpr int threads = 128, items = 8;
};
template <>
struct shape<1> {
  static constexpr int threads = 256, items = 16;
};
template <>
struct shape<2> {
  static constexpr int threads = 512, items = 16;
};
inline constexpr int kBins = 3;
inline constexpr offset_t capacity(int bin) {
  return bin == 0 ? 128 * 8 : bin == 1 ? 256 * 16 : 512 * 16;
}
// Tile-column span of one row: keys are ((J - jmin) << 8 | r << 4 | c) in 32
// bits, with 0xFFFFFFFF left for padding.
inline constexpr std::uint32_t kMaxSpan = (1u << 24) - 2;

template <int Threads, int Items, class V>
struct block {
  static constexpr int cap = Threads * Items;
  static constexpr bool has_values = !std::is_same_v<V, void>;
  using value_t = std::conditional_t<has_values, V, cub::NullType>;
  using sort_t = cub::BlockRadixSort<std::uint32_t, Threads, Items, value_t>;
  using scan_t = cub::BlockScan<int, Threads>;
  // Dynamic shared memory: the keys, the values and a kept flag per item,
  // aliased with the sort's storage (the items are in registers meanwhile).
  static constexpr std::size_t value_bytes = has_values ? sizeof(value_t) : 0;
  static constexpr std::size_t arrays = std::size_t(cap) * (4 + value_bytes + 2);
  static constexpr std::size_t bytes =
      ((arrays > sizeof(typename sort_t::TempStorage) ? arrays : sizeof(typename sort_t::TempStorage)) + 15) / 16 * 16;
};

// Expands the products of tile row I: emit(slot, key, a_entry, b_entry) for
// slots 0..F-1 in an order where, for each (row, column) of C, k increases.
template <int Threads, class Emit>
__device__ inline void expand(const pattern_ref& A, const csr_ref& B, index_t I, std::uint32_t jmin,
                              typename cub::BlockScan<int, Threads>::TempStorage& scan, Emit&& emit) {
  const offset_t t0 = A.tile_ptr[I], t1 = A.tile_ptr[I + 1];
  const offset_t e0 = A.tile_offset[t0], e1 = A.tile_offset[t1];
  int base = 0;
  for (offset_t chunk = e0; chunk < e1; chunk += Threads) {
    const offset_t e = chunk + threadIdx.x;
    int cnt = 0, r = 0;
    offset_t b0 = 0;
    if (e < e1) {
      const offset_t a = t0 + last_le(A.tile_offset + t0, t1 - t0, e);
      const int q = int(e - A.tile_offset[a]);
      const std::uint8_t* rp = A.row_ptr + 16 * a;
      while (r + 1 < tile_dim && rp[r + 1] <= q) ++r;
      const index_t k = index_t(A.tile_col[a]) * tile_dim + A.col_idx[e];
      b0 = B.row_ptr[k];
      cnt = int(B.row_ptr[k + 1] - b0);
    }
    int slot, total;
    cub::BlockScan<int, Threads>(scan).ExclusiveSum(cnt, slot, total);
    for (int q = 0; q < cnt; ++q) {
      const index_t j = B.col[b0 + q];
      const std::uint32_t key =
          ((std::uint32_t(j >> tile_shift) - jmin) << 8) | (std::uint32_t(r) << 4) | std::uint32_t(j & (tile_dim - 1));
      emit(base + slot + q, key, e, b0 + q);
    }
    base += total;
    __syncthreads();  // the scan storage is reused
  }
}

// Whether C's position (key) in tile row I passes the mask.
struct mask_cache {
  index_t J = -1;
  offset_t t = -1;
};
__device__ inline bool admitted(const mask_ref& M, index_t I, std::uint32_t jmin, std::uint32_t key, mask_cache& mc) {
  if (!M.active) return true;
  const index_t J = index_t(jmin) + index_t(key >> 8);
  if (J != mc.J) {
    mc.J = J;
    mc.t = M.tile(I, J);
  }
  return (M.allowed(mc.t, int((key >> 4) & 15)) >> (key & 15)) & 1u;
}


__device__ inline int key_bits(std::uint32_t span) { return 8 + (span ? 32 - __clz(span) : 0); }

// One tile row of C on one block: expand, sort, fold, mask, and hand the
// kept entries and tiles to the sink. V is C's value type, or void for the
// symbolic pass (keys only). sink.totals(entries, tiles) is called by every
// thread; sink.entry(rank, key, value) once per kept entry; sink.tile(rank,
// key, first_entry_rank, mask_words[8], row_ptr_words[4]) once per tile, its
// 16 row masks and 16 row pointers packed little-endian.
template <int Threads, int Items, class V, class Product, class Add, class Sink>
__device__ inline void row_block(const pattern_ref& A, const csr_ref& B, const mask_ref& M, index_t I,
                                 std::uint32_t jmin, std::uint32_t jmax, int F, Product&& product, const Add& add,
                                 Sink&& sink) {
  using blk = block<Threads, Items, V>;
  using value_t = typename blk::value_t;
  extern __shared__ __align__(16) unsigned char smem[];
  __shared__ typename blk::scan_t::TempStorage scan;
  std::uint32_t* keys = reinterpret_cast<std::uint32_t*>(smem);
  value_t* vals = reinterpret_cast<value_t*>(smem + std::size_t(blk::cap) * 4);
  std::uint8_t* kept = smem + std::size_t(blk::cap) * (4 + blk::value_bytes);
  std::uint8_t* start = kept + blk::cap;

  expand<Threads>(A, B, I, jmin, scan, [&](int slot, std::uint32_t key, offset_t e, offset_t b) {
    keys[slot] = key;
    if constexpr (blk::has_values) vals[slot] = product(e, b);
  });
  __syncthreads();
  std::uint32_t k[Items];
  value_t v[Items];
  const int first = threadIdx.x * Items;
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    const int idx = first + i;
    k[i] = idx < F ? keys[idx] : 0xFFFFFFFFu;
    if constexpr (blk::has_values) v[i] = idx < F ? vals[idx] : value_t();
  }
  __syncthreads();
  {
    auto& tmp = *reinterpret_cast<typename blk::sort_t::TempStorage*>(smem);
    const int nbits = key_bits(jmax - jmin);
    // LSD radix sort: stable, so equal keys keep increasing k.
    if constexpr (blk::has_values) typename blk::sort_t(tmp).Sort(k, v, 0, nbits);
    else typename blk::sort_t(tmp).Sort(k, 0, nbits);
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    keys[first + i] = k[i];
    if constexpr (blk::has_values) vals[first + i] = v[i];
  }
  __syncthreads();
  // Heads of runs of equal keys: fold the run (in order), test the mask.
  int nk = 0;
  mask_cache mc;
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    const int idx = first + i;
    bool keep = false;
    if (idx < F && (idx == 0 || keys[idx - 1] != k[i])) {
      keep = admitted(M, I, jmin, k[i], mc);
      if constexpr (blk::has_values) {
        if (keep) {
          value_t acc = v[i];
          for (int q = idx + 1; q < F && keys[q] == k[i]; ++q)
            if (!add.is_terminal(acc)) acc = add(acc, vals[q]);
          v[i] = acc;
          vals[idx] = acc;  // the run's head: no other run reads it
        }
      }
    }
    if (idx < blk::cap) kept[idx] = keep ? 1 : 0;
    nk += keep ? 1 : 0;
  }
  __syncthreads();
  // A kept entry starts a tile when no kept entry of its tile column precedes it.
  int nt = 0;
  bool starts[Items];
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    const int idx = first + i;
    starts[i] = false;
    if (idx < F && kept[idx]) {
      const std::uint32_t J = k[i] >> 8;
      int q = idx - 1;
      while (q >= 0 && (keys[q] >> 8) == J && !kept[q]) --q;
      starts[i] = !(q >= 0 && (keys[q] >> 8) == J);
    }
    nt += starts[i] ? 1 : 0;
    if (idx < blk::cap) start[idx] = starts[i] ? 1 : 0;
  }
  int ebase, etotal, tbase, ttotal;
  typename blk::scan_t(scan).ExclusiveSum(nk, ebase, etotal);
  __syncthreads();
  typename blk::scan_t(scan).ExclusiveSum(nt, tbase, ttotal);
  sink.totals(etotal, ttotal);
  if constexpr (blk::has_values) {
    // From shared memory, in a loop that does not unroll: the tile code is
    // large, and unrolled Items times it cost registers and occupancy.
#pragma unroll 1
    for (int i = 0; i < Items; ++i) {
      const int idx = first + i;
      if (idx >= F || !kept[idx]) continue;
      const std::uint32_t key = keys[idx];
      if (start[idx]) {
        // The tile's row masks and row pointers, packed in registers (the
        // loop over rows unrolls, so no local-memory arrays): its entries
        // follow in (row, column) order.
        std::uint32_t mw[8], pw[4];
        const std::uint32_t J = key >> 8;
        int q = idx, at = 0;
#pragma unroll
        for (int r = 0; r < tile_dim; ++r) {
          std::uint32_t m = 0;
          const int start = at;
          while (q < F && (keys[q] >> 8) == J && int((keys[q] >> 4) & 15) == r) {
            if (kept[q]) {
              m |= 1u << (keys[q] & 15);
              ++at;
            }
            ++q;
          }
          if (r % 2 == 0) mw[r / 2] = m;
          else mw[r / 2] |= m << 16;
          if (r % 4 == 0) pw[r / 4] = std::uint32_t(start);
          else pw[r / 4] |= std::uint32_t(start) << (8 * (r % 4));
        }
        sink.tile(tbase, key, ebase, mw, pw);
        ++tbase;
      }
      sink.entry(ebase, key, vals[idx]);
      ++ebase;
    }
  }
}

}  // namespace tgb::detail::cuda::rowpath
