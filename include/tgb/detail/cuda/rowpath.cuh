// tgb CUDA backend: the row path of mxm, for tile rows of C whose tiles are
// hypersparse. Where a tile row of A meets B in few scalar products per tile
// pair (one or two entries per tile: road networks, meshes, random graphs),
// forming and sorting tile pairs costs many times the products themselves
// (uniform random 2^20 x 8: 1.07 billion tile pairs for 67 million products).
//
// The unit is the tile row of C, not the scalar row: the planner already
// counts products per tile row (F), C's tiles of one tile row are written
// together (one block owns their tile columns, row masks and pointers), and
// a key (J - jmin, local row, local column) sorts straight into the tile
// layout. A tile row's 16 scalar rows share one table.
//
// Symbolic (type-independent, src/cuda/row_symbolic.cu; the routing that
// bins the rows, src/cuda/row_route.cu), binned by F:
// - hash bins: one block per row, a shared-memory hash table of 2 * cap
//   32-bit keys (cap = 128 ... 4096 products, tables of 256 ... 8192 keys);
//   products the mask rejects are never inserted; the distinct keys are
//   compacted and sorted by a block radix sort;
// - dense bin: rows whose span of tile columns is at most 32 tiles and
//   whose products fill the span's positions well (or exceed the hash bins):
//   a flag per position (256 per tile column); the keys come out sorted;
// - hub rows (more products than the shared bins take): every product is
//   keyed (hub, key) in global memory and sorted by CUB's device radix sort
//   over all hub rows at once, so one hub row is spread over the whole GPU.
// Each row's sorted distinct keys go to a scratch array (F bounds them); a
// pattern pass writes C's tiles from them once the sizes are known.
//
// Numeric (per type and semiring, mxm.cuh): the row's sorted keys are C's
// entries in order. Shared bins: the keys go to shared memory; scalar row r
// of the tile row is owned by a group of G lanes of one warp, which walk A's
// row r in increasing k and split each B row among the lanes (one B row has
// distinct columns, so no two lanes meet; the group syncs between k). Each
// product finds its entry by binary search; products outside the keys are
// the ones the mask rejected. B's values are read in CSR order (gathered
// once per product) and A's next entry is loaded while the current one is
// folded, so a k costs one round of dependent loads, not four. No atomics: every entry is folded in
// increasing k by one thread, as on the host. Hub rows: one thread per run of
// the sorted products folds it in order.
#pragma once

#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>
#include <algorithm>
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

// A's entries: prod[e] = B's row lengths summed over A's entries before e
// (so the products of tile row I are prod[e0(I)] .. prod[e1(I)] - 1), and
// each entry's global column and local row.
struct a_ref {
  const offset_t* prod;
  const index_t* k;
  const std::uint8_t* r;
};

// Bins: hash bins 0 .. kHashBins - 1 take rows of up to hash_capacity(b)
// products; bin kDenseBin is the dense accumulator; hubs come after.
inline constexpr int kHashBins = 6;
inline constexpr int kDenseBin = kHashBins;
inline constexpr int kBins = kHashBins + 1;  // shared-memory bins
inline constexpr int kHub = kBins;
inline constexpr offset_t hash_capacity(int bin) { return offset_t(128) << bin; }
inline constexpr int kDenseSlots = 8192;  // 32 tile columns of 256 positions
// Tile-column span of one row: keys are ((J - jmin) << 8 | r << 4 | c) in 32
// bits, with 0xFFFFFFFF left for empty slots and padding.
inline constexpr std::uint32_t kMaxSpan = (1u << 24) - 2;
inline constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;

// Symbolic block shapes of the hash bins: Threads * Items = capacity.
template <int Bin>
struct sym_shape {
  static constexpr int cap = int(hash_capacity(Bin));
  static constexpr int threads = Bin <= 3 ? 128 : Bin == 4 ? 256 : 512;
  static constexpr int items = cap / threads;
  static_assert(threads * items == cap, "capacity = threads * items");
};
inline constexpr int kDenseThreads = 512;  // 16 positions per thread

