// tgb host backend: the last step of every operation, C<M, replace> =
// accum(C, T), with GraphBLAS semantics. T is the operation's result in C's
// type; the new C is built aside and swapped in, so a throw changes nothing.
#pragma once

#include <type_traits>

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

// C = accum(C, T) with no mask, both in hypersparse rows: merged row by row
// over the listed rows (memory and time follow the entries).
template <class TC, class Accum>
hyper_matrix<TC> hyper_accumulate(const hyper_matrix<TC>& c, const hyper_matrix<TC>& t, const Accum& accum) {
  const hyper_pattern &cp = c.p, &tp = t.p;
  hyper_matrix<TC> out = hyper_matrix<TC>::empty(cp.nrows, cp.ncols);
  // One walk of the union, twice: counting its rows and entries (write
  // false), then writing them into arrays of that size (write true).
  std::size_t nvec = 0, nnz = 0;
  auto walk = [&](bool write) {
    std::size_t k = 0, e = 0;
    for (index_t a = 0, b = 0; a < cp.nvec() || b < tp.nvec();) {
      const index_t ra = a < cp.nvec() ? cp.row[a] : -1, rb = b < tp.nvec() ? tp.row[b] : -1;
      const bool ina = a < cp.nvec() && (rb < 0 || ra <= rb), inb = b < tp.nvec() && (ra < 0 || rb <= ra);
      if (write) {
        out.p.row[k] = ina ? ra : rb;
        out.p.ptr[k] = static_cast<offset_t>(e);
      }
      ++k;
      offset_t p = ina ? cp.ptr[a] : 0, pe = ina ? cp.ptr[a + 1] : 0, q = inb ? tp.ptr[b] : 0, qe = inb ? tp.ptr[b + 1] : 0;
      while (p < pe || q < qe) {
        const bool take_c = q == qe || (p < pe && cp.colidx[p] <= tp.colidx[q]);
        const bool take_t = p == pe || (q < qe && tp.colidx[q] <= cp.colidx[p]);
        if (write) {
          out.p.colidx[e] = take_c ? cp.colidx[p] : tp.colidx[q];
          out.values[e] = take_c && take_t ? accumulate<TC>(accum, c.values[p], t.values[q])
                          : take_c         ? c.values[p]
                                           : t.values[q];
        }
        ++e;
        p += take_c, q += take_t;
      }
      a += ina, b += inb;
    }
    nvec = k;
    nnz = e;
  };
  walk(false);
  out.p.row = buffer<index_t>(nvec);
  out.p.ptr = buffer<offset_t>(nvec + 1);
  out.p.colidx = buffer<index_t>(nnz);
  out.values = buffer<TC>(nnz);
  walk(true);
  out.p.ptr[nvec] = static_cast<offset_t>(nnz);
  return out;
}

// The same for a result in row form: stored as it is where C becomes T,
// through tiles where it merges with C. ntiles: T's tile count where the
// operation counted it (the storage rule's input), else -1.
template <class TC, class Accum>
void writeback(Matrix<TC>& C, const host_mask& M, const Accum& accum, bool replace, csr_matrix<TC>&& T,
               bool t_within_mask, offset_t ntiles = -1) {
  constexpr bool has_accum = !std::is_same_v<Accum, no_accum_t>;
  if (!has_accum && (!M.active || (replace && t_within_mask))) {
    C.assign_rows(std::move(T), ntiles);
    return;
  }
  writeback(C, M, accum, replace, tiles_of(T), t_within_mask);
}

}  // namespace tgb::detail::host
