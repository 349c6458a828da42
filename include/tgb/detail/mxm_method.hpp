// tgb: how mxm computes C<M> = op(A) * op(B), on either backend. One rule,
// one policy type: each backend measures the same quantities (mxm_work) on
// its own data and asks choose_method.
#pragma once

#include <cstddef>

namespace tgb::detail {

// The methods. Tests and callers force one through mxm_policy::method.
//   tile_gustavson  tiled Gustavson (host: mxm.hpp; device: the planner of
//                   src/cuda/pipeline.cu, which still sends the tile rows
//                   whose tiles are hypersparse to its row path, rowpath.cuh)
//   tile_dot        tile dot products over a non-complemented mask (host)
//   row_saxpy       scalar-row Gustavson (host: row_saxpy.hpp; device:
//                   row_spgemm.cuh, unmasked; masked, the planner)
//   row_dot         one sparse dot product per mask entry, row i of op(A)
//                   against row j of op(B)' (host: mxm_rows.hpp; device:
//                   dot.cuh): the masked method (SuiteSparse's dot3)
enum class mxm_method {
  automatic,
  tile_gustavson,
  tile_dot,
  row_saxpy,
  row_dot,
};

// Device tile path (its planner, src/cuda/pipeline.cu): which tile rows go
// to the planner's row path (rowpath.cuh) and to which of its bins. The bin
// limits exist so that tests can send small inputs to every bin.
struct device_row_routing {
  bool row_path = true;
  // A tile row takes the row path when its scalar products number at most
  // this many times its tile pairs (its tiles are sparse).
  double max_products_per_pair = 4.0;
  // Products with fewer tile pairs than this stay on the tile path (the
  // routing pass still runs: it also gives the pair count).
  long long min_pairs = 1ll << 22;
  // Row-path rows with at most this many products go to the shared-memory
  // hash bins (capped by the largest bin, rowpath::hash_capacity).
  long long max_shared_products = 4096;
  // Dense accumulator: rows whose tile-column span is at most this many
  // tiles (capped by rowpath::kDenseSlots / 256; 0: never) and whose products
  // reach dense_min_fill times the span's 256 * tiles positions (or exceed
  // the hash bins), up to dense_max_products.
  int dense_max_tiles = 32;
  double dense_min_fill = 0.25;
  long long dense_max_products = 1ll << 19;
  // Hub rows (more products than the shared bins take) set bits in a bitmap
  // over their tile-column span (256 bits a tile column) when the hubs'
  // bitmaps hold at most this many bits per product and this many bytes in
  // all; past either, their products are sorted (CUB radix sort).
  bool hub_bitmap = true;
  double hub_bits_per_product = 64.0;
  long long hub_bitmap_max_bytes = 1ll << 31;
};

// The method (or automatic) and the knobs of the rule. Passed down, never
// global.
struct mxm_policy {
  mxm_method method = mxm_method::automatic;
  // Host: the tile paths run when A and B hold at least this many entries
  // per tile on average (together); below it the row paths do. (Row saxpy
  // was faster at 57 entries a tile, bcsstk33; the tile path won at 173,
  // blocks6_120k.) The device decides per tile row instead (its planner).
  double tile_min_density = 100.0;
  // Masked, not complemented: the dot method runs when its merge work (the
  // row lengths of op(A) and op(B)' summed over the mask's entries) is at
  // most this times the Gustavson products (a merge step costs less than a
  // product). Both backends.
  double dot_factor = 4.0;
  // Host tile paths: tiles with at least this many entries use the dense
  // accumulator.
  int dense_tile_threshold = 96;
  // Host row saxpy: rows whose bound on entries times this reaches the
  // column count use the dense accumulator instead of the hash table.
  double dense_row_ratio = 16.0;
  // Device row saxpy: shared memory for a hub row's window of columns (bytes;
  // 0: what lets two blocks share an SM). Tests make it small to reach many
  // windows a row.
  std::size_t hub_window_bytes = 0;
  // Device row saxpy: below this many products (about: A's entries times B's
  // mean row) the shared bins' symbolic pass is one kernel; from it, each
  // bin has its own kernel on its own stream (one launch against eight and
  // their streams' events, on graphs where the rows take microseconds; the
  // bins' own kernels keep more blocks on an SM).
  double fused_bins_max_products = double(1 << 22);
  // Device tile path, numeric step: a warp folds each C tile from A's and
  // B's tiles expanded in shared memory when a tile pair holds at least this
  // many products on average (A's entries per tile times B's, over 16);
  // below, 16 threads fold each tile, one a row, into C's slots. Measured
  // (H200, fp64, warps against threads): bcsstk33 (203 a pair) 0.58 against
  // 0.86 ms, blocks6 (1,870) 0.84 against 1.38; stencil27 (23) 5.9 against
  // 5.0, lap2d (16) 1.76 against 1.33. 0: always warps; infinity: never.
  double device_warp_pair_products = 64.0;
  // Device tile path, numeric step on 16 threads a tile: C tiles with at
  // least this many entries fold each row in a 16-slot row of shared memory
  // and compress it at the end; sparser ones fold straight into C's slots,
  // ranking each product's column among the row's bits (a read-modify-write
  // of global memory a product). Measured (H100 r89, fp64 A*A, 0 against
  // 96): stencil27 4.11-4.20 against 5.33-5.45 ms, lap2d 1.06-1.11 against
  // 1.15-1.20, blocks6 0.82 against 0.91, bcsstk33 0.57 both; min_plus and
  // lor_land the same or faster. 0: every tile dense.
  int device_dense_tile_threshold = 0;
  // Device tile path: the planner's routing of tile rows to its row path.
  device_row_routing device_routing;
};

// What the rule reads. products: sum over k of (column k of op(A)) times
// (row k of op(B)), Gustavson's scalar products. dot_work: sum over the
// mask's entries (i, j) of (row i of op(A)) + (column j of op(B)).
// entries / tiles: of A and B together (the host's density test).
struct mxm_work {
  double products = 0, dot_work = 0, entries = 0, tiles = 0;
  // An operand is stored in row form (host): its tiles would have to be made
  // first, and the row form exists because they hold few entries.
  bool row_operand = false;
  // Measured on the device: there the tile-form operands go to the planner,
  // which picks tiles or its own row path per tile row (no density test).
  bool device = false;
};

// Whether the dot method can run: a mask that is given and not complemented.
inline bool dot_usable(bool masked, bool complemented) { return masked && !complemented; }

// A forced method where it can run (a dot method without a usable mask falls
// back to its Gustavson form), or automatic where the rule must measure.
inline mxm_method forced_method(const mxm_policy& p, bool dot_ok) {
  switch (p.method) {
    case mxm_method::tile_dot: return dot_ok ? mxm_method::tile_dot : mxm_method::tile_gustavson;
    case mxm_method::row_dot: return dot_ok ? mxm_method::row_dot : mxm_method::row_saxpy;
    default: return p.method;
  }
}

// The one rule (automatic policy):
//   1. masked, not complemented, and dot_work <= dot_factor * products:
//      row dot (on the host it beat the tile dot on every graph measured,
//      the densest tiles included: 57 entries a tile);
//   2. otherwise row saxpy when an operand is stored in rows (on the device:
//      or the storage rule would store it so, and the product is unmasked);
//   3. otherwise, on the device, tile Gustavson (its planner routes per tile
//      row); on the host, tile Gustavson when entries >= tile_min_density *
//      tiles, row saxpy below that.
// The tile dot runs only when forced.
// The host's density test of step 3: tiles that hold enough entries for the
// tile paths.
inline bool tiles_dense(const mxm_work& w, const mxm_policy& p) { return w.entries >= p.tile_min_density * w.tiles; }

inline mxm_method choose_method(const mxm_work& w, bool dot_ok, const mxm_policy& p) {
  if (dot_ok && w.dot_work <= p.dot_factor * w.products) return mxm_method::row_dot;
  if (w.row_operand) return mxm_method::row_saxpy;
  if (w.device) return mxm_method::tile_gustavson;
  return tiles_dense(w, p) ? mxm_method::tile_gustavson : mxm_method::row_saxpy;
}

inline bool is_dot(mxm_method m) { return m == mxm_method::row_dot || m == mxm_method::tile_dot; }

}  // namespace tgb::detail