// Numeric: entries a block holds, and lanes per scalar row (a power of two
// up to 32; the block has 16 groups).
inline constexpr int numeric_capacity(int bin) { return bin == kDenseBin ? kDenseSlots : int(hash_capacity(bin)); }
inline constexpr int numeric_group_log2(int bin) { return bin <= 1 ? 2 : bin <= 3 ? 3 : bin <= 5 ? 4 : 5; }

__device__ inline int key_bits(std::uint32_t span) { return 8 + (span ? 32 - __clz(span) : 0); }

__device__ inline std::uint32_t make_key(index_t j, int r, std::uint32_t jmin) {
  return ((std::uint32_t(j >> tile_shift) - jmin) << 8) | (std::uint32_t(r) << 4) | std::uint32_t(j & (tile_dim - 1));
}

// First and one-past-last entry of A's tile row I.
__device__ inline offset_t row_entry_begin(const pattern_ref& A, index_t I) { return A.tile_offset[A.tile_ptr[I]]; }
__device__ inline offset_t row_entry_end(const pattern_ref& A, index_t I) { return A.tile_offset[A.tile_ptr[I + 1]]; }

// Product p (prod[e0] <= p < prod[e1]) of a tile row: A's entry, B's entry
// (its CSR position) and the local row.
struct product_at {
  offset_t e, b;
  int r;
};
__device__ inline product_at locate(const a_ref& Ae, const csr_ref& B, offset_t e0, offset_t e1, offset_t p) {
  const offset_t e = e0 + last_le(Ae.prod + e0, e1 - e0, p);
  return product_at{e, B.row_ptr[Ae.k[e]] + (p - Ae.prod[e]), int(Ae.r[e])};
}

