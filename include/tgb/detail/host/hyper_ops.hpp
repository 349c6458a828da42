// tgb host backend: operations on hypersparse rows whose memory and time
// follow the entries, never the dimension: the row-by-row merge of two such
// matrices (ewise_add, ewise_mult, ewise_union, an accumulator's write-back,
// the masked write-back), the transpose, and an operand's rows as an
// operation reads them (hyper_view).
#pragma once

#include <algorithm>
#include <type_traits>
#include <utility>

#include "tgb/algebra.hpp"
#include "tgb/detail/hyper_storage.hpp"

namespace tgb::detail::host {

// Walks the rows a or b lists (only those both list where `both_rows`), in
// increasing order, and in each the union of the two rows' columns in
// increasing order: both(p, q, slot) where a's entry p and b's entry q share a
// column, only_a(p, slot) and only_b(q, slot) where one row holds it. Each
// says whether the column gets an entry and, only then and where slot is not
// null, writes its value there (slot may be one past the last entry when it
// says no). row_start(i) is called before row i's columns. Rows that get no
// entry are not listed. Two walks: the first counts (slot null), the second
// writes into arrays of that size.
template <class TC, class TA, class TB, class RowStart, class Both, class OnlyA, class OnlyB>
hyper_matrix<TC> merge_hyper_rows(const hyper_matrix<TA>& a, const hyper_matrix<TB>& b, bool both_rows,
                                  RowStart&& row_start, Both&& both, OnlyA&& only_a, OnlyB&& only_b) {
  const hyper_pattern &ap = a.p, &bp = b.p;
  hyper_matrix<TC> out = hyper_matrix<TC>::empty(ap.nrows, ap.ncols);
  std::size_t nvec = 0, nnz = 0;
  auto walk = [&](bool write) {
    std::size_t k = 0, e = 0;
    for (index_t x = 0, y = 0; x < ap.nvec() || y < bp.nvec();) {
      const bool ina = x < ap.nvec() && (y == bp.nvec() || ap.row[x] <= bp.row[y]);
      const bool inb = y < bp.nvec() && (x == ap.nvec() || bp.row[y] <= ap.row[x]);
      const std::size_t first = e;
      if (!both_rows || (ina && inb)) {
        row_start(ina ? ap.row[x] : bp.row[y]);
        offset_t p = ina ? ap.ptr[x] : 0, q = inb ? bp.ptr[y] : 0;
        const offset_t pe = ina ? ap.ptr[x + 1] : 0, qe = inb ? bp.ptr[y + 1] : 0;
        while (p < pe || q < qe) {
          const bool ta = q == qe || (p < pe && ap.colidx[p] <= bp.colidx[q]);
          const bool tb = p == pe || (q < qe && bp.colidx[q] <= ap.colidx[p]);
          TC* slot = write ? out.values.data() + e : nullptr;
          const bool kept = ta && tb ? both(p, q, slot) : ta ? only_a(p, slot) : only_b(q, slot);
          if (kept) {
            if (write) out.p.colidx[e] = ta ? ap.colidx[p] : bp.colidx[q];
            ++e;
          }
          p += ta;
          q += tb;
        }
      }
      if (e > first) {
        if (write) {
          out.p.row[k] = ina ? ap.row[x] : bp.row[y];
          out.p.ptr[k] = static_cast<offset_t>(first);
        }
        ++k;
      }
      x += ina;
      y += inb;
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

template <class TC, class TA, class TB, class Both, class OnlyA, class OnlyB>
hyper_matrix<TC> merge_hyper(const hyper_matrix<TA>& a, const hyper_matrix<TB>& b, bool both_rows, Both&& both,
                             OnlyA&& only_a, OnlyB&& only_b) {
  return merge_hyper_rows<TC>(a, b, both_rows, [](index_t) {}, both, only_a, only_b);
}

// A .op. B over the union of the patterns (add) or their intersection, as
// host::ewise computes it on rows: operands cast to op's domain, the result
// to TC; where one operand alone is stored, its value through the domain.
template <class TC, class TA, class TB, class Op>
hyper_matrix<TC> hyper_ewise(const hyper_matrix<TA>& a, const hyper_matrix<TB>& b, const Op& op, bool add) {
  using D = op_domain_t<Op, TA, TB>;
  return merge_hyper<TC>(
      a, b, !add,
      [&](offset_t p, offset_t q, TC* s) {
        if (s) *s = cast<TC>(op(cast<D>(a.values[p]), cast<D>(b.values[q])));
        return true;
      },
      [&](offset_t p, TC* s) {
        if (s && add) *s = cast<TC>(cast<D>(a.values[p]));
        return add;
      },
      [&](offset_t q, TC* s) {
        if (s && add) *s = cast<TC>(cast<D>(b.values[q]));
        return add;
      });
}

// GxB_eWiseUnion on hypersparse rows: op(a, b) where both are stored,
// op(a, beta) where only A is, op(alpha, b) where only B is, in op's domain
// (as host::ewise_union on tiles), the result cast to TC.
template <class TC, class TA, class TB, class Op, class SA, class SB>
hyper_matrix<TC> hyper_ewise_union(const hyper_matrix<TA>& a, const SA& alpha, const hyper_matrix<TB>& b,
                                   const SB& beta, const Op& op) {
  using D = op_domain_t<Op, TA, TB>;
  const D da = cast<D>(alpha), db = cast<D>(beta);
  return merge_hyper<TC>(
      a, b, false,
      [&](offset_t p, offset_t q, TC* s) {
        if (s) *s = cast<TC>(op(cast<D>(a.values[p]), cast<D>(b.values[q])));
        return true;
      },
      [&](offset_t p, TC* s) {
        if (s) *s = cast<TC>(op(cast<D>(a.values[p]), db));
        return true;
      },
      [&](offset_t q, TC* s) {
        if (s) *s = cast<TC>(op(da, cast<D>(b.values[q])));
        return true;
      });
}

// C = accum(C, T) with no mask, both in hypersparse rows: where only one
// holds an entry, its value stays as it is.
template <class TC, class Accum>
hyper_matrix<TC> hyper_accumulate(const hyper_matrix<TC>& c, const hyper_matrix<TC>& t, const Accum& accum) {
  return merge_hyper<TC>(
      c, t, false,
      [&](offset_t p, offset_t q, TC* s) {
        if (s) *s = accumulate<TC>(accum, c.values[p], t.values[q]);
        return true;
      },
      [&](offset_t p, TC* s) {
        if (s) *s = c.values[p];
        return true;
      },
      [&](offset_t q, TC* s) {
        if (s) *s = t.values[q];
        return true;
      });
}

// GraphBLAS's write-back rule at one position of C<M, replace> = accum(C, T)
// (in_c, in_t: C, T hold an entry there; admitted: M admits it): whether the
// new C holds an entry. Its value is then accum(c, t) (t without an
// accumulator) where both are stored and the position is admitted, else the
// one stored. The row merges below share it (hyper_masked_writeback,
// writeback.hpp's rows_writeback); the tile routines apply it to bits.
constexpr bool writeback_keeps(bool in_c, bool in_t, bool admitted, bool replace, bool has_accum) {
  return admitted ? in_t || has_accum : in_c && !replace;
}

// C<M, replace> = accum(C, T) with C, T and the mask M all in hypersparse
// rows: GraphBLAS's write-back walked over the rows C or T lists, the mask's
// row found by a search and its columns passed once per row. M(i,j) admits
// where it is stored (and, unless structural, nonzero), or, complemented,
// where it does not. Admitted: accum(c, t) where both are stored, t where T
// alone is, c where C alone is under an accumulator (deleted without one).
// Not admitted: c kept, or deleted under replace.
template <class TC, class U, class Accum>
hyper_matrix<TC> hyper_masked_writeback(const hyper_matrix<TC>& c, const hyper_matrix<TC>& t, const hyper_matrix<U>& m,
                                        bool structural, bool complement, const Accum& accum, bool replace) {
  constexpr bool has_accum = !std::is_same_v<Accum, no_accum_t>;
  const hyper_pattern& mp = m.p;
  offset_t at = 0, end = 0;  // the mask row's entries not yet passed
  auto row_start = [&](index_t i) {
    const index_t* rows = mp.row.data();
    const index_t* r = std::lower_bound(rows, rows + mp.nvec(), i);
    const std::size_t k = static_cast<std::size_t>(r - rows);
    at = end = 0;
    if (r != rows + mp.nvec() && *r == i) {
      at = mp.ptr[k];
      end = mp.ptr[k + 1];
    }
  };
  auto admits = [&](index_t j) {
    while (at < end && mp.colidx[at] < j) ++at;
    const bool hit = at < end && mp.colidx[at] == j && (structural || m.values[at] != U(0));
    return hit != complement;
  };
  auto merged = [&](offset_t p, offset_t q) {
    if constexpr (has_accum) return accumulate<TC>(accum, c.values[p], t.values[q]);
    else return t.values[q];
  };
  return merge_hyper_rows<TC>(
      c, t, false, row_start,
      [&](offset_t p, offset_t q, TC* s) {
        const bool ok = admits(c.p.colidx[p]);
        if (!writeback_keeps(true, true, ok, replace, has_accum)) return false;
        if (s) *s = ok ? merged(p, q) : c.values[p];
        return true;
      },
      [&](offset_t p, TC* s) {
        if (!writeback_keeps(true, false, admits(c.p.colidx[p]), replace, has_accum)) return false;
        if (s) *s = c.values[p];
        return true;
      },
      [&](offset_t q, TC* s) {
        if (!writeback_keeps(false, true, admits(t.p.colidx[q]), replace, has_accum)) return false;
        if (s) *s = t.values[q];
        return true;
      });
}

// h' with its values cast to TC: the columns that hold entries become the
// listed rows (sorted and ranked: no array as long as the dimension), each
// new row's entries in increasing (old) row order.
template <class TC, class T>
hyper_matrix<TC> hyper_transpose(const hyper_matrix<T>& h) {
  const hyper_pattern& p = h.p;
  const std::size_t nnz = static_cast<std::size_t>(p.nnz());
  hyper_matrix<TC> out = hyper_matrix<TC>::empty(p.ncols, p.nrows);
  {
    buffer<index_t> cols(nnz);
    std::copy(p.colidx.data(), p.colidx.data() + nnz, cols.data());
    std::sort(cols.data(), cols.data() + nnz);
    const std::size_t nvec = static_cast<std::size_t>(std::unique(cols.data(), cols.data() + nnz) - cols.data());
    out.p.row = buffer<index_t>(nvec);
    std::copy(cols.data(), cols.data() + nvec, out.p.row.data());
  }
  const std::size_t nvec = out.p.row.size();
  const index_t* rows = out.p.row.data();
  buffer<index_t> rank(nnz);
  out.p.ptr = buffer<offset_t>(nvec + 1, offset_t(0));
  for (std::size_t e = 0; e < nnz; ++e) {
    rank[e] = static_cast<index_t>(std::lower_bound(rows, rows + nvec, p.colidx[e]) - rows);
    ++out.p.ptr[static_cast<std::size_t>(rank[e]) + 1];
  }
  for (std::size_t k = 0; k < nvec; ++k) out.p.ptr[k + 1] += out.p.ptr[k];
  buffer<offset_t> next(nvec);
  std::copy(out.p.ptr.data(), out.p.ptr.data() + nvec, next.data());
  out.p.colidx = buffer<index_t>(nnz);
  out.values = buffer<TC>(nnz);
  for (index_t k = 0; k < p.nvec(); ++k)
    for (offset_t e = p.ptr[k]; e < p.ptr[k + 1]; ++e) {
      const offset_t o = next[static_cast<std::size_t>(rank[e])]++;
      out.p.colidx[o] = p.row[k];
      out.values[o] = cast<TC>(h.values[e]);
    }
  return out;
}

// The hypersparse rows of op(h): h itself, or its transpose made for the caller.
template <class T>
class hyper_view {
 public:
  hyper_view(const hyper_matrix<T>& h, bool transpose) : p_(&h) {
    if (transpose) {
      owned_ = hyper_transpose<T>(h);
      p_ = &owned_;
    }
  }
  hyper_view(const hyper_view&) = delete;
  hyper_view& operator=(const hyper_view&) = delete;
  const hyper_matrix<T>& operator*() const noexcept { return *p_; }

 private:
  hyper_matrix<T> owned_;
  const hyper_matrix<T>* p_ = nullptr;
};

}  // namespace tgb::detail::host
