// tgb CUDA backend: helpers shared by the kernels (error checks, CUB calls
// with temporary storage from tgb's memory resource, tile look-ups).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cub/cub.cuh>
#include <string>

#include "tgb/detail/cuda/api.hpp"
#include "tgb/detail/tile/ref.hpp"
#include "tgb/error.hpp"

namespace tgb::detail::cuda {

inline cudaStream_t native(stream_t s) { return reinterpret_cast<cudaStream_t>(s); }

// CUDA errors become exceptions at the API boundary.
inline void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  cudaGetLastError();
  if (e == cudaErrorMemoryAllocation) throw out_of_memory(std::string("tgb: device out of memory in ") + what);
  throw panic(std::string("tgb: CUDA error in ") + what + ": " + cudaGetErrorString(e));
}

// ---- warp shuffles of values, and folds of (value, has) pairs ------------------
constexpr unsigned kFullWarp = 0xFFFFFFFFu;

// A shuffle of any tgb value type (bool and 8-bit types travel as int).
template <class T>
__device__ inline T shfl_down_value(T v, int delta, int width = 32) {
  if constexpr (sizeof(T) < 4) return static_cast<T>(__shfl_down_sync(kFullWarp, int(v), delta, width));
  else return __shfl_down_sync(kFullWarp, v, delta, width);
}
template <class T>
__device__ inline T shfl_up_value(T v, int delta) {
  if constexpr (sizeof(T) < 4) return static_cast<T>(__shfl_up_sync(kFullWarp, int(v), delta));
  else return __shfl_up_sync(kFullWarp, v, delta);
}

// A monoid folded over values that may be absent: each value travels with a
// flag saying whether it holds anything, so that nothing needs the identity
// (a monoid whose identity absorbs, such as any, still returns a stored
// value). fold_pair: acc = acc + x (x after acc); fold_pair_front: acc = x +
// acc (x in front). An absent x leaves acc; an absent acc takes x. `add` is
// a semiring's add monoid or a run-time coded one.
template <class T, class Add>
__device__ inline void fold_pair(T& acc, bool& has, T x, bool x_has, const Add& add) {
  if (!x_has) return;
  acc = has ? static_cast<T>(add(acc, x)) : x;
  has = true;
}
template <class T, class Add>
__device__ inline void fold_pair_front(T x, bool x_has, T& acc, bool& has, const Add& add) {
  if (!x_has) return;
  acc = has ? static_cast<T>(add(x, acc)) : x;
  has = true;
}
// Each group of `width` lanes (a power of two, at most 32) folded into its
// first lane by a fixed tree (lane l takes lane l + o, o = width/2 .. 1):
// results repeat exactly. Every lane of the warp must call it.
template <class T, class Add>
__device__ inline void warp_fold_pair(T& acc, bool& has, const Add& add, int width = 32) {
  for (int o = width / 2; o > 0; o >>= 1) {
    const T other = shfl_down_value(acc, o, width);
    const bool other_has = __shfl_down_sync(kFullWarp, int(has), o, width) != 0;
    fold_pair(acc, has, other, other_has, add);
  }
}

inline unsigned grid_for(offset_t n, int threads) {
  const offset_t b = (n + threads - 1) / threads;
  return static_cast<unsigned>(b < 1 ? 1 : (b > 2147483647 ? 2147483647 : b));
}

// Reads one value back to the host (a size the host needs: this waits).
template <class T>
T read_back(const T* dev, stream_t s) {
  T v{};
  copy_device_to_host(&v, dev, sizeof(T), s);
  return v;
}

// Side streams for independent launches (row saxpy's bins, which each fill
// a fraction of the GPU): they start after the work queued on s so far, and
// s waits for all of them when the fan_out goes. Buffers a side stream uses
// must be allocated before the fan_out and freed after it. Where streams or
// events cannot be made, every side stream is s itself.
class fan_out {
 public:
  static constexpr int kMax = 9;
  fan_out(stream_t s, int n);
  ~fan_out();
  fan_out(const fan_out&) = delete;
  fan_out& operator=(const fan_out&) = delete;
  stream_t operator[](int i) const { return side_[i % n_]; }

 private:
  stream_t s_;
  int n_ = 1;
  bool forked_ = false;
  void* set_ = nullptr;  // the streams and events forked (runtime.cu)
  stream_t side_[kMax] = {};
};

// TGB_TRACE=1 in the environment: phase(s, "name") waits for the stream and
// prints the milliseconds since the previous phase to stderr (a developer's
// breakdown of one call; it serializes the work, so never for timing runs).
void phase(stream_t s, const char* name);
bool tracing();  // whether TGB_TRACE is set