// Calls f(key) for every product of tile row I (in no order), for the
// symbolic passes: groups of 8 lanes take A's entries in turn and split
// each one's B row among their lanes. (Locating each product by a binary
// search over the tile row's entries was a chain of a dozen dependent loads
// per product: most of the symbolic time on small graphs.)
template <int Threads, class F>
__device__ inline void for_row_products(const pattern_ref& A, const a_ref& Ae, const csr_ref& B, index_t I,
                                        std::uint32_t jmin, F&& f) {
  constexpr int G = 8;
  static_assert(Threads % G == 0, "whole groups");
  const offset_t e0 = row_entry_begin(A, I), e1 = row_entry_end(A, I);
  const int lane = int(threadIdx.x) % G;
  for (offset_t e = e0 + int(threadIdx.x) / G; e < e1; e += Threads / G) {
    const index_t k = Ae.k[e];
    const int r = int(Ae.r[e]);
    const offset_t b1 = B.row_ptr[k + 1];
    for (offset_t b = B.row_ptr[k] + lane; b < b1; b += G) f(make_key(B.col[b], r, jmin));
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

// Inserts key into a table of 2^LogS slots (linear probing, multiplicative
// hash on the high bits so that tile columns spread). The table never holds
// more than half its slots.
template <int LogS>
__device__ inline void hash_insert(std::uint32_t* table, std::uint32_t key) {
  constexpr std::uint32_t mask = (1u << LogS) - 1;
  std::uint32_t h = (key * 2654435761u) >> (32 - LogS);
  for (;;) {
    const std::uint32_t old = atomicCAS(table + h, kEmpty, key);
    if (old == kEmpty || old == key) return;
    h = (h + 1) & mask;
  }
}

template <int N>
constexpr int log2_of() {
  int l = 0;
  while ((1 << l) < N) ++l;
  return l;
}

// Shared memory of the symbolic hash block: the table (2 * cap keys, or the
// radix sort's storage if larger: it aliases the table), then the compacted
// keys (cap).
template <int Threads, int Items>
struct hash_block {
  static constexpr int cap = Threads * Items, slots = 2 * cap;
  using sort_t = cub::BlockRadixSort<std::uint32_t, Threads, Items>;
  using scan_t = cub::BlockScan<int, Threads>;
  static constexpr std::size_t table_bytes =
      (std::max(std::size_t(slots) * 4, sizeof(typename sort_t::TempStorage)) + 15) / 16 * 16;
  static constexpr std::size_t bytes = table_bytes + std::size_t(cap) * 4;
};

// The symbolic pass of tile row I on a hash block: its sorted distinct
// admitted keys to out[0, n), n and its tile count to *entries, *tiles.
template <int Threads, int Items>
__device__ inline void symbolic_hash(const pattern_ref& A, const a_ref& Ae, const csr_ref& B, const mask_ref& M,
                                     index_t I, std::uint32_t jmin, std::uint32_t jmax, std::uint32_t* out,
                                     offset_t* entries, offset_t* tiles) {
  using blk = hash_block<Threads, Items>;
  constexpr int S = blk::slots, logS = log2_of<S>();
  static_assert((1 << logS) == S, "power-of-two table");
  extern __shared__ __align__(16) unsigned char smem[];
  __shared__ typename blk::scan_t::TempStorage scan;
  std::uint32_t* table = reinterpret_cast<std::uint32_t*>(smem);
  std::uint32_t* ckeys = reinterpret_cast<std::uint32_t*>(smem + blk::table_bytes);
  for (int i = threadIdx.x; i < S; i += Threads) table[i] = kEmpty;
  __syncthreads();
  mask_cache mc;
  for_row_products<Threads>(A, Ae, B, I, jmin, [&](std::uint32_t key) {
    if (admitted(M, I, jmin, key, mc)) hash_insert<logS>(table, key);
  });
  __syncthreads();
  // Compact: thread t owns slots [2 Items t, 2 Items (t + 1)).
  constexpr int per = S / Threads;
  int cnt = 0;
#pragma unroll
  for (int i = 0; i < per; ++i) cnt += table[threadIdx.x * per + i] != kEmpty ? 1 : 0;
  int pos, n;
  typename blk::scan_t(scan).ExclusiveSum(cnt, pos, n);
#pragma unroll
  for (int i = 0; i < per; ++i) {
    const std::uint32_t k = table[threadIdx.x * per + i];
    if (k != kEmpty) ckeys[pos++] = k;
  }
  __syncthreads();
  std::uint32_t k[Items];
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    const int idx = threadIdx.x * Items + i;
    k[i] = idx < n ? ckeys[idx] : kEmpty;
  }
  __syncthreads();  // the table becomes the sort's storage
  // Padding keeps its place after the valid keys: the sort is stable.
  typename blk::sort_t(*reinterpret_cast<typename blk::sort_t::TempStorage*>(smem)).Sort(k, 0, key_bits(jmax - jmin));
#pragma unroll
  for (int i = 0; i < Items; ++i) ckeys[threadIdx.x * Items + i] = k[i];
  __syncthreads();
  int nt = 0;
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    const int idx = threadIdx.x * Items + i;
    if (idx < n) {
      out[idx] = k[i];
      nt += (idx == 0 || (ckeys[idx - 1] >> 8) != (k[i] >> 8)) ? 1 : 0;
    }
  }
  __syncthreads();  // scan storage reused
  int tb, ttotal;
  typename blk::scan_t(scan).ExclusiveSum(nt, tb, ttotal);
  if (threadIdx.x == 0) {
    *entries = n;
    *tiles = ttotal;
  }
}

