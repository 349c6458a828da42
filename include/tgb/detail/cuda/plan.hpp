// tgb CUDA backend: the type-independent steps, compiled once
// (src/cuda/pipeline.cu).
#pragma once

#include "tgb/detail/cuda/api.hpp"

namespace tgb::detail::cuda {

// Steps 1-2 of C = A*B: C's pattern (masked) and, for each C tile, the range
// [seg_begin, seg_end) of its (A tile, B tile) pairs in `pairs`, sorted so
// that k increases within a range. A pair is (a << 32) | b.
struct product_plan {
  device_pattern C;
  device_buffer<offset_t> seg_begin, seg_end;
  device_buffer<std::uint64_t> pairs;
  offset_t npairs = 0;  // tile pairs before pruning, for statistics
};
product_plan plan_product(const device_pattern& A, const device_pattern& B, const mask_arg& M, stream_t s);

// The pattern of C<M, replace> = accum(C, T), and for each of its tiles the
// tile of C and of T it draws on (-1 for none).
struct writeback_plan {
  device_pattern out;
  device_buffer<offset_t> c_tile, t_tile;
};
writeback_plan plan_writeback(const device_pattern& C, const device_pattern& T, const mask_arg& M, bool has_accum,
                              bool replace, stream_t s);

// The pattern of A .op. B over the union (add) or intersection of the
// patterns, and for each of its tiles the tile of A and of B (-1 for none).
struct ewise_plan {
  device_pattern out;
  device_buffer<offset_t> a_tile, b_tile;
};
ewise_plan plan_ewise(const device_pattern& A, const device_pattern& B, bool add, stream_t s);

// Keys I * tile_cols + J of a pattern's tiles, in storage (increasing) order.
device_buffer<std::uint64_t> tile_keys(const device_pattern& p, stream_t s);

// The pattern of A'; gather[e] is the entry of A that lands at e.
device_pattern transpose_pattern(const device_pattern& A, device_buffer<offset_t>& gather, stream_t s);

}  // namespace tgb::detail::cuda