// Device view of a pattern.
struct pattern_ref {
  index_t nrows, ncols, tile_rows, tile_cols;
  offset_t ntiles;
  const offset_t* tile_ptr;
  const tile_index_t* tile_col;
  const offset_t* tile_offset;
  const std::uint8_t* row_ptr;
  const row_bits* row_mask;
  const std::uint8_t* col_idx;
};

inline pattern_ref ref(const device_pattern& p) {
  return pattern_ref{p.nrows,           p.ncols,           p.tile_rows(),        p.tile_cols(),
                     p.ntiles,          p.tile_ptr.data(), p.tile_col.data(),    p.tile_offset.data(),
                     p.row_ptr.data(),  p.row_mask.data(), p.col_idx.data()};
}

template <class T>
__device__ inline tile::tile_ref_t<T> tile_of(const pattern_ref& p, const T* values, offset_t t) {
  const offset_t e = p.tile_offset[t];
  return tile::tile_ref_t<T>{p.row_ptr + 16 * t, p.row_mask + 16 * t, p.col_idx + e, values + e,
                             static_cast<int>(p.tile_offset[t + 1] - e)};
}

// Position of tile (I, J) in a pattern, or -1.
__device__ inline offset_t find_tile(const offset_t* tile_ptr, const tile_index_t* tile_col, index_t I, index_t J) {
  offset_t lo = tile_ptr[I], hi = tile_ptr[I + 1];
  const offset_t end = hi;
  while (lo < hi) {
    const offset_t mid = lo + (hi - lo) / 2;
    if (index_t(tile_col[mid]) < J) lo = mid + 1;
    else hi = mid;
  }
  return (lo < end && index_t(tile_col[lo]) == J) ? lo : offset_t(-1);
}

// Largest i in [0, n) with a[i] <= x, for a non-decreasing a with a[0] <= x.
template <class T>
__device__ inline offset_t last_le(const T* a, offset_t n, T x) {
  offset_t lo = 0, hi = n;
  while (hi - lo > 1) {
    const offset_t mid = lo + (hi - lo) / 2;
    if (a[mid] <= x) lo = mid;
    else hi = mid;
  }
  return lo;
}