// The symbolic pass of tile row I on the dense accumulator: a flag per
// position of the span (at most kDenseSlots); keys come out in order.
template <int Threads, int Slots>
__device__ inline void symbolic_dense(const pattern_ref& A, const a_ref& Ae, const csr_ref& B, const mask_ref& M,
                                      index_t I, std::uint32_t jmin, std::uint32_t* out, offset_t* entries,
                                      offset_t* tiles) {
  static_assert(Slots == 16 * Threads, "16 positions per thread: 16 threads per tile column");
  using scan_t = cub::BlockScan<int, Threads>;
  __shared__ std::uint32_t bits[Slots / 32];  // set by atomicOr: no write-write races
  __shared__ typename scan_t::TempStorage scan;
  for (int i = threadIdx.x; i < Slots / 32; i += Threads) bits[i] = 0;
  __syncthreads();
  mask_cache mc;
  for_row_products<Threads>(A, Ae, B, I, jmin, [&](std::uint32_t key) {
    // key < 256 * (span + 1) <= Slots
    if (admitted(M, I, jmin, key, mc)) atomicOr(bits + (key >> 5), 1u << (key & 31));
  });
  __syncthreads();
  // Thread t owns positions [16 t, 16 t + 16): half a word.
  std::uint32_t mine = (bits[threadIdx.x >> 1] >> (16 * (threadIdx.x & 1))) & 0xFFFFu;
  const int cnt = __popc(mine);
  int pos, n;
  scan_t(scan).ExclusiveSum(cnt, pos, n);
  while (mine) {
    const int i = __ffs(mine) - 1;
    out[pos++] = std::uint32_t(threadIdx.x * 16 + i);
    mine &= mine - 1;
  }
  // A tile column is a tile when any of its 16 threads has a position.
  const int any = half_warp_sum(cnt > 0 ? 1 : 0) > 0 ? 1 : 0;
  __syncthreads();
  int tb, ttotal;
  scan_t(scan).ExclusiveSum((threadIdx.x % 16 == 0) ? any : 0, tb, ttotal);
  if (threadIdx.x == 0) {
    *entries = n;
    *tiles = ttotal;
  }
}

// Keeps the compiler from fusing a product into the following add (the host
// rounds the product first): the floating-point value passes through an
// empty asm.
template <class T>
__device__ inline T opaque(T x) {
  if constexpr (std::is_same_v<T, double>) asm volatile("" : "+d"(x));
  else if constexpr (std::is_same_v<T, float>) asm volatile("" : "+f"(x));
  return x;
}

