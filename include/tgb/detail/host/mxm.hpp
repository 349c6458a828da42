// tgb host backend: the tiled three-step C = A*B.
//   1. tile structure: C's candidate tiles of tile row I are the tile columns
//      of B's rows K for every A tile (I,K), minus those the mask prunes;
//   2. symbolic: each candidate tile's row bits are the OR of B's row bits
//      selected by A's bits (tile::symbolic_or), ANDed with the mask's bits;
//   3. numeric: products accumulate into C's compressed slots (sparse) or a
//      16x16 array (dense, for heavy tiles), in increasing k.
// Steps 1-2 do not depend on types or semiring (mxm_symbolic, compiled once).
// mxm_product picks between this and the row paths (row_saxpy.hpp, mxm_rows.hpp) by one
// rule, choose_mxm_method, with its knobs in an mxm_policy.
#pragma once

#include <algorithm>
#include <vector>

#include "tgb/detail/host/mask.hpp"
#include "tgb/detail/host/row_list.hpp"
#include "tgb/detail/host/row_saxpy.hpp"
#include "tgb/detail/mxm_method.hpp"
#include "tgb/detail/tile/spgemm.hpp"

namespace tgb::detail::host {

// The methods, the policy and the rule are shared with the device
// (tgb/detail/mxm_method.hpp); the host measures the rule's quantities here.
using detail::mxm_method;
using detail::mxm_policy;

// An operand's pattern as the rule reads it: its tiles, or its row form.
struct operand_pattern {
  const tile_pattern* tiles = nullptr;
  const csr_pattern* rows = nullptr;
  operand_pattern(const tile_pattern* t, const csr_pattern* r) : tiles(t), rows(r) {}
  operand_pattern(const tile_pattern& t) : tiles(&t) {}  // NOLINT: a tile pattern is an operand
  index_t nrows() const { return tiles ? tiles->nrows : rows->nrows; }
  index_t ncols() const { return tiles ? tiles->ncols : rows->ncols; }
  offset_t nnz() const { return tiles ? tiles->nnz() : rows->nnz(); }
  bool same(const operand_pattern& o) const { return tiles ? tiles == o.tiles : rows == o.rows; }
};
// A matrix's pattern in the form it is stored in (no conversion); hypersparse
// rows as a tile pattern made into `owned` (nothing cached in the matrix).
template <class M>
operand_pattern pattern_of(const M& m, tile_pattern& owned) {
  if (const auto* r = m.row_form()) return operand_pattern{nullptr, &r->p};
  if (const auto* h = m.hyper_form()) {
    buffer<offset_t> perm;
    owned = pattern_from_hyper(h->p, perm);
    return operand_pattern{&owned, nullptr};
  }
  return operand_pattern{&m.tiles().pat, nullptr};
}

// The rule's quantities the stored operands give without counting: their
// entries and tiles, and whether one of them is in rows.
inline mxm_work stored_work(const operand_pattern& A, const operand_pattern& B) {
  mxm_work w;
  w.entries = double(A.nnz()) + double(B.nnz());
  w.tiles = double(A.tiles ? A.tiles->ntiles() : 0) + double(B.tiles ? B.tiles->ntiles() : 0);
  w.row_operand = A.rows || B.rows;
  return w;
}

// The host's method: the policy's forced one, or choose_method on the
// patterns' line counts (computed only when a dot is possible).
// mask_rows: the mask's listed positions as rows where the caller has them
// (else its own rows or tiles are counted).
mxm_method choose_mxm_method(operand_pattern A, bool ta, operand_pattern B, bool tb, const host_mask& M,
                             const mxm_policy& policy, const csr_pattern* mask_rows = nullptr);


// Up to this many tile columns, steps 1-3 find a tile column's slot through a
// per-thread array indexed by the column (at most 8 MB a thread); past it,
// by sorting and binary search.
inline constexpr index_t kMarkerLimit = index_t(1) << 20;

tile_pattern mxm_symbolic(const tile_pattern& A, const tile_pattern& B, const host_mask& M);

// The masked alternative: for every tile (I,J) of a non-complemented mask,
// merge A's tile row I with B's tile column J (both in increasing K): a tile
// dot product, so only positions the mask admits are ever formed.

// B's tiles by tile column: col_ptr over tile columns, and for each entry the
// tile's row K and its index in B (increasing K within a column).
struct tile_columns {
  std::vector<offset_t> col_ptr;
  std::vector<tile_index_t> row;
  std::vector<offset_t> tile;
};
tile_columns columns_of(const tile_pattern& B);
tile_pattern mxm_symbolic_dot(const tile_pattern& A, const tile_pattern& B, const tile_columns& Bc,
                              const host_mask& M);

// Calls f(a_tile, b_tile) for each K with tiles A(I,K) and B(K,J), in
// increasing K.
template <class F>
void for_each_tile_pair(const tile_pattern& A, const tile_columns& Bc, index_t I, index_t J, F&& f) {
  offset_t pa = A.tile_ptr[I], ea = A.tile_ptr[I + 1];
  offset_t pb = Bc.col_ptr[J], eb = Bc.col_ptr[J + 1];
  while (pa < ea && pb < eb) {
    const tile_index_t ka = A.tile_col[pa], kb = Bc.row[pb];
    if (ka < kb) ++pa;
    else if (kb < ka) ++pb;
    else f(pa++, Bc.tile[pb++]);
  }
}

template <class TC, class TA, class TB, class Semiring>
tile_matrix<TC> mxm_numeric_dot(tile_pattern&& cpat, const tile_matrix<TA>& A, const tile_matrix<TB>& B,
                                const tile_columns& Bc, const Semiring& s, int threshold) {
  tile_matrix<TC> C;
  C.pat = std::move(cpat);
  C.values = buffer<TC>(static_cast<std::size_t>(C.pat.nnz()));
  const tile_pattern& cp = C.pat;
  const index_t tm = cp.tile_rows();
#pragma omp parallel if (tm > kParallelRows)
  {
    row_bits written[tile_dim];
    TC acc[tile_area];
#pragma omp for schedule(dynamic, 8)
    for (index_t I = 0; I < tm; ++I)
      for (offset_t t = cp.tile_ptr[I]; t < cp.tile_ptr[I + 1]; ++t) {
        for (int r = 0; r < tile_dim; ++r) written[r] = 0;
        const bool dense = cp.tile_offset[t + 1] - cp.tile_offset[t] >= threshold;
        TC* out = &C.values[cp.tile_offset[t]];
        for_each_tile_pair(A.pat, Bc, I, cp.tile_col[t], [&](offset_t ta, offset_t tb) {
          if (dense)
            tile::numeric_dense(s.add, s.mul, tile_at(A, ta), tile_at(B, tb), &cp.row_mask[16 * t], acc, written);
          else
            tile::numeric_sparse(s.add, s.mul, tile_at(A, ta), tile_at(B, tb), &cp.row_mask[16 * t],
                                 &cp.row_ptr[16 * t], out, written);
        });
        if (dense) tile::compress_dense(&cp.row_mask[16 * t], acc, out);
      }
  }
  return C;
}

template <class TC, class TA, class TB, class Semiring>
tile_matrix<TC> mxm_numeric(tile_pattern&& cpat, const tile_matrix<TA>& A, const tile_matrix<TB>& B,
                            const Semiring& s, int threshold) {
  tile_matrix<TC> C;
  C.pat = std::move(cpat);
  C.values = buffer<TC>(static_cast<std::size_t>(C.pat.nnz()));
  const tile_pattern& cp = C.pat;
  const index_t tm = cp.tile_rows();
  // C tile of column J in the current tile row, by direct index while the
  // tile columns are few enough (as in mxm_symbolic), else by binary search.
  const index_t tile_cols = cp.tile_cols();
  const bool use_marker = tile_cols <= kMarkerLimit;
  bool failed = false;
#pragma omp parallel if (tm > kParallelRows)
  {
    std::vector<row_bits> written;
    buffer<TC> dense;
    std::vector<int> dense_slot;
    std::vector<offset_t> marker;
    try {
      if (use_marker) marker.assign(static_cast<std::size_t>(tile_cols), -1);
    } catch (...) {
#pragma omp atomic write
      failed = true;
    }
#pragma omp for schedule(dynamic, 8)
    for (index_t I = 0; I < tm; ++I) {
      const offset_t c0 = cp.tile_ptr[I], c1 = cp.tile_ptr[I + 1];
      if (c0 == c1 || (use_marker && marker.empty())) continue;
      try {
        written.assign(16 * (c1 - c0), row_bits(0));
        dense_slot.assign(c1 - c0, -1);
        int ndense = 0;
        for (offset_t t = c0; t < c1; ++t)
          if (cp.tile_offset[t + 1] - cp.tile_offset[t] >= threshold) dense_slot[t - c0] = ndense++;
        dense.ensure(static_cast<std::size_t>(ndense) * tile_area);
        if (use_marker)
          for (offset_t t = c0; t < c1; ++t) marker[cp.tile_col[t]] = t;
        for (offset_t ta = A.pat.tile_ptr[I]; ta < A.pat.tile_ptr[I + 1]; ++ta) {
          const index_t K = A.pat.tile_col[ta];
          const auto at = tile_at(A, ta);
          for (offset_t tb = B.pat.tile_ptr[K]; tb < B.pat.tile_ptr[K + 1]; ++tb) {
            const tile_index_t J = B.pat.tile_col[tb];
            offset_t t;
            if (use_marker) {
              t = marker[J];
            } else {
              const tile_index_t* pos = std::lower_bound(cp.tile_col.data() + c0, cp.tile_col.data() + c1, J);
              t = (pos == cp.tile_col.data() + c1 || *pos != J) ? -1 : pos - cp.tile_col.data();
            }
            if (t < 0) continue;  // pruned by the mask, or emptied by it
            const offset_t l = t - c0;
            if (dense_slot[l] >= 0)
              tile::numeric_dense(s.add, s.mul, at, tile_at(B, tb), &cp.row_mask[16 * t],
                                  &dense[static_cast<std::size_t>(dense_slot[l]) * tile_area], &written[16 * l]);
            else
              tile::numeric_sparse(s.add, s.mul, at, tile_at(B, tb), &cp.row_mask[16 * t], &cp.row_ptr[16 * t],
                                   &C.values[cp.tile_offset[t]], &written[16 * l]);
          }
        }
        if (use_marker)
          for (offset_t t = c0; t < c1; ++t) marker[cp.tile_col[t]] = -1;
        for (offset_t t = c0; t < c1; ++t)
          if (dense_slot[t - c0] >= 0)
            tile::compress_dense(&cp.row_mask[16 * t], &dense[static_cast<std::size_t>(dense_slot[t - c0]) * tile_area],
                                 &C.values[cp.tile_offset[t]]);
      } catch (...) {
#pragma omp atomic write
        failed = true;
      }
    }
  }
  if (failed) throw out_of_memory("tgb: out of memory in mxm");
  return C;
}

// A mask in hypersparse rows, as mxm_hyper_saxpy restricts its product by
// it (m null: no mask).
template <class U>
struct hyper_mask_ref {
  const hyper_matrix<U>* m = nullptr;
  bool structural = false, complement = false;
};

// The rows of mask m that the row saxpy over A's listed rows reads: row k is
// m's row ids[k] (k itself where ids is null), its admitting entries (a
// value mask without its zeros), columns renumbered through cmap where
// given (a column cmap lacks gets no product: dropped).
template <class U>
csr_pattern hyper_mask_rows(const hyper_matrix<U>& m, bool structural, const index_t* ids, index_t nrows,
                            index_t ncols, const buffer<index_t>* cmap) {
  const hyper_pattern& mp = m.p;
  csr_pattern out = csr_pattern::empty(nrows, ncols);
  auto walk = [&](bool write) {
    offset_t n = 0;
    for (index_t k = 0; k < nrows; ++k) {
      const index_t i = ids ? ids[k] : k;
      const index_t* r = std::lower_bound(mp.row.begin(), mp.row.end(), i);
      if (r != mp.row.end() && *r == i) {
        const std::size_t x = static_cast<std::size_t>(r - mp.row.begin());
        for (offset_t e = mp.ptr[x]; e < mp.ptr[x + 1]; ++e) {
          if (!structural && m.values[e] == U(0)) continue;
          index_t j = mp.colidx[e];
          if (cmap) {
            const index_t* c = std::lower_bound(cmap->begin(), cmap->end(), j);
            if (c == cmap->end() || *c != j) continue;
            j = static_cast<index_t>(c - cmap->begin());
          }
          if (write) out.colidx[n] = static_cast<row_col_t>(j);
          ++n;
        }
      }
      if (write) out.rowptr[k + 1] = n;
    }
    return n;
  };
  out.colidx = buffer<row_col_t>(static_cast<std::size_t>(walk(false)));
  walk(true);
  return out;
}

// C = A*B where A or B is stored in hypersparse rows: row saxpy over A's
// listed rows only, with A's columns looked up among B's listed rows
// (entries whose row of B is empty make no products and are dropped), and
// B's columns, where they do not fit a row form's 32 bits, renumbered to the
// distinct columns B has; so time and memory follow the entries, not the
// dimensions. An operand in tiles too wide for a row view is read as
// hypersparse rows made for the call (its entries' worth). Under a mask in
// hypersparse rows (mask.m; A in them too) only the positions it admits are
// made, its rows read for A's listed rows alone. C comes back in hypersparse
// rows where A is, else in rows.
template <class TC, class MA, class MB, class Semiring, class U = bool>
host_product<TC> mxm_hyper_saxpy(const MA& A, const MB& B, const Semiring& s, const mxm_policy& policy,
                                 const hyper_mask_ref<U>& mask = {}) {
  using TA = typename MA::value_type;
  using TB = typename MB::value_type;
  constexpr bool vals = reads_values<Semiring>::value;
  hyper_matrix<TA> ha_owned;
  hyper_matrix<TB> hb_owned;
  const hyper_matrix<TA>* ha = A.hyper_form();
  const hyper_matrix<TB>* hb = B.hyper_form();
  if (!ha && !rows_fit(A.ncols())) ha = &(ha_owned = hyper_of(A.tiles()));  // in tiles: rows would fit
  if (!hb && !rows_fit(B.ncols())) hb = &(hb_owned = hyper_of(B.tiles()));
  // B's columns as C will have them: B's own, or their ranks among B's
  // distinct columns (cmap) where B is too wide for a row form.
  const bool renumbered = hb && !rows_fit(B.ncols());
  buffer<index_t> cmap;
  csr_matrix<TB> b_owned;
  const csr_matrix<TB>* b = nullptr;
  if (hb) {
    const offset_t bz = hb->p.nnz();
    const index_t* hc = hb->p.colidx.data();
    check_rows_fit(hb->p.nvec());  // A's columns become positions among B's listed rows
    b_owned.p.nrows = hb->p.nvec();
    b_owned.p.rowptr = hb->p.ptr;
    b_owned.p.colidx = buffer<row_col_t>(static_cast<std::size_t>(bz));
    if (!renumbered) {
      b_owned.p.ncols = B.ncols();
      for (offset_t e = 0; e < bz; ++e) b_owned.p.colidx[e] = static_cast<row_col_t>(hc[e]);
    } else {
      cmap = buffer<index_t>(static_cast<std::size_t>(bz));
      for (offset_t e = 0; e < bz; ++e) cmap[e] = hc[e];
      std::sort(cmap.begin(), cmap.end());
      const std::size_t nd = static_cast<std::size_t>(std::unique(cmap.begin(), cmap.end()) - cmap.begin());
      cmap = prefix_copy(cmap, nd);
      check_rows_fit(static_cast<index_t>(nd));
      b_owned.p.ncols = static_cast<index_t>(nd);
      for (offset_t e = 0; e < bz; ++e)
        b_owned.p.colidx[e] = static_cast<row_col_t>(std::lower_bound(cmap.begin(), cmap.end(), hc[e]) - cmap.begin());
    }
    if (vals) b_owned.values = hb->values;
    b = &b_owned;
  } else {
    b = rows_for(B, false, vals, b_owned);
  }
  // op(A)'s rows: the listed ones (ids in ha), or all of them; their columns
  // B's listed-row positions where B is hypersparse, else B's rows.
  const index_t a_rows = ha ? ha->p.nvec() : A.nrows();
  csr_matrix<TA> a;
  a.p.nrows = a_rows;
  a.p.ncols = b->p.nrows;
  a.p.rowptr = buffer<offset_t>(static_cast<std::size_t>(a_rows) + 1);
  a.p.rowptr[0] = 0;
  csr_matrix<TA> a_view;
  const csr_matrix<TA>* ar = ha ? nullptr : rows_for(A, false, vals, a_view);
  const offset_t az = ha ? ha->p.nnz() : ar->p.nnz();
  a.p.colidx = buffer<row_col_t>(static_cast<std::size_t>(az));
  if (vals) a.values = buffer<TA>(static_cast<std::size_t>(az));
  const index_t* brow = hb ? hb->p.row.data() : nullptr;
  const index_t nb = hb ? hb->p.nvec() : 0;
  offset_t n = 0;
  for (index_t i = 0; i < a_rows; ++i) {
    const offset_t p0 = ha ? ha->p.ptr[i] : ar->p.rowptr[i], p1 = ha ? ha->p.ptr[i + 1] : ar->p.rowptr[i + 1];
    for (offset_t p = p0; p < p1; ++p) {
      const index_t k = ha ? ha->p.colidx[p] : index_t(ar->p.colidx[p]);
      index_t to = k;
      if (hb) {
        const index_t* at = std::lower_bound(brow, brow + nb, k);
        if (at == brow + nb || *at != k) continue;
        to = static_cast<index_t>(at - brow);
      }
      a.p.colidx[n] = static_cast<row_col_t>(to);
      if (vals) a.values[n] = ha ? ha->values[p] : ar->values[p];
      ++n;
    }
    a.p.rowptr[i + 1] = n;
  }
  saxpy_tuning tune;
  tune.dense_ratio = policy.dense_row_ratio;
  host_mask M;
  if (mask.m) {
    M.active = true;
    M.complement = mask.complement;
    M.owned_rows = hyper_mask_rows(*mask.m, mask.structural, ha ? ha->p.row.data() : nullptr, a_rows, b->p.ncols,
                                   renumbered ? &cmap : nullptr);
    M.rows_owned = true;
  }
  host_product<TC> c = mxm_rows_saxpy<TC>(a, *b, M, s, tune, storage_control::rows);
  if (!ha && !renumbered) {
    c.rows.p.ncols = B.ncols();
    return c;
  }
  // C's rows are A's listed rows (the non-empty ones, with their own ids),
  // its columns B's (cmap undone): hypersparse rows.
  host_product<TC> out;
  out.in_hyper = true;
  out.hyper = hyper_of(std::move(c.rows), renumbered ? &cmap : nullptr);
  if (ha)
    for (index_t k = 0; k < out.hyper.p.nvec(); ++k) out.hyper.p.row[k] = ha->p.row[out.hyper.p.row[k]];
  out.hyper.p.nrows = A.nrows();
  out.hyper.p.ncols = B.ncols();
  return out;
}

// C = op(A) * op(B) (op: transpose where ta / tb), masked by M, by the
// method the policy names or the rule picks. A and B are Matrix objects:
// the row methods read their row forms, the tile methods their tiles.
// out_control: how the result will be stored (C's control where C becomes
// the product, tiles where the product merges into C through tiles).
template <class TC, class MA, class MB, class Semiring>
host_product<TC> mxm_product(const MA& A, bool ta, const MB& B, bool tb, const host_mask& M, const Semiring& s,
                             const mxm_policy& policy = {},
                             storage_control out_control = storage_control::automatic) {
  using TA = typename MA::value_type;
  using TB = typename MB::value_type;
  constexpr bool vals = reads_values<Semiring>::value;
  const bool dot_ok = dot_usable(M.active, M.complement);
  const mxm_method forced = forced_method(policy, dot_ok);
  if (!M.active && !ta && !tb && (A.hyper_form() || B.hyper_form()) &&
      (forced == mxm_method::automatic || forced == mxm_method::row_saxpy))
    return mxm_hyper_saxpy<TC>(A, B, s, policy);
  // The row methods' views (op(A)'s rows, made from A's rows where ta; op(B)'s
  // rows or columns; the mask's rows) have 32-bit columns: past that, only
  // the tile methods.
  const index_t inner = ta ? A.nrows() : A.ncols(), outer = tb ? B.nrows() : B.ncols();
  const bool rows_ok = rows_fit(inner) && rows_fit(outer) && (!ta || rows_fit(A.ncols()));
  // Whether the mask is op(X)'s own structure (the triangle product's
  // C<L> = L L'): then its rows are X's rows, made once.
  auto own_structure = [&](const auto& X, bool flipped) {
    return !flipped && !M.rows() && !X.row_form() && !X.hyper_form() && M.pat && M.pat == &X.tiles().pat &&
           M.bits == M.pat->row_mask.data();
  };
  // A masked product measures line counts for the rule, and runs a row
  // method unless both operands are tiles dense enough for the tile path:
  // then op(A)'s rows are made first, and the rule counts on them (and on
  // the mask where it is A's structure) instead of on the tiles. (Where the
  // tile path is possible the rule must see the tiles: it reads the rows as
  // a row-form operand.)
  tile_pattern a_owned_pat, b_owned_pat;  // hypersparse operands' tile patterns
  const operand_pattern pA = pattern_of(A, a_owned_pat), pB = pattern_of(B, b_owned_pat);
  const mxm_work stored = stored_work(pA, pB);
  const bool tile_path_possible = !stored.row_operand && tiles_dense(stored, policy);
  csr_matrix<TA> a_owned;
  const csr_matrix<TA>* a = nullptr;
  const bool rows_first =
      rows_ok && dot_ok &&
      (forced == mxm_method::row_dot || forced == mxm_method::row_saxpy ||
       (forced == mxm_method::automatic && !tile_path_possible));
  if (rows_first) a = rows_for(A, ta, vals, a_owned);
  const bool b_is_a = static_cast<const void*>(&A) == static_cast<const void*>(&B);
  const csr_pattern* mask_rows = M.rows();
  if (!mask_rows && a && own_structure(A, ta)) mask_rows = &a->p;
  // Past 32-bit columns, the tile Gustavson (the rule's line counts, the row
  // methods and the tile dot's column lists would all take memory in
  // proportion to the width).
  mxm_method how = rows_ok || forced == mxm_method::tile_dot ? forced : mxm_method::tile_gustavson;
  if (how == mxm_method::automatic) {
    if (a) {
      // op(A) is a's rows; B, where it is A, is a's rows transposed or not.
      const operand_pattern pa{nullptr, &a->p};
      how = choose_mxm_method(pa, false, b_is_a ? pa : pB, b_is_a ? tb != ta : tb, M, policy, mask_rows);
    } else {
      how = choose_mxm_method(pA, ta, pB, tb, M, policy);
    }
  }
  host_product<TC> out;
  if (how == mxm_method::row_saxpy || how == mxm_method::row_dot) {
    // B's rows for saxpy (op(B)), or its columns for dot (op(B)'). One
    // view serves both operands when they are the same matrix the same way.
    const bool b_flip = how == mxm_method::row_dot ? !tb : tb;
    csr_matrix<TB> b_owned;
    if (!a) a = rows_for(A, ta, vals, a_owned);
    const csr_matrix<TB>* b = nullptr;
    if constexpr (std::is_same_v<TA, TB>) {
      if (b_is_a && ta == b_flip) b = a;
    }
    if (!b) b = rows_for(B, b_flip, vals, b_owned);
    if (how == mxm_method::row_dot) {
      out.in_rows = true;
      // The mask's rows: its own where it is stored in rows, A's or B's
      // where it is that matrix's structure, else made from its tiles.
      csr_pattern scratch;
      if (!mask_rows && own_structure(B, b_flip)) mask_rows = &b->p;
      out.rows = mxm_rows_dot<TC>(*a, *b, mask_rows ? *mask_rows : listed_rows(M, scratch), s);
      return out;
    }
    // Saxpy counts C's entries and tiles as it makes C's rows, and writes
    // the form out_control names, or the one the storage rule picks for C.
    saxpy_tuning tune;
    tune.dense_ratio = policy.dense_row_ratio;
    return mxm_rows_saxpy<TC>(*a, *b, M, s, tune, out_control);
  }
  M.need_tiles();
  const tile_view<TA> A_view(A);
  const tile_view<TB> B_view(B);
  const tile_matrix<TA>& A0 = *A_view;
  const tile_matrix<TB>& B0 = *B_view;
  tile_matrix<TA> at;
  tile_matrix<TB> bt;
  if (ta) at = transpose_tiles(A0);
  if (tb) bt = transpose_tiles(B0);
  const tile_matrix<TA>& opa = ta ? at : A0;  // op(A), op(B) as tiles
  const tile_matrix<TB>& opb = tb ? bt : B0;
  if (how == mxm_method::tile_dot) {
    const tile_columns Bc = columns_of(opb.pat);
    out.tiles = mxm_numeric_dot<TC>(mxm_symbolic_dot(opa.pat, opb.pat, Bc, M), opa, opb, Bc, s,
                                    policy.dense_tile_threshold);
  } else {
    out.tiles = mxm_numeric<TC>(mxm_symbolic(opa.pat, opb.pat, M), opa, opb, s, policy.dense_tile_threshold);
  }
  return out;
}

}  // namespace tgb::detail::host
