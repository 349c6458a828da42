// tgb: the GraphBLAS operations on vectors (host backend). Each computes a
// result t, then writes w<m, replace> = accum(w, t) as the matrix operations
// do (operations.hpp): the mask is a Vector (value), structure(v) or
// complement(...) of either; accum is no_accum or a binary operator; the
// descriptor's replace applies, and its transpose flags apply to the matrix
// operand of mxv/vxm (a vector is never transposed). Checks come first; the
// result is built aside and swapped in, so a throw leaves w unchanged; w may
// be the same object as any input or the mask.
//
// Each operation runs where its operands live (all on the host or all on the
// GPU: mixed residence throws invalid_value, nothing is copied behind the
// caller). Its compute step is one detail::*_host function here and one
// *_cuda function in detail/vector_device.hpp (what the GPU runs is listed
// there).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "tgb/detail/host/vector_elementwise.hpp"
#include "tgb/detail/host/vector_kernels.hpp"
#include "tgb/detail/host/vector_sparse.hpp"
#include "tgb/detail/vector_device.hpp"
#include "tgb/index_list.hpp"
#include "tgb/operations.hpp"

namespace tgb {

namespace detail {
inline std::string size_text(index_t n) { return std::to_string(n); }

// Every operand must be on the host.
inline void host_only(const char* op, std::initializer_list<located> operands) {
  for (const located& o : operands)
    if (o.where == backend::cuda)
      throw device_unsupported(op, std::string(o.name) + " lives on the GPU and this operation runs on the host for now");
}

// Where a vector operation runs; mixed residence throws.
template <class TW, class Mask>
backend vector_residence(const char* op, const Vector<TW>& w, const Mask& mask,
                         std::initializer_list<located> others) {
  const backend where = w.location();
  residence(op, {{"w", where}, {"the mask", where_mask(mask, where)}});
  for (const located& o : others) residence(op, {{"w", where}, o});
  return where;
}

// The products. push: u' A over A's rows (vxm, or mxv with A'); otherwise
// the pull A u. A sparse u pushed over a row-form A whose rows it touches
// hold few products gives a sparse result; the rest take the bitmap kernels.
template <bool MatrixFirst, class TW, class Mask, class Accum, class Semiring, class TA, class TU>
void product_host(Vector<TW>& w, const Mask& mask, const Accum& accum, const Semiring& semiring, const Matrix<TA>& A,
                  const Vector<TU>& u, bool push, const descriptor& desc, const char* op) {
  guard_alloc([&] {
    const auto M = host::make_vector_mask(mask, w.size(), op);
    vector_bitmap<TW> t;
    vector_sparse<TW> ts;
    bool sparse = false;
    host::read_rows_or_tiles(A, [&](const auto& a) {
      if constexpr (host::is_row_list<std::decay_t<decltype(a)>>)
        if (push && u.sparse()) sparse = host::vxm_push_sparse<TW, MatrixFirst>(a, *u.sparse(), semiring, M, ts);
      if (sparse) return;
      t = push ? host::vxm_push<TW, MatrixFirst>(a, u.bitmap(), semiring, M)
               : host::mxv_pull<TW, MatrixFirst>(a, u.bitmap(), semiring, M);
    });
    if (sparse) host::write_vector(w, M, accum, desc.replace, std::move(ts), true);
    else host::write_vector(w, M, accum, desc.replace, std::move(t), true);
  });
}

// mxv: A' u is the push form of u' A over A as stored, so no transpose is
// made; vxm: u' A' is the pull form of A u.
template <class TW, class Mask, class Accum, class Semiring, class TA, class TU>
void mxv_host(Vector<TW>& w, const Mask& mask, const Accum& accum, const Semiring& semiring, const Matrix<TA>& A,
              const Vector<TU>& u, const descriptor& desc) {
  product_host<true>(w, mask, accum, semiring, A, u, desc.transpose_a, desc, "mxv");
}
template <class TW, class Mask, class Accum, class Semiring, class TU, class TA>
void vxm_host(Vector<TW>& w, const Mask& mask, const Accum& accum, const Semiring& semiring, const Vector<TU>& u,
              const Matrix<TA>& A, const descriptor& desc) {
  product_host<false>(w, mask, accum, semiring, A, u, !desc.transpose_b, desc, "vxm");
}

// Assign over all indices updates w in place only with no accumulator or a
// predefined one: a user's accumulator goes the way it went before (built
// aside; it must not throw, as every user operator run inside the host's
// OpenMP loops).
template <class Accum>
inline constexpr bool in_place_accum = std::is_same_v<Accum, no_accum_t> || op_code<Accum>::value >= 0;

// Every vector operand has w's size.
inline void check_same_size(const char* op, index_t w, std::initializer_list<std::pair<const char*, index_t>> others) {
  for (const auto& [name, n] : others)
    if (n != w)
      throw dimension_mismatch(std::string("tgb::") + op + ": w has size " + size_text(w) + " but " + name +
                               " has size " + size_text(n));
}

// The write-back of an element-wise result t, shared by the operations below.
template <class TW, class Mask, class Accum, class Result>
void vector_finish(const char* op, Vector<TW>& w, const Mask& mask, const Accum& accum, bool replace, Result&& t) {
  const auto M = host::make_vector_mask(mask, w.size(), op);
  host::write_vector(w, M, accum, replace, std::forward<Result>(t));
}

// The same for a result whose value at i depends only on the operands at i,
// when every operand is full (PageRank's vectors) and the operators are
// predefined (they cannot throw): written into w in place by
// vector_assign_all, src(i, x) giving position i's value. Nothing is
// allocated and nothing can fail halfway. Sparse operands keep the path
// above, which skips their empty words.
template <class TW, class Mask, class Accum, class Src>
void vector_in_place(const char* op, Vector<TW>& w, const Mask& mask, const Accum& accum, bool replace,
                     const Src& src) {
  const auto M = host::make_vector_mask(mask, w.size(), op);
  w.update_bitmap([&](vector_bitmap<TW>& b) {
    if constexpr (std::is_same_v<Mask, no_mask_t>)
      if (host::vector_assign_dense(b, accum, src)) return;
    host::vector_assign_all(b, M, accum, replace, src);
  });
}

template <class TW, class Mask, class Accum, class Op, class TU, class TV>
void ewise_vector_host(const char* op, bool add, Vector<TW>& w, const Mask& mask, const Accum& accum, const Op& f,
                       const Vector<TU>& u, const Vector<TV>& v, const descriptor& desc) {
  if constexpr (op_code<Op>::value >= 0 && in_place_accum<Accum>) {
    if (u.nvals() == u.size() && v.nvals() == v.size()) {
      using D = op_domain_t<Op, TU, TV>;
      return vector_in_place(op, w, mask, accum, desc.replace,
                             [&f, U = host::raw(u.bitmap()), V = host::raw(v.bitmap())](index_t i, TW& x) {
                               x = cast<TW>(f(cast<D>(U.v[i]), cast<D>(V.v[i])));
                               return true;
                             });
    }
  }
  guard_alloc([&] {
    // A sparse operand of an intersection, or two of a union, keep the
    // work to their entries.
    if (!add && (u.sparse() || v.sparse()))
      return vector_finish(op, w, mask, accum, desc.replace, host::sparse_intersect<TW>(u, v, f));
    if (add && u.sparse() && v.sparse()) {
      using D = op_domain_t<Op, TU, TV>;
      return vector_finish(op, w, mask, accum, desc.replace,
                           host::sparse_union<TW>(*u.sparse(), *v.sparse(), f, [](D x, bool) { return x; }));
    }
    // One sparse operand and one held as a bitmap: the bitmap copied, the
    // sparse entries merged into it.
    if (add && (u.sparse() != nullptr) != (v.sparse() != nullptr)) {
      using D = op_domain_t<Op, TU, TV>;
      auto lone = [](auto x) { return cast<D>(x); };
      return vector_finish(op, w, mask, accum, desc.replace,
                           host::union_sparse_bitmap<TW>(
                               u, v, [&f](TU x, TV y) { return f(cast<D>(x), cast<D>(y)); }, lone, lone));
    }
    vector_finish(op, w, mask, accum, desc.replace, host::vector_ewise<TW>(u.bitmap(), v.bitmap(), f, add));
  });
}

// A list with repeated indices, as a marker over [0, n) finds them (O(n + |I|)).
inline bool has_repeats(const index_list& I, index_t n) {
  if (I.is_all() || I.is_range()) return false;  // a range's stride is not 0
  const index_t len = I.count(n);
  if (len < 2) return false;
  buffer<std::uint8_t> seen(static_cast<std::size_t>(n), std::uint8_t(0));
  for (index_t k = 0; k < len; ++k) {
    if (seen[I[k]]) return true;
    seen[I[k]] = 1;
  }
  return false;
}
// The list without its repeats (first occurrences, in order).
inline index_list without_repeats(const index_list& I, index_t n) {
  buffer<std::uint8_t> seen(static_cast<std::size_t>(n), std::uint8_t(0));
  std::vector<index_t> out;
  for (index_t k = 0, len = I.count(n); k < len; ++k)
    if (!seen[I[k]]) {
      seen[I[k]] = 1;
      out.push_back(I[k]);
    }
  return index_list(std::move(out));
}

// Assign over all indices through a sparse mask vector (not complemented,
// no replace) visits only the mask's entries: w's other positions keep what
// they hold. src(i, x) is read at increasing i. False where it does not apply.
template <class TW, class Mask, class Accum, class Src>
bool assign_through_sparse_mask(Vector<TW>& w, const Mask& mask, const Accum& accum, bool replace, Src&& src) {
  if constexpr (std::is_same_v<Mask, no_mask_t> || !in_place_accum<Accum>) {
    return false;
  } else {
    const auto mv = as_mask_view(mask);
    const auto* ms = mv.object->sparse();
    if (replace || mv.complemented || !ms) return false;
    // (w's sparse form, which may be the mask or the source, stays readable
    // until f is done)
    w.update_bitmap([&](vector_bitmap<TW>& b) {
      host::assign_through_sparse_mask(b, *ms, mv.structural, accum, src);
    });
    return true;
  }
}

template <class TW, class Mask, class Accum, class TU>
void assign_host(Vector<TW>& w, const Mask& mask, const Accum& accum, const Vector<TU>& u, const index_list& I,
                 const descriptor& desc) {
  guard_alloc([&] {
    if (I.is_all()) {
      host::ascending_reader<TU> ru(u);
      if (assign_through_sparse_mask(w, mask, accum, desc.replace, [&ru](index_t i, TW& x) {
            TU y{};
            if (!ru.get(i, y)) return false;
            x = cast<TW>(y);
            return true;
          }))
        return;
    }
    const auto M = host::make_vector_mask(mask, w.size(), "assign");
    const vector_bitmap<TU>& ub = u.bitmap();
    auto src = [&](index_t k, TW& x) {
      if (!ub.present[k]) return false;
      x = cast<TW>(ub.values[k]);
      return true;
    };
    if (I.is_all() && in_place_accum<Accum>)
      return w.update_bitmap([&](vector_bitmap<TW>& b) { host::vector_assign_all(b, M, accum, desc.replace, src); });
    w.take(host::vector_assign(*host::output_bitmap<TW>(w), M, accum, desc.replace, I, src));
  });
}

// f(x) for each stored value of a host vector, in index order: from the
// sparse form where it is held (no O(size) bitmap made), else the bitmap.
template <class T, class F>
void for_each_stored(const Vector<T>& v, F&& f) {
  if (const vector_sparse<T>* sp = v.sparse()) {
    for (index_t k = 0; k < sp->nvals(); ++k) f(sp->values[k]);
    return;
  }
  const T* x = v.values();
  const std::uint8_t* p = v.present();
  for (index_t i = 0; i < v.size(); ++i)
    if (p[i]) f(x[i]);
}

// A vector's stored values in index order as an index list (the list of
// GxB's *_Vector index forms), read on the host.
template <class TI>
index_list index_list_of(const Vector<TI>& I) {
  static_assert(std::is_integral_v<TI> && !std::is_same_v<TI, bool>, "tgb: indices must be integers");
  return guard_alloc([&] {
    std::vector<index_t> out;
    out.reserve(static_cast<std::size_t>(I.nvals()));
    for_each_stored(I, [&](TI x) { out.push_back(static_cast<index_t>(x)); });
    return index_list(std::move(out));
  });
}

// w<m>(I) = accum(w(I), x), x already cast to w's type; no x (an empty
// Scalar, tgb/scalar.hpp) assigns as an empty vector u would: w(I)'s entries
// are deleted without an accumulator and kept with one. I and the mask are
// checked by the caller (assign_scalar).
template <class TW, class Mask, class Accum>
void assign_scalar_host(Vector<TW>& w, const Mask& mask, const Accum& accum, const std::optional<TW>& x,
                        const index_list& I, const descriptor& desc) {
  guard_alloc([&] {
    auto src = [&x](index_t, TW& out) {
      if (!x) return false;
      out = *x;
      return true;
    };
    if (I.is_all() && assign_through_sparse_mask(w, mask, accum, desc.replace, src)) return;
    // Every position takes x (PageRank's w = c): the in-place element-wise path.
    if (I.is_all() && in_place_accum<Accum> && x) return vector_in_place("assign", w, mask, accum, desc.replace, src);
    const auto M = host::make_vector_mask(mask, w.size(), "assign");
    if (I.is_all() && in_place_accum<Accum>)
      return w.update_bitmap([&](vector_bitmap<TW>& b) { host::vector_assign_all(b, M, accum, desc.replace, src); });
    // A repeated index would write (or delete) the same position twice:
    // drop the repeats so that each position is written once.
    const index_list J = has_repeats(I, w.size()) ? without_repeats(I, w.size()) : I;
    w.take(host::vector_assign(*host::output_bitmap<TW>(w), M, accum, desc.replace, J, src));
  });
}

// assign of a scalar (or an empty one) where w lives.
template <class TW, class Mask, class Accum>
void assign_scalar(Vector<TW>& w, const Mask& mask, const Accum& accum, const std::optional<TW>& x,
                   const index_list& I, const descriptor& desc) {
  I.check(w.size(), "assign");
  host::check_vector_mask(mask, w.size(), "assign");
  if (vector_residence("assign", w, mask, {}) == backend::cuda) {
    // A repeated index would write the same position twice: each is written once.
    if (guard_alloc([&] { return has_repeats(I, w.size()); }))
      return vector_assign_scalar_cuda(w, mask, accum, x, guard_alloc([&] { return without_repeats(I, w.size()); }),
                                       desc);
    return vector_assign_scalar_cuda(w, mask, accum, x, I, desc);
  }
  assign_scalar_host(w, mask, accum, x, I, desc);
}
}  // namespace detail

// ---------------------------------------------------------------- products
// w<m> = accum(w, A u) (A' u with desc.transpose_a) over the semiring:
// w(i) = add over k of mul(A(i,k), u(k)). Values are cast to w's type before
// the multiply, as in mxm.
template <class TW, class Mask, class Accum, class Semiring, class TA, class TU>
void mxv(Vector<TW>& w, const Mask& mask, const Accum& accum, const Semiring& semiring, const Matrix<TA>& A,
         const Vector<TU>& u, const descriptor& desc = {}) {
  const index_t m = detail::rows_of(A, desc.transpose_a), k = detail::cols_of(A, desc.transpose_a);
  if (u.size() != k || w.size() != m)
    throw dimension_mismatch("tgb::mxv: w has size " + detail::size_text(w.size()) + ", A" +
                             (desc.transpose_a ? "'" : "") + " is " + detail::shape(m, k) + ", u has size " +
                             detail::size_text(u.size()));
  detail::host::check_vector_mask(mask, w.size(), "mxv");
  if (detail::vector_residence("mxv", w, mask, {{"A", A.location()}, {"u", u.location()}}) == backend::cuda)
    return detail::mxv_cuda("mxv", false, w, mask, accum, semiring, A, u, desc);
  detail::mxv_host(w, mask, accum, semiring, A, u, desc);
}

// w<m> = accum(w, u' A) (u' A' with desc.transpose_b) over the semiring:
// w(j) = add over k of mul(u(k), A(k,j)).
template <class TW, class Mask, class Accum, class Semiring, class TU, class TA>
void vxm(Vector<TW>& w, const Mask& mask, const Accum& accum, const Semiring& semiring, const Vector<TU>& u,
         const Matrix<TA>& A, const descriptor& desc = {}) {
  const index_t k = detail::rows_of(A, desc.transpose_b), n = detail::cols_of(A, desc.transpose_b);
  if (u.size() != k || w.size() != n)
    throw dimension_mismatch("tgb::vxm: w has size " + detail::size_text(w.size()) + ", u has size " +
                             detail::size_text(u.size()) + ", A" + (desc.transpose_b ? "'" : "") + " is " +
                             detail::shape(k, n));
  detail::host::check_vector_mask(mask, w.size(), "vxm");
  if (detail::vector_residence("vxm", w, mask, {{"u", u.location()}, {"A", A.location()}}) == backend::cuda)
    return detail::mxv_cuda("vxm", true, w, mask, accum, semiring, A, u, desc);
  detail::vxm_host(w, mask, accum, semiring, u, A, desc);
}

// ------------------------------------------------------------- element-wise
// w<m> = accum(w, u .op. v) over the union of the patterns; a lone operand is
// taken as it is (through op's domain).
template <class TW, class Mask, class Accum, class Op, class TU, class TV>
void ewise_add(Vector<TW>& w, const Mask& mask, const Accum& accum, const Op& op, const Vector<TU>& u,
               const Vector<TV>& v, const descriptor& desc = {}) {
  detail::check_same_size("ewise_add", w.size(), {{"u", u.size()}, {"v", v.size()}});
  detail::host::check_vector_mask(mask, w.size(), "ewise_add");
  if (detail::vector_residence("ewise_add", w, mask, {{"u", u.location()}, {"v", v.location()}}) == backend::cuda)
    return detail::vector_ewise_cuda("ewise_add", 1, w, mask, accum, op, u, v, desc);
  detail::ewise_vector_host("ewise_add", true, w, mask, accum, op, u, v, desc);
}

// w<m> = accum(w, u .op. v) over the intersection of the patterns.
template <class TW, class Mask, class Accum, class Op, class TU, class TV>
void ewise_mult(Vector<TW>& w, const Mask& mask, const Accum& accum, const Op& op, const Vector<TU>& u,
                const Vector<TV>& v, const descriptor& desc = {}) {
  detail::check_same_size("ewise_mult", w.size(), {{"u", u.size()}, {"v", v.size()}});
  detail::host::check_vector_mask(mask, w.size(), "ewise_mult");
  if (detail::vector_residence("ewise_mult", w, mask, {{"u", u.location()}, {"v", v.location()}}) == backend::cuda)
    return detail::vector_ewise_cuda("ewise_mult", 0, w, mask, accum, op, u, v, desc);
  detail::ewise_vector_host("ewise_mult", false, w, mask, accum, op, u, v, desc);
}

// w<m> = accum(w, u .op. v) over the union, with u's missing entries taken as
// alpha and v's as beta (GxB_eWiseUnion): op(u, beta) where only u is stored.
template <class TW, class Mask, class Accum, class Op, class TU, class SA, class TV, class SB>
void ewise_union(Vector<TW>& w, const Mask& mask, const Accum& accum, const Op& op, const Vector<TU>& u,
                 const SA& alpha, const Vector<TV>& v, const SB& beta, const descriptor& desc = {}) {
  detail::check_same_size("ewise_union", w.size(), {{"u", u.size()}, {"v", v.size()}});
  detail::host::check_vector_mask(mask, w.size(), "ewise_union");
  if (detail::vector_residence("ewise_union", w, mask, {{"u", u.location()}, {"v", v.location()}}) == backend::cuda)
    return detail::vector_ewise_cuda("ewise_union", 2, w, mask, accum, op, u, v, desc, alpha, beta);
  detail::guard_alloc([&] {
    if (u.sparse() && v.sparse()) {
      using D = detail::op_domain_t<Op, TU, TV>;
      const D a = detail::cast<D>(alpha), b = detail::cast<D>(beta);
      return detail::vector_finish(
          "ewise_union", w, mask, accum, desc.replace,
          detail::host::sparse_union<TW>(*u.sparse(), *v.sparse(), op,
                                         [&op, a, b](D x, bool of_u) { return of_u ? op(x, b) : op(a, x); }));
    }
    // One sparse operand and one held as a bitmap (Bellman-Ford's frontier
    // against its distances): the bitmap copied, the sparse entries merged in.
    if ((u.sparse() != nullptr) != (v.sparse() != nullptr)) {
      using D = detail::op_domain_t<Op, TU, TV>;
      const D a = detail::cast<D>(alpha), b = detail::cast<D>(beta);
      return detail::vector_finish(
          "ewise_union", w, mask, accum, desc.replace,
          detail::host::union_sparse_bitmap<TW>(
              u, v, [&op](TU x, TV y) { return op(detail::cast<D>(x), detail::cast<D>(y)); },
              [&op, b](TU x) { return op(detail::cast<D>(x), b); },
              [&op, a](TV y) { return op(a, detail::cast<D>(y)); }));
    }
    detail::vector_finish("ewise_union", w, mask, accum, desc.replace,
                          detail::host::vector_ewise_union<TW>(u.bitmap(), alpha, v.bitmap(), beta, op));
  });
}

// -------------------------------------------------------------- apply, select
// w<m> = accum(w, f(u)): a unary operator, or bind1st(op, s) / bind2nd(op, s).
template <class TW, class Mask, class Accum, class UnaryOp, class TU>
void apply(Vector<TW>& w, const Mask& mask, const Accum& accum, const UnaryOp& f, const Vector<TU>& u,
           const descriptor& desc = {}) {
  detail::check_same_size("apply", w.size(), {{"u", u.size()}});
  detail::host::check_vector_mask(mask, w.size(), "apply");
  if (detail::vector_residence("apply", w, mask, {{"u", u.location()}}) == backend::cuda)
    return detail::vector_apply_cuda(w, mask, accum, f, u, desc);
  if constexpr (detail::unary_code<UnaryOp>::value >= 0 && detail::in_place_accum<Accum>) {
    if (u.nvals() == u.size())
      return detail::vector_in_place("apply", w, mask, accum, desc.replace,
                                     [&f, U = detail::host::raw(u.bitmap())](index_t i, TW& x) {
                                       x = detail::cast<TW>(f(U.v[i]));
                                       return true;
                                     });
  }
  detail::guard_alloc([&] {
    if (const auto* us = u.sparse())
      return detail::vector_finish("apply", w, mask, accum, desc.replace,
                                   detail::host::sparse_map<TW>(*us, [&f](index_t, const TU& x, TW& out) {
                                     out = detail::cast<TW>(f(x));
                                     return true;
                                   }));
    detail::vector_finish("apply", w, mask, accum, desc.replace, detail::host::vector_apply<TW>(u.bitmap(), f));
  });
}

// w<m> = accum(w, f(u(i), i, 0, thunk)): an index-unary operator applied as a
// value (GrB_apply with a GrB_IndexUnaryOp): rowindex, value_gt, ... .
template <class TW, class Mask, class Accum, class IndexOp, class TU, class Y>
void apply_index(Vector<TW>& w, const Mask& mask, const Accum& accum, const IndexOp& f, const Vector<TU>& u,
                 const Y& thunk, const descriptor& desc = {}) {
  detail::check_same_size("apply_index", w.size(), {{"u", u.size()}});
  detail::host::check_vector_mask(mask, w.size(), "apply_index");
  if (detail::vector_residence("apply_index", w, mask, {{"u", u.location()}}) == backend::cuda)
    return detail::vector_apply_index_cuda(w, mask, accum, f, u, thunk, desc);
  detail::guard_alloc([&] {
    if (const auto* us = u.sparse())
      return detail::vector_finish("apply_index", w, mask, accum, desc.replace,
                                   detail::host::sparse_map<TW>(*us, [&f, &thunk](index_t i, const TU& x, TW& out) {
                                     out = detail::cast<TW>(f(x, i, index_t(0), thunk));
                                     return true;
                                   }));
    detail::vector_finish("apply_index", w, mask, accum, desc.replace,
                          detail::host::vector_apply_index<TW>(u.bitmap(), f, thunk));
  });
}

// w<m> = accum(w, the entries u(i) where pred(u(i), i, 0, thunk)): the
// selectors of select on matrices (value_eq ... value_le, tril/triu/diag/
// offdiag with j = 0) and row_le, row_gt, rowindex, or any such object.
template <class TW, class Mask, class Accum, class Pred, class TU, class Y>
void select(Vector<TW>& w, const Mask& mask, const Accum& accum, const Pred& pred, const Vector<TU>& u,
            const Y& thunk, const descriptor& desc = {}) {
  detail::check_same_size("select", w.size(), {{"u", u.size()}});
  detail::host::check_vector_mask(mask, w.size(), "select");
  if (detail::vector_residence("select", w, mask, {{"u", u.location()}}) == backend::cuda)
    return detail::vector_select_cuda(w, mask, accum, pred, u, thunk, desc);
  detail::guard_alloc([&] {
    if (const auto* us = u.sparse())
      return detail::vector_finish("select", w, mask, accum, desc.replace,
                                   detail::host::sparse_map<TW>(*us, [&pred, &thunk](index_t i, const TU& x, TW& out) {
                                     if (!static_cast<bool>(pred(x, i, index_t(0), thunk))) return false;
                                     out = detail::cast<TW>(x);
                                     return true;
                                   }));
    detail::vector_finish("select", w, mask, accum, desc.replace,
                          detail::host::vector_select<TW>(u.bitmap(), pred, thunk));
  });
}

// ----------------------------------------------------------- assign, extract
// w<m>(I) = accum(w(I), u) (GrB_Vector_assign): u(k) goes to w(I[k]); the
// mask is over all of w. |I| must equal u's size; indices outside w throw
// index_out_of_bounds; a repeated index throws invalid_value (which of u's
// values lands is undefined; SuiteSparse lets the last one win). To fold
// the values aimed at one index, build a vector with a dup operator
// (Vector::build, or build(w, I, X, dup) from vectors) and assign that.
template <class TW, class Mask, class Accum, class TU>
void assign(Vector<TW>& w, const Mask& mask, const Accum& accum, const Vector<TU>& u, const index_list& I,
            const descriptor& desc = {}) {
  const index_t len = I.count(w.size());
  if (len != u.size())
    throw dimension_mismatch("tgb::assign: the index list has " + detail::size_text(len) + " indices but u has size " +
                             detail::size_text(u.size()));
  I.check(w.size(), "assign");
  detail::host::check_vector_mask(mask, w.size(), "assign");
  const backend where = detail::vector_residence("assign", w, mask, {{"u", u.location()}});
  if (detail::guard_alloc([&] { return detail::has_repeats(I, w.size()); }))
    throw invalid_value("tgb::assign: the index list repeats an index; which of u's values lands there is undefined");
  if (where == backend::cuda) return detail::vector_assign_cuda(w, mask, accum, u, I, desc);
  detail::assign_host(w, mask, accum, u, I, desc);
}

// w<m>(I) = accum(w(I), u) with the indices held by a vector (SuiteSparse's
// GxB_Vector_assign_Vector): I's stored values, in index order, are the
// list, so |u| must equal I's entry count; no repeats. I lives where w and
// u do; on the device the list stays there.
template <class TW, class Mask, class Accum, class TU, class TI>
void assign(Vector<TW>& w, const Mask& mask, const Accum& accum, const Vector<TU>& u, const Vector<TI>& I,
            const descriptor& desc = {}) {
  static_assert(std::is_integral_v<TI> && !std::is_same_v<TI, bool>, "tgb::assign: indices must be integers");
  detail::host::check_vector_mask(mask, w.size(), "assign");
  if (detail::vector_residence("assign", w, mask, {{"u", u.location()}, {"I", I.location()}}) != backend::cuda)
    return assign(w, mask, accum, u, detail::index_list_of(I), desc);
  if constexpr (!detail::cuda::device_types<TI, TW, TU>) {
    throw detail::device_unsupported("assign", "a vector of indices must be int32 or int64, and w and u of the "
                                               "device's value types");
  } else {
    const stream_t s = current_stream();
    std::optional<detail::device_vector<index_t>> keep;
    const detail::cuda::vector_index_list L =
        detail::cuda::vector_indices(detail::device_vector_as<index_t>(I, keep), w.size(), s);
    if (L.len != u.size())
      throw dimension_mismatch("tgb::assign: the index vector has " + detail::size_text(L.len) +
                               " entries but u has size " + detail::size_text(u.size()));
    if (L.has_bad)
      throw index_out_of_bounds("tgb::assign: index " + std::to_string(L.bad) + " is outside [0, " +
                                std::to_string(w.size()) + ")");
    const index_t r = detail::cuda::vector_first_repeat(L.list, L.len, w.size(), s);
    if (r >= 0)
      throw invalid_value("tgb::assign: the index vector repeats index " + std::to_string(r) +
                          "; which of u's values lands there is undefined");
    detail::vector_assign_cuda(w, mask, accum, detail::device_source<TW>(u, s), detail::cuda::index_source{L.list},
                               desc);
  }
}

// ------------------------------------------------------ build from vectors
// GxB_Vector_build_Vector: w.build(indices, values, dup) with the tuples
// held by two vectors, their stored values in index order (I int32 or
// int64; X's values cast to w's type). I and X hold the same number of
// entries; w must be empty (output_not_empty); dup folds the values of one
// index in list order (no_duplicates: a repeat throws invalid_value). The
// three live on one backend; on the GPU the tuples never leave it (dup a
// predefined operator; the associative ones fold by a segmented reduction,
// so a floating-point plus may round differently from the host's). FastSV
// hooks this way: t(p) = min of g(v) over the v with f(v) = p.
template <class T, class TI, class TX, class Dup = no_duplicates_t>
void build(Vector<T>& w, const Vector<TI>& I, const Vector<TX>& X, Dup dup = no_duplicates) {
  static_assert(std::is_integral_v<TI> && !std::is_same_v<TI, bool>, "tgb::build: indices must be integers");
  const backend where = detail::vector_residence("build", w, no_mask, {{"I", I.location()}, {"X", X.location()}});
  const auto differ = [](index_t ni, index_t nx) {
    return invalid_value("tgb::build: the index vector holds " + std::to_string(ni) + " entries and the value vector " +
                         std::to_string(nx));
  };
  if (w.nvals() != 0)
    throw output_not_empty("tgb::build: the vector already holds " + std::to_string(w.nvals()) +
                           " entries; clear() it first");
  if (where != backend::cuda) {
    if (I.nvals() != X.nvals()) throw differ(I.nvals(), X.nvals());
    const auto [idx, val] = detail::guard_alloc([&] {
      std::vector<index_t> i;
      std::vector<TX> x;
      i.reserve(static_cast<std::size_t>(I.nvals()));
      x.reserve(static_cast<std::size_t>(X.nvals()));
      detail::for_each_stored(I, [&](TI v) { i.push_back(static_cast<index_t>(v)); });
      detail::for_each_stored(X, [&](TX v) { x.push_back(v); });
      return std::pair(std::move(i), std::move(x));
    });
    return w.build(idx, val, dup);
  }
  constexpr int dup_code = std::is_same_v<Dup, no_duplicates_t> ? -1 : detail::op_code<Dup>::value;
  if constexpr (!detail::cuda::device_types<T, TI, TX> || (dup_code < 0 && !std::is_same_v<Dup, no_duplicates_t>)) {
    throw detail::device_unsupported("build", "the indices must be int32 or int64, the values of the device's "
                                              "value types and dup a predefined operator");
  } else {
    const stream_t s = current_stream();
    std::optional<detail::device_vector<index_t>> keep;
    const detail::cuda::vector_index_list L =
        detail::cuda::vector_indices(detail::device_vector_as<index_t>(I, keep), w.size(), s);
    if (L.has_bad)
      throw index_out_of_bounds("tgb::build: index " + std::to_string(L.bad) + " is outside [0, " +
                                std::to_string(w.size()) + ")");
    std::optional<detail::device_vector<T>> xkeep;
    const detail::device_vector<T> t = detail::cuda::vector_stored<T>(detail::device_vector_as<T>(X, xkeep), s);
    // (the counts compared from what the compactions read back anyway)
    if (L.len != t.n) throw differ(L.len, t.n);
    const detail::device_vector<T> empty(w.size(), s);
    if constexpr (dup_code < 0) {
      const index_t r = detail::cuda::vector_first_repeat(L.list, L.len, w.size(), s);
      if (r >= 0)
        throw invalid_value("tgb::build: duplicate index " + std::to_string(r) +
                            " and the duplicate policy is no_duplicates");
      detail::vector_finish_cuda("build", w, no_mask, no_accum, false,
                                 detail::cuda::vector_scatter<T>(empty, t, detail::cuda::index_source{L.list}, -1, s));
    } else {
      detail::vector_finish_cuda("build", w, no_mask, no_accum, false,
                                 detail::cuda::vector_scatter_fold<T>(empty, t, L.list, dup_code, s));
    }
  }
}

// w<m>(I) = accum(w(I), x) (GrB_Vector_assign with a scalar): x, cast to w's
// type, at every index of I (repeats are harmless).
template <class TW, class Mask, class Accum, class S,
          class = std::enable_if_t<!detail::is_maskable<S>::value && !std::is_same_v<S, index_list>>>
void assign(Vector<TW>& w, const Mask& mask, const Accum& accum, const S& scalar, const index_list& I,
            const descriptor& desc = {}) {
  detail::assign_scalar(w, mask, accum, std::optional<TW>(detail::cast<TW>(scalar)), I, desc);
}

// w<m> = accum(w, u(I)) (GrB_Vector_extract): t(k) = u(I[k]). |I| must equal
// w's size; indices outside u throw index_out_of_bounds; repeats are allowed.
template <class TW, class Mask, class Accum, class TU>
void extract(Vector<TW>& w, const Mask& mask, const Accum& accum, const Vector<TU>& u, const index_list& I,
             const descriptor& desc = {}) {
  const index_t len = I.count(u.size());
  if (len != w.size())
    throw dimension_mismatch("tgb::extract: w has size " + detail::size_text(w.size()) + " but the index list has " +
                             detail::size_text(len) + " indices");
  I.check(u.size(), "extract");
  detail::host::check_vector_mask(mask, w.size(), "extract");
  if (detail::vector_residence("extract", w, mask, {{"u", u.location()}}) == backend::cuda)
    return detail::vector_extract_cuda(w, mask, accum, u, I, desc);
  detail::guard_alloc([&] {
    detail::vector_finish("extract", w, mask, accum, desc.replace,
                          detail::host::vector_extract<TW>(u.bitmap(), I, len));
  });
}

// w<m> = accum(w, u(I)) with the indices held by a vector (SuiteSparse's
// GxB_Vector_extract_Vector): I's stored values, in index order, are the
// list, so |w| must equal I's entry count. I lives where w and u do; on the
// device the list never comes to the host (connected_components' FastSV:
// the grandparents gf = f(f)).
template <class TW, class Mask, class Accum, class TU, class TI>
void extract(Vector<TW>& w, const Mask& mask, const Accum& accum, const Vector<TU>& u, const Vector<TI>& I,
             const descriptor& desc = {}) {
  static_assert(std::is_integral_v<TI> && !std::is_same_v<TI, bool>, "tgb::extract: indices must be integers");
  detail::host::check_vector_mask(mask, w.size(), "extract");
  if (detail::vector_residence("extract", w, mask, {{"u", u.location()}, {"I", I.location()}}) == backend::cuda) {
    if constexpr (!detail::cuda::device_types<TI>) {
      throw detail::device_unsupported("extract", "a vector of indices must be int32 or int64");
    } else {
      std::optional<detail::device_vector<index_t>> keep;
      const detail::cuda::vector_index_list L =
          detail::cuda::vector_indices(detail::device_vector_as<index_t>(I, keep), u.size(), current_stream());
      if (L.len != w.size())
        throw dimension_mismatch("tgb::extract: w has size " + detail::size_text(w.size()) +
                                 " but the index vector has " + detail::size_text(L.len) + " entries");
      if (L.has_bad)
        throw index_out_of_bounds("tgb::extract: index " + std::to_string(L.bad) + " is outside [0, " +
                                  std::to_string(u.size()) + ")");
      return detail::vector_extract_cuda(w, mask, accum, u, detail::cuda::index_source{L.list}, desc);
    }
  }
  extract(w, mask, accum, u, detail::index_list_of(I), desc);
}

// --------------------------------------------------------------- reductions
// The fold of u's entries under the monoid, in increasing index; its identity
// if u is empty.
namespace detail {
// The fold of u in S where u lives and in the form it holds.
template <class S, class Monoid, class T>
S reduce_vector(const Monoid& monoid, const Vector<T>& u, bool& has) {
  if (u.location() == backend::cuda) return vector_reduce_cuda<S>(monoid, u, has);
  if (const auto* us = u.sparse()) return host::sparse_reduce<S>(*us, monoid, has);
  return guard_alloc([&] { return host::vector_reduce<S>(u.bitmap(), monoid, has); });
}
}  // namespace detail

template <class T, class Monoid>
T reduce(const Monoid& monoid, const Vector<T>& u) {
  bool has = false;
  return detail::reduce_vector<T>(monoid, u, has);
}

// s = accum(s, fold of u) (GrB_Vector_reduce to a scalar with accumulator).
template <class S, class Accum, class Monoid, class T>
void reduce(S& s, const Accum& accum, const Monoid& monoid, const Vector<T>& u) {
  bool has = false;
  const S t = detail::reduce_vector<S>(monoid, u, has);
  if constexpr (std::is_same_v<Accum, no_accum_t>) s = t;
  else s = tgb::detail::accumulate<S>(accum, s, t);
}

}  // namespace tgb
