// tgb: per-tile pieces of the element-wise operations and of the final
// "C<M> = accum(C, T)" write-back that every operation ends with.
#pragma once

#include <type_traits>

#include "tgb/algebra.hpp"
#include "tgb/detail/tile/ref.hpp"

namespace tgb {
// Placeholder for "no accumulator"; compiles away.
struct no_accum_t {};
inline constexpr no_accum_t no_accum{};
}  // namespace tgb

namespace tgb::detail::tile {

// Write-back bits, one row: Z = accum ? C|T : T; keep Z where the mask
// allows, and old C elsewhere unless replacing.
TGB_HD inline row_bits writeback_row_bits(row_bits cr, row_bits tr, row_bits allowed, bool has_accum, bool replace) {
  const row_bits z = has_accum ? row_bits(cr | tr) : tr;
  return row_bits((z & allowed) | (replace ? 0 : (cr & ~allowed)));
}

// (16,16) write-back bits.
TGB_HD inline void writeback_bits(const row_bits* c, const row_bits* t, const row_bits* allowed, bool has_accum,
                                  bool replace, row_bits* out) {
  for (int r = 0; r < tile_dim; ++r)
    out[r] = writeback_row_bits(c ? c[r] : row_bits(0), t ? t[r] : row_bits(0), allowed[r], has_accum, replace);
}

// Write-back values of row r, in out's bit order (out_row = the row's first slot).
template <class TC, class Accum>
TGB_HD inline void writeback_row_values(const tile_ref_t<TC>& c, const tile_ref_t<TC>& t, int r, row_bits allowed,
                                        const Accum& accum, row_bits out_bits, TC* out_row) {
  int n = 0;
  std::uint32_t bits = out_bits;
  while (bits) {
    const int j = lowest_bit(bits);
    bits &= bits - 1;
    bool has_c = false, has_t = false;
    const TC cv = c.at(r, j, has_c);
    const TC tv = t.at(r, j, has_t);
    TC v;
    if (!((allowed >> j) & 1u)) {
      v = cv;  // outside the mask: old C kept
    } else if constexpr (std::is_same_v<Accum, no_accum_t>) {
      v = tv;
    } else {
      v = has_c ? (has_t ? tgb::detail::accumulate<TC>(accum, cv, tv) : cv) : tv;
    }
    out_row[n++] = v;
  }
}

// (16,16) write-back values, in out's bit order.
template <class TC, class Accum>
TGB_HD inline void writeback_values(tile_ref_t<TC> c, tile_ref_t<TC> t, const row_bits* allowed,
                                    const Accum& accum, const row_bits* out_mask, TC* out) {
  int n = 0;
  for (int r = 0; r < tile_dim; ++r) {
    writeback_row_values(c, t, r, allowed[r], accum, out_mask[r], out + n);
    n += popcount16(out_mask[r]);
  }
}

// Element-wise union (ewise_add) bits.
TGB_HD inline void union_bits(const row_bits* a, const row_bits* b, row_bits* out) {
  for (int r = 0; r < tile_dim; ++r) out[r] = row_bits((a ? a[r] : 0) | (b ? b[r] : 0));
}
// Element-wise intersection (ewise_mult) bits.
TGB_HD inline void intersect_bits(const row_bits* a, const row_bits* b, row_bits* out) {
  for (int r = 0; r < tile_dim; ++r) out[r] = row_bits((a && b) ? (a[r] & b[r]) : 0);
}

// Values of an element-wise operation, row r, in out's bit order: op(a, b)
// where both are stored, the single stored operand (cast) otherwise (union
// only). Operands are cast to the operator's domain (op_domain_t), a lone
// operand too, then the result to TC.
template <class TC, class TA, class TB, class Op>
TGB_HD inline void ewise_row_values(const tile_ref_t<TA>& a, const tile_ref_t<TB>& b, int r, const Op& op,
                                    row_bits out_bits, TC* out_row) {
  int n = 0;
  std::uint32_t bits = out_bits;
  while (bits) {
    const int j = lowest_bit(bits);
    bits &= bits - 1;
    bool has_a = false, has_b = false;
    const TA av = a.at(r, j, has_a);
    const TB bv = b.at(r, j, has_b);
    using D = op_domain_t<Op, TA, TB>;
    if (has_a && has_b) out_row[n++] = cast<TC>(op(cast<D>(av), cast<D>(bv)));
    else if (has_a) out_row[n++] = cast<TC>(cast<D>(av));  // through the domain, as the device's
    else out_row[n++] = cast<TC>(cast<D>(bv));             // operands are (both backends agree)
  }
}

// Values of GxB_eWiseUnion, row r, in out's bit order: op(a, b) where both
// are stored, op(a, beta) where only a is, op(alpha, b) where only b is; the
// operands cast to D (the operator's domain, as the fills already are), the
// result to TC.
template <class TC, class D, class TA, class TB, class Op>
TGB_HD inline void union_row_values(const tile_ref_t<TA>& a, const tile_ref_t<TB>& b, int r, const Op& op, D alpha,
                                    D beta, row_bits out_bits, TC* out_row) {
  int n = 0;
  for (std::uint32_t bits = out_bits; bits; bits &= bits - 1) {
    const int j = lowest_bit(bits);
    bool has_a = false, has_b = false;
    const TA av = a.at(r, j, has_a);
    const TB bv = b.at(r, j, has_b);
    out_row[n++] = cast<TC>(op(has_a ? cast<D>(av) : alpha, has_b ? cast<D>(bv) : beta));
  }
}

// (16,16) element-wise values, in out's bit order.
template <class TC, class TA, class TB, class Op>
TGB_HD inline void ewise_values(tile_ref_t<TA> a, tile_ref_t<TB> b, const Op& op, const row_bits* out_mask,
                                TC* out) {
  int n = 0;
  for (int r = 0; r < tile_dim; ++r) {
    ewise_row_values(a, b, r, op, out_mask[r], out + n);
    n += popcount16(out_mask[r]);
  }
}

// apply_index, row r of tile (row0, col0): f(a, i, j, thunk) of each entry,
// cast to TC, at the entry's place in the tile's values `out`.
template <class TC, class T, class F, class Y>
TGB_HD inline void apply_index_row(const tile_ref_t<T>& a, int r, index_t row0, index_t col0, const F& f,
                                   const Y& thunk, TC* out) {
  for (int p = a.row_begin(r), pe = a.row_end(r); p < pe; ++p)
    out[p] = cast<TC>(f(a.values[p], row0 + r, col0 + a.col_idx[p], thunk));
}

// Select, row r of tile (row0, col0): bits of the entries the predicate keeps.
template <class T, class Pred, class Y>
TGB_HD inline row_bits select_row_bits(const tile_ref_t<T>& a, int r, index_t row0, index_t col0, const Pred& pred,
                                       const Y& thunk) {
  row_bits keep = 0;
  for (int p = a.row_begin(r), pe = a.row_end(r); p < pe; ++p) {
    const int c = a.col_idx[p];
    if (pred(a.values[p], row0 + r, col0 + c, thunk)) keep = row_bits(keep | (1u << c));
  }
  return keep;
}

// (16,16) select bits.
template <class T, class Pred, class Y>
TGB_HD inline void select_bits(tile_ref_t<T> a, index_t row0, index_t col0, const Pred& pred, const Y& thunk,
                               row_bits* out) {
  for (int r = 0; r < tile_dim; ++r) out[r] = select_row_bits(a, r, row0, col0, pred, thunk);
}

// The kept entries of row r, in order, cast to TC.
template <class TC, class T>
TGB_HD inline void select_row_values(const tile_ref_t<T>& a, int r, row_bits kept, TC* out_row) {
  int n = 0;
  for (int p = a.row_begin(r), pe = a.row_end(r); p < pe; ++p)
    if ((kept >> a.col_idx[p]) & 1u) out_row[n++] = cast<TC>(a.values[p]);
}

// (16,16) values of a selected tile: the kept entries, in order.
template <class TC, class T>
TGB_HD inline void select_values(tile_ref_t<T> a, const row_bits* kept, TC* out) {
  int n = 0;
  for (int r = 0; r < tile_dim; ++r) {
    select_row_values(a, r, kept[r], out + n);
    n += popcount16(kept[r]);
  }
}

}  // namespace tgb::detail::tile
