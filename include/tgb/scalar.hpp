// tgb: Scalar<T>, GraphBLAS's GrB_Scalar: zero or one value of type T, and
// the operations that take or produce one (the _Scalar variants of the
// GraphBLAS C API 2.1):
//   reduce(s, accum, monoid, A or u)              s = accum(s, fold of A)
//   assign(C, mask, accum, s, I, J, desc)         C<M>(I,J) = accum(C(I,J), s)
//   subassign(C, mask, accum, s, I, J, desc)      C(I,J)<M> = accum(C(I,J), s)
//   assign(w, mask, accum, s, I, desc)            w<m>(I) = accum(w(I), s)
//   apply(C or w, mask, accum, bind1st(op, s) or bind2nd(op, s), A or u, desc)
//   select(C or w, mask, accum, pred, A or u, s, desc), apply_index(w, ..., u, s, desc)
//   extract_element(s, A, i, j), extract_element(s, u, i)
// To these a Scalar is a 1 x 1 matrix. Where the operation has room for "no
// value" an empty one is a value like any other: the reduction of nothing is
// empty (not the monoid's identity, which the plain-scalar reduce returns),
// and an empty scalar assigned deletes the region's entries as an empty
// matrix would. Where a value is needed (the operand bound to apply's
// operator, select's thunk) an empty one throws empty_object
// (GrB_EMPTY_OBJECT), after the shapes are checked, as SuiteSparse does.
//
// Where they run: reduce, apply and select hand the value (or the fold) to
// the plain-scalar forms, so they run where their operands live, the GPU
// included; assign and extract_element run on the host, as their
// plain-scalar forms do (a GPU operand throws not_implemented). On any error
// the output, s included, is unchanged.
#pragma once

#include <optional>
#include <string>
#include <type_traits>

#include "tgb/algebra.hpp"
#include "tgb/config.hpp"
#include "tgb/error.hpp"
#include "tgb/matrix_assign.hpp"
#include "tgb/operations.hpp"
#include "tgb/vector_operations.hpp"

namespace tgb {

template <class T>
class Scalar {
 public:
  using value_type = T;

  // Empty (GrB_Scalar_new).
  Scalar() = default;
  // Holding v (GrB_Scalar_setElement).
  explicit Scalar(const T& v) noexcept : value_(v), has_(true) {}
  // Holding v cast to T as GraphBLAS casts (detail::cast: floating point to
  // an integer saturates and takes NaN to 0; anything to bool is != 0).
  template <class U, class = std::enable_if_t<std::is_arithmetic_v<U> && !std::is_same_v<U, T>>>
  explicit Scalar(U v) noexcept : value_(detail::cast<T>(v)), has_(true) {}
  // Another scalar's value cast to T, or empty if it is.
  template <class U, class = std::enable_if_t<!std::is_same_v<U, T>>>
  explicit Scalar(const Scalar<U>& s) noexcept {
    if (!s.empty()) set(detail::cast<T>(s.get()));
  }

  void set(const T& v) noexcept {
    value_ = v;
    has_ = true;
  }
  template <class U, class = std::enable_if_t<std::is_arithmetic_v<U> && !std::is_same_v<U, T>>>
  void set(U v) noexcept {
    set(detail::cast<T>(v));
  }
  // Drops the value (GrB_Scalar_clear).
  void clear() noexcept { has_ = false; }

  // 0 or 1 (GrB_Scalar_nvals).
  index_t nvals() const noexcept { return has_ ? 1 : 0; }
  bool empty() const noexcept { return !has_; }
  // The value (GrB_Scalar_extractElement); an empty scalar throws no_value
  // (GraphBLAS's GrB_NO_VALUE).
  T get() const {
    if (!has_) throw no_value("tgb::Scalar::get: the scalar is empty");
    return value_;
  }
  T value_or(const T& otherwise) const noexcept { return has_ ? value_ : otherwise; }

