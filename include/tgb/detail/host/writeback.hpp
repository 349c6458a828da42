// tgb host backend: the last step of every operation, C<M, replace> =
// accum(C, T), with GraphBLAS semantics. T is the operation's result in C's
// type; the new C is built aside and swapped in, so a throw changes nothing.
#pragma once

#include <type_traits>

#include "tgb/detail/host/hyper_ops.hpp"
#include "tgb/detail/host/mask.hpp"
#include "tgb/detail/tile/elementwise.hpp"

namespace tgb::detail::host {

// t_within_mask: T was computed only where the mask allows (mxm prunes by the
// mask), so with no accumulator and replace, C is T as it stands.
template <class TC, class Accum>
void writeback(Matrix<TC>& C, const host_mask& M, const Accum& accum, bool replace, tile_matrix<TC>&& T,
               bool t_within_mask) {
  constexpr bool has_accum = !std::is_same_v<Accum, no_accum_t>;
  if (!has_accum && (!M.active || (replace && t_within_mask))) {
    C.assign_tiles(std::move(T));
    return;
  }
  M.need_tiles();
  const tile_view<TC> c_view(C);
  const tile_matrix<TC>& c = *c_view;
  tile_matrix<TC> out;
  out.pat = assemble_pattern(c.pat.nrows, c.pat.ncols,
                             [&](index_t I, std::vector<tile_index_t>& cols, std::vector<row_bits>& masks) {
                               union_tile_cols(&c.pat, &T.pat, I, cols);
                               masks.resize(16 * cols.size());
                               row_bits allowed[tile_dim];
                               for (std::size_t k = 0; k < cols.size(); ++k) {
                                 const offset_t tc = find_tile(c.pat, I, cols[k]);
                                 const offset_t tt = find_tile(T.pat, I, cols[k]);
                                 M.allowed(I, cols[k], allowed);
                                 tile::writeback_bits(tc >= 0 ? &c.pat.row_mask[16 * tc] : nullptr,
                                                      tt >= 0 ? &T.pat.row_mask[16 * tt] : nullptr, allowed,
                                                      has_accum, replace, &masks[16 * k]);
                               }
                             });
  out.values = buffer<TC>(static_cast<std::size_t>(out.pat.nnz()));
  const index_t tm = out.pat.tile_rows();
#pragma omp parallel for schedule(dynamic, 16) if (tm > kParallelRows)
  for (index_t I = 0; I < tm; ++I) {
    row_bits allowed[tile_dim];
    for (offset_t t = out.pat.tile_ptr[I]; t < out.pat.tile_ptr[I + 1]; ++t) {
      const index_t J = out.pat.tile_col[t];
      const offset_t tc = find_tile(c.pat, I, J);
      const offset_t tt = find_tile(T.pat, I, J);
      M.allowed(I, J, allowed);
      tile::writeback_values(tc >= 0 ? tile_at(c, tc) : no_tile<TC>(), tt >= 0 ? tile_at(T, tt) : no_tile<TC>(),
                             allowed, accum, &out.pat.row_mask[16 * t], &out.values[out.pat.tile_offset[t]]);
    }
  }
  C.assign_tiles(std::move(out));
}

// C<M, replace> = accum(C, T) with C and T in rows and the mask's listed
// positions m in rows too (null: no mask, every position admitted): one
// walk a row over C's, T's and the mask's sorted columns, counting, then a
// second writing (rows in parallel), by writeback_keeps (hyper_ops.hpp).
template <class TC, class Accum>
csr_matrix<TC> rows_writeback(const csr_matrix<TC>& c, const csr_matrix<TC>& t, const csr_pattern* m, bool complement,
                              const Accum& accum, bool replace) {
  constexpr bool has_accum = !std::is_same_v<Accum, no_accum_t>;
  const index_t n = c.p.nrows;
  csr_matrix<TC> out;
  out.p = csr_pattern::empty(n, c.p.ncols);
  // Row i's entries into oc/ov (null: counted only).
  auto walk = [&](index_t i, row_col_t* oc, TC* ov) {
    offset_t p = c.p.rowptr[i], q = t.p.rowptr[i], a = m ? m->rowptr[i] : 0, k = 0;
    const offset_t pe = c.p.rowptr[i + 1], qe = t.p.rowptr[i + 1], ae = m ? m->rowptr[i + 1] : 0;
    while (p < pe || q < qe) {
      const bool in_c = p < pe && (q >= qe || c.p.colidx[p] <= t.p.colidx[q]);
      const bool in_t = q < qe && (p >= pe || t.p.colidx[q] <= c.p.colidx[p]);
      const row_col_t j = in_c ? c.p.colidx[p] : t.p.colidx[q];
      bool ok = true;
      if (m) {
        while (a < ae && m->colidx[a] < j) ++a;
        ok = (a < ae && m->colidx[a] == j) != complement;
      }
      if (writeback_keeps(in_c, in_t, ok, replace, has_accum)) {
        if (oc) {
          oc[k] = j;
          if (in_c && in_t && ok) {
            if constexpr (has_accum) ov[k] = accumulate<TC>(accum, c.values[p], t.values[q]);
            else ov[k] = t.values[q];
          } else {
            ov[k] = in_c ? c.values[p] : t.values[q];
          }
        }
        ++k;
      }
      p += in_c;
      q += in_t;
    }
    return k;
  };
  const bool par = c.p.nnz() + t.p.nnz() > kParallelEntries;
#pragma omp parallel for schedule(dynamic, 256) if (par)
  for (index_t i = 0; i < n; ++i) out.p.rowptr[i + 1] = walk(i, nullptr, nullptr);
  for (index_t i = 0; i < n; ++i) out.p.rowptr[i + 1] += out.p.rowptr[i];
  out.p.colidx = buffer<row_col_t>(static_cast<std::size_t>(out.p.nnz()));
  out.values = buffer<TC>(static_cast<std::size_t>(out.p.nnz()));
#pragma omp parallel for schedule(dynamic, 256) if (par)
  for (index_t i = 0; i < n; ++i) walk(i, out.p.colidx.data() + out.p.rowptr[i], out.values.data() + out.p.rowptr[i]);
  return out;
}

// Whether a result in rows merges with C row by row (rows_writeback): C is
// in rows, and the mask, where there is one, lists its positions in rows.
template <class TC>
bool merges_in_rows(const Matrix<TC>& C, const host_mask& M) {
  return C.row_form() && (!M.active || M.rows());
}

// The same for a result in row form: stored as it is where C becomes T,
// merged row by row where C and the mask are rows too (merges_in_rows),
// else through tiles. ntiles: T's tile count where the operation counted it
// (the storage rule's input), else -1.
template <class TC, class Accum>
void writeback(Matrix<TC>& C, const host_mask& M, const Accum& accum, bool replace, csr_matrix<TC>&& T,
               bool t_within_mask, offset_t ntiles = -1) {
  constexpr bool has_accum = !std::is_same_v<Accum, no_accum_t>;
  if (!has_accum && (!M.active || (replace && t_within_mask))) {
    C.assign_rows(std::move(T), ntiles);
    return;
  }
  if (merges_in_rows(C, M)) {
    C.assign_rows(rows_writeback(*C.row_form(), T, M.active ? M.rows() : nullptr, M.complement, accum, replace));
    return;
  }
  writeback(C, M, accum, replace, tiles_of(T), t_within_mask);
}

// The same for a result in hypersparse rows with no mask: C becomes T (in
// the form the rule picks), or merges with it row by row where C is
// hypersparse too (memory and time following the entries); else through tiles.
template <class TC, class Accum>
void writeback_hyper(Matrix<TC>& C, const Accum& accum, hyper_matrix<TC>&& T) {
  if constexpr (std::is_same_v<Accum, no_accum_t>) {
    C.assign_hyper(std::move(T));
  } else if (const hyper_matrix<TC>* c = C.hyper_form()) {
    C.assign_hyper(hyper_accumulate(*c, T, accum));
  } else {
    writeback(C, host_mask{}, accum, false, tiles_of(T), false);
  }
}

// The same under a mask: merged row by row (hyper_masked_writeback) where
// C and the mask are in hypersparse rows too, else through tiles (C or the
// mask in another form already costs memory of the dimension).
template <class TC, class Mask, class Accum>
void writeback_hyper(Matrix<TC>& C, const Mask& mask, const Accum& accum, bool replace, hyper_matrix<TC>&& T) {
  if constexpr (std::is_same_v<Mask, no_mask_t>) {
    (void)replace;
    writeback_hyper(C, accum, std::move(T));
  } else {
    const auto v = as_mask_view(mask);
    check_mask_shape(v.object->nrows(), v.object->ncols(), C.nrows(), C.ncols());
    const auto* m = v.object->hyper_form();
    const hyper_matrix<TC>* c = C.hyper_form();
    if (m && c) {
      C.assign_hyper(hyper_masked_writeback(*c, T, *m, v.structural, v.complemented, accum, replace));
      return;
    }
    writeback(C, make_mask(mask, C.nrows(), C.ncols()), accum, replace, tiles_of(T), false);
  }
}

}  // namespace tgb::detail::host
