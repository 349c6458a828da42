// tgb: the algebra. Operators are plain function objects usable in host and
// device code; a monoid is an associative operator with an identity and an
// optional terminal (absorbing) value; a semiring is an add monoid plus a
// multiply operator. Identities are chosen per type, as GraphBLAS does: max
// over integers starts at lowest(), over floating point at -inf.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "tgb/config.hpp"

namespace tgb {

namespace detail {
template <class T>
inline constexpr bool is_bool_v = std::is_same_v<T, bool>;

template <class T>
TGB_HD constexpr T upper_value() {
  if constexpr (std::is_floating_point_v<T>) return std::numeric_limits<T>::infinity();
  else return std::numeric_limits<T>::max();
}
template <class T>
TGB_HD constexpr T lower_value() {
  if constexpr (std::is_floating_point_v<T>) return -std::numeric_limits<T>::infinity();
  else return std::numeric_limits<T>::lowest();
}
// Integer arithmetic wraps modulo 2^bits (two's complement), as it does in
// SuiteSparse:GraphBLAS in practice, instead of being undefined on overflow:
// it is done in an unsigned type at least as wide as unsigned int (so that
// small types do not promote to a signed int) and converted back.
template <class T>
using wrap_t = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
}  // namespace detail

namespace detail {
// A value cast to another domain as GraphBLAS defines it, the same on every
// backend: floating point to an integer saturates at the integer's range and
// takes NaN to 0 (a plain static_cast is undefined there, and x86 and the GPU
// disagree: INT_MIN against INT_MAX for +inf); anything to bool is != 0.
template <class To, class From>
TGB_HD constexpr To cast(From v) {
  if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To> && !std::is_same_v<To, bool>) {
    if (v != v) return To(0);
    if (v >= static_cast<From>(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
    if (v <= static_cast<From>(std::numeric_limits<To>::lowest())) return std::numeric_limits<To>::lowest();
    return static_cast<To>(v);
  } else {
    return static_cast<To>(v);
  }
}
}  // namespace detail

// ---------------------------------------------------------------- operators
// Arithmetic on bool follows GraphBLAS: plus is lor, times is land, min is
// land, max is lor, minus is lxor. On other integers it wraps.
struct plus {
  template <class T>
  TGB_HD constexpr T operator()(T a, T b) const {
    if constexpr (detail::is_bool_v<T>) return a || b;
    else if constexpr (std::is_integral_v<T>) return static_cast<T>(detail::wrap_t<T>(a) + detail::wrap_t<T>(b));
    else return static_cast<T>(a + b);
  }
};
struct minus {
  template <class T>
  TGB_HD constexpr T operator()(T a, T b) const {
    if constexpr (detail::is_bool_v<T>) return a != b;
    else if constexpr (std::is_integral_v<T>) return static_cast<T>(detail::wrap_t<T>(a) - detail::wrap_t<T>(b));
    else return static_cast<T>(a - b);
  }
};
struct times {
  template <class T>
  TGB_HD constexpr T operator()(T a, T b) const {
    if constexpr (detail::is_bool_v<T>) return a && b;
    else if constexpr (std::is_integral_v<T>) return static_cast<T>(detail::wrap_t<T>(a) * detail::wrap_t<T>(b));
    else return static_cast<T>(a * b);
  }
};
// min and max ignore a NaN operand (C99 fmin/fmax), as SuiteSparse:GraphBLAS does.
// Floating-point min and max are fmin and fmax: a NaN operand is ignored. On
// the host they are written out (a where the operands compare equal, as
// glibc's fmin and fmax return +0 and -0) because GCC leaves fmin as a libm
// call, 7% of a min_plus push's time, where this is a compare and a blend.
struct min {
  template <class T>
  TGB_HD constexpr T operator()(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
#if defined(__CUDA_ARCH__)
      return std::fmin(a, b);
#else
      return (b < a || a != a) ? b : a;
#endif
    } else {
      return b < a ? b : a;
    }
  }
};
struct max {
  template <class T>
  TGB_HD constexpr T operator()(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
#if defined(__CUDA_ARCH__)
      return std::fmax(a, b);
#else
      return (b > a || a != a) ? b : a;
#endif
    } else {
      return a < b ? b : a;
    }
  }
};
struct first {
  template <class T>
  TGB_HD constexpr T operator()(T a, T) const { return a; }
};
struct second {
  template <class T>
  TGB_HD constexpr T operator()(T, T b) const { return b; }
};
struct pair {
  template <class T>
  TGB_HD constexpr T operator()(T, T) const { return T(1); }
};
// any: either operand is a valid result. tgb keeps the first one it meets,
// which on the host is the one with the smallest k.
struct any {
  template <class T>
  TGB_HD constexpr T operator()(T a, T) const { return a; }
};
struct lor {
  template <class T>
  TGB_HD constexpr T operator()(T a, T b) const { return T((a != T(0)) || (b != T(0))); }
};
struct land {
  template <class T>
  TGB_HD constexpr T operator()(T a, T b) const { return T((a != T(0)) && (b != T(0))); }
};
struct lxor {
  template <class T>
  TGB_HD constexpr T operator()(T a, T b) const { return T((a != T(0)) != (b != T(0))); }
};
// a raised to the power b (GxB_POW); Markov clustering's inflation.
struct power {
  template <class T>
  TGB_HD T operator()(T a, T b) const {
    if constexpr (detail::is_bool_v<T>) return a || !b;
    else if constexpr (std::is_floating_point_v<T>) return std::pow(a, b);
    else return static_cast<T>(std::pow(static_cast<double>(a), static_cast<double>(b)));
  }
};
// Comparisons (results are 0/1 in the operand type when used inside a
// semiring, bool when used as a predicate).
struct eq {
  template <class T>
  TGB_HD constexpr T operator()(T a, T b) const { return T(a == b); }
};
struct ne {
  template <class T>
  TGB_HD constexpr T operator()(T a, T b) const { return T(a != b); }
};
struct lt {
  template <class T>
  TGB_HD constexpr T operator()(T a, T b) const { return T(a < b); }
};
struct gt {
  template <class T>
  TGB_HD constexpr T operator()(T a, T b) const { return T(a > b); }
};
struct le {
  template <class T>
  TGB_HD constexpr T operator()(T a, T b) const { return T(a <= b); }
};
struct ge {
  template <class T>
  TGB_HD constexpr T operator()(T a, T b) const { return T(a >= b); }
};
// Division as SuiteSparse:GraphBLAS defines it where C leaves it undefined:
// on bool it is first; an integer divided by 0 gives 0 for 0 and the type's
// extreme of the dividend's sign otherwise; the lowest value divided by -1
// wraps (to itself).
struct div {
  template <class T>
  TGB_HD constexpr T operator()(T a, T b) const {
    if constexpr (detail::is_bool_v<T>) {
      return a;
    } else if constexpr (std::is_integral_v<T>) {
      if (b == T(0)) return a == T(0) ? T(0) : (a < T(0) ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max());
      if constexpr (std::is_signed_v<T>)
        if (b == T(-1)) return static_cast<T>(detail::wrap_t<T>(0) - detail::wrap_t<T>(a));
      return static_cast<T>(a / b);
    } else {
      return static_cast<T>(a / b);
    }
  }
};

