// tgb host backend: vectors. The mask as a predicate, the write-back
// w<m, replace> = accum(w, t), and the element-wise operations, apply,
// select, assign, extract and the reduction to a scalar. Every routine builds
// its result aside (vector_bitmap) for the caller to swap in.
#pragma once

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "tgb/algebra.hpp"
#include "tgb/detail/tile/elementwise.hpp"
#include "tgb/detail/tile_storage.hpp"
#include "tgb/index_list.hpp"
#include "tgb/mask.hpp"
#include "tgb/vector.hpp"

namespace tgb::detail::host {

// The block of positions a reduction folds alone (vector_sparse.hpp's
// sparse_reduce folds in the same blocks, so a sum does not depend on the form).
inline constexpr index_t kParallelVector = index_t(1) << 16;
// A vector pass runs in parallel from two blocks on: a parallel region costs
// a wake-up of the sleeping threads (tens of microseconds under
// OMP_WAIT_POLICY=passive, as much as one thread's pass over 10^5 bytes), so
// each thread should get a block at least (SuiteSparse's rule is the same:
// one thread per 64K of work). Bellman-Ford on a road graph of 1.1 * 10^5
// vertices runs ~950 rounds of such passes.
inline constexpr index_t kParallelVectorPass = 2 * kParallelVector;

// ---- masks ------------------------------------------------------------------
struct vector_no_mask {
  static constexpr bool active = false;
  bool operator()(index_t) const noexcept { return true; }
};
// A Vector<U> mask: admits i if stored (structure) or stored and nonzero
// (value), inverted when complemented.
template <class U>
struct vector_mask {
  static constexpr bool active = true;
  const std::uint8_t* present;
  const U* values;
  bool structural;
  bool complement;
  bool operator()(index_t i) const noexcept {
    const bool stored = present[i] && (structural || values[i] != U(0));
    return stored != complement;
  }
};

// The mask's size against w's (any residence).
inline void check_vector_mask(no_mask_t, index_t, const char*) {}
template <class M>
void check_vector_mask(const M& m, index_t n, const char* op) {
  const auto v = as_mask_view(m);
  if (v.object->size() != n)
    throw dimension_mismatch(std::string("tgb::") + op + ": the mask has size " + std::to_string(v.object->size()) +
                             ", w has size " + std::to_string(n));
}

inline vector_no_mask make_vector_mask(no_mask_t, index_t, const char*) { return {}; }
template <class U>
vector_mask<U> make_vector_mask(const mask_view<Vector<U>>& v, index_t n, const char* op) {
  check_vector_mask(v, n, op);
  return vector_mask<U>{v.object->present(), v.object->values(), v.structural, v.complemented};
}
template <class U>
vector_mask<U> make_vector_mask(const Vector<U>& v, index_t n, const char* op) {
  return make_vector_mask(mask_view<Vector<U>>{&v, false, false}, n, op);
}

// Raw pointers of a bitmap, taken once and captured by value: a store
// through a presence byte (uint8_t, which may alias any object) would
// otherwise make the compiler reload every pointer it reached through a
// reference after each one.
template <class T>
struct raw_in {
  const T* v;
  const std::uint8_t* p;
};
template <class T>
struct raw_out {
  T* v;
  std::uint8_t* p;
};
template <class T>
raw_in<T> raw(const vector_bitmap<T>& b) {
  return {b.values.data(), b.present.data()};
}
template <class T>
raw_out<T> raw(vector_bitmap<T>& b) {
  return {b.values.data(), b.present.data()};
}

// Runs f(i) over [0, n) (in parallel for large n); f returns whether the
// result holds an entry at i. Returns how many do. Each thread runs its own
// copy of f (kept in registers, out of reach of the stores f makes).
template <class F>
index_t fill_count(index_t n, const F& f) {
  index_t k = 0;
#pragma omp parallel reduction(+ : k) if (n >= kParallelVectorPass)
  {
    const F g = f;
#pragma omp for schedule(static)
    for (index_t i = 0; i < n; ++i) k += g(i) ? 1 : 0;
  }
  return k;
}

// fill_count over the i where a (or b, where given) stores an entry (every
// one of them with AllOf): blocks of 8 positions absent from them are
// skipped a word at a time, so a sparse operand costs n / 8 word tests. f
// still sees only those positions' own presence, so skipping is only a
// saving; the result's presence must start zeroed (vector_bitmap(n) is).
// An f that takes (i, dense) is told, by std::true_type, where all 8
// positions of a word are stored in a and in b (where given): it may skip its
// presence tests there (full vectors, PageRank's, run without branches).
template <bool AllOf = false, class F>
index_t fill_count_present(index_t n, const std::uint8_t* a, const std::uint8_t* b, const F& f) {
  constexpr bool knows_dense = std::is_invocable_v<const F&, index_t, std::true_type>;
  // No zero byte in the word: all 8 positions stored.
  auto all_stored = [](std::uint64_t w) {
    return ((w - 0x0101010101010101ull) & ~w & 0x8080808080808080ull) == 0;
  };
  const index_t words = n / 8;
  index_t k = 0;
#pragma omp parallel reduction(+ : k) if (n >= kParallelVectorPass)
  {
    const F g = f;
    auto call = [&g](index_t i, auto dense) {
      if constexpr (knows_dense) return g(i, dense);
      else return g(i);
    };
#pragma omp for schedule(static)
    for (index_t q = 0; q < words; ++q) {
      std::uint64_t wa, wb = 0;
      std::memcpy(&wa, a + 8 * q, 8);
      if (b) std::memcpy(&wb, b + 8 * q, 8);
      if ((AllOf && b) ? (wa == 0 || wb == 0) : (wa | wb) == 0) continue;
      if (knows_dense && all_stored(wa) && (!b || all_stored(wb))) {
        for (index_t i = 8 * q; i < 8 * q + 8; ++i) k += call(i, std::true_type{}) ? 1 : 0;
      } else {
        for (index_t i = 8 * q; i < 8 * q + 8; ++i) k += call(i, std::false_type{}) ? 1 : 0;
      }
    }
#pragma omp single nowait
    for (index_t i = 8 * words; i < n; ++i) k += call(i, std::false_type{}) ? 1 : 0;
  }
  return k;
}

// ---- write-back ---------------------------------------------------------------
// w<m, replace> = accum(w, t), as a new bitmap. t_within_mask: t has entries
// only where the mask admits (a masked mxv computes only those), so with no
// accumulator and replace the result is t itself.
template <class TW, class Mask, class Accum>
vector_bitmap<TW> vector_writeback(const vector_bitmap<TW>& w, const Mask& mask, const Accum& accum, bool replace,
                            vector_bitmap<TW>&& t, bool t_within_mask = false) {
  constexpr bool has_accum = !std::is_same_v<Accum, no_accum_t>;
  if (!has_accum && (!Mask::active || (replace && t_within_mask))) return std::move(t);
  vector_bitmap<TW> out(w.n);
  // Positions where neither w nor t holds an entry stay empty whatever the
  // mask: fill_count_present skips them, and runs dense where both hold one.
  out.nvals = fill_count_present(w.n, w.present.data(), t.present.data(),
                                 [&accum, mask, replace, W = raw(w), Tt = raw(t), O = raw(out)](index_t i, auto dense) {
    constexpr bool both = decltype(dense)::value;
    const bool hw = both || W.p[i], ht = both || Tt.p[i];
    TW v{};
    bool has = false;
    if (mask(i)) {
      if constexpr (has_accum) {
        has = hw || ht;
        if (hw && ht) v = tgb::detail::accumulate<TW>(accum, W.v[i], Tt.v[i]);
        else if (hw) v = W.v[i];
        else if (ht) v = Tt.v[i];
      } else {
        has = ht;
        if (ht) v = Tt.v[i];
      }
    } else if (!replace && hw) {
      has = true;
      v = W.v[i];
    }
    O.p[i] = has;
    if (has) O.v[i] = v;
    return has;
  });
  return out;
}

// ---- element-wise -------------------------------------------------------------
// Union (add) or intersection of u and v; op where both are stored. Operands
// go through the operator's domain (a lone one too, as for matrices), the
// result is cast to TW.
template <class TW, class TU, class TV, class Op>
vector_bitmap<TW> vector_ewise(const vector_bitmap<TU>& u, const vector_bitmap<TV>& v, const Op& op, bool add) {
  using D = op_domain_t<Op, TU, TV>;
  vector_bitmap<TW> t(u.n);
  auto f = [&op, add, U = raw(u), V = raw(v), R = raw(t)](index_t i, auto dense) {
    const bool hu = decltype(dense)::value || U.p[i], hv = decltype(dense)::value || V.p[i];
    if (hu && hv) R.v[i] = cast<TW>(op(cast<D>(U.v[i]), cast<D>(V.v[i])));
    else if (add && hu) R.v[i] = cast<TW>(cast<D>(U.v[i]));
    else if (add && hv) R.v[i] = cast<TW>(cast<D>(V.v[i]));
    else return false;
    R.p[i] = 1;
    return true;
  };
  t.nvals = add ? fill_count_present<false>(u.n, u.present.data(), v.present.data(), f)
                : fill_count_present<true>(u.n, u.present.data(), v.present.data(), f);
  return t;
}

// GxB_eWiseUnion: the union of the patterns, with op(u, beta) where only u is
// stored and op(alpha, v) where only v is (alpha and beta cast to the domain).
template <class TW, class TU, class TV, class Op, class SA, class SB>
vector_bitmap<TW> vector_ewise_union(const vector_bitmap<TU>& u, const SA& alpha, const vector_bitmap<TV>& v,
                              const SB& beta, const Op& op) {
  using D = op_domain_t<Op, TU, TV>;
  const D a = cast<D>(alpha), b = cast<D>(beta);
  vector_bitmap<TW> t(u.n);
  t.nvals = fill_count_present(u.n, u.present.data(), v.present.data(),
                               [&op, a, b, U = raw(u), V = raw(v), R = raw(t)](index_t i, auto dense) {
    const bool hu = decltype(dense)::value || U.p[i], hv = decltype(dense)::value || V.p[i];
    if (!hu && !hv) return false;
    // (selects rather than branches: a dense operand, Bellman-Ford's d, is
    // read at every position)
    const D x = hu ? cast<D>(U.v[i]) : a;
    const D y = hv ? cast<D>(V.v[i]) : b;
    R.v[i] = cast<TW>(op(x, y));
    R.p[i] = 1;
    return true;
  });
  return t;
}

// f(u(i)) for stored i, cast to TW (f computes in u's type, as for matrices).
template <class TW, class TU, class F>
vector_bitmap<TW> vector_apply(const vector_bitmap<TU>& u, const F& f) {
  vector_bitmap<TW> t(u.n);
  t.nvals = fill_count_present(u.n, u.present.data(), nullptr, [&f, U = raw(u), R = raw(t)](index_t i, auto dense) {
    if (!decltype(dense)::value && !U.p[i]) return false;
    R.v[i] = cast<TW>(f(U.v[i]));
    R.p[i] = 1;
    return true;
  });
  return t;
}

// An index-unary operator as a value: f(u(i), i, 0, thunk) cast to TW
// (GrB_apply with a GrB_IndexUnaryOp; a vector's column index is 0).
template <class TW, class TU, class F, class Y>
vector_bitmap<TW> vector_apply_index(const vector_bitmap<TU>& u, const F& f, const Y& thunk) {
  vector_bitmap<TW> t(u.n);
  t.nvals = fill_count_present(u.n, u.present.data(), nullptr,
                               [&f, &thunk, U = raw(u), R = raw(t)](index_t i, auto dense) {
    if (!decltype(dense)::value && !U.p[i]) return false;
    R.v[i] = cast<TW>(f(U.v[i], i, index_t(0), thunk));
    R.p[i] = 1;
    return true;
  });
  return t;
}

// The entries u(i) for which pred(u(i), i, 0, thunk) holds, cast to TW.
template <class TW, class TU, class Pred, class Y>
vector_bitmap<TW> vector_select(const vector_bitmap<TU>& u, const Pred& pred, const Y& thunk) {
  vector_bitmap<TW> t(u.n);
  t.nvals = fill_count_present(u.n, u.present.data(), nullptr, [&pred, &thunk, U = raw(u), R = raw(t)](index_t i) {
    if (!U.p[i] || !static_cast<bool>(pred(U.v[i], i, index_t(0), thunk))) return false;
    R.v[i] = cast<TW>(U.v[i]);
    R.p[i] = 1;
    return true;
  });
  return t;
}

// ---- assign and extract -----------------------------------------------------
// w<m, replace>(I) = accum(w(I), src) with GrB_assign semantics (the mask is
// over all of w): Z is w with positions I[k] replaced by, or accumulated
// with, src(k); then w takes Z where the mask admits, keeps its old entries
// elsewhere (none with replace). src(k, x) stores the k-th source value in x
// and returns whether there is one. Indices are checked; a repeated index is
// the caller's to reject.
template <class TW, class Mask, class Accum, class Src>
vector_bitmap<TW> vector_assign(const vector_bitmap<TW>& w, const Mask& mask, const Accum& accum, bool replace,
                         const index_list& I, const Src& src) {
  constexpr bool has_accum = !std::is_same_v<Accum, no_accum_t>;
  vector_bitmap<TW> z = w;  // O(n) copy; the bitmap form has no cheaper way
  const index_t len = I.count(w.n);
  index_t delta = 0;
#pragma omp parallel for reduction(+ : delta) schedule(static) if (len >= kParallelVectorPass)
  for (index_t k = 0; k < len; ++k) {
    const index_t i = I[k];
    TW x{};
    const bool hs = src(k, x);
    const bool hw = w.present[i];
    if constexpr (has_accum) {
      if (!hs) continue;
      z.values[i] = hw ? tgb::detail::accumulate<TW>(accum, w.values[i], x) : x;
    } else if (!hs) {
      z.present[i] = 0;
      delta -= hw ? 1 : 0;
      continue;
    } else {
      z.values[i] = x;
    }
    z.present[i] = 1;
    delta += hw ? 0 : 1;
  }
  z.nvals = w.nvals + delta;
  if constexpr (!Mask::active) {
    return z;
  } else {
    vector_bitmap<TW> out(w.n);
    out.nvals = fill_count(w.n, [&](index_t i) {
      const bool admit = mask(i);
      const vector_bitmap<TW>& from = admit ? z : w;
      if (!from.present[i] || (!admit && replace)) return false;
      out.values[i] = from.values[i];
      out.present[i] = 1;
      return true;
    });
    return out;
  }
}

// w = accum(w, src) at every position, in place, where src stores a value at
// every position (src(i, x) always true: an element-wise op of full vectors)
// and there is no mask: straight loops the compiler can vectorize. Returns
// false, doing nothing, where w is not full and there is an accumulator (the
// caller then takes vector_assign_all).
template <class TW, class Accum, class Src>
bool vector_assign_dense(vector_bitmap<TW>& w, const Accum& accum, const Src& src) {
  constexpr bool has_accum = !std::is_same_v<Accum, no_accum_t>;
  const index_t n = w.n;
  if (has_accum && w.nvals != n) return false;
  TW* const v = w.values.data();
#pragma omp parallel if (n >= kParallelVectorPass)
  {
    const Src g = src;
#pragma omp for schedule(static)
    for (index_t i = 0; i < n; ++i) {
      TW x{};
      g(i, x);
      if constexpr (has_accum) v[i] = tgb::detail::accumulate<TW>(accum, v[i], x);
      else v[i] = x;
    }
  }
  if (!has_accum && w.nvals != n) {
    std::memset(w.present.data(), 1, static_cast<std::size_t>(n));
    w.nvals = n;
  }
  return true;
}

// vector_assign over all indices (I = all), in place: position i of w
// depends only on w(i), src(i) and mask(i), read before w(i) is written, so
// w may also be the source or the mask; nothing is allocated, so nothing can
// fail halfway.
template <class TW, class Mask, class Accum, class Src>
void vector_assign_all(vector_bitmap<TW>& w, const Mask& mask, const Accum& accum, bool replace, const Src& src) {
  constexpr bool has_accum = !std::is_same_v<Accum, no_accum_t>;
  // The change at i: -1, 0 or +1 entries. Each thread runs its own copy
  // (raw pointers in registers: see raw_out).
  auto at = [&accum, &src, mask, replace, W = raw(w)](index_t i) -> int {
    const bool hw = W.p[i];
    if (!mask(i)) {
      if (replace && hw) {
        W.p[i] = 0;
        return -1;
      }
      return 0;
    }
    TW x{};
    const bool hs = src(i, x);
    if (hs) {
      if constexpr (has_accum) W.v[i] = hw ? tgb::detail::accumulate<TW>(accum, W.v[i], x) : x;
      else W.v[i] = x;
      if (!hw) {
        W.p[i] = 1;
        return 1;
      }
    } else if (!has_accum && hw) {
      W.p[i] = 0;
      return -1;
    }
    return 0;
  };
  const index_t n = w.n;
  index_t delta = 0;
  if constexpr (Mask::active) {
    if (!mask.complement) {
      // Only where the mask stores an entry (or, with replace, w holds one)
      // can w change: 8 such positions absent are skipped a word at a time
      // (a sparse mask, BFS's frontier, costs n / 8).
      // A bool value mask (Bellman-Ford's `better`) is tested by its values
      // too: stored false admits nothing.
      using U = std::remove_cv_t<std::remove_pointer_t<decltype(mask.values)>>;
      const bool by_values = std::is_same_v<U, bool> && !mask.structural;
      const index_t words = n / 8;
      const std::uint8_t* const held_p = w.present.data();
#pragma omp parallel reduction(+ : delta) if (n >= kParallelVectorPass)
      {
        const auto mine = at;
#pragma omp for schedule(static)
        for (index_t q = 0; q < words; ++q) {
          std::uint64_t m, v = ~std::uint64_t(0), held = 0;
          std::memcpy(&m, mask.present + 8 * q, 8);
          if (by_values) std::memcpy(&v, reinterpret_cast<const unsigned char*>(mask.values) + 8 * q, 8);
          if (replace) std::memcpy(&held, held_p + 8 * q, 8);
          if ((m & v) | held)
            for (index_t i = 8 * q; i < 8 * q + 8; ++i) delta += mine(i);
        }
#pragma omp single nowait
        for (index_t i = 8 * words; i < n; ++i) delta += mine(i);
      }
      w.nvals += delta;
      return;
    }
  }
#pragma omp parallel reduction(+ : delta) if (n >= kParallelVectorPass)
  {
    const auto mine = at;
#pragma omp for schedule(static)
    for (index_t i = 0; i < n; ++i) delta += mine(i);
  }
  w.nvals += delta;
}

// t(k) = u(I[k]) for k < count, cast to TW (GrB_Vector_extract's T).
template <class TW, class TU>
vector_bitmap<TW> vector_extract(const vector_bitmap<TU>& u, const index_list& I, index_t count) {
  vector_bitmap<TW> t(count);
  t.nvals = fill_count(count, [&](index_t k) {
    const index_t i = I[k];
    if (!u.present[i]) return false;
    t.values[k] = cast<TW>(u.values[i]);
    t.present[k] = 1;
    return true;
  });
  return t;
}

// ---- reduction ------------------------------------------------------------------
// Fold of the stored entries in increasing index (cast to TS first); `has`
// false (and the identity returned) when u is empty. Fixed-size chunks
// combined in order keep the result independent of the thread count.
template <class TS, class TU, class Monoid>
TS vector_reduce(const vector_bitmap<TU>& u, const Monoid& m, bool& has) {
  has = u.nvals > 0;
  if (!has) return m.template identity<TS>();
  const index_t chunk = kParallelVector;
  const index_t nchunks = (u.n + chunk - 1) / chunk;
  buffer<TS> part(static_cast<std::size_t>(nchunks));
  buffer<std::uint8_t> part_has(static_cast<std::size_t>(nchunks), std::uint8_t(0));
  const bool full = u.nvals == u.n;
  const TU* const uv = u.values.data();
#pragma omp parallel for schedule(dynamic, 1) if (u.n >= kParallelVectorPass)
  for (index_t c = 0; c < nchunks; ++c) {
    const index_t e = std::min(u.n, (c + 1) * chunk);
    if (full) {  // every position stored: no presence tests, the same order
      TS acc = cast<TS>(uv[c * chunk]);
      for (index_t i = c * chunk + 1; i < e && !m.is_terminal(acc); ++i) acc = m(acc, cast<TS>(uv[i]));
      part[c] = acc;
      part_has[c] = 1;
      continue;
    }
    TS acc{};
    bool any = false;
    for (index_t i = c * chunk; i < e; ++i) {
      if ((i & 7) == 0 && i + 8 <= e) {  // 8 absent positions skipped at once
        std::uint64_t word;
        std::memcpy(&word, u.present.data() + i, 8);
        if (!word) {
          i += 7;
          continue;
        }
      }
      if (!u.present[i]) continue;
      if (!any) {
        acc = cast<TS>(u.values[i]);
        any = true;
      } else {
        acc = m(acc, cast<TS>(u.values[i]));
      }
      if (m.is_terminal(acc)) break;
    }
    part[c] = acc;
    part_has[c] = any;
  }
  TS acc{};
  bool any = false;
  for (index_t c = 0; c < nchunks; ++c) {
    if (!part_has[c]) continue;
    acc = any ? m(acc, part[c]) : part[c];
    any = true;
    if (m.is_terminal(acc)) break;
  }
  return acc;
}

}  // namespace tgb::detail::host
