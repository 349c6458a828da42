// tgb CUDA backend: the planner's row path (rowpath.cuh) as the tile path's
// planner (pipeline.cu) sees it: which tile rows it takes (row_route.cu),
// then their symbolic step and C's pattern with both paths' tile rows
// (row_symbolic.cu). Internal to src/cuda.
#pragma once

#include "tgb/detail/cuda/plan.hpp"

namespace tgb::detail::cuda {

// Routes the tile rows of A*B (route[I], see k_route) and fills the row
// path's lists, with one read-back. Returns the route array, or an empty one
// when every row takes the tile path; npairs: the tile path's pairs (-1 if
// routing did not run).
device_buffer<std::uint8_t> route_rows(const device_pattern& A, const device_pattern& B, const index_t* a_row,
                                       const device_row_routing& routing, product_plan::rows_t& rows,
                                       offset_t& npairs, stream_t s);

// After route_rows sent rows to the row path (plan.rows) and the tile path
// made its pattern c1 (consumed): the row path's symbolic step, then plan.C
// with both paths' tile rows side by side, plan.tile_map (where each of c1's
// tiles lands) and plan.rows.entry_base.
void merge_row_path(product_plan& plan, device_pattern& c1, const device_pattern& A, const device_pattern& B,
                    const mask_arg& M, stream_t s);

}  // namespace tgb::detail::cuda