// Duplicate policy for building from tuples (Matrix::from_coo, Vector::build):
// duplicates are an error. Any binary operator may be passed instead:
// tgb::first keeps the earliest, tgb::second the latest, tgb::plus sums them
// (in input order).
struct no_duplicates_t {};
inline constexpr no_duplicates_t no_duplicates{};

// ---------------------------------------------------------------- unary ops
struct identity {
  template <class T>
  TGB_HD constexpr T operator()(T a) const { return a; }
};
struct ainv {
  template <class T>
  TGB_HD constexpr T operator()(T a) const {
    if constexpr (detail::is_bool_v<T>) return a;
    else if constexpr (std::is_integral_v<T>) return static_cast<T>(detail::wrap_t<T>(0) - detail::wrap_t<T>(a));
    else return static_cast<T>(-a);
  }
};
struct abs_op {
  template <class T>
  TGB_HD constexpr T operator()(T a) const {
    if constexpr (detail::is_bool_v<T> || std::is_unsigned_v<T>) return a;
    else if constexpr (std::is_floating_point_v<T>) return std::fabs(a);
    else return a < T(0) ? ainv{}(a) : a;
  }
};
struct lnot {
  template <class T>
  TGB_HD constexpr T operator()(T a) const { return T(!(a != T(0))); }
};
struct one {
  template <class T>
  TGB_HD constexpr T operator()(T) const { return T(1); }
};

