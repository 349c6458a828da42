// tgb CUDA backend: the type-independent steps, compiled once (mxm's
// planner: src/cuda/pipeline.cu, row_route.cu, row_symbolic.cu; the merges
// and the transpose: merge.cu; CSR: csr.cu).
#pragma once

#include "tgb/detail/cuda/api.hpp"
#include "tgb/detail/mxm_method.hpp"

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
  // Row path (rowpath.cuh): B in CSR, A's entries with their B-row product
  // prefix, the tile rows of each bin, each row's tile-column origin and the
  // place of its sorted distinct keys in `keys`, and the first entry of each
  // tile row of C.
  struct rows_t {
    device_buffer<offset_t> b_row_ptr, b_pos;
    device_buffer<index_t> b_col;
    // A in CSR for the numeric passes, unless A is B (a_is_b: B's serves).
    bool a_is_b = false;
    device_buffer<offset_t> a_row_ptr, a_pos;
    device_buffer<index_t> a_col;
    device_buffer<offset_t> a_prod;  // nnz(A) + 1: exclusive sum of B's row lengths over A's entries
    device_buffer<index_t> a_k;      // A's entries: global column
    device_buffer<std::uint8_t> a_r; // A's entries: local row
    device_buffer<index_t> list;     // (kBins + 1) * tile_rows: bin b's rows from b * tile_rows (hubs last)
    device_buffer<index_t> all;      // every row-path row
    offset_t count[8] = {};          // rows per shared bin, then hub rows (kBins + 1 used)
    offset_t nall = 0, key_total = 0;
    device_buffer<std::uint32_t> jmin, jmax;
    device_buffer<offset_t> key_off, entry_base;
    device_buffer<std::uint32_t> keys;  // sorted distinct keys of each row-path row
    // Hub rows: their products sorted by (hub, key), stable, so each run of
    // equal keys is in increasing k; the product index of each; the rank of
    // each run among the distinct keys (exclusive scan of run heads); the
    // first rank of each hub; the first product of each hub.
    offset_t hub_products = 0;
    std::uint64_t hub_invalid = 0;
    device_buffer<std::uint64_t> hub_key, hub_val;
    device_buffer<offset_t> hub_rank, hub_first, hub_off;
    // Or, where hub_bitmap: a bitmap per hub over its span (bit = key; words
    // hub_woff[h] .. hub_woff[h + 1] of hub_bits, 8 words a tile column),
    // and hub_rank[g] the set bits before tile column g (over all hubs): a
    // key's entry index is its tile column's rank plus the bits below it in
    // the tile column's 8 words, less its hub's first rank.
    bool hub_bitmap = false;
    offset_t hub_words = 0;
    device_buffer<offset_t> hub_woff;
    device_buffer<std::uint32_t> hub_bits;
    offset_t total() const {
      offset_t t = 0;
      for (offset_t c : count) t += c;
      return t;
    }
  } rows;
};

// What the last product planned in this process routed, for tests (not
// synchronized): row-path tile rows per bin (hash bins 0-5, dense 6, hubs
// 7), and whether the row path ran at all.
struct product_stats {
  long long rows[8] = {};
  bool row_path = false;
};
product_stats& last_product_stats();
// What the last row saxpy (row_spgemm.cuh) of this thread did, for tests:
// rows per symbolic and per numeric bin (8 shared bins, then the hub rows in
// global-memory tables, then the hub rows in shared-memory windows).
struct row_saxpy_stats {
  long long symbolic[10] = {};
  long long numeric[10] = {};
  long long runs = 0;  // row saxpy plans made in this process
};
row_saxpy_stats& last_row_saxpy_stats();

// routing: which tile rows take the row path (mxm_policy::device_routing);
// row_path_ok: whether C's value type fits the row path's numeric blocks
// (rowpath::value_fits); if not, every row takes the tile path.
product_plan plan_product(const device_pattern& A, const device_pattern& B, const mask_arg& M,
                          const device_row_routing& routing, bool row_path_ok, stream_t s);

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

