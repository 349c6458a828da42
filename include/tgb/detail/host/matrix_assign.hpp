// tgb host backend: extract and assign on matrices (tgb/matrix_assign.hpp).
// Everything goes through rows (CSR): a row-form operand is read as it is,
// a tile-form one through rows made for the operation. Each routine builds
// its result aside for the caller to write back.
//   - index_map: an index list over [0, n) with its inverse (which positions
//     hold an index): `all` and arithmetic progressions by arithmetic, other
//     lists through a sorted copy. No array of the matrix's size is made.
//   - extract_rows: T(k, l) = A(I[k], J[l]); a row of A longer than |J| is
//     probed at J's indices, a shorter one is walked through J's inverse.
//   - relabel_columns: A's rows with column l renamed J[l] (C's columns).
//   - assign_region: Z = C with C(I,J) = accum(C(I,J), S), under a mask over
//     the region (subassign) or none (assign: its mask goes to writeback).
//   - row_source / row_mask: Row_assign as a region assign with I = {i}: u
//     as one source row in C's columns, and the vector mask read only where
//     row i of C or J has a column (never a pass over all of C's columns).
//   - with_col: C with one column replaced (Col_assign, which runs the vector
//     assign on that column).
// Costs: O(nnz(C) + nnz(A) + nrows(C) log|I| + |I| + |J|), the log factor
// for lists that are not progressions, plus sorting rows that J reorders.
#pragma once

#include <algorithm>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "tgb/algebra.hpp"
#include "tgb/detail/host/row_list.hpp"
#include "tgb/detail/host/threads.hpp"
#include "tgb/detail/tile/elementwise.hpp"
#include "tgb/detail/row_storage.hpp"
#include "tgb/detail/tile_storage.hpp"
#include "tgb/index_list.hpp"
#include "tgb/matrix.hpp"
#include "tgb/vector.hpp"

namespace tgb::detail::host {

// ---- index lists and their inverse -------------------------------------------
class index_map {
 public:
  // L applied to an object of n elements; L's indices must lie in [0, n).
  index_map(const index_list& L, index_t n) : list_(&L), len_(L.count(n)) {
    if (L.is_all()) return;
    // An arithmetic progression (a range, or a list that is one)? Checked
    // step by step, so nothing overflows for indices in range.
    first_ = len_ ? L[0] : 0;
    step_ = len_ >= 2 ? L[1] - L[0] : 1;
    bool progression = step_ != 0;
    for (index_t k = 1, x = first_; progression && k < len_; ++k) {
      x += step_;
      progression = L[k] == x;
    }
    if (progression) {
      kind_ = kind::progression;
      return;
    }
    kind_ = kind::list;
    sorted_.resize(static_cast<std::size_t>(len_));
    for (index_t k = 0; k < len_; ++k) sorted_[static_cast<std::size_t>(k)] = {L[k], k};
    std::sort(sorted_.begin(), sorted_.end());
    for (std::size_t q = 1; q < sorted_.size(); ++q)
      if (sorted_[q].first == sorted_[q - 1].first) repeats_ = true;
  }

  index_t size() const noexcept { return len_; }
  index_t operator[](index_t k) const noexcept { return (*list_)[k]; }
  bool repeats() const noexcept { return repeats_; }
  // L[k] increases with k (so a mapped sorted row stays sorted).
  bool increasing() const noexcept { return kind_ == kind::all || (kind_ == kind::progression && step_ > 0); }

  // Calls f(k) for every k with L[k] == x, in increasing k.
  template <class F>
  void find(index_t x, F&& f) const {
    if (kind_ == kind::all) {
      if (x >= 0 && x < len_) f(x);
    } else if (kind_ == kind::progression) {
      const index_t d = x - first_;
      if (d % step_ != 0) return;
      const index_t k = d / step_;
      if (k >= 0 && k < len_) f(k);
    } else {
      auto it = std::lower_bound(sorted_.begin(), sorted_.end(), std::pair<index_t, index_t>{x, index_t(-1)});
      for (; it != sorted_.end() && it->first == x; ++it) f(it->second);
    }
  }
  // The first k with L[k] == x, or -1.
  index_t position(index_t x) const {
    index_t at = -1;
    find(x, [&](index_t k) {
      if (at < 0) at = k;
    });
    return at;
  }
  bool contains(index_t x) const { return kind_ == kind::all ? (x >= 0 && x < len_) : position(x) >= 0; }