// ---------------------------------------------------------------- monoids
// Built-in monoids know their identity and terminal value for every type.
// is_terminal(v) says that no further operand can change v (early exit).
struct plus_monoid {
  using op_type = plus;
  template <class T> TGB_HD constexpr T identity() const { return T(0); }
  template <class T> TGB_HD constexpr bool is_terminal(T v) const {
    if constexpr (detail::is_bool_v<T>) return v;
    else return false;
  }
  template <class T> TGB_HD constexpr T operator()(T a, T b) const { return plus{}(a, b); }
};
struct times_monoid {
  using op_type = times;
  template <class T> TGB_HD constexpr T identity() const { return T(1); }
  template <class T> TGB_HD constexpr bool is_terminal(T v) const {
    // 0 absorbs for integers; not for floating point (0 * inf is NaN).
    if constexpr (std::is_floating_point_v<T>) return false;
    else return v == T(0);
  }
  template <class T> TGB_HD constexpr T operator()(T a, T b) const { return times{}(a, b); }
};
struct min_monoid {
  using op_type = min;
  template <class T> TGB_HD constexpr T identity() const {
    if constexpr (detail::is_bool_v<T>) return true;
    else return detail::upper_value<T>();
  }
  template <class T> TGB_HD constexpr bool is_terminal(T v) const {
    if constexpr (detail::is_bool_v<T>) return !v;
    else return v == detail::lower_value<T>();
  }
  template <class T> TGB_HD constexpr T operator()(T a, T b) const {
    if constexpr (detail::is_bool_v<T>) return a && b;
    else return min{}(a, b);
  }
};
struct max_monoid {
  using op_type = max;
  template <class T> TGB_HD constexpr T identity() const {
    if constexpr (detail::is_bool_v<T>) return false;
    else return detail::lower_value<T>();
  }
  template <class T> TGB_HD constexpr bool is_terminal(T v) const {
    if constexpr (detail::is_bool_v<T>) return v;
    else return v == detail::upper_value<T>();
  }
  template <class T> TGB_HD constexpr T operator()(T a, T b) const {
    if constexpr (detail::is_bool_v<T>) return a || b;
    else return max{}(a, b);
  }
};
struct any_monoid {
  using op_type = any;
  template <class T> TGB_HD constexpr T identity() const { return T(0); }
  template <class T> TGB_HD constexpr bool is_terminal(T) const { return true; }
  template <class T> TGB_HD constexpr T operator()(T a, T b) const { return any{}(a, b); }
};
struct lor_monoid {
  using op_type = lor;
  template <class T> TGB_HD constexpr T identity() const { return T(0); }
  template <class T> TGB_HD constexpr bool is_terminal(T v) const { return v != T(0); }
  template <class T> TGB_HD constexpr T operator()(T a, T b) const { return lor{}(a, b); }
};
struct land_monoid {
  using op_type = land;
  template <class T> TGB_HD constexpr T identity() const { return T(1); }
  template <class T> TGB_HD constexpr bool is_terminal(T v) const { return v == T(0); }
  template <class T> TGB_HD constexpr T operator()(T a, T b) const { return land{}(a, b); }
};
struct lxor_monoid {
  using op_type = lxor;
  template <class T> TGB_HD constexpr T identity() const { return T(0); }
  template <class T> TGB_HD constexpr bool is_terminal(T) const { return false; }
  template <class T> TGB_HD constexpr T operator()(T a, T b) const { return lxor{}(a, b); }
};

