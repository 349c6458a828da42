// tgb host backend: vector operations on the sparse form (indices
// increasing, values beside them), in time proportional to the entries:
// element-wise operations, apply, select, the reduction, the masked
// write-back with replace, assign through a sparse mask, and the push
// product over a row-form matrix where the products are few. Each returns
// its result aside (vector_sparse) or, for assign, updates w's bitmap in
// place; the operations in vector_operations.hpp choose them where an
// operand is sparse and fall back to the bitmap kernels elsewhere.
#pragma once

#include <algorithm>
#include <utility>

#include "tgb/detail/host/row_list.hpp"
#include "tgb/detail/host/vector_elementwise.hpp"
#include "tgb/detail/host/vector_kernels.hpp"

namespace tgb::detail::host {

// Reads a vector, sparse or bitmap, at increasing indices: a cursor over the
// sparse form (O(entries) over the whole walk) or the bitmap's bytes.
template <class T>
struct ascending_reader {
  const vector_sparse<T>* s;
  const vector_bitmap<T>* b;
  index_t pos = 0;
  template <class V>
  explicit ascending_reader(const V& v) : s(v.sparse()), b(s ? nullptr : &v.bitmap()) {}
  bool get(index_t i, T& x) {
    if (s) {
      const index_t k = s->nvals();
      while (pos < k && s->index[pos] < i) ++pos;
      if (pos == k || s->index[pos] != i) return false;
      x = s->values[pos];
      return true;
    }
    if (!b->present[i]) return false;
    x = b->values[i];
    return true;
  }
};

// Appends entries to a sparse result of at most `bound` entries (tgb's
// buffers, so the allocations count where the host memory resource does);
// done() trims it to the count.
template <class T>
struct sparse_builder {
  vector_sparse<T> r;
  index_t k = 0;
  sparse_builder(index_t n, index_t bound) : r(n, bound) {}
  void push(index_t i, const T& x) {
    r.index[k] = i;
    r.values[k++] = x;
  }
  vector_sparse<T> done() {
    if (k == r.nvals()) return std::move(r);
    vector_sparse<T> s(r.n, k);
    std::copy(r.index.data(), r.index.data() + k, s.index.data());
    std::copy(r.values.data(), r.values.data() + k, s.values.data());
    return s;
  }
};

// f(i, x, out) for each entry (i, x) of u; f stores out and returns whether
// the result has an entry at i (apply, apply_index, select).
template <class TW, class TU, class F>
vector_sparse<TW> sparse_map(const vector_sparse<TU>& u, const F& f) {
  sparse_builder<TW> r(u.n, u.nvals());
  for (index_t e = 0; e < u.nvals(); ++e) {
    TW out{};
    if (f(u.index[e], u.values[e], out)) r.push(u.index[e], out);
  }
  return r.done();
}

// t = u .op. v over the intersection (ewise_mult), u or v sparse: the sparse
// one is walked, the other read at its indices. Operands go through op's domain.
template <class TW, class VU, class VV, class Op>
vector_sparse<TW> sparse_intersect(const VU& u, const VV& v, const Op& op) {
  using TU = typename VU::value_type;
  using TV = typename VV::value_type;
  using D = op_domain_t<Op, TU, TV>;
  if (const vector_sparse<TU>* us = u.sparse()) {
    sparse_builder<TW> r(u.size(), us->nvals());
    ascending_reader<TV> rv(v);
    for (index_t e = 0; e < us->nvals(); ++e) {
      TV y{};
      if (rv.get(us->index[e], y)) r.push(us->index[e], cast<TW>(op(cast<D>(us->values[e]), cast<D>(y))));
    }
    return r.done();
  }
  const vector_sparse<TV>& vs = *v.sparse();
  sparse_builder<TW> r(u.size(), vs.nvals());
  ascending_reader<TU> ru(u);
  for (index_t e = 0; e < vs.nvals(); ++e) {
    TU x{};
    if (ru.get(vs.index[e], x)) r.push(vs.index[e], cast<TW>(op(cast<D>(x), cast<D>(vs.values[e]))));
  }
  return r.done();
}

// t = u .op. v over the union of two sparse vectors: op where both hold an
// entry; elsewhere the lone one through op's domain (ewise_add), or op with
// the fill value standing in for the missing one (ewise_union: lone(x, true)
// for an entry of u, lone(y, false) for one of v).
template <class TW, class TU, class TV, class Op, class Lone>
vector_sparse<TW> sparse_union(const vector_sparse<TU>& u, const vector_sparse<TV>& v, const Op& op,
                               const Lone& lone) {
  using D = op_domain_t<Op, TU, TV>;
  sparse_builder<TW> r(u.n, u.nvals() + v.nvals());
  index_t a = 0, b = 0;
  while (a < u.nvals() || b < v.nvals()) {
    const bool take_u = b == v.nvals() || (a < u.nvals() && u.index[a] <= v.index[b]);
    const bool take_v = a == u.nvals() || (b < v.nvals() && v.index[b] <= u.index[a]);
    if (take_u && take_v) r.push(u.index[a], cast<TW>(op(cast<D>(u.values[a]), cast<D>(v.values[b]))));
    else if (take_u) r.push(u.index[a], cast<TW>(lone(cast<D>(u.values[a]), true)));
    else r.push(v.index[b], cast<TW>(lone(cast<D>(v.values[b]), false)));
    a += take_u;
    b += take_v;
  }
  return r.done();
}

// The union of a sparse operand s with one held as a bitmap b, as a bitmap:
// one pass over b's positions (lone_b(x) where b alone may hold one; no test
// of s there), then s's entries patched in (both(x_s, x_b) where b holds one
// too, else lone_s(x_s)). A small s against a dense b (Bellman-Ford's
// frontier against its distances) costs a copy of b, not a merge of two
// bitmaps, and s never becomes a bitmap. The callers put the operands back
// in order inside both, lone_s and lone_b.
template <class TW, class TS, class TB, class Both, class LoneS, class LoneB>
vector_bitmap<TW> union_sparse_bitmap(const vector_sparse<TS>& s, const vector_bitmap<TB>& b, const Both& both,
                                      const LoneS& lone_s, const LoneB& lone_b) {
  const index_t n = b.n;
  vector_bitmap<TW> t;
  t.n = n;
  t.values = buffer<TW>(static_cast<std::size_t>(n));
  t.present = buffer<std::uint8_t>(static_cast<std::size_t>(n));
  TW* const tv = t.values.data();
  std::uint8_t* const tp = t.present.data();
  const TB* const bv = b.values.data();
  const std::uint8_t* const bp = b.present.data();
#pragma omp parallel for schedule(static) if (n >= kParallelVectorPass)
  for (index_t i = 0; i < n; ++i) {
    tp[i] = bp[i];
    tv[i] = bp[i] ? cast<TW>(lone_b(bv[i])) : TW{};
  }
  index_t extra = 0;
  for (index_t e = 0; e < s.nvals(); ++e) {
    const index_t i = s.index[e];
    if (bp[i]) {
      tv[i] = cast<TW>(both(s.values[e], bv[i]));
    } else {
      tv[i] = cast<TW>(lone_s(s.values[e]));
      tp[i] = 1;
      ++extra;
    }
  }
  t.nvals = b.nvals + extra;
  return t;
}

// The same for vectors u and v of which exactly one is held sparse, in
// operand order: both(x_u, x_v), lone_u(x_u), lone_v(x_v); the sparse one is
// s above, whichever it is.
template <class TW, class TU, class TV, class Both, class LoneU, class LoneV>
vector_bitmap<TW> union_sparse_bitmap(const Vector<TU>& u, const Vector<TV>& v, const Both& both,
                                      const LoneU& lone_u, const LoneV& lone_v) {
  if (u.sparse()) return union_sparse_bitmap<TW>(*u.sparse(), v.bitmap(), both, lone_u, lone_v);
  return union_sparse_bitmap<TW>(*v.sparse(), u.bitmap(), [&both](TV y, TU x) { return both(x, y); }, lone_v,
                                 lone_u);
}

// w = accum(w, t) without a mask, both sparse: the union, accum where both hold.
template <class TW, class Accum>
vector_sparse<TW> sparse_accumulate(const vector_sparse<TW>& w, const vector_sparse<TW>& t, const Accum& accum) {
  return sparse_union<TW>(w, t, [&accum](TW x, TW y) { return tgb::detail::accumulate<TW>(accum, x, y); },
                          [](TW x, bool) { return x; });
}

// t's entries the mask admits (w<m, replace> = t without an accumulator).
template <class TW, class Mask>
vector_sparse<TW> sparse_masked(vector_sparse<TW>&& t, const Mask& mask) {
  index_t k = 0;
  for (index_t e = 0; e < t.nvals(); ++e)
    if (mask(t.index[e])) ++k;
  if (k == t.nvals()) return std::move(t);
  vector_sparse<TW> r(t.n, k);
  k = 0;
  for (index_t e = 0; e < t.nvals(); ++e)
    if (mask(t.index[e])) {
      r.index[k] = t.index[e];
      r.values[k++] = t.values[e];
    }
  return r;
}

// The fold of the entries in increasing index (cast to TS first), in the
// bitmap reduction's order: each block of kParallelVector positions folded
// alone, the blocks' folds then folded in order (so a sum of doubles does
// not depend on the form).
template <class TS, class TU, class Monoid>
TS sparse_reduce(const vector_sparse<TU>& u, const Monoid& m, bool& has) {
  has = u.nvals() > 0;
  if (!has) return m.template identity<TS>();
  TS total{}, part{};
  bool any_total = false;
  for (index_t e = 0; e < u.nvals();) {
    const index_t block = u.index[e] / kParallelVector;
    part = cast<TS>(u.values[e++]);
    for (; e < u.nvals() && u.index[e] / kParallelVector == block; ++e)
      if (!m.is_terminal(part)) part = m(part, cast<TS>(u.values[e]));
    total = any_total ? m(total, part) : part;
    any_total = true;
    if (m.is_terminal(total)) break;
  }
  return total;
}

// w<m>(all) = accum(w, src) where m is a sparse vector, not complemented,
// and there is no replace: only the positions m stores (and admits: a value
// mask drops its zeros) can change, so they alone are visited. src(i, x)
// gives the value at i in increasing i (false: none). In place on w's
// bitmap, allocating nothing.
template <class TW, class U, class Accum, class Src>
void assign_through_sparse_mask(vector_bitmap<TW>& w, const vector_sparse<U>& m, bool structural,
                                const Accum& accum, Src&& src) {
  constexpr bool has_accum = !std::is_same_v<Accum, no_accum_t>;
  index_t delta = 0;
  for (index_t e = 0; e < m.nvals(); ++e) {
    if (!structural && !(m.values[e] != U(0))) continue;
    const index_t i = m.index[e];
    const bool hw = w.present[i];
    TW x{};
    if (src(i, x)) {
      if constexpr (has_accum) w.values[i] = hw ? tgb::detail::accumulate<TW>(accum, w.values[i], x) : x;
      else w.values[i] = x;
      if (!hw) {
        w.present[i] = 1;
        ++delta;
      }
    } else if (!has_accum && hw) {
      w.present[i] = 0;
      --delta;
    }
  }
  w.nvals += delta;
}

// The push w = u' A (or A' u) over a row-form A for a sparse u, as a sparse
// result: A's rows at u's indices, the products the mask admits gathered,
// sorted by column (stably: each column's products stay in increasing k) and
// folded in that order, so the result equals the bitmap push's bit for bit.
// Returns false, doing nothing, where the products would be more than the
// sparse form holds (the caller takes the bitmap push).
template <class TW, bool MatrixFirst, class Col, class TA, class TU, class Semiring, class Mask>
bool vxm_push_sparse(const row_list<Col, TA>& A, const vector_sparse<TU>& u, const Semiring& s, const Mask& mask,
                     vector_sparse<TW>& out) {
  // Stored-row number of row i (hypersparse rows: searched in the list).
  auto row_of = [&A](index_t i) -> index_t {
    if (!A.ids) return i < A.nvec ? i : -1;
    const index_t* p = std::lower_bound(A.ids, A.ids + A.nvec, i);
    return p != A.ids + A.nvec && *p == i ? static_cast<index_t>(p - A.ids) : -1;
  };
  offset_t products = 0;
  for (index_t e = 0; e < u.nvals(); ++e) {
    const index_t k = row_of(u.index[e]);
    if (k >= 0) products += A.ptr[k + 1] - A.ptr[k];
  }
  if (!sparse_fits(static_cast<index_t>(std::min<offset_t>(products, A.ncols)), A.ncols)) return false;
  // Each product with its place in k order: sorted by (column, place), the
  // products of a column stay in increasing k (std::sort allocates nothing).
  struct product {
    index_t j, seq;
    TW v;
  };
  buffer<product> p(static_cast<std::size_t>(products));
  index_t np = 0;
  for (index_t e = 0; e < u.nvals(); ++e) {
    const index_t k = row_of(u.index[e]);
    if (k < 0) continue;
    const TW x = cast<TW>(u.values[e]);
    for (offset_t q = A.ptr[k]; q < A.ptr[k + 1]; ++q) {
      const index_t j = static_cast<index_t>(A.col[q]);
      if (mask(j)) {
        p[np] = product{j, np, multiply<MatrixFirst>(s, cast<TW>(A.val[q]), x)};
        ++np;
      }
    }
  }
  std::sort(p.data(), p.data() + np,
            [](const product& a, const product& b) { return a.j < b.j || (a.j == b.j && a.seq < b.seq); });
  index_t m = 0;
  for (index_t q = 0; q < np; ++q) m += q == 0 || p[q].j != p[q - 1].j;
  vector_sparse<TW> r(A.ncols, m);
  index_t e = -1;
  for (index_t q = 0; q < np; ++q) {
    if (e >= 0 && r.index[e] == p[q].j) {
      if (!s.add.is_terminal(r.values[e])) r.values[e] = static_cast<TW>(s.add(r.values[e], p[q].v));
    } else {
      ++e;
      r.index[e] = p[q].j;
      r.values[e] = p[q].v;
    }
  }
  out.swap(r);
  return true;
}

// w's entries as a bitmap, for an operation that replaces w: made aside where
// w holds only its sparse form, so the write-back caches nothing on w (where
// w is also an operand or the mask, reading it may still leave w's bitmap
// beside its sparse form; its entries stay as they were either way).
template <class T>
class output_bitmap {
 public:
  explicit output_bitmap(const Vector<T>& w) {
    if (w.holds_bitmap()) {
      p_ = &w.bitmap();
    } else {
      owned_ = bitmap_of(*w.sparse());
      p_ = &owned_;
    }
  }
  const vector_bitmap<T>& operator*() const noexcept { return *p_; }