// First i in [0, n) with a[i] >= x (n if none).
template <class T>
__device__ inline offset_t lower_bound(const T* a, offset_t n, T x) {
  offset_t lo = 0, hi = n;
  while (lo < hi) {
    const offset_t mid = lo + (hi - lo) / 2;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// The mask's admitted bits of row r of tile (I, J).
struct mask_ref {
  const offset_t* tile_ptr = nullptr;
  const tile_index_t* tile_col = nullptr;
  const row_bits* bits = nullptr;
  bool active = false;
  bool complement = false;
  __device__ offset_t tile(index_t I, index_t J) const { return find_tile(tile_ptr, tile_col, I, J); }
  __device__ row_bits allowed(offset_t t, int r) const {
    if (!active) return row_bits(0xFFFF);
    const row_bits m = t >= 0 ? bits[16 * t + r] : row_bits(0);
    return complement ? row_bits(~m) : m;
  }
};

inline mask_ref ref(const mask_arg& m) {
  mask_ref r;
  if (m.pat) {
    r.tile_ptr = m.pat->tile_ptr.data();
    r.tile_col = m.pat->tile_col.data();
    r.bits = m.bits;
    r.active = true;
    r.complement = m.complement;
  }
  return r;
}

// The (A tile, B tile) pairs [p0, pe) of one C tile, in order, for the
// half-warp that owns the tile (lanes `half`, thread r its local row r): the
// pairs come 16 at a time, one load a thread, shared by shuffles; f(a, b)
// for each. Every lane of `half` must call it with the same range (f may
// __syncwarp(half)). The planner's symbolic step and the 16-thread numeric
// step walk their pairs with it.
template <class F>
__device__ inline void for_each_pair(const std::uint64_t* pairs, offset_t p0, offset_t pe, unsigned half, int r,
                                     F&& f) {
  for (offset_t base = p0; base < pe; base += tile_dim) {
    const int np = static_cast<int>(pe - base < tile_dim ? pe - base : tile_dim);
    const std::uint64_t mine = r < np ? pairs[base + r] : 0;
    for (int i = 0; i < np; ++i) {
      const std::uint64_t pr = __shfl_sync(half, mine, i, tile_dim);
      f(offset_t(pr >> 32), offset_t(pr & 0xFFFFFFFFu));
    }
  }
}

// Sum of x over the 16 lanes of this thread's half-warp.
__device__ inline int half_warp_sum(int x) {
  const unsigned all = 0xFFFFFFFFu;
  for (int o = 8; o > 0; o >>= 1) x += __shfl_xor_sync(all, x, o, 16);
  return x;
}

// ---- CUB with temporary storage from tgb's resource ---------------------
template <class F>
void with_temp(stream_t s, F&& f) {
  std::size_t bytes = 0;
  check(f(nullptr, bytes), "CUB size query");
  device_buffer<unsigned char> tmp(bytes ? bytes : 1, s);
  check(f(tmp.data(), bytes), "CUB");
}

inline void exclusive_sum(const offset_t* in, offset_t* out, offset_t n, stream_t s) {
  with_temp(s, [&](void* t, std::size_t& b) {
    return cub::DeviceScan::ExclusiveSum(t, b, in, out, n, native(s));
  });
}

inline int bits_for(unsigned long long x) {
  int b = 1;
  while (b < 64 && (x >> b) != 0) ++b;
  return b;
}

// Sorts (key, value) pairs by key; keys use bits [0, end_bit).
inline void sort_pairs(device_buffer<std::uint64_t>& keys, device_buffer<std::uint64_t>& vals, offset_t n,
                       int end_bit, stream_t s) {
  if (n <= 1) return;
  device_buffer<std::uint64_t> k2(n, s), v2(n, s);
  cub::DoubleBuffer<std::uint64_t> kb(keys.data(), k2.data()), vb(vals.data(), v2.data());
  with_temp(s, [&](void* t, std::size_t& b) {
    return cub::DeviceRadixSort::SortPairs(t, b, kb, vb, n, 0, end_bit, native(s));
  });
  if (kb.Current() != keys.data()) {
    keys.swap(k2);
    vals.swap(v2);
  }
}

// Sorts keys alone; bits [0, end_bit).
inline void sort_keys(device_buffer<std::uint64_t>& keys, offset_t n, int end_bit, stream_t s) {
  if (n <= 1) return;
  device_buffer<std::uint64_t> k2(n, s);
  cub::DoubleBuffer<std::uint64_t> kb(keys.data(), k2.data());
  with_temp(s, [&](void* t, std::size_t& b) {
    return cub::DeviceRadixSort::SortKeys(t, b, kb, n, 0, end_bit, native(s));
  });
  if (kb.Current() != keys.data()) keys.swap(k2);
}

// Bits of an entry key (tile key I * tile_cols + J, then 8 bits of local row
// and column) for a tile_rows x tile_cols grid; not_implemented where the key
// does not fit 64 bits (beyond 2^28 tiles both ways).
inline int entry_key_bits(index_t tile_rows, index_t tile_cols) {
  const std::uint64_t tm = std::uint64_t(tile_rows < 1 ? 1 : tile_rows), tc = std::uint64_t(tile_cols < 1 ? 1 : tile_cols);
  if (tm > (~std::uint64_t(0) >> 8) / tc)
    throw not_implemented("tgb: a " + std::to_string(tile_rows) + " x " + std::to_string(tile_cols) +
                          " tile grid is too large for the device's 64-bit entry keys");
  return bits_for(tm * tc) + 8;
}

// Pattern of n distinct entries given by increasing keys (tile key << 8 |
// local row << 4 | local column).
device_pattern pattern_from_sorted_keys(index_t nrows, index_t ncols, const std::uint64_t* key, offset_t n,
                                        stream_t s);

// Scalar CSR row pointers of a pattern (nrows + 1): each row's entries
// summed by one warp per tile row (src/cuda/csr.cu), then a scan.
device_buffer<offset_t> scalar_row_ptr(const device_pattern& p, stream_t s);

// Tile row of every tile of a pattern.
device_buffer<index_t> tile_rows_of(const device_pattern& p, stream_t s);

// Builds a pattern's level-1/level-2 arrays for `n` kept candidate tiles
// whose keys (I * tile_cols + J, increasing), 16 row masks and entry counts
// are given, compacting away those with no entries. Extra per-candidate
// arrays in `carry` are compacted along.
struct candidates {
  offset_t n = 0;
  device_buffer<std::uint64_t> key;
  device_buffer<row_bits> mask;
  device_buffer<offset_t> count;
  device_buffer<offset_t> carry0, carry1;
};
device_pattern finish_pattern(index_t nrows, index_t ncols, candidates& c, stream_t s);

}  // namespace tgb::detail::cuda