// A monoid for an operation that takes a binary operator where GraphBLAS
// folds (GrB_Matrix_reduce_BinaryOp into a vector, the _BinaryOp_Scalar
// reductions): like SuiteSparse:GraphBLAS, tgb accepts the operators that are
// a predefined monoid's (plus, times, min, max, any, lor, land, lxor).
// as_monoid(f) is f itself for a monoid, that monoid for such an operator;
// any other operator is a compile-time error naming the fix.
namespace detail {
template <class F, class = void>
struct is_monoid : std::false_type {};
template <class F>
struct is_monoid<F, std::void_t<typename F::op_type>> : std::true_type {};
template <class Op> struct monoid_of_op {};
template <> struct monoid_of_op<plus> { using type = plus_monoid; };
template <> struct monoid_of_op<times> { using type = times_monoid; };
template <> struct monoid_of_op<min> { using type = min_monoid; };
template <> struct monoid_of_op<max> { using type = max_monoid; };
template <> struct monoid_of_op<any> { using type = any_monoid; };
template <> struct monoid_of_op<lor> { using type = lor_monoid; };
template <> struct monoid_of_op<land> { using type = land_monoid; };
template <> struct monoid_of_op<lxor> { using type = lxor_monoid; };
template <class F, class = void>
struct has_monoid_of_op : std::false_type {};
template <class F>
struct has_monoid_of_op<F, std::void_t<typename monoid_of_op<F>::type>> : std::true_type {};
}  // namespace detail

template <class F>
constexpr auto as_monoid(const F& f) {
  if constexpr (detail::is_monoid<F>::value) {
    return f;
  } else {
    static_assert(detail::has_monoid_of_op<F>::value,
                  "tgb: this fold takes a monoid, or a binary operator that is a predefined monoid's (plus, times, "
                  "min, max, any, lor, land, lxor); for another operator pass make_monoid(op, identity)");
    return typename detail::monoid_of_op<F>::type{};
  }
}

// A user-defined monoid: any associative function object with an identity of
// type V (converted to the operation's type) and optionally a terminal value.
template <class Op, class V>
struct monoid {
  using op_type = Op;
  Op op{};
  V identity_value{};
  bool has_terminal = false;
  V terminal_value{};

  template <class T> TGB_HD constexpr T identity() const { return static_cast<T>(identity_value); }
  template <class T> TGB_HD constexpr bool is_terminal(T v) const {
    return has_terminal && v == static_cast<T>(terminal_value);
  }
  template <class T> TGB_HD constexpr T operator()(T a, T b) const { return static_cast<T>(op(a, b)); }
};

template <class Op, class V>
constexpr monoid<Op, V> make_monoid(Op op, V identity) {
  return monoid<Op, V>{op, identity, false, V{}};
}
template <class Op, class V>
constexpr monoid<Op, V> make_monoid(Op op, V identity, V terminal) {
  return monoid<Op, V>{op, identity, true, terminal};
}

// ---------------------------------------------------------------- semirings
template <class AddMonoid, class MulOp>
struct semiring {
  using add_type = AddMonoid;
  using mul_type = MulOp;
  AddMonoid add{};
  MulOp mul{};
};

template <class AddMonoid, class MulOp>
constexpr semiring<AddMonoid, MulOp> make_semiring(AddMonoid add, MulOp mul) {
  return semiring<AddMonoid, MulOp>{add, mul};
}

// The catalogue of predefined semirings: X(name, add monoid, multiply, arg)
// for each. Every list of them is generated from it: the constants below,
// the device's trait (detail/cuda/api.hpp) and instantiations
// (src/cuda/mxm_instances.cuh), the command line's names (src/cli). Add a
// semiring here and it exists everywhere.
#define TGB_SEMIRINGS(X, arg)                                                                                   \
  X(plus_times, plus_monoid, times, arg) X(plus_min, plus_monoid, min, arg) X(min_plus, min_monoid, plus, arg) \
  X(max_plus, max_monoid, plus, arg) X(min_times, min_monoid, times, arg) X(max_times, max_monoid, times, arg) \
  X(min_max, min_monoid, max, arg) X(max_min, max_monoid, min, arg) X(lor_land, lor_monoid, land, arg)         \
  X(plus_pair, plus_monoid, pair, arg) X(any_pair, any_monoid, pair, arg)                                      \
  X(plus_first, plus_monoid, first, arg) X(plus_second, plus_monoid, second, arg)                              \
  X(min_first, min_monoid, first, arg) X(min_second, min_monoid, second, arg)                                  \
  X(any_second, any_monoid, second, arg) X(any_first, any_monoid, first, arg)                                  \
  X(max_first, max_monoid, first, arg) X(max_second, max_monoid, second, arg)

