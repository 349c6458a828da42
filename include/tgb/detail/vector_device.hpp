// tgb: the vector operations' compute steps on the GPU, beside the host ones
// in vector_operations.hpp: each takes the same arguments as its host twin,
// computes t on the device and writes w<m, replace> = accum(w, t) there.
// Host-compilable: the kernels are declared in detail/cuda/api.hpp and built
// in src/cuda (vector.cu, vector_elementwise.cu); without the CUDA backend
// every branch that would call them throws not_implemented instead.
//
// What the device runs: the predefined operators, monoids, selectors and
// semirings on bool, int32, int64, fp32 and fp64 (operands cast as on the
// host), masks of those types, predefined accumulators, index lists of every
// form (all, ranges, lists, and for extract a vector of indices).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <type_traits>

#include "tgb/index_list.hpp"
#include "tgb/operations.hpp"

namespace tgb::detail {

// The GPU's mask for a vector operation: one byte per element that admits,
// or null for no mask; `keep` holds it.
inline const std::uint8_t* device_vector_mask(const char*, no_mask_t, std::shared_ptr<void>&) { return nullptr; }
template <class M>
const std::uint8_t* device_vector_mask(const char* op, const M& m, std::shared_ptr<void>& keep) {
  const auto view = as_mask_view(m);
  using U = typename std::decay_t<decltype(*view.object)>::value_type;
  if constexpr (!cuda::device_types<U>) {
    throw device_unsupported(op, "a vector mask's type must be bool, int32, int64, float or double");
  } else {
    // A structural mask admits where it stores an entry: its presence bytes
    // as they are (nothing made; read on the stream before any later write).
    if (view.structural && !view.complemented) return view.object->device().present.data();
    auto a = std::make_shared<device_buffer<std::uint8_t>>(
        cuda::vector_admits(view.object->device(), view.structural, view.complemented, current_stream()));
    keep = a;
    return a->data();
  }
}

// w<m, replace> = accum(w, t) on the device; t_within_mask: t has nothing
// the mask refuses.
template <class TW, class Mask, class Accum>
void vector_finish_cuda(const char* op, Vector<TW>& w, const Mask& mask, const Accum& accum, bool replace,
                        device_vector<TW>&& t, bool t_within_mask = false) {
  const stream_t s = current_stream();
  std::shared_ptr<void> keep;
  const std::uint8_t* admit = device_vector_mask(op, mask, keep);
  w.assign_device(cuda::vector_writeback(w.device(), admit, accum_code(accum), replace, std::move(t),
                                         t_within_mask, s));
}

// u as a device vector of T (u itself where it has that type; `keep` holds a cast).
template <class T, class TU>
const device_vector<T>& device_vector_as(const Vector<TU>& u, std::optional<device_vector<T>>& keep) {
  if constexpr (std::is_same_v<T, TU>) {
    return u.device();
  } else {
    keep.emplace(cuda::vector_cast<T, TU>(u.device(), current_stream()));
    return *keep;
  }
}

inline const char* device_vector_types_text() { return "the value types must be bool, int32, int64, float or double"; }

// u's stored entries as a 1 x n (row) or n x 1 matrix on the device: its
// indices (rowindex applied, then compacted) and values compacted, built as
// COO (the line forms of assign, matrix_assign.hpp).
template <class T>
Matrix<T> line_matrix_cuda(const Vector<T>& u, bool row) {
  if constexpr (!cuda::device_types<T>) {
    throw device_unsupported("a vector as a matrix line", device_vector_types_text());
  } else {
    const stream_t s = current_stream();
    const device_vector<index_t> at = cuda::vector_stored(
        cuda::vector_apply_index<index_t, T>(u.device(), 0, coded_scalar::of(index_t(0)), s), s);
    const device_vector<T> x = cuda::vector_stored(u.device(), s);
    const device_vector<index_t> zero = cuda::vector_fill<index_t>(at.n, 0, s);
    const index_t *k = at.values.data(), *z = zero.values.data();
    return row ? Matrix<T>::from_device_coo(1, u.size(), z, k, x.values.data(), at.n)
               : Matrix<T>::from_device_coo(u.size(), 1, k, z, x.values.data(), at.n);
  }
}

// ---- mxv, vxm -------------------------------------------------------------------
// Whether the multiply reads the matrix's value: mul(a, x) for mxv, mul(x, a)
// for vxm; second (mxv), first (vxm) and pair do not.
template <class Mul>
constexpr bool reads_matrix(bool matrix_first) {
  if constexpr (std::is_same_v<Mul, pair>) return false;
  else if constexpr (std::is_same_v<Mul, second>) return !matrix_first;
  else if constexpr (std::is_same_v<Mul, first>) return matrix_first;
  else return true;
}

// mxv (is_vxm false) or vxm: t = A u, A' u, u' A or u' A'. A' u and u' A are
// the push over A's rows, A u and u' A' the pull: nothing is transposed. u is
// cast to w's type first; A too where the multiply reads its values (a
// pattern, such as BFS's bool matrix under any_second, is read as it is).
template <class TW, class Mask, class Accum, class Semiring, class TA, class TU>
void mxv_cuda(const char* op, bool is_vxm, Vector<TW>& w, const Mask& mask, const Accum& accum,
              const Semiring& semiring, const Matrix<TA>& A, const Vector<TU>& u, const descriptor& desc) {
  if constexpr (!cuda::mxv_enabled<TW, TA, TU, Semiring>::value) {
    throw device_unsupported(op, "w, A and u must be bool, int32, int64, float or double and the semiring a "
                                 "predefined one (see <tgb/cuda/mxm.cuh> for others)");
  } else {
    const int ac = accum_code(accum);
    check_device_accum(op, ac);
    const stream_t s = current_stream();
    std::shared_ptr<void> keep;
    const std::uint8_t* admit = device_vector_mask(op, mask, keep);
    const bool push = is_vxm ? !desc.transpose_b : desc.transpose_a;
    std::optional<device_vector<TW>> u_cast;
    const device_vector<TW>& uu = device_vector_as<TW>(u, u_cast);
    cuda::vector_operand<TW> a;
    std::unique_ptr<device_oriented<TW, TA>> a_cast;
    if constexpr (std::is_same_v<TW, TA>) {
      a = cuda::vector_operand_of<TW>(device_operand_of(A), true);
    } else if (!reads_matrix<typename Semiring::mul_type>(!is_vxm)) {
      a = cuda::vector_operand_of<TW>(device_operand_of(A), false);
    } else {
      a_cast = std::make_unique<device_oriented<TW, TA>>(A, false, s);
      a = cuda::vector_operand_of<TW>(cuda::device_operand<TW>{&**a_cast, nullptr}, true);
    }
    // Without a mask or an accumulator t becomes w whole: t borrows w's arrays
    // (unless w is u itself, read while t is written).
    device_vector<TW>* reuse = nullptr;
    if (!admit && ac < 0 && static_cast<const void*>(&w) != static_cast<const void*>(&u)) reuse = w.device_storage();
    device_vector<TW> t = cuda::vector_product<TW, Semiring>(a, push, !is_vxm, uu, admit, semiring, s, reuse);
    w.assign_device(cuda::vector_writeback(w.device(), admit, ac, desc.replace, std::move(t), true, s));
  }
}

// ---- element-wise ------------------------------------------------------------------
// mode 0 ewise_mult, 1 ewise_add, 2 ewise_union (alpha and beta given).
template <class TW, class Mask, class Accum, class Op, class TU, class TV, class SA = int, class SB = int>
void vector_ewise_cuda(const char* op, int mode, Vector<TW>& w, const Mask& mask, const Accum& accum, const Op&,
                       const Vector<TU>& u, const Vector<TV>& v, const descriptor& desc, const SA& alpha = 0,
                       const SB& beta = 0) {
  using D = op_domain_t<Op, TU, TV>;
  if constexpr (!cuda::device_types<TW, TU, TV, D>) {
    throw device_unsupported(op, device_vector_types_text());
  } else {
    if (op_code<Op>::value < 0) throw device_unsupported(op, "the operator must be a predefined one");
    check_device_accum(op, accum_code(accum));
    const stream_t s = current_stream();
    std::optional<device_vector<D>> uc, vc;
    const device_vector<D>& a = device_vector_as<D>(u, uc);
    const device_vector<D>& b = device_vector_as<D>(v, vc);
    vector_finish_cuda(op, w, mask, accum, desc.replace,
                       cuda::vector_ewise<TW, D>(a, b, op_code<Op>::value, mode, cast<D>(alpha), cast<D>(beta), s));
  }
}

template <class TW, class Mask, class Accum, class F, class TU>
void vector_apply_cuda(Vector<TW>& w, const Mask& mask, const Accum& accum, const F& f, const Vector<TU>& u,
                       const descriptor& desc) {
  if constexpr (!cuda::device_types<TW, TU>) {
    throw device_unsupported("apply", device_vector_types_text());
  } else if constexpr (unary_code<F>::value < 0) {
    throw device_unsupported("apply", "the operator must be identity, ainv, abs_op, lnot, one, or bind1st/bind2nd "
                                      "of a predefined binary operator");
  } else {
    check_device_accum("apply", accum_code(accum));
    vector_finish_cuda("apply", w, mask, accum, desc.replace,
                       cuda::vector_apply<TW, TU>(u.device(), make_coded_unary(f), current_stream()));
  }
}

template <class TW, class Mask, class Accum, class F, class TU, class Y>
void vector_apply_index_cuda(Vector<TW>& w, const Mask& mask, const Accum& accum, const F&, const Vector<TU>& u,
                             const Y& thunk, const descriptor& desc) {
  if constexpr (!cuda::device_types<TW, TU>) {
    throw device_unsupported("apply_index", device_vector_types_text());
  } else if constexpr (index_unary_code<F>() < 0 || !std::is_arithmetic_v<Y>) {
    throw device_unsupported("apply_index", "the operator must be rowindex, colindex, diagindex or a predefined "
                                            "selector, with a numeric thunk");
  } else {
    check_device_accum("apply_index", accum_code(accum));
    vector_finish_cuda("apply_index", w, mask, accum, desc.replace,
                       cuda::vector_apply_index<TW, TU>(u.device(), index_unary_code<F>(), coded_scalar::of(thunk),
                                                        current_stream()));
  }
}

template <class TW, class Mask, class Accum, class Pred, class TU, class Y>
void vector_select_cuda(Vector<TW>& w, const Mask& mask, const Accum& accum, const Pred&, const Vector<TU>& u,
                        const Y& thunk, const descriptor& desc) {
  if constexpr (!cuda::device_types<TW, TU>) {
    throw device_unsupported("select", device_vector_types_text());
  } else if constexpr (select_code<Pred>::value < 0 || !std::is_arithmetic_v<Y>) {
    throw device_unsupported("select", "the selector must be a predefined one (tril, triu, diag, offdiag, value_*) "
                                       "with a numeric thunk");
  } else {
    check_device_accum("select", accum_code(accum));
    vector_finish_cuda("select", w, mask, accum, desc.replace,
                       cuda::vector_select<TW, TU>(u.device(), coded_select{select_code<Pred>::value},
                                                   coded_scalar::of(thunk), current_stream()));
  }
}

// I as the device reads it; `keep` holds an uploaded list.
inline cuda::index_source device_indices(const index_list& I, device_buffer<index_t>& keep, stream_t s) {
  cuda::index_source src;
  if (I.is_range()) {
    src.begin = I.range_begin();
    src.stride = I.range_stride();
  } else if (!I.is_all()) {
    keep = device_buffer<index_t>::from_host(I.list().data(), I.list().size(), s);
    src.list = keep.data();
  }
  return src;
}

// w<m> = accum(w, u(I)) (extract): t(k) = u(I(k)), |I| = w's size.
template <class TW, class Mask, class Accum, class TU>
void vector_extract_cuda(Vector<TW>& w, const Mask& mask, const Accum& accum, const Vector<TU>& u,
                         const cuda::index_source& I, const descriptor& desc) {
  if constexpr (!cuda::device_types<TW, TU>) {
    throw device_unsupported("extract", device_vector_types_text());
  } else {
    check_device_accum("extract", accum_code(accum));
    const stream_t s = current_stream();
    device_vector<TU> t = cuda::vector_gather<TU>(u.device(), I, w.size(), s);
    if constexpr (std::is_same_v<TW, TU>) vector_finish_cuda("extract", w, mask, accum, desc.replace, std::move(t));
    else vector_finish_cuda("extract", w, mask, accum, desc.replace, cuda::vector_cast<TW, TU>(t, s));
  }
}
template <class TW, class Mask, class Accum, class TU>
void vector_extract_cuda(Vector<TW>& w, const Mask& mask, const Accum& accum, const Vector<TU>& u,
                         const index_list& I, const descriptor& desc) {
  device_buffer<index_t> keep;
  vector_extract_cuda(w, mask, accum, u, device_indices(I, keep, current_stream()), desc);
}

// w<m>(I) = accum(w(I), t) (assign; I without repeats) for I as the device
// reads it: t is u cast to w's type, or the scalar at every index of I.
template <class TW, class Mask, class Accum>
void vector_assign_cuda(Vector<TW>& w, const Mask& mask, const Accum& accum, device_vector<TW>&& t,
                        const cuda::index_source& I, const descriptor& desc) {
  check_device_accum("assign", accum_code(accum));
  // z = w with the region I written (accumulated), then w<m, replace> = z:
  // outside I z is w, so the mask and replace act over all of w as
  // GrB_assign's do.
  const stream_t s = current_stream();
  vector_finish_cuda("assign", w, mask, no_accum, desc.replace,
                     cuda::vector_scatter<TW>(w.device(), t, I, accum_code(accum), s));
}
template <class TW, class Mask, class Accum>
void vector_assign_cuda(Vector<TW>& w, const Mask& mask, const Accum& accum, device_vector<TW>&& t,
                        const index_list& I, const descriptor& desc) {
  check_device_accum("assign", accum_code(accum));
  if (I.is_all()) return vector_finish_cuda("assign", w, mask, accum, desc.replace, std::move(t));
  device_buffer<index_t> keep;
  vector_assign_cuda(w, mask, accum, std::move(t), device_indices(I, keep, current_stream()), desc);
}
// Whether v's arrays belong to stream s: only then may an operation on s
// write them in place (they are copied back and freed on their own stream,
// which is ordered after s's work only where it is s).
template <class T>
bool arrays_on(const device_vector<T>& v, stream_t s) {
  return v.values.stream() == s && v.present.stream() == s;
}

// Over all indices, w is updated in place from u (of w's type) or the
// scalar: nothing is allocated but the mask's bytes (where it needs them).
// Only for w's arrays on the current stream (arrays_on); else the result is
// built aside as for index lists.
template <class TW, class Mask, class Accum>
void vector_assign_all_cuda(Vector<TW>& w, const Mask& mask, const Accum& accum, const device_vector<TW>* u,
                            const TW* x, bool replace) {
  check_device_accum("assign", accum_code(accum));
  std::shared_ptr<void> keep;
  const std::uint8_t* admit = device_vector_mask("assign", mask, keep);
  cuda::vector_assign_all<TW>(*w.device_storage(), u, x, admit, accum_code(accum), replace, current_stream());
}

// u cast to w's type: a copy where the types agree (the caller's u stays
// as it is).
template <class TW, class TU>
device_vector<TW> device_source(const Vector<TU>& u, stream_t s) {
  if constexpr (std::is_same_v<TW, TU>) return clone(u.device(), s);
  else return cuda::vector_cast<TW, TU>(u.device(), s);
}

template <class TW, class Mask, class Accum, class TU>
void vector_assign_cuda(Vector<TW>& w, const Mask& mask, const Accum& accum, const Vector<TU>& u,
                        const index_list& I, const descriptor& desc) {
  if constexpr (!cuda::device_types<TW, TU>) {
    throw device_unsupported("assign", device_vector_types_text());
  } else {
    const stream_t s = current_stream();
    if constexpr (std::is_same_v<TW, TU>) {
      if (I.is_all() && arrays_on(w.device(), s))
        return vector_assign_all_cuda<TW>(w, mask, accum, &u.device(), nullptr, desc.replace);
    }
    vector_assign_cuda(w, mask, accum, device_source<TW>(u, s), I, desc);
  }
}

// w<m>(I) = accum(w(I), x) (I without repeats); no x: as an empty u.
template <class TW, class Mask, class Accum>
void vector_assign_scalar_cuda(Vector<TW>& w, const Mask& mask, const Accum& accum, const std::optional<TW>& x,
                               const index_list& I, const descriptor& desc) {
  if constexpr (!cuda::device_types<TW>) {
    throw device_unsupported("assign", device_vector_types_text());
  } else {
    const stream_t s = current_stream();
    if (I.is_all() && arrays_on(w.device(), s))
      return vector_assign_all_cuda<TW>(w, mask, accum, nullptr, x ? &*x : nullptr, desc.replace);
    const index_t len = I.count(w.size());
    vector_assign_cuda(w, mask, accum, x ? cuda::vector_fill<TW>(len, *x, s) : device_vector<TW>(len, s), I, desc);
  }
}

// The fold of u under a predefined monoid, in S (entries cast to S first).
template <class S, class Monoid, class T>
S vector_reduce_cuda(const Monoid&, const Vector<T>& u, bool& has) {
  if constexpr (!cuda::device_types<S, T>) {
    throw device_unsupported("reduce", device_vector_types_text());
  } else if constexpr (monoid_code<Monoid>::value < 0) {
    throw device_unsupported("reduce", "the monoid must be a predefined one");
  } else {
    std::optional<device_vector<S>> keep;
    return cuda::vector_reduce<S>(device_vector_as<S>(u, keep), coded_monoid{monoid_code<Monoid>::value}, &has,
                                  current_stream());
  }
}

}  // namespace tgb::detail