 private:
  T value_{};
  bool has_ = false;
};

namespace detail {
// s's value where an operation needs one (GrB_EMPTY_OBJECT without).
template <class T>
T needed_value(const char* op, const char* what, const Scalar<T>& s) {
  if (s.empty())
    throw empty_object(std::string("tgb::") + op + ": " + what + " is an empty Scalar; the operation needs a value");
  return s.get();
}

// s as the assignments take it: its value cast to the output's type, or none.
template <class TC, class T>
std::optional<TC> value_as(const Scalar<T>& s) {
  return s.empty() ? std::nullopt : std::optional<TC>(cast<TC>(s.get()));
}

// The shapes apply and select check (C against A or A', the mask against C),
// checked ahead of an empty scalar's error: GraphBLAS reports a dimension
// mismatch first.
template <class TC, class Mask, class TA>
void check_unary_shapes(const char* op, const Matrix<TC>& C, const Mask& mask, const Matrix<TA>& A,
                        const descriptor& desc) {
  check_unary_shape(op, C, A, desc);
  check_matrix_mask(mask, C.nrows(), C.ncols(), op, "C");
}
template <class TW, class Mask, class TU>
void check_unary_shapes(const char* op, const Vector<TW>& w, const Mask& mask, const Vector<TU>& u,
                        const descriptor&) {
  check_same_size(op, w.size(), {{"u", u.size()}});
  host::check_vector_mask(mask, w.size(), op);
}

// s = accum(s, t) where t = fold() is the reduction of a non-empty input;
// `nothing`: the input has no entries, so t has no value.
template <class S, class Accum, class Fold>
void reduce_into(Scalar<S>& s, const Accum& accum, bool nothing, const Fold& fold) {
  constexpr bool has_accum = !std::is_same_v<Accum, no_accum_t>;
  if (nothing) {
    if constexpr (!has_accum) s.clear();
    return;
  }
  const S t = fold();
  if constexpr (has_accum) {
    if (!s.empty()) {
      s.set(tgb::detail::accumulate<S>(accum, s.get(), t));
      return;
    }
  }
  s.set(t);
}

// An operator with a Scalar bound to it (bind1st(op, s), bind2nd(op, s)) and
// the same operator with s's value bound instead.
template <class F>
struct scalar_bind : std::false_type {};
template <class Op, class S>
struct scalar_bind<bind_first<Op, Scalar<S>>> : std::true_type {
  static bind_first<Op, S> with_value(const bind_first<Op, Scalar<S>>& f) {
    return bind_first<Op, S>{f.op, needed_value("apply", "the operand bound to the operator", f.scalar)};
  }
};
template <class Op, class S>
struct scalar_bind<bind_second<Op, Scalar<S>>> : std::true_type {
  static bind_second<Op, S> with_value(const bind_second<Op, Scalar<S>>& f) {
    return bind_second<Op, S>{f.op, needed_value("apply", "the operand bound to the operator", f.scalar)};
  }
};
}  // namespace detail

// ---------------------------------------------------------------- reduce
// s = accum(s, fold of A's entries under the monoid)
// (GrB_Matrix_reduce_Monoid_Scalar), folded in S as reduce(S&, ...) folds, on
// the GPU too where A lives there. If A has no entries the fold has no value:
// s becomes empty without an accumulator and is left as it is with one; an
// empty s with an accumulator takes the fold alone. `monoid` may also be a
// binary operator that is a predefined monoid's (GrB_Matrix_reduce_BinaryOp_Scalar;
// see as_monoid): the empty case needs no identity here.
template <class S, class Accum, class Monoid, class T>
void reduce(Scalar<S>& s, const Accum& accum, const Monoid& monoid, const Matrix<T>& A) {
  const auto m = as_monoid(monoid);
  detail::reduce_into(s, accum, A.nvals() == 0, [&] {
    S t{};
    reduce(t, no_accum, m, A);
    return t;
  });
}

// s = accum(s, fold of u's entries) (GrB_Vector_reduce_Monoid_Scalar and
// _BinaryOp_Scalar), as above.
template <class S, class Accum, class Monoid, class T>
void reduce(Scalar<S>& s, const Accum& accum, const Monoid& monoid, const Vector<T>& u) {
  const auto m = as_monoid(monoid);
  detail::reduce_into(s, accum, u.nvals() == 0, [&] {
    S t{};
    reduce(t, no_accum, m, u);
    return t;
  });
}

// --------------------------------------------------------- ewise_union
// ewise_union with its fill values as Scalars (GxB_eWiseUnion takes
// GrB_Scalars): each must hold a value; an empty one throws empty_object,
// after the shape checks, and leaves the output unchanged.
template <class TC, class Mask, class Accum, class Op, class TA, class SA, class TB, class SB>
void ewise_union(Matrix<TC>& C, const Mask& mask, const Accum& accum, const Op& op, const Matrix<TA>& A,
                 const Scalar<SA>& alpha, const Matrix<TB>& B, const Scalar<SB>& beta, const descriptor& desc = {}) {
  detail::check_union_shapes(C, A, B, desc);
  detail::check_matrix_mask(mask, C.nrows(), C.ncols(), "ewise_union", "C");
  ewise_union(C, mask, accum, op, A, detail::needed_value("ewise_union", "alpha", alpha), B,
              detail::needed_value("ewise_union", "beta", beta), desc);
}
template <class TW, class Mask, class Accum, class Op, class TU, class SA, class TV, class SB>
void ewise_union(Vector<TW>& w, const Mask& mask, const Accum& accum, const Op& op, const Vector<TU>& u,
                 const Scalar<SA>& alpha, const Vector<TV>& v, const Scalar<SB>& beta, const descriptor& desc = {}) {
  detail::check_same_size("ewise_union", w.size(), {{"u", u.size()}, {"v", v.size()}});
  detail::host::check_vector_mask(mask, w.size(), "ewise_union");
  ewise_union(w, mask, accum, op, u, detail::needed_value("ewise_union", "alpha", alpha), v,
              detail::needed_value("ewise_union", "beta", beta), desc);
}

// ---------------------------------------------------------------- assign
// C<M>(I,J) = accum(C(I,J), s) (GrB_Matrix_assign_Scalar): s's value, cast to
// C's type, at every position of I x J. An empty s is an empty |I| x |J|
// matrix: without an accumulator the entries of C(I,J) that the mask admits
// are deleted (with replace, C outside the mask is cleared as usual); with
// one, C(I,J) is unchanged. Checks and errors as assign of a plain scalar.
template <class TC, class Mask, class Accum, class T>
void assign(Matrix<TC>& C, const Mask& mask, const Accum& accum, const Scalar<T>& s, const index_list& I,
            const index_list& J, const descriptor& desc = {}) {
  detail::assign_scalar("assign", false, C, mask, accum, detail::value_as<TC>(s), I, J, desc);
}

// C(I,J)<M> = accum(C(I,J), s) (GxB_Matrix_subassign_Scalar): the mask is
// |I| x |J| and acts on C(I,J) alone; an empty s deletes the entries of
// C(I,J) the mask admits (none with an accumulator).
template <class TC, class Mask, class Accum, class T>
void subassign(Matrix<TC>& C, const Mask& mask, const Accum& accum, const Scalar<T>& s, const index_list& I,
               const index_list& J, const descriptor& desc = {}) {
  detail::assign_scalar("subassign", true, C, mask, accum, detail::value_as<TC>(s), I, J, desc);
}

// w<m>(I) = accum(w(I), s) (GrB_Vector_assign_Scalar): s's value, cast to w's
// type, at every index of I; an empty s deletes w(I)'s entries that the mask
// admits without an accumulator and changes nothing with one.
template <class TW, class Mask, class Accum, class T>
void assign(Vector<TW>& w, const Mask& mask, const Accum& accum, const Scalar<T>& s, const index_list& I,
            const descriptor& desc = {}) {
  detail::assign_scalar(w, mask, accum, detail::value_as<TW>(s), I, desc);
}

// ------------------------------------------------------------- apply, select
// C<M> = accum(C, f(A)) with f = bind1st(op, s) or bind2nd(op, s) of a Scalar
// s (GrB_Matrix_apply_BinaryOp1st_Scalar / _2nd_Scalar): op(s, a) or op(a, s),
// s's value cast to A's type as for a plain bound scalar. An empty s throws
// empty_object once the shapes are found to conform.
template <class TC, class Mask, class Accum, template <class, class> class Bind, class Op, class S, class TA,
          class = std::enable_if_t<detail::scalar_bind<Bind<Op, Scalar<S>>>::value>>
void apply(Matrix<TC>& C, const Mask& mask, const Accum& accum, const Bind<Op, Scalar<S>>& f, const Matrix<TA>& A,
           const descriptor& desc = {}) {
  if (f.scalar.empty()) detail::check_unary_shapes("apply", C, mask, A, desc);
  apply(C, mask, accum, detail::scalar_bind<Bind<Op, Scalar<S>>>::with_value(f), A, desc);
}

// w<m> = accum(w, f(u)) with a Scalar bound to f (GrB_Vector_apply_BinaryOp1st_Scalar / _2nd_Scalar).
template <class TW, class Mask, class Accum, template <class, class> class Bind, class Op, class S, class TU,
          class = std::enable_if_t<detail::scalar_bind<Bind<Op, Scalar<S>>>::value>>
void apply(Vector<TW>& w, const Mask& mask, const Accum& accum, const Bind<Op, Scalar<S>>& f, const Vector<TU>& u,
           const descriptor& desc = {}) {
  if (f.scalar.empty()) detail::check_unary_shapes("apply", w, mask, u, desc);
  apply(w, mask, accum, detail::scalar_bind<Bind<Op, Scalar<S>>>::with_value(f), u, desc);
}

// C<M> = accum(C, the entries of A where pred(a, i, j, thunk)) with a Scalar
// thunk (GrB_Matrix_select_Scalar); an empty thunk throws empty_object once
// the shapes are found to conform.
template <class TC, class Mask, class Accum, class Pred, class TA, class Y>
void select(Matrix<TC>& C, const Mask& mask, const Accum& accum, const Pred& pred, const Matrix<TA>& A,
            const Scalar<Y>& thunk, const descriptor& desc = {}) {
  if (thunk.empty()) detail::check_unary_shapes("select", C, mask, A, desc);
  select(C, mask, accum, pred, A, detail::needed_value("select", "the thunk", thunk), desc);
}

// w<m> = accum(w, the entries of u where pred(u(i), i, 0, thunk)) (GrB_Vector_select_Scalar).
template <class TW, class Mask, class Accum, class Pred, class TU, class Y>
void select(Vector<TW>& w, const Mask& mask, const Accum& accum, const Pred& pred, const Vector<TU>& u,
            const Scalar<Y>& thunk, const descriptor& desc = {}) {
  if (thunk.empty()) detail::check_unary_shapes("select", w, mask, u, desc);
  select(w, mask, accum, pred, u, detail::needed_value("select", "the thunk", thunk), desc);
}

// C<M> = accum(C, f(A(i,j), i, j, thunk)) with a Scalar thunk
// (GrB_Matrix_apply_IndexOp_Scalar); an empty thunk throws empty_object once
// the shapes are found to conform.
template <class TC, class Mask, class Accum, class IndexOp, class TA, class Y>
void apply_index(Matrix<TC>& C, const Mask& mask, const Accum& accum, const IndexOp& f, const Matrix<TA>& A,
                 const Scalar<Y>& thunk, const descriptor& desc = {}) {
  if (thunk.empty()) detail::check_unary_shapes("apply_index", C, mask, A, desc);
  apply_index(C, mask, accum, f, A, detail::needed_value("apply_index", "the thunk", thunk), desc);
}

// w<m> = accum(w, f(u(i), i, 0, thunk)) with a Scalar thunk (GrB_Vector_apply_IndexOp_Scalar).
template <class TW, class Mask, class Accum, class IndexOp, class TU, class Y>
void apply_index(Vector<TW>& w, const Mask& mask, const Accum& accum, const IndexOp& f, const Vector<TU>& u,
                 const Scalar<Y>& thunk, const descriptor& desc = {}) {
  if (thunk.empty()) detail::check_unary_shapes("apply_index", w, mask, u, desc);
  apply_index(w, mask, accum, f, u, detail::needed_value("apply_index", "the thunk", thunk), desc);
}

// ------------------------------------------------------------------ elements
// s = A(i,j) (GrB_Matrix_extractElement_Scalar): its value cast to T, or
// empty where A stores nothing at (i,j). (i,j) outside A throws
// invalid_index; A on the GPU throws not_implemented; s is then unchanged.
template <class T, class TA>
void extract_element(Scalar<T>& s, const Matrix<TA>& A, index_t i, index_t j) {
  detail::host_only("extract_element", {{"A", A.location()}});
  const std::optional<TA> x = A.get(i, j);
  if (x) s.set(detail::cast<T>(*x));
  else s.clear();
}

// s = u(i) (GrB_Vector_extractElement_Scalar), empty where u stores nothing.
template <class T, class TU>
void extract_element(Scalar<T>& s, const Vector<TU>& u, index_t i) {
  const std::optional<TU> x = u.get(i);
  if (x) s.set(detail::cast<T>(*x));
  else s.clear();
}

// w(i) = s (GrB_Vector_setElement_Scalar): s's value cast to w's type; an
// empty s removes w(i). A host vector, as set and remove need.
template <class T, class S>
void set_element(Vector<T>& w, const Scalar<S>& s, index_t i) {
  if (s.empty()) w.remove(i);
  else w.set(i, detail::cast<T>(s.get()));
}

// C(i, j) = s (GrB_Matrix_setElement_Scalar): the same for a host matrix.
template <class T, class S>
void set_element(Matrix<T>& C, const Scalar<S>& s, index_t i, index_t j) {
  if (s.empty()) C.remove(i, j);
  else C.set(i, j, detail::cast<T>(s.get()));
}

}  // namespace tgb
