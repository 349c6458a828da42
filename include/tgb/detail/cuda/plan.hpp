// tgb CUDA backend: the type-independent steps, compiled once
// (src/cuda/pipeline.cu).
#pragma once

#include "tgb/detail/cuda/api.hpp"

namespace tgb::detail::cuda {

// Steps 1-2 of C = A*B: C's pattern (masked) and, for each C tile, the range
// [seg_begin, seg_end) of its (A tile, B tile) pairs in `pairs`, sorted so
// that k increases within a range. A pair is (a << 32) | b.
//
// Tile rows of C routed to the row path (rowpath.cuh) have their tiles
// counted in C.tile_ptr and their entries in row_entry_base, but their tile
// columns, offsets, row masks and pointers, column indices and values are
// written by the numeric pass (the plan leaves them unset).
struct product_plan {
  device_pattern C;
  // Tile path: its tiles, their pair ranges, and where each lands in C
  // (tile_map empty: tile c of the tile path is tile c of C).
  offset_t tile_path_tiles = 0;
  device_buffer<offset_t> seg_begin, seg_end;
  device_buffer<std::uint64_t> pairs;
  device_buffer<offset_t> tile_map;
  offset_t npairs = 0;  // tile pairs before pruning, for statistics
  // Row path: B in CSR, the tile rows of each bin, their tile-column span,
  // product counts, and the first entry of each tile row of C.
  struct rows_t {
    device_buffer<offset_t> b_row_ptr, b_pos;
    device_buffer<index_t> b_col;
    device_buffer<index_t> list;  // kBins * tile_rows: bin b's rows from b * tile_rows
    offset_t count[3] = {0, 0, 0};
    device_buffer<std::uint32_t> jmin, jmax;
    device_buffer<offset_t> products, entry_base;
    offset_t total() const { return count[0] + count[1] + count[2]; }
  } rows;
};

// Routing between the tile path and the row path (process-wide; set it
// before running products, not while they run). The environment variables
// TGB_ROW_PATH=0, TGB_ROW_PATH_RATIO=x and TGB_ROW_PATH_MIN_PAIRS=n set the
// defaults.
struct product_tuning {
  bool row_path = true;
  // A tile row takes the row path when its scalar products number at most
  // this many times its tile pairs (and fit a block's shared memory).
  double max_products_per_pair = 4.0;
  // Products with fewer tile pairs than this stay on the tile path without
  // routing: on the H200 the routing's passes and read-backs cost more than
  // they save on small matrices (luxembourg, 316k pairs: 0.37 -> 0.74 ms).
  long long min_pairs = 1ll << 22;
};
product_tuning& tuning();
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
