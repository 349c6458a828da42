// tgb host backend: element-wise operations, apply and select. Each computes
// T tile row by tile row with the per-tile routines, then hands it to the
// write-back.
#pragma once

#include <limits>
#include <vector>

#include "tgb/detail/host/mask.hpp"
#include "tgb/detail/tile/elementwise.hpp"

namespace tgb::detail::host {

// The union (add = true) or intersection of two patterns of one shape.
inline tile_pattern merge_patterns(const tile_pattern& A, const tile_pattern& B, bool add) {
  return assemble_pattern(A.nrows, A.ncols, [&](index_t I, std::vector<tile_index_t>& cols, std::vector<row_bits>& masks) {
    union_tile_cols(&A, &B, I, cols);
    masks.resize(16 * cols.size());
    for (std::size_t k = 0; k < cols.size(); ++k) {
      const offset_t ta = find_tile(A, I, cols[k]);
      const offset_t tb = find_tile(B, I, cols[k]);
      const row_bits* am = ta >= 0 ? &A.row_mask[16 * ta] : nullptr;
      const row_bits* bm = tb >= 0 ? &B.row_mask[16 * tb] : nullptr;
      if (add) tile::union_bits(am, bm, &masks[16 * k]);
      else tile::intersect_bits(am, bm, &masks[16 * k]);
    }
  });
}

// Union (add = true) or intersection of A and B; op where both are stored.
template <class TC, class TA, class TB, class Op>
tile_matrix<TC> ewise(const tile_matrix<TA>& A, const tile_matrix<TB>& B, const Op& op, bool add) {
  tile_matrix<TC> T;
  T.pat = merge_patterns(A.pat, B.pat, add);
  T.values = buffer<TC>(static_cast<std::size_t>(T.pat.nnz()));
  const index_t tm = T.pat.tile_rows();
#pragma omp parallel for schedule(dynamic, 16) if (tm > kParallelRows)
  for (index_t I = 0; I < tm; ++I)
    for (offset_t t = T.pat.tile_ptr[I]; t < T.pat.tile_ptr[I + 1]; ++t) {
      const index_t J = T.pat.tile_col[t];
      const offset_t ta = find_tile(A.pat, I, J);
      const offset_t tb = find_tile(B.pat, I, J);
      tile::ewise_values(ta >= 0 ? tile_at(A, ta) : no_tile<TA>(), tb >= 0 ? tile_at(B, tb) : no_tile<TB>(), op,
                         &T.pat.row_mask[16 * t], &T.values[T.pat.tile_offset[t]]);
    }
  return T;
}

// GxB_eWiseUnion: the union of A and B, op(a, b) where both are stored,
// op(a, beta) where only A is, op(alpha, b) where only B is; all in op's
// domain, the result cast to TC.
template <class TC, class TA, class TB, class Op, class SA, class SB>
tile_matrix<TC> ewise_union(const tile_matrix<TA>& A, const SA& alpha, const tile_matrix<TB>& B, const SB& beta,
                            const Op& op) {
  using D = op_domain_t<Op, TA, TB>;
  const D da = cast<D>(alpha), db = cast<D>(beta);
  tile_matrix<TC> T;
  T.pat = merge_patterns(A.pat, B.pat, true);
  T.values = buffer<TC>(static_cast<std::size_t>(T.pat.nnz()));
  const index_t tm = T.pat.tile_rows();
#pragma omp parallel for schedule(dynamic, 16) if (tm > kParallelRows)
  for (index_t I = 0; I < tm; ++I)
    for (offset_t t = T.pat.tile_ptr[I]; t < T.pat.tile_ptr[I + 1]; ++t) {
      const index_t J = T.pat.tile_col[t];
      const offset_t ta = find_tile(A.pat, I, J), tb = find_tile(B.pat, I, J);
      const auto a = ta >= 0 ? tile_at(A, ta) : no_tile<TA>();
      const auto b = tb >= 0 ? tile_at(B, tb) : no_tile<TB>();
      TC* out = &T.values[T.pat.tile_offset[t]];
      for (int r = 0; r < tile_dim; ++r) {  // (16,16) tile, values in out's bit order
        const row_bits bits = T.pat.row_mask[16 * t + r];
        tile::union_row_values<TC, D>(a, b, r, op, da, db, bits, out);
        out += tile::popcount16(bits);
      }
    }
  return T;
}

// Same pattern as A, values f(a) in TC.
template <class TC, class TA, class F>
tile_matrix<TC> apply(const tile_matrix<TA>& A, const F& f) {
  tile_matrix<TC> T;
  T.pat = A.pat;
  const std::size_t n = A.values.size();
  T.values = buffer<TC>(n);
#pragma omp parallel for schedule(static) if (n > 65536)
  for (std::size_t e = 0; e < n; ++e) T.values[e] = cast<TC>(f(A.values[e]));
  return T;
}

// Same pattern as A, values f(a, i, j, thunk) in TC: an index-unary operator
// applied as a value (GrB_Matrix_apply_IndexOp).
template <class TC, class TA, class F, class Y>
tile_matrix<TC> apply_index(const tile_matrix<TA>& A, const F& f, const Y& thunk) {
  tile_matrix<TC> T;
  T.pat = A.pat;
  T.values = buffer<TC>(A.values.size());
  const index_t tm = A.pat.tile_rows();
#pragma omp parallel for schedule(dynamic, 16) if (tm > kParallelRows)
  for (index_t I = 0; I < tm; ++I)
    for (offset_t t = A.pat.tile_ptr[I]; t < A.pat.tile_ptr[I + 1]; ++t) {
      const auto a = tile_at(A, t);
      const index_t row0 = I * tile_dim, col0 = index_t(A.pat.tile_col[t]) * tile_dim;
      TC* out = &T.values[A.pat.tile_offset[t]];
      for (int r = 0; r < tile_dim; ++r) tile::apply_index_row(a, r, row0, col0, f, thunk, out);
    }
  return T;
}

// Entries of A for which pred(a, i, j, thunk) holds, cast to TC.
template <class TC, class TA, class Pred, class Y>
tile_matrix<TC> select(const tile_matrix<TA>& A, const Pred& pred, const Y& thunk) {
  tile_matrix<TC> T;
  T.pat = assemble_pattern(A.pat.nrows, A.pat.ncols,
                           [&](index_t I, std::vector<tile_index_t>& cols, std::vector<row_bits>& masks) {
                             const offset_t t0 = A.pat.tile_ptr[I], t1 = A.pat.tile_ptr[I + 1];
                             cols.assign(A.pat.tile_col.data() + t0, A.pat.tile_col.data() + t1);
                             masks.resize(16 * cols.size());
                             for (offset_t t = t0; t < t1; ++t)
                               tile::select_bits(tile_at(A, t), I * tile_dim, index_t(A.pat.tile_col[t]) * tile_dim,
                                                 pred, thunk, &masks[16 * (t - t0)]);
                           });
  T.values = buffer<TC>(static_cast<std::size_t>(T.pat.nnz()));
  const index_t tm = T.pat.tile_rows();
#pragma omp parallel for schedule(dynamic, 16) if (tm > kParallelRows)
  for (index_t I = 0; I < tm; ++I)
    for (offset_t t = T.pat.tile_ptr[I]; t < T.pat.tile_ptr[I + 1]; ++t) {
      const offset_t ta = find_tile(A.pat, I, T.pat.tile_col[t]);
      tile::select_values(tile_at(A, ta), &T.pat.row_mask[16 * t], &T.values[T.pat.tile_offset[t]]);
    }
  return T;
}

// ---- apply and select on sorted rows ------------------------------------------
// The row form and hypersparse rows, read without a tile copy (unmasked and
// without an accumulator, operations.hpp calls these): the same per-entry
// calls as the tile routines above.

template <class TC, class TA, class F>
buffer<TC> apply_values(const buffer<TA>& v, const F& f) {
  const std::size_t n = v.size();
  buffer<TC> out(n);
#pragma omp parallel for schedule(static) if (n > 65536)
  for (std::size_t e = 0; e < n; ++e) out[e] = cast<TC>(f(v[e]));
  return out;
}
template <class TC, class TA, class F>
csr_matrix<TC> apply(const csr_matrix<TA>& A, const F& f) {
  csr_matrix<TC> T;
  T.p.nrows = A.p.nrows;
  T.p.ncols = A.p.ncols;
  T.p.rowptr = A.p.rowptr;
  T.p.colidx = A.p.colidx;
  T.values = apply_values<TC>(A.values, f);
  return T;
}
template <class TC, class TA, class F>
hyper_matrix<TC> apply(const hyper_matrix<TA>& A, const F& f) {
  hyper_matrix<TC> T;
  T.p = A.p;
  T.values = apply_values<TC>(A.values, f);
  return T;
}

// Hypersparse rows, values f(a, i, j, thunk) in TC: the listed rows only,
// so the cost follows the entries, not the dimension.
template <class TC, class TA, class F, class Y>
hyper_matrix<TC> apply_index(const hyper_matrix<TA>& A, const F& f, const Y& thunk) {
  hyper_matrix<TC> T;
  T.p = A.p;
  T.values = buffer<TC>(A.values.size());
  const index_t nvec = A.p.nvec();
#pragma omp parallel for schedule(dynamic, 256) if (A.values.size() > 65536)
  for (index_t k = 0; k < nvec; ++k)
    for (offset_t e = A.p.ptr[k]; e < A.p.ptr[k + 1]; ++e)
      T.values[e] = cast<TC>(f(A.values[e], A.p.row[k], A.p.colidx[e], thunk));
  return T;
}

// Union (add = true) or intersection of two row forms of one shape; op where
// both are stored, cast through op's domain as the tile routine does.
template <class TC, class TA, class TB, class Op>
csr_matrix<TC> ewise(const csr_matrix<TA>& A, const csr_matrix<TB>& B, const Op& op, bool add) {
  using D = op_domain_t<Op, TA, TB>;
  const index_t n = A.p.nrows;
  csr_matrix<TC> T;
  T.p.nrows = n;
  T.p.ncols = A.p.ncols;
  T.p.rowptr = buffer<offset_t>(static_cast<std::size_t>(n) + 1);
  T.p.rowptr[0] = 0;
  const bool par = A.p.nnz() + B.p.nnz() > 65536;
  // Walks row i of both; emit(col, a or null, b or null) for each output entry.
  auto merge = [&](index_t i, auto&& emit) {
    offset_t p = A.p.rowptr[i], q = B.p.rowptr[i];
    const offset_t pe = A.p.rowptr[i + 1], qe = B.p.rowptr[i + 1];
    while (p < pe || q < qe) {
      const row_col_t ca = p < pe ? A.p.colidx[p] : std::numeric_limits<row_col_t>::max();
      const row_col_t cb = q < qe ? B.p.colidx[q] : std::numeric_limits<row_col_t>::max();
      if (ca == cb) emit(ca, &A.values[p++], &B.values[q++]);
      else if (ca < cb) {
        if (add) emit(ca, &A.values[p], static_cast<const TB*>(nullptr));
        ++p;
        if (!add && q >= qe) p = pe;
      } else {
        if (add) emit(cb, static_cast<const TA*>(nullptr), &B.values[q]);
        ++q;
        if (!add && p >= pe) q = qe;
      }
    }
  };
#pragma omp parallel for schedule(dynamic, 1024) if (par)
  for (index_t i = 0; i < n; ++i) {
    offset_t k = 0;
    merge(i, [&](row_col_t, const TA*, const TB*) { ++k; });
    T.p.rowptr[i + 1] = k;
  }
  for (index_t i = 0; i < n; ++i) T.p.rowptr[i + 1] += T.p.rowptr[i];
  const offset_t nz = T.p.rowptr[n];
  T.p.colidx = buffer<row_col_t>(static_cast<std::size_t>(nz));
  T.values = buffer<TC>(static_cast<std::size_t>(nz));
#pragma omp parallel for schedule(dynamic, 1024) if (par)
  for (index_t i = 0; i < n; ++i) {
    offset_t o = T.p.rowptr[i];
    merge(i, [&](row_col_t c, const TA* a, const TB* b) {
      T.p.colidx[o] = c;
      if (a && b) T.values[o] = cast<TC>(op(cast<D>(*a), cast<D>(*b)));
      else if (a) T.values[o] = cast<TC>(cast<D>(*a));
      else T.values[o] = cast<TC>(cast<D>(*b));
      ++o;
    });
  }
  return T;
}

// The entries of nvec listed rows (row k is row_id(k), its entries
// ptr[k]..ptr[k+1]) that pred(a, i, j, thunk) keeps: out_ptr, out_col and
// out_val in the same row order.
template <class TC, class Col, class TA, class RowId, class Pred, class Y>
void select_listed(index_t nvec, const offset_t* ptr, const Col* col, const TA* val, RowId&& row_id,
                   const Pred& pred, const Y& thunk, buffer<offset_t>& out_ptr, buffer<Col>& out_col,
                   buffer<TC>& out_val) {
  out_ptr = buffer<offset_t>(static_cast<std::size_t>(nvec) + 1);
  out_ptr[0] = 0;
  const bool par = ptr[nvec] > 65536;
#pragma omp parallel for schedule(static, 1024) if (par)
  for (index_t k = 0; k < nvec; ++k) {
    offset_t n = 0;
    const index_t i = row_id(k);
    for (offset_t p = ptr[k]; p < ptr[k + 1]; ++p) n += pred(val[p], i, index_t(col[p]), thunk) ? 1 : 0;
    out_ptr[k + 1] = n;
  }
  for (index_t k = 0; k < nvec; ++k) out_ptr[k + 1] += out_ptr[k];
  out_col = buffer<Col>(static_cast<std::size_t>(out_ptr[nvec]));
  out_val = buffer<TC>(static_cast<std::size_t>(out_ptr[nvec]));
#pragma omp parallel for schedule(static, 1024) if (par)
  for (index_t k = 0; k < nvec; ++k) {
    offset_t o = out_ptr[k];
    const index_t i = row_id(k);
    for (offset_t p = ptr[k]; p < ptr[k + 1]; ++p)
      if (pred(val[p], i, index_t(col[p]), thunk)) {
        out_col[o] = col[p];
        out_val[o++] = cast<TC>(val[p]);
      }
  }
}
template <class TC, class TA, class Pred, class Y>
csr_matrix<TC> select(const csr_matrix<TA>& A, const Pred& pred, const Y& thunk) {
  csr_matrix<TC> T;
  T.p.nrows = A.p.nrows;
  T.p.ncols = A.p.ncols;
  select_listed<TC>(A.p.nrows, A.p.rowptr.data(), A.p.colidx.data(), A.values.data(), [](index_t k) { return k; },
                    pred, thunk, T.p.rowptr, T.p.colidx, T.values);
  return T;
}
template <class TC, class TA, class Pred, class Y>
hyper_matrix<TC> select(const hyper_matrix<TA>& A, const Pred& pred, const Y& thunk) {
  const index_t nvec = A.p.nvec();
  hyper_matrix<TC> T = hyper_matrix<TC>::empty(A.p.nrows, A.p.ncols);
  buffer<offset_t> ptr;
  select_listed<TC>(nvec, A.p.ptr.data(), A.p.colidx.data(), A.values.data(), [&](index_t k) { return A.p.row[k]; },
                    pred, thunk, ptr, T.p.colidx, T.values);
  // The rows left empty are no longer listed.
  list_nonempty_rows(nvec, ptr.data(), [&](index_t k) { return A.p.row[k]; }, T.p);
  return T;
}

}  // namespace tgb::detail::host