 private:
  vector_bitmap<T> owned_;
  const vector_bitmap<T>* p_ = nullptr;
};

// The last step of every host vector operation: w<m, replace> = accum(w, t)
// (t_within_mask: t has entries only where the mask admits), w taking the
// result in the form the rule picks. A sparse t is written in time
// proportional to its entries where w's old entries do not matter (no
// accumulator and no mask, or replace) or both are sparse without a mask;
// elsewhere through the bitmaps.
template <class TW, class Mask, class Accum>
void write_vector(Vector<TW>& w, const Mask& mask, const Accum& accum, bool replace, vector_bitmap<TW>&& t,
                  bool t_within_mask = false) {
  constexpr bool has_accum = !std::is_same_v<Accum, no_accum_t>;
  if (!has_accum && (!Mask::active || (replace && t_within_mask))) return w.take(std::move(t));
  w.take(vector_writeback(*output_bitmap<TW>(w), mask, accum, replace, std::move(t), t_within_mask));
}
template <class TW, class Mask, class Accum>
void write_vector(Vector<TW>& w, const Mask& mask, const Accum& accum, bool replace, vector_sparse<TW>&& t,
                  bool t_within_mask = false) {
  constexpr bool has_accum = !std::is_same_v<Accum, no_accum_t>;
  if (!has_accum && (!Mask::active || (replace && t_within_mask))) return w.take(std::move(t));
  if (!has_accum && replace) return w.take(sparse_masked(std::move(t), mask));
  if constexpr (has_accum && !Mask::active)
    if (const vector_sparse<TW>* ws = w.sparse()) return w.take(sparse_accumulate(*ws, t, accum));
  w.take(vector_writeback(*output_bitmap<TW>(w), mask, accum, replace, bitmap_of(t), t_within_mask));
}

}  // namespace tgb::detail::host
