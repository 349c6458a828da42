// tgb: bit helpers for 16-bit tile row masks, host and device.
#pragma once

#include <cstdint>

#include "tgb/config.hpp"

namespace tgb::detail::tile {

using row_bits = std::uint16_t;  // bit c set: column c of this tile row is stored

TGB_HD inline int popcount16(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __popc(x);
#elif defined(__POPCNT__)
  return __builtin_popcount(x);
#else
  // Without -mpopcnt the builtin is a libgcc call (__popcountdi2), which
  // took 5-25% of host mxm profiles; this is a handful of inlined ALU ops.
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  x = (x + (x >> 4)) & 0x0F0F0F0Fu;
  return static_cast<int>((x * 0x01010101u) >> 24);
#endif
}

// Lowest set bit's position; x must be non-zero.
TGB_HD inline int lowest_bit(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __ffs(x) - 1;
#else
  return __builtin_ctz(x);
#endif
}

// Columns of a tile that lie inside a matrix with `ncols` columns, for the tile
// whose first column is `col0`.
TGB_HD inline row_bits valid_columns(index_t ncols, index_t col0) {
  const index_t w = ncols - col0;
  return w >= tile_dim ? row_bits(0xFFFF) : row_bits((1u << w) - 1u);
}

// Rank of column c among the set bits of `bits` (the slot of entry c in the
// compressed row).
TGB_HD inline int rank_below(row_bits bits, int c) {
  return popcount16(std::uint32_t(bits) & ((1u << c) - 1u));
}

}  // namespace tgb::detail::tile