// Position of key among keys[0, n) (sorted, distinct), or -1.
__device__ inline int find_key(const std::uint32_t* keys, int n, std::uint32_t key) {
  int lo = 0, hi = n;
  while (lo < hi) {
    const int mid = (lo + hi) >> 1;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo < n && keys[lo] == key ? lo : -1;
}

// Calls f(e, k, b0, b1) for each entry e of A's scalar row r of tile row I,
// in increasing column k, with B's row k at [b0, b1) of its CSR (A in CSR:
// csr_of, so no walk over the tile row's tiles). The next entry's column
// and B row are loaded before f runs, so that their loads overlap f's
// instead of starting a chain of dependent loads per k.
template <class F>
__device__ inline void for_a_row(const csr_ref& A, const offset_t* b_row_ptr, index_t nrows, index_t I, int r,
                                 F&& f) {
  const index_t i = (I << tile_shift) + r;
  if (i >= nrows) return;
  offset_t x = A.row_ptr[i];
  const offset_t x1 = A.row_ptr[i + 1];
  if (x >= x1) return;
  index_t k = A.col[x];
  offset_t e = A.pos[x], b0 = b_row_ptr[k], b1 = b_row_ptr[k + 1];
  for (;;) {
    const bool more = x + 1 < x1;
    index_t kn = 0;
    offset_t en = 0, nb0 = 0, nb1 = 0;
    if (more) {
      kn = A.col[x + 1];
      en = A.pos[x + 1];
      nb0 = b_row_ptr[kn];
      nb1 = b_row_ptr[kn + 1];
    }
    f(e, k, b0, b1);
    if (!more) return;
    ++x;
    k = kn, e = en, b0 = nb0, b1 = nb1;
  }
}

// Numeric pass of the shared bins: one block per tile row I, 16 groups of
// 2^glog lanes (group r owns scalar row r). Dynamic shared memory: values
// (cap of TC, 16-byte aligned), keys (cap), written flags (cap).
template <class TC>
inline std::size_t numeric_bytes(int cap) {
  const std::size_t v = (std::size_t(cap) * sizeof(TC) + 15) / 16 * 16;
  return v + std::size_t(cap) * 5;
}

// Value types the numeric blocks hold (the dense bin's 8192 values in at
// most 172 KB of shared memory, stored by plain assignment).
template <class TC>
inline constexpr bool value_fits = std::is_trivially_copyable_v<TC> && sizeof(TC) <= 16;

// B's values in CSR order: out[o] = vals[pos[o]].
template <class T>
__global__ void k_gather(offset_t n, const offset_t* pos, const T* vals, T* out) {
  for (offset_t o = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; o < n; o += offset_t(gridDim.x) * blockDim.x)
    out[o] = vals[pos[o]];
}

template <class TC, class TA, class TB, class Add, class Mul>
__global__ void __launch_bounds__(512)
    k_row_numeric(const index_t* list, int cap, int glog, index_t nrows, csr_ref A, const TA* a_vals, csr_ref B,
                  const TB* b_csr_vals, const std::uint32_t* jmin, const std::uint32_t* keys, const offset_t* key_off,
                  const offset_t* entry_base, Add add, Mul mul, TC* values) {
  extern __shared__ __align__(16) unsigned char smem[];
  TC* sv = reinterpret_cast<TC*>(smem);
  std::uint32_t* sk = reinterpret_cast<std::uint32_t*>(smem + (std::size_t(cap) * sizeof(TC) + 15) / 16 * 16);
  std::uint8_t* written = reinterpret_cast<std::uint8_t*>(sk + cap);
  const index_t I = list[blockIdx.x];
  const offset_t c0 = entry_base[I];
  const int n = int(entry_base[I + 1] - c0);  // <= cap: the symbolic pass bounded it
  const std::uint32_t* rk = keys + key_off[I];
  for (int q = threadIdx.x; q < n; q += blockDim.x) {
    sk[q] = rk[q];
    written[q] = 0;
  }
  __syncthreads();
  const int G = 1 << glog;
  const int r = int(threadIdx.x) >> glog, lane = int(threadIdx.x) & (G - 1);
  const unsigned gmask = G == 32 ? 0xFFFFFFFFu : (((1u << G) - 1) << ((threadIdx.x & 31) & ~unsigned(G - 1)));
  const std::uint32_t jm = jmin[I];
  // A's scalar row r of tile row I: entries in increasing k.
  for_a_row(A, B.row_ptr, nrows, I, r, [&](offset_t e, index_t, offset_t b0, offset_t b1) {
      const TC av = static_cast<TC>(a_vals[e]);
      for (offset_t b = b0 + lane; b < b1; b += G) {
        const int at = find_key(sk, n, make_key(B.col[b], r, jm));
        if (at < 0) continue;  // the mask rejected it
        const TC v = opaque(TC(mul(av, static_cast<TC>(b_csr_vals[b]))));
        if (!written[at]) {
          sv[at] = v;
          written[at] = 1;
        } else if (!add.is_terminal(sv[at])) {
          sv[at] = add(sv[at], v);
        }
      }
      __syncwarp(gmask);  // the next k may meet the same columns
  });
  __syncthreads();
  for (int q = threadIdx.x; q < n; q += blockDim.x) values[c0 + q] = sv[q];
}

// Numeric pass of the hub rows: one thread per run of equal keys among the
// sorted products (key = hub << 32 | row key; val = product index, in
// increasing k within a run) folds the run in order.
struct hub_ref {
  offset_t n;  // products of all hubs
  const std::uint64_t* key;
  const std::uint64_t* val;
  const offset_t* rank;   // run heads' exclusive scan: distinct key index
  const offset_t* first;  // per hub: rank of its first key
  const offset_t* off;    // per hub: its first product index
  const index_t* list;    // per hub: its tile row
  std::uint64_t invalid;
};

template <class TC, class TA, class TB, class Add, class Mul>
__global__ void k_hub_numeric(hub_ref H, pattern_ref A, a_ref Ae, const TA* a_vals, csr_ref B, const TB* b_vals,
                              const offset_t* entry_base, Add add, Mul mul, TC* values) {
  for (offset_t q = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; q < H.n; q += offset_t(gridDim.x) * blockDim.x) {
    const std::uint64_t key = H.key[q];
    if (key == H.invalid || (q > 0 && H.key[q - 1] == key)) continue;
    const index_t h = index_t(key >> 32);
    const index_t I = H.list[h];
    const offset_t e0 = row_entry_begin(A, I), e1 = row_entry_end(A, I);
    const offset_t base = Ae.prod[e0] - H.off[h];
    TC acc{};
    for (offset_t u = q; u < H.n && H.key[u] == key; ++u) {
      const product_at x = locate(Ae, B, e0, e1, base + offset_t(H.val[u]));
      const TC v = opaque(TC(mul(static_cast<TC>(a_vals[x.e]), static_cast<TC>(b_vals[B.pos[x.b]]))));
      if (u == q) acc = v;
      else if (!add.is_terminal(acc)) acc = add(acc, v);
    }
    values[entry_base[I] + (H.rank[q] - H.first[h])] = acc;
  }
}

// Numeric pass of the bitmap hubs: one warp per (hub, scalar row r). The
// warp walks A's row r of the hub's tile row in increasing k and splits each
// B row among its lanes (distinct columns: no two lanes meet; __syncwarp
// between k); a product's entry is its key's rank in the hub's bitmap (its
// tile column's rank plus the bits below it in the column's 8 words, one
// 32-byte sector), found in O(1); products whose bit is
// clear are those the mask rejected. Each entry is folded in increasing k by
// one thread, as on the host.
struct hub_bitmap_ref {
  index_t nh;
  const index_t* list;         // per hub: its tile row
  const offset_t* woff;        // per hub: its first bitmap word
  const std::uint32_t* bits;   // the bitmaps
  const offset_t* rank;        // set bits before each tile column (8 words)
};

template <class TC, class TA, class TB, class Add, class Mul>
__global__ void k_hub_numeric_bitmap(hub_bitmap_ref H, index_t nrows, csr_ref A, const TA* a_vals, csr_ref B,
                                     const TB* b_csr_vals, const std::uint32_t* jmin, const offset_t* entry_base,
                                     Add add, Mul mul, TC* values, std::uint8_t* written) {
  const offset_t warp = (blockIdx.x * offset_t(blockDim.x) + threadIdx.x) >> 5;
  const int lane = int(threadIdx.x & 31);
  if (warp >= offset_t(H.nh) * tile_dim) return;  // whole warps leave together
  const index_t h = index_t(warp / tile_dim);
  const int r = int(warp % tile_dim);
  const index_t I = H.list[h];
  const std::uint32_t jm = jmin[I];
  const std::uint32_t* bits = H.bits + H.woff[h];
  const offset_t* rank = H.rank + H.woff[h] / 8;
  const offset_t base = entry_base[I] - rank[0];
  for_a_row(A, B.row_ptr, nrows, I, r, [&](offset_t e, index_t, offset_t b0, offset_t b1) {
      const TC av = static_cast<TC>(a_vals[e]);
      for (offset_t b = b0 + lane; b < b1; b += 32) {
        const std::uint32_t key = make_key(B.col[b], r, jm);
        // The tile column's 256 bits (32-byte aligned: the buffer is, and
        // every hub starts at a multiple of 8 words).
        const uint4* col = reinterpret_cast<const uint4*>(bits + 8 * (key >> 8));
        const uint4 lo = col[0], hi = col[1];
        const std::uint32_t wi = (key >> 5) & 7u, bit = key & 31u;
        const std::uint32_t word[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
        std::uint32_t w = 0;
        int below = 0;
#pragma unroll
        for (std::uint32_t i = 0; i < 8; ++i) {
          if (i < wi) below += __popc(word[i]);
          if (i == wi) w = word[i];
        }
        if (!((w >> bit) & 1u)) continue;  // the mask rejected it
        const offset_t at = base + rank[key >> 8] + below + __popc(w & ((1u << bit) - 1u));
        const TC v = opaque(TC(mul(av, static_cast<TC>(b_csr_vals[b]))));
        if (!written[at]) {
          values[at] = v;
          written[at] = 1;
        } else if (!add.is_terminal(values[at])) {
          values[at] = add(values[at], v);
        }
      }
      __syncwarp();  // the next k may meet the same columns
  });
}

}  // namespace tgb::detail::cuda::rowpath