// Keys I * tile_cols + J of a pattern's tiles, in storage (increasing) order
// (row: the tiles' tile rows, tile_rows_of, where the caller has them).
device_buffer<std::uint64_t> tile_keys(const device_pattern& p, stream_t s);
device_buffer<std::uint64_t> tile_keys(const device_pattern& p, const index_t* row, stream_t s);

// The pattern of A'; gather[e] is the entry of A that lands at e.
device_pattern transpose_pattern(const device_pattern& A, device_buffer<offset_t>& gather, stream_t s);

// ---- extract and assign (src/cuda/assign.cu) -------------------------------
// gather[e]: the entry of the source whose value entry e takes.
// A(I, J), m x n (|I| = m, |J| = n; lists may repeat).
device_pattern extract_pattern(const device_pattern& A, const index_source& I, index_t m, const index_source& J,
                               index_t n, device_buffer<offset_t>& gather, stream_t s);
// A relabeled into an nrows x ncols pattern: A(r, c) at (I(r), J(c)) (no
// repeats), only the entries whose bit `admit` sets where it is given (16
// row masks a tile of A: a mask's admitted entries).
device_pattern scatter_pattern(const device_pattern& A, const row_bits* admit, const index_source& I,
                               const index_source& J, index_t nrows, index_t ncols, device_buffer<offset_t>& gather,
                               stream_t s);
// Every position of I x J (ni x nj, no repeats) in an nrows x ncols pattern.
device_pattern grid_pattern(const index_source& I, index_t ni, const index_source& J, index_t nj, index_t nrows,
                            index_t ncols, stream_t s);
// ---- the Kronecker product and diagonals (src/cuda/construct.cu) ---------
// kron(A, B)'s pattern; src[e] = p * nnz(B) + q for entry e from A's entry p
// and B's entry q.
device_pattern kron_pattern(const device_pattern& A, const device_pattern& B, device_buffer<std::uint64_t>& src,
                            stream_t s);
// The (n + |k|) square pattern of a vector's stored indices (present, n of
// them) on diagonal k; gather[e] is the index entry e holds.
device_pattern diag_pattern(index_t n, const std::uint8_t* present, index_t k, device_buffer<offset_t>& gather,
                            stream_t s);

// C's entries inside I x J (inside), or outside it.
device_pattern cut_pattern(const device_pattern& C, const index_source& I, index_t ni, const index_source& J,
                           index_t nj, bool inside, device_buffer<offset_t>& gather, stream_t s);

// ---- the dot method (dot.cuh; src/cuda/dot.cu) ----------------------------
// The method rule's quantities (mxm_method.hpp) for C<M> = op(A) * op(B),
// measured on the device: line counts of A, B and M (once per distinct
// pattern), two sums, one read-back.
mxm_work product_work(const device_pattern& A, bool ta, const device_pattern& B, bool tb, const device_pattern& M,
                      stream_t s);

// A pattern's scalar rows: row pointers (nrows + 1), each entry's global
// column and (where asked) its position in the pattern's value array.
struct csr_pattern {
  device_buffer<offset_t> row_ptr, pos;
  device_buffer<index_t> col;
};
csr_pattern csr_of(const device_pattern& p, stream_t s, bool positions = true);
// Fills col (and pos, unless null) in CSR order given scalar_row_ptr(p).
void csr_fill(const device_pattern& p, const offset_t* row_ptr, index_t* col, offset_t* pos, stream_t s);

// C's pattern from the mask M: of each mask tile t (tile row tile_row[t]),
// the entries whose row bits are bits[16 t .. 16 t + 15] (count[t] of them),
// tiles with none dropped; map[t'] is the mask tile of C's tile t'. bits and
// count are consumed.
device_pattern found_pattern(const device_pattern& M, const index_t* tile_row, device_buffer<row_bits>& bits,
                             device_buffer<offset_t>& count, device_buffer<offset_t>& map, stream_t s);

}  // namespace tgb::detail::cuda
