// tgb host backend: steps 1 and 2 of the tiled mxm (type- and
// semiring-independent, compiled once).
#include <algorithm>

#include "tgb/detail/host/mxm.hpp"
#include "tgb/detail/host/threads.hpp"

namespace tgb::detail::host {

namespace {
// Clears the marks of a row's candidates however the row ends. A mark is set
// only for a column already in `cols`, so when an allocation throws halfway
// through a row no stale mark survives into the thread's next row, where it
// would name a slot past the end of that row's arrays (the heap corruption
// once seen under 'ulimit -v').
struct marker_reset {
  std::vector<std::int32_t>* mark;  // null when the marker is not in use
  const std::vector<tile_index_t>& cols;
  ~marker_reset() {
    if (mark)
      for (tile_index_t J : cols) (*mark)[J] = -1;
  }
};
}  // namespace

tile_pattern mxm_symbolic(const tile_pattern& A, const tile_pattern& B, const host_mask& M) {
  const bool use_marker = B.tile_cols() <= kMarkerLimit;
  // Per thread of the region: a map from tile column to its slot among the
  // current tile row's candidates (-1: none), made on the thread's first row
  // and reset after each row by clearing only what was set. Owned by this
  // call, so nothing outlives it. Used while the tile columns are few enough
  // to index directly; past that, candidates are sorted and searched.
  std::vector<std::vector<std::int32_t>> markers(static_cast<std::size_t>(max_threads()));
  return assemble_pattern(A.nrows, B.ncols, [&](index_t I, std::vector<tile_index_t>& cols, std::vector<row_bits>& masks) {
    // Step 1: candidate tile columns, pruned by the mask's tiles.
    std::vector<std::int32_t>& t_marker = markers[static_cast<std::size_t>(thread_num())];
    if (use_marker && t_marker.empty()) t_marker.assign(B.tile_cols(), -1);  // on a throw it stays empty
    const marker_reset reset{use_marker ? &t_marker : nullptr, cols};
    if (use_marker) {
      std::vector<std::int32_t>& mark = t_marker;
      for (offset_t ta = A.tile_ptr[I]; ta < A.tile_ptr[I + 1]; ++ta) {
        const index_t K = A.tile_col[ta];
        for (offset_t tb = B.tile_ptr[K]; tb < B.tile_ptr[K + 1]; ++tb)
          if (mark[B.tile_col[tb]] < 0) {
            cols.push_back(B.tile_col[tb]);  // first: a throw here leaves no mark behind
            mark[B.tile_col[tb]] = 0;
          }
      }
      std::sort(cols.begin(), cols.end());
    } else {
      for (offset_t ta = A.tile_ptr[I]; ta < A.tile_ptr[I + 1]; ++ta) {
        const index_t K = A.tile_col[ta];
        cols.insert(cols.end(), B.tile_col.data() + B.tile_ptr[K], B.tile_col.data() + B.tile_ptr[K + 1]);
      }
      std::sort(cols.begin(), cols.end());
      cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    }
    if (M.active) {
      for (tile_index_t J : cols)
        if (use_marker) t_marker[J] = -1;
      cols.erase(std::remove_if(cols.begin(), cols.end(), [&](tile_index_t J) { return M.prunes(I, J); }), cols.end());
    }
    if (use_marker)
      for (std::size_t k = 0; k < cols.size(); ++k) t_marker[cols[k]] = static_cast<std::int32_t>(k);
    // Step 2: row bits by OR-ing B's row bits, then AND with the mask's.
    masks.assign(16 * cols.size(), row_bits(0));
    for (offset_t ta = A.tile_ptr[I]; ta < A.tile_ptr[I + 1]; ++ta) {
      const index_t K = A.tile_col[ta];
      for (offset_t tb = B.tile_ptr[K]; tb < B.tile_ptr[K + 1]; ++tb) {
        std::ptrdiff_t slot;
        if (use_marker) {
          slot = t_marker[B.tile_col[tb]];
        } else {
          auto pos = std::lower_bound(cols.begin(), cols.end(), B.tile_col[tb]);
          slot = (pos == cols.end() || *pos != B.tile_col[tb]) ? -1 : pos - cols.begin();
        }
        if (slot < 0) continue;
        tile::symbolic_or(&A.row_mask[16 * ta], &B.row_mask[16 * tb], &masks[16 * slot]);
      }
    }
    if (M.active) {
      row_bits allowed[tile_dim];
      for (std::size_t k = 0; k < cols.size(); ++k) {
        M.allowed(I, cols[k], allowed);
        for (int r = 0; r < tile_dim; ++r) masks[16 * k + r] &= allowed[r];
      }
    }
  });
}

tile_columns columns_of(const tile_pattern& B) {
  tile_columns c;
  const index_t tc = B.tile_cols();
  const offset_t nt = B.ntiles();
  c.col_ptr.assign(static_cast<std::size_t>(tc) + 1, 0);
  for (offset_t t = 0; t < nt; ++t) ++c.col_ptr[B.tile_col[t] + 1];
  for (index_t J = 0; J < tc; ++J) c.col_ptr[J + 1] += c.col_ptr[J];
  c.row.resize(static_cast<std::size_t>(nt));
  c.tile.resize(static_cast<std::size_t>(nt));
  std::vector<offset_t> next(c.col_ptr.begin(), c.col_ptr.end() - 1);
  for (index_t K = 0; K < B.tile_rows(); ++K)  // rows in order: K increases within each column
    for (offset_t t = B.tile_ptr[K]; t < B.tile_ptr[K + 1]; ++t) {
      const offset_t q = next[B.tile_col[t]]++;
      c.row[q] = static_cast<tile_index_t>(K);
      c.tile[q] = t;
    }
  return c;
}

namespace {
// Entries per scalar row (rows) and per scalar column (cols) of a pattern,
// computed once per distinct pattern.
struct line_counts {
  buffer<offset_t> rows, cols;  // rows[i + 1]: row i; cols[j]: column j
};

void count_lines(const tile_pattern* t, const csr_pattern* r, line_counts& c) {
  if (t) {
    row_counts(*t, c.rows);
    col_counts(*t, c.cols);
    return;
  }
  c.rows = buffer<offset_t>(static_cast<std::size_t>(r->nrows) + 1, offset_t(0));
  for (index_t i = 0; i < r->nrows; ++i) c.rows[i + 1] = r->row_len(i);
  c.cols = buffer<offset_t>(static_cast<std::size_t>(r->ncols), offset_t(0));
  const offset_t nz = r->nnz();
  for (offset_t e = 0; e < nz; ++e) ++c.cols[r->colidx[e]];
}
}  // namespace

mxm_method choose_mxm_method(operand_pattern A, bool ta, operand_pattern B, bool tb, const host_mask& M,
                             const mxm_policy& policy, const csr_pattern* mask_rows) {
  const bool dot_ok = dot_usable(M.active, M.complement);
  const mxm_method forced = forced_method(policy, dot_ok);
  if (forced != mxm_method::automatic) return forced;
  mxm_work w = stored_work(A, B);
  if (dot_ok) {
    // Gustavson's products: sum over k of (column k of op(A)) * (row k of
    // op(B)). Dot's merge work: sum over mask entries (i,j) of (row i of
    // op(A)) + (column j of op(B)).
    line_counts a, b, m;
    count_lines(A.tiles, A.rows, a);
    const line_counts* pb = &a;
    if (!A.same(B)) {
      count_lines(B.tiles, B.rows, b);
      pb = &b;
    }
    // The mask's listed positions: its rows where it has them, else its tiles.
    if (!mask_rows) mask_rows = M.rows();
    const operand_pattern mp{mask_rows ? nullptr : M.pat, mask_rows};
    const line_counts* pm = &m;
    if (mp.same(A)) pm = &a;
    else if (mp.same(B)) pm = pb;
    else count_lines(mp.tiles, mp.rows, m);
    auto row_of = [](const line_counts& c, bool flip, index_t i) { return flip ? c.cols[i] : c.rows[i + 1]; };
    auto col_of = [](const line_counts& c, bool flip, index_t j) { return flip ? c.rows[j + 1] : c.cols[j]; };
    const index_t inner = ta ? A.nrows() : A.ncols();
    const index_t nrows = mp.nrows(), ncols = mp.ncols();
    for (index_t k = 0; k < inner; ++k) w.products += double(col_of(a, ta, k)) * double(row_of(*pb, tb, k));
    for (index_t i = 0; i < nrows; ++i) w.dot_work += double(pm->rows[i + 1]) * double(row_of(a, ta, i));
    for (index_t j = 0; j < ncols; ++j) w.dot_work += double(pm->cols[j]) * double(col_of(*pb, tb, j));
  }
  return choose_method(w, dot_ok, policy);
}

tile_pattern mxm_symbolic_dot(const tile_pattern& A, const tile_pattern& B, const tile_columns& Bc,
                              const host_mask& M) {
  const tile_pattern& m = *M.pat;
  return assemble_pattern(A.nrows, B.ncols, [&](index_t I, std::vector<tile_index_t>& cols, std::vector<row_bits>& masks) {
    for (offset_t t = m.tile_ptr[I]; t < m.tile_ptr[I + 1]; ++t) {
      const index_t J = m.tile_col[t];
      if (M.prunes(I, J)) continue;
      row_bits bits[tile_dim] = {};
      bool any = false;
      for_each_tile_pair(A, Bc, I, J, [&](offset_t ta, offset_t tb) {
        tile::symbolic_or(&A.row_mask[16 * ta], &B.row_mask[16 * tb], bits);
        any = true;
      });
      if (!any) continue;
      row_bits allowed[tile_dim];
      M.allowed(I, J, allowed);
      cols.push_back(static_cast<tile_index_t>(J));
      for (int r = 0; r < tile_dim; ++r) masks.push_back(row_bits(bits[r] & allowed[r]));
    }
  });
}

}  // namespace tgb::detail::host