#define TGB_DEFINE_SEMIRING(name, add, mul, unused) inline constexpr semiring<add, mul> name{};
TGB_SEMIRINGS(TGB_DEFINE_SEMIRING, ~)
#undef TGB_DEFINE_SEMIRING

// ------------------------------------------------------- index-unary (select)
// A selector is called as f(value, i, j, thunk) and returns whether to keep
// the entry, like GrB_IndexUnaryOp. Diagonal offsets follow GraphBLAS:
// tril(k) keeps j <= i + k.
struct tril {
  template <class T, class Y>
  TGB_HD constexpr bool operator()(T, index_t i, index_t j, Y k) const { return j <= i + index_t(k); }
};
struct triu {
  template <class T, class Y>
  TGB_HD constexpr bool operator()(T, index_t i, index_t j, Y k) const { return j >= i + index_t(k); }
};
struct diag {
  template <class T, class Y>
  TGB_HD constexpr bool operator()(T, index_t i, index_t j, Y k) const { return j == i + index_t(k); }
};
struct offdiag {
  template <class T, class Y>
  TGB_HD constexpr bool operator()(T, index_t i, index_t j, Y k) const { return j != i + index_t(k); }
};
struct value_eq {
  template <class T, class Y>
  TGB_HD constexpr bool operator()(T v, index_t, index_t, Y y) const { return v == static_cast<T>(y); }
};
struct value_ne {
  template <class T, class Y>
  TGB_HD constexpr bool operator()(T v, index_t, index_t, Y y) const { return v != static_cast<T>(y); }
};
struct value_gt {
  template <class T, class Y>
  TGB_HD constexpr bool operator()(T v, index_t, index_t, Y y) const { return v > static_cast<T>(y); }
};
struct value_ge {
  template <class T, class Y>
  TGB_HD constexpr bool operator()(T v, index_t, index_t, Y y) const { return v >= static_cast<T>(y); }
};
struct value_lt {
  template <class T, class Y>
  TGB_HD constexpr bool operator()(T v, index_t, index_t, Y y) const { return v < static_cast<T>(y); }
};
struct value_le {
  template <class T, class Y>
  TGB_HD constexpr bool operator()(T v, index_t, index_t, Y y) const { return v <= static_cast<T>(y); }
};

// Index selectors on position alone (GrB_ROWLE, GrB_ROWGT, GrB_COLLE,
// GrB_COLGT): row_le keeps i <= thunk. On a vector, i is the index.
struct row_le {
  template <class T, class Y>
  TGB_HD constexpr bool operator()(T, index_t i, index_t, Y y) const { return i <= index_t(y); }
};
struct row_gt {
  template <class T, class Y>
  TGB_HD constexpr bool operator()(T, index_t i, index_t, Y y) const { return i > index_t(y); }
};
struct col_le {
  template <class T, class Y>
  TGB_HD constexpr bool operator()(T, index_t, index_t j, Y y) const { return j <= index_t(y); }
};
struct col_gt {
  template <class T, class Y>
  TGB_HD constexpr bool operator()(T, index_t, index_t j, Y y) const { return j > index_t(y); }
};
// Index-unary operators that compute a value (GrB_ROWINDEX_INT64,
// GrB_COLINDEX_INT64, GrB_DIAGINDEX_INT64), for apply_index: rowindex gives
// i + thunk, colindex j + thunk, diagindex j - (i + thunk). As selectors they
// keep the entries where the value is nonzero.
struct rowindex {
  template <class T, class Y>
  TGB_HD constexpr index_t operator()(T, index_t i, index_t, Y y) const { return i + index_t(y); }
};
struct colindex {
  template <class T, class Y>
  TGB_HD constexpr index_t operator()(T, index_t, index_t j, Y y) const { return j + index_t(y); }
};
struct diagindex {
  template <class T, class Y>
  TGB_HD constexpr index_t operator()(T, index_t i, index_t j, Y y) const { return j - (i + index_t(y)); }
};