  // The distinct indices, increasing.
  std::vector<index_t> distinct() const {
    std::vector<index_t> out;
    out.reserve(static_cast<std::size_t>(len_));
    if (kind_ == kind::list) {
      for (const auto& e : sorted_)
        if (out.empty() || out.back() != e.first) out.push_back(e.first);
    } else {
      for (index_t k = 0; k < len_; ++k) out.push_back((*list_)[k]);
      if (!increasing()) std::reverse(out.begin(), out.end());
    }
    return out;
  }

 private:
  enum class kind { all, progression, list };
  const index_list* list_;
  index_t len_;
  kind kind_ = kind::all;
  index_t first_ = 0, step_ = 1;
  std::vector<std::pair<index_t, index_t>> sorted_;  // (index, position), for a list
  bool repeats_ = false;
};

// Builds an nrows x ncols CSR in two passes over its rows: row(r, emit)
// calls emit(column, value) for the entries of row r; the first pass counts
// them, the second writes them. Rows whose columns come out of order are
// sorted (with their values) when `may_reorder`. with_values false: a
// pattern only (emit's value is ignored).
template <class T, class Row>
csr_matrix<T> build_rows(index_t nrows, index_t ncols, bool with_values, bool may_reorder, const Row& row) {
  check_rows_fit(ncols);
  csr_matrix<T> out;
  out.p = csr_pattern::empty(nrows, ncols);
  offset_t* ptr = out.p.rowptr.data();
#pragma omp parallel for schedule(dynamic, 256) if (nrows > kParallelTiles)
  for (index_t r = 0; r < nrows; ++r) {
    offset_t n = 0;
    row(r, [&](index_t, const T&) { ++n; });
    ptr[r + 1] = n;
  }
  for (index_t r = 0; r < nrows; ++r) ptr[r + 1] += ptr[r];
  out.p.colidx = buffer<row_col_t>(static_cast<std::size_t>(ptr[nrows]));
  if (with_values) out.values = buffer<T>(static_cast<std::size_t>(ptr[nrows]));
  row_col_t* col = out.p.colidx.data();
  T* val = out.values.data();
#pragma omp parallel for schedule(dynamic, 256) if (nrows > kParallelTiles)
  for (index_t r = 0; r < nrows; ++r) {
    offset_t at = ptr[r];
    row(r, [&](index_t c, const T& v) {
      col[at] = static_cast<row_col_t>(c);
      if (with_values) val[at] = v;
      ++at;
    });
  }
  if (!may_reorder) return out;
  // Rows out of order are sorted through a permutation, in scratch arrays
  // taken before the parallel region (nothing allocates inside it). The
  // columns of a row are distinct, so the order is unique.
  offset_t longest = 0;
  for (index_t r = 0; r < nrows; ++r) longest = std::max(longest, ptr[r + 1] - ptr[r]);
  const int nthreads = nrows > kParallelTiles ? max_threads() : 1;
  const std::size_t room = static_cast<std::size_t>(longest) * static_cast<std::size_t>(nthreads);
  buffer<offset_t> perm(room);
  buffer<row_col_t> scol(room);
  buffer<T> sval(with_values ? room : 0);
#pragma omp parallel for schedule(dynamic, 256) num_threads(nthreads) if (nthreads > 1)
  for (index_t r = 0; r < nrows; ++r) {
    const offset_t b = ptr[r], len = ptr[r + 1] - b;
    if (std::is_sorted(col + b, col + b + len)) continue;
    const std::size_t base = static_cast<std::size_t>(thread_num()) * static_cast<std::size_t>(longest);
    offset_t* p = perm.data() + base;
    for (offset_t q = 0; q < len; ++q) {
      p[q] = q;
      scol[base + q] = col[b + q];
      if (with_values) sval[base + q] = val[b + q];
    }
    std::sort(p, p + len, [&](offset_t x, offset_t y) { return scol[base + x] < scol[base + y]; });
    for (offset_t q = 0; q < len; ++q) {
      col[b + q] = scol[base + p[q]];
      if (with_values) val[b + q] = sval[base + p[q]];
    }
  }
  return out;
}

// ---- extract --------------------------------------------------------------------
// T(k, l) = a(I[k], J[l]), cast to TC (|I| x |J|; repeats allowed in both).
template <class TC, class TA>
csr_matrix<TC> extract_rows(const csr_matrix<TA>& a, const index_map& I, const index_map& J) {
  const row_col_t* acol = a.p.colidx.data();
  const TA* aval = a.values.data();
  return build_rows<TC>(I.size(), J.size(), true, !J.increasing(), [&](index_t k, auto&& emit) {
    const index_t r = I[k];
    const offset_t b = a.p.rowptr[r], e = a.p.rowptr[r + 1];
    if (J.size() < e - b) {  // probe the row at J's indices: output in order
      for (index_t l = 0; l < J.size(); ++l) {
        const row_col_t* at = std::lower_bound(acol + b, acol + e, J[l]);
        if (at != acol + e && *at == J[l]) emit(l, cast<TC>(aval[at - acol]));
      }
    } else {  // walk the row through J's inverse
      for (offset_t q = b; q < e; ++q) J.find(acol[q], [&](index_t l) { emit(l, cast<TC>(aval[q])); });
    }
  });
}

// ---- assign -------------------------------------------------------------------
// a's rows with column l renamed J[l] (ncols: C's), cast to TO and sorted
// again; keep(q) drops entries (a value mask's zeros). with_values false: a
// pattern only.
template <class TO, class TA, class Keep>
csr_matrix<TO> relabel_columns(const csr_matrix<TA>& a, const index_map& J, index_t ncols, bool with_values,
                               const Keep& keep) {
  const row_col_t* acol = a.p.colidx.data();
  const TA* aval = a.values.data();
  return build_rows<TO>(a.p.nrows, ncols, with_values, !J.increasing(), [&](index_t k, auto&& emit) {
    for (offset_t q = a.p.rowptr[k]; q < a.p.rowptr[k + 1]; ++q)
      if (keep(q)) emit(J[acol[q]], with_values ? cast<TO>(aval[q]) : TO{});
  });
}

// What goes into C(I,J), in C's columns: row k of `rows` (A relabeled), or
// `scalar` at every one of `cols` (J's distinct indices, increasing).
template <class TC>
struct assign_source {
  const csr_matrix<TC>* rows = nullptr;
  const std::vector<index_t>* cols = nullptr;
  TC scalar{};
};

// A subassign mask over C(I,J): row k of `rows` (relabeled into C's
// columns) lists where M(k, l) admits, before complement. No rows: admits all.
struct region_mask {
  const csr_pattern* rows = nullptr;
  bool complement = false;
  // The mask covers the region's whole rows, not only J's columns
  // (Row_assign's over row i): replace also clears C's entries outside J
  // there that it does not admit. The rows then list C's columns.
  bool whole_rows = false;
};

// Z = C with, for every position (I[k], J[l]) of the region where the mask
// admits, Z = accum(C, S) (S alone where C has no entry; without accum, S,
// or no entry where S has none); where it does not admit, C's entry stays
// unless replace. Outside the region Z = C. I has no repeats that matter:
// for a matrix source it has none; for a scalar one, any k serves.
template <class TC, class Accum>
csr_matrix<TC> assign_region(const csr_matrix<TC>& c, const index_map& I, const index_map& J,
                             const assign_source<TC>& src, const Accum& accum, const region_mask& mask, bool replace) {
  constexpr bool has_accum = !std::is_same_v<Accum, no_accum_t>;
  constexpr index_t none = std::numeric_limits<index_t>::max();
  const row_col_t* ccol = c.p.colidx.data();
  const TC* cval = c.values.data();
  return build_rows<TC>(c.p.nrows, c.p.ncols, true, false, [&](index_t r, auto&& emit) {
    const offset_t p0 = c.p.rowptr[r], p1 = c.p.rowptr[r + 1];
    const index_t k = I.position(r);
    if (k < 0) {
      for (offset_t p = p0; p < p1; ++p) emit(ccol[p], cval[p]);
      return;
    }
    const row_col_t* scol = nullptr;  // the source's columns: a row's, or the scalar's list
    const index_t* lcol = nullptr;
    const TC* sval = nullptr;
    offset_t slen;
    if (src.rows) {
      const offset_t b = src.rows->p.rowptr[k];
      scol = src.rows->p.colidx.data() + b;
      sval = src.rows->values.data() + b;
      slen = src.rows->p.rowptr[k + 1] - b;
    } else {
      lcol = src.cols->data();
      slen = static_cast<offset_t>(src.cols->size());
    }
    // The mask's row, walked along as the columns increase.
    const row_col_t* mcol = nullptr;
    offset_t mq = 0, me = 0;
    if (mask.rows) {
      mcol = mask.rows->colidx.data();
      mq = mask.rows->rowptr[k];
      me = mask.rows->rowptr[k + 1];
    }
    auto admits = [&](index_t x) {
      if (!mask.rows) return true;  // (mcol is null too where the mask has no entries at all)
      while (mq < me && mcol[mq] < x) ++mq;
      return (mq < me && mcol[mq] == x) != mask.complement;
    };
    offset_t p = p0, q = 0;
    while (p < p1 || q < slen) {
      const index_t cc = p < p1 ? index_t(ccol[p]) : none, sc = q < slen ? (scol ? index_t(scol[q]) : lcol[q]) : none;
      if (cc < sc) {  // C alone: kept outside the region; inside, Z keeps it only with accum
        const bool keep = !J.contains(cc) ? !(mask.whole_rows && replace) || admits(cc)
                                          : (admits(cc) ? has_accum : !replace);
        if (keep) emit(cc, cval[p]);
        ++p;
      } else if (sc < cc) {  // S alone
        if (admits(sc)) emit(sc, src.rows ? sval[q] : src.scalar);
        ++q;
      } else {
        const TC s = src.rows ? sval[q] : src.scalar;
        if (admits(cc)) {
          if constexpr (has_accum) emit(cc, tgb::detail::accumulate<TC>(accum, cval[p], s));
          else emit(cc, s);
        } else if (!replace) {
          emit(cc, cval[p]);
        }
        ++p;
        ++q;
      }
    }
  });
}

// ---- one row or column ------------------------------------------------------
// u (of size |J|) as one row in C's columns: u(k) at column J[k], cast to
// TC. O(|J|) (plus a sort where J does not increase).
template <class TC, class TU>
csr_matrix<TC> row_source(const vector_bitmap<TU>& u, const index_map& J, index_t ncols) {
  return build_rows<TC>(1, ncols, true, !J.increasing(), [&](index_t, auto&& emit) {
    for (index_t k = 0; k < J.size(); ++k)
      if (u.present[k]) emit(J[k], cast<TC>(u.values[k]));
  });
}
// The columns of row i of c or of J where admits(x) holds, as one row of a
// pattern (complement already applied by admits): all assign_region asks of
// a whole-row mask. O(nnz(c(i,:)) + |J|).
template <class TC, class Admits>
csr_matrix<bool> row_mask(const csr_matrix<TC>& c, index_t i, const index_map& J, const Admits& admits) {
  const std::vector<index_t> js = J.distinct();
  const row_col_t* ccol = c.p.colidx.data();
  const offset_t b = c.p.rowptr[i], e = c.p.rowptr[i + 1];
  return build_rows<bool>(1, c.p.ncols, false, false, [&](index_t, auto&& emit) {
    offset_t p = b;
    std::size_t q = 0;
    while (p < e || q < js.size()) {
      index_t x;
      if (q == js.size() || (p < e && ccol[p] < js[q])) x = ccol[p++];
      else {
        x = js[q++];
        if (p < e && ccol[p] == x) ++p;
      }
      if (admits(x)) emit(x, true);
    }
  });
}
// Column j of c, as a vector of c's rows.
template <class TC>
vector_bitmap<TC> col_vector(const csr_matrix<TC>& c, index_t j) {
  vector_bitmap<TC> w(c.p.nrows);
  const row_col_t* col = c.p.colidx.data();
  for (index_t r = 0; r < c.p.nrows; ++r) {
    const row_col_t* b = col + c.p.rowptr[r];
    const row_col_t* e = col + c.p.rowptr[r + 1];
    const row_col_t* at = std::lower_bound(b, e, j);
    if (at == e || *at != j) continue;
    w.values[r] = c.values[at - col];
    w.present[r] = 1;
    ++w.nvals;
  }
  return w;
}

// c with column j replaced by w.
template <class TC>
csr_matrix<TC> with_col(const csr_matrix<TC>& c, index_t j, const vector_bitmap<TC>& w) {
  return build_rows<TC>(c.p.nrows, c.p.ncols, true, false, [&](index_t r, auto&& emit) {
    bool placed = false;
    for (offset_t p = c.p.rowptr[r]; p < c.p.rowptr[r + 1]; ++p) {
      const index_t x = c.p.colidx[p];
      if (x < j) {
        emit(x, c.values[p]);
        continue;
      }
      if (!placed && w.present[r]) emit(j, w.values[r]);
      placed = true;
      if (x != j) emit(x, c.values[p]);
    }
    if (!placed && w.present[r]) emit(j, w.values[r]);
  });
}

}  // namespace tgb::detail::host