// Binding a scalar to one side of a binary operator turns it into a unary
// one (GrB_apply with BinaryOp1st / BinaryOp2nd).
template <class Op, class S>
struct bind_first {
  Op op{};
  S scalar{};
  template <class T>
  TGB_HD constexpr T operator()(T a) const { return static_cast<T>(op(static_cast<T>(scalar), a)); }
};
template <class Op, class S>
struct bind_second {
  Op op{};
  S scalar{};
  template <class T>
  TGB_HD constexpr T operator()(T a) const { return static_cast<T>(op(a, static_cast<T>(scalar))); }
};

namespace detail {
// The predefined binary operators by number, for code that picks one at run
// time (the CLI's accumulator, the CUDA write-back): one instantiation serves
// them all. op_code<Op>::value is -1 for any other operator.
template <class Op> struct op_code { static constexpr int value = -1; };
template <> struct op_code<plus> { static constexpr int value = 0; };
template <> struct op_code<minus> { static constexpr int value = 1; };
template <> struct op_code<times> { static constexpr int value = 2; };
template <> struct op_code<min> { static constexpr int value = 3; };
template <> struct op_code<max> { static constexpr int value = 4; };
template <> struct op_code<first> { static constexpr int value = 5; };
template <> struct op_code<second> { static constexpr int value = 6; };
template <> struct op_code<pair> { static constexpr int value = 7; };
template <> struct op_code<any> { static constexpr int value = 8; };
template <> struct op_code<lor> { static constexpr int value = 9; };
template <> struct op_code<land> { static constexpr int value = 10; };
template <> struct op_code<lxor> { static constexpr int value = 11; };
template <> struct op_code<eq> { static constexpr int value = 12; };
template <> struct op_code<ne> { static constexpr int value = 13; };
template <> struct op_code<power> { static constexpr int value = 14; };
template <> struct op_code<lt> { static constexpr int value = 15; };
template <> struct op_code<gt> { static constexpr int value = 16; };
template <> struct op_code<le> { static constexpr int value = 17; };
template <> struct op_code<ge> { static constexpr int value = 18; };
template <> struct op_code<div> { static constexpr int value = 19; };
inline constexpr int op_code_count = 20;

// The domain an element-wise operator computes in: GraphBLAS casts both
// operands to the operator's input domain and its result to the output's
// type. A user operator may state its domain as a member type `domain`;
// tgb's predefined operators are polymorphic and compute in the common type
// of the two operands (the typed operator a SuiteSparse or python-graphblas
// user would pick for them), never in the output's type: eq on 2.0 and 7.0
// into a bool matrix compares doubles and stores false.
template <class Op, class TA, class TB, class = void>
struct op_domain {
  using type = std::common_type_t<TA, TB>;
};
template <class Op, class TA, class TB>
struct op_domain<Op, TA, TB, std::void_t<typename Op::domain>> {
  using type = typename Op::domain;
};
template <class Op, class TA, class TB>
using op_domain_t = typename op_domain<Op, TA, TB>::type;

// An accumulator's step, z = accum(c, t) stored in TZ: c and t are cast to
// the operator's input domain (a user operator's `domain`; the predefined
// ones compute in the common type) and the result to TZ, as GraphBLAS casts
// around an accumulator.
template <class TZ, class Accum, class TX, class TY>
TGB_HD constexpr TZ accumulate(const Accum& accum, TX c, TY t) {
  using D = op_domain_t<Accum, TX, TY>;
  return static_cast<TZ>(accum(static_cast<D>(c), static_cast<D>(t)));
}

struct coded_op {
  int code = 0;
  template <class T>
  TGB_HD T operator()(T a, T b) const {
    switch (code) {
      case 0: return plus{}(a, b);
      case 1: return minus{}(a, b);
      case 2: return times{}(a, b);
      case 3: return min{}(a, b);
      case 4: return max{}(a, b);
      case 5: return first{}(a, b);
      case 6: return second{}(a, b);
      case 7: return pair{}(a, b);
      case 8: return any{}(a, b);
      case 9: return lor{}(a, b);
      case 10: return land{}(a, b);
      case 11: return lxor{}(a, b);
      case 12: return eq{}(a, b);
      case 13: return ne{}(a, b);
      case 14: return power{}(a, b);
      case 15: return lt{}(a, b);
      case 16: return gt{}(a, b);
      case 17: return le{}(a, b);
      case 18: return ge{}(a, b);
      default: return div{}(a, b);
    }
  }
};

// A bound scalar as the operand type T would receive it: static_cast<T>(s),
// kept both ways so that integers beyond 2^53 survive.
struct coded_scalar {
  double f = 0;
  std::int64_t i = 0;
  template <class S>
  static coded_scalar of(S s) {
    coded_scalar c;
    c.f = static_cast<double>(s);
    if constexpr (std::is_floating_point_v<S>) c.i = std::isfinite(c.f) && std::fabs(c.f) < 9.2e18 ? static_cast<std::int64_t>(s) : 0;
    else c.i = static_cast<std::int64_t>(s);
    return c;
  }
  template <class T>
  TGB_HD T as() const {
    if constexpr (std::is_floating_point_v<T>) return static_cast<T>(f);
    else if constexpr (std::is_same_v<T, bool>) return f != 0;
    else return static_cast<T>(i);
  }
};

// The predefined unary operators and the binds of predefined binary ones, by
// number (-1: not predefined).
template <class F> struct unary_code { static constexpr int value = -1; };
template <> struct unary_code<identity> { static constexpr int value = 0; };
template <> struct unary_code<ainv> { static constexpr int value = 1; };
template <> struct unary_code<abs_op> { static constexpr int value = 2; };
template <> struct unary_code<lnot> { static constexpr int value = 3; };
template <> struct unary_code<one> { static constexpr int value = 4; };
template <class Op, class S>
struct unary_code<bind_first<Op, S>> { static constexpr int value = op_code<Op>::value >= 0 ? 5 : -1; };
template <class Op, class S>
struct unary_code<bind_second<Op, S>> { static constexpr int value = op_code<Op>::value >= 0 ? 6 : -1; };

struct coded_unary {
  int code = 0, op = 0;
  coded_scalar scalar;
  template <class T>
  TGB_HD T operator()(T a) const {
    switch (code) {
      case 0: return a;
      case 1: return ainv{}(a);
      case 2: return abs_op{}(a);
      case 3: return lnot{}(a);
      case 4: return one{}(a);
      case 5: return coded_op{op}(scalar.as<T>(), a);
      default: return coded_op{op}(a, scalar.as<T>());
    }
  }
};
template <class F>
coded_unary make_coded_unary(const F& f) {
  coded_unary c;
  c.code = unary_code<F>::value;
  if constexpr (unary_code<F>::value >= 5) {
    c.op = op_code<decltype(f.op)>::value;
    c.scalar = coded_scalar::of(f.scalar);
  }
  return c;
}

// The predefined monoids by number (-1: not predefined).
template <class M> struct monoid_code { static constexpr int value = -1; };
template <> struct monoid_code<plus_monoid> { static constexpr int value = 0; };
template <> struct monoid_code<times_monoid> { static constexpr int value = 1; };
template <> struct monoid_code<min_monoid> { static constexpr int value = 2; };
template <> struct monoid_code<max_monoid> { static constexpr int value = 3; };
template <> struct monoid_code<any_monoid> { static constexpr int value = 4; };
template <> struct monoid_code<lor_monoid> { static constexpr int value = 5; };
template <> struct monoid_code<land_monoid> { static constexpr int value = 6; };
template <> struct monoid_code<lxor_monoid> { static constexpr int value = 7; };

struct coded_monoid {
  int code = 0;
  template <class T>
  TGB_HD T identity() const {
    switch (code) {
      case 0: return plus_monoid{}.identity<T>();
      case 1: return times_monoid{}.identity<T>();
      case 2: return min_monoid{}.identity<T>();
      case 3: return max_monoid{}.identity<T>();
      case 4: return any_monoid{}.identity<T>();
      case 5: return lor_monoid{}.identity<T>();
      case 6: return land_monoid{}.identity<T>();
      default: return lxor_monoid{}.identity<T>();
    }
  }
  template <class T>
  TGB_HD bool is_terminal(T v) const {
    switch (code) {
      case 0: return plus_monoid{}.is_terminal(v);
      case 1: return times_monoid{}.is_terminal(v);
      case 2: return min_monoid{}.is_terminal(v);
      case 3: return max_monoid{}.is_terminal(v);
      case 4: return any_monoid{}.is_terminal(v);
      case 5: return lor_monoid{}.is_terminal(v);
      case 6: return land_monoid{}.is_terminal(v);
      default: return lxor_monoid{}.is_terminal(v);
    }
  }
  template <class T>
  TGB_HD T operator()(T a, T b) const {
    switch (code) {
      case 0: return plus_monoid{}(a, b);
      case 1: return times_monoid{}(a, b);
      case 2: return min_monoid{}(a, b);
      case 3: return max_monoid{}(a, b);
      case 4: return any_monoid{}(a, b);
      case 5: return lor_monoid{}(a, b);
      case 6: return land_monoid{}(a, b);
      default: return lxor_monoid{}(a, b);
    }
  }
};

// The predefined selectors by number (-1: not predefined); the thunk travels
// as a coded_scalar.
template <class P> struct select_code { static constexpr int value = -1; };
template <> struct select_code<tril> { static constexpr int value = 0; };
template <> struct select_code<triu> { static constexpr int value = 1; };
template <> struct select_code<diag> { static constexpr int value = 2; };
template <> struct select_code<offdiag> { static constexpr int value = 3; };
template <> struct select_code<value_eq> { static constexpr int value = 4; };
template <> struct select_code<value_ne> { static constexpr int value = 5; };
template <> struct select_code<value_gt> { static constexpr int value = 6; };
template <> struct select_code<value_ge> { static constexpr int value = 7; };
template <> struct select_code<value_lt> { static constexpr int value = 8; };
template <> struct select_code<value_le> { static constexpr int value = 9; };

struct coded_select {
  int code = 0;
  template <class T>
  TGB_HD bool operator()(T v, index_t i, index_t j, const coded_scalar& y) const {
    switch (code) {
      case 0: return tril{}(v, i, j, y.i);
      case 1: return triu{}(v, i, j, y.i);
      case 2: return diag{}(v, i, j, y.i);
      case 3: return offdiag{}(v, i, j, y.i);
      case 4: return v == y.as<T>();
      case 5: return v != y.as<T>();
      case 6: return v > y.as<T>();
      case 7: return v >= y.as<T>();
      case 8: return v < y.as<T>();
      default: return v <= y.as<T>();
    }
  }
};

// apply_index's predefined operators by number, for the GPU: rowindex 0,
// colindex 1, diagindex 2, a selector 10 + its select_code (its bool result
// as the value); -1 for others.
template <class F>
constexpr int index_unary_code() {
  if constexpr (std::is_same_v<F, rowindex>) return 0;
  else if constexpr (std::is_same_v<F, colindex>) return 1;
  else if constexpr (std::is_same_v<F, diagindex>) return 2;
  else if constexpr (select_code<F>::value >= 0) return 10 + select_code<F>::value;
  else return -1;
}

// The operator of index_unary_code `code` applied at (i, j), its result cast
// to TC (vectors pass j = 0).
template <class TC>
struct coded_index_value {
  int code = 0;
  template <class T>
  TGB_HD TC operator()(T v, index_t i, index_t j, const coded_scalar& y) const {
    switch (code) {
      case 0: return cast<TC>(rowindex{}(v, i, j, y.i));
      case 1: return cast<TC>(colindex{}(v, i, j, y.i));
      case 2: return cast<TC>(diagindex{}(v, i, j, y.i));
      default: return cast<TC>(coded_select{code - 10}(v, i, j, y));
    }
  }
};
}  // namespace detail

}  // namespace tgb
