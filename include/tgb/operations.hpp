// tgb: the operations, with the GraphBLAS C API's semantics. Each one
// computes a result T, then writes C<M, replace> = accum(C, T):
//   - mask: no_mask, a Matrix (its nonzero values), structure(M) (its
//     pattern), complement(...) of either;
//   - accum: no_accum (C's old entries are discarded where T is written) or a
//     binary operator applied where both C and T have an entry;
//   - descriptor: replace (clear C outside the mask), transpose_a/_b.
// Checks happen first; if anything throws, C is unchanged. C may be the same
// object as any input or the mask.
#pragma once

#include <string>
#include <type_traits>

#include "tgb/algebra.hpp"
#include "tgb/backend.hpp"
#include "tgb/descriptor.hpp"
#include "tgb/detail/cuda/api.hpp"
#include "tgb/detail/host/elementwise.hpp"
#include "tgb/detail/host/mxm.hpp"
#include "tgb/detail/host/reduce.hpp"
#include "tgb/detail/host/vector_sparse.hpp"
#include "tgb/detail/host/writeback.hpp"
#include "tgb/mask.hpp"
#include "tgb/matrix.hpp"
#include "tgb/vector.hpp"

namespace tgb {

namespace detail {
inline std::string shape(index_t r, index_t c) { return std::to_string(r) + " x " + std::to_string(c); }

// A (or A' when transposed) as tiles, materializing the transpose.
template <class T>
struct oriented {
  tile_view<T> view;
  tile_matrix<T> owned;
  const tile_matrix<T>* p;
  oriented(const Matrix<T>& m, bool transpose) : view(m), p(&*view) {
    if (transpose) {
      owned = transpose_tiles(*view);
      p = &owned;
    }
  }
  oriented(const oriented&) = delete;
  oriented& operator=(const oriented&) = delete;
  const tile_matrix<T>& operator*() const { return *p; }
};

// Where an operation runs: where all its operands live. Mixed residence is
// an error; tgb never copies between host and device behind the caller.
struct located {
  const char* name;
  backend where;
};
inline backend residence(const char* op, std::initializer_list<located> operands) {
  const located& first = *operands.begin();
  for (const located& o : operands)
    if (o.where != first.where)
      throw invalid_value(std::string("tgb::") + op + ": " + first.name + " lives on " + backend_name(first.where) +
                          " but " + o.name + " on " + backend_name(o.where) +
                          "; move them to one place with to() (Matrix::to, Vector::to)");
  return first.where;
}
inline backend where_mask(no_mask_t, backend dflt) { return dflt; }
template <class M>
backend where_mask(const M& m, backend) {
  return as_mask_view(m).object->location();
}

template <class Accum>
int accum_code(const Accum&) {
  if constexpr (std::is_same_v<Accum, no_accum_t>) return -2;
  else return op_code<Accum>::value;
}
inline int accum_code(const coded_op& op) { return op.code; }

// The mask as the device reads it: its tiles (made from its rows if it is
// stored so, unless the caller reads rows: mxm) and bits; `keep` holds what
// was made for it.
inline cuda::mask_arg device_mask(no_mask_t, std::shared_ptr<void>&, index_t, index_t, bool = false) { return {}; }
template <class M>
cuda::mask_arg device_mask(const M& m, std::shared_ptr<void>& keep, index_t nrows, index_t ncols,
                           bool rows_ok = false) {
  const auto view = as_mask_view(m);
  using U = typename std::decay_t<decltype(*view.object)>::value_type;
  host::check_mask_shape(view.object->nrows(), view.object->ncols(), nrows, ncols);
  cuda::mask_arg a;
  a.complement = view.complemented;
  if (const device_row_matrix<U>* r = view.object->device_rows(); r && rows_ok) {
    a.nrows = r->nrows;
    a.ncols = r->ncols;
    a.nnz = r->nnz;
    a.row_ptr = r->row_ptr.data();
    a.col = r->col.data();
    if (!view.structural) {
      if constexpr (cuda::device_value_type<U>) {
        auto flags = std::make_shared<device_buffer<std::uint8_t>>(cuda::nonzero_flags(*r, current_stream()));
        a.ok = flags->data();
        keep = flags;
      } else {
        throw not_implemented("tgb::mxm: value masks of this type are not supported on the GPU; use structure(M)");
      }
    }
    return a;
  }
  struct held {
    device_tile_view<U> tiles;
    device_buffer<row_bits> bits;
    explicit held(const Matrix<U>& u) : tiles(u) {}
  };
  auto h = std::make_shared<held>(*view.object);
  keep = h;
  const auto& d = *h->tiles;
  a.pat = &d.pat;
  if (view.structural) {
    a.bits = d.pat.row_mask.data();
  } else if constexpr (cuda::device_value_type<U>) {
    h->bits = cuda::value_mask_bits(d, current_stream());
    a.bits = h->bits.data();
  } else {
    throw not_implemented("tgb::mxm: value masks of this type are not supported on the GPU; use structure(M)");
  }
  return a;
}

template <class T>
cuda::device_operand<T> device_operand_of(const Matrix<T>& m) {
  if (const device_row_matrix<T>* r = m.device_rows()) return cuda::device_operand<T>{nullptr, r};
  return cuda::device_operand<T>{&m.device_tiles(), nullptr};
}

template <class TC, class Mask, class Accum, class Semiring, class TA, class TB>
void mxm_cuda(Matrix<TC>& C, const Mask& mask, const Accum& accum, const Semiring& semiring, const Matrix<TA>& A,
              const Matrix<TB>& B, const descriptor& desc, const mxm_policy& policy) {
  if constexpr (!cuda::mxm_enabled<TC, TA, TB, Semiring>::value) {
    throw not_implemented(
        "tgb::mxm: this build has no CUDA mxm for these types and semiring (predefined semirings on equal types "
        "are built in; see <tgb/cuda/mxm.cuh> for others)");
  } else {
    const int ac = accum_code(accum);
    if (ac == -1) throw not_implemented("tgb::mxm: on the GPU the accumulator must be a predefined operator");
    const stream_t s = current_stream();
    std::shared_ptr<void> keep;
    const cuda::mask_arg M = device_mask(mask, keep, C.nrows(), C.ncols(), /*rows_ok=*/true);
    const cuda::mxm_request how{desc.transpose_a, desc.transpose_b, policy};
    cuda::device_result<TC> r = cuda::mxm<TC, TA, TB, Semiring>(device_operand_of(C), M, ac, desc.replace, semiring,
                                                                device_operand_of(A), device_operand_of(B), how, s);
    if (r.rows) C.assign_device_rows(std::move(r.rows));
    else C.assign_device_tiles(std::move(r.tiles));
  }
}

// ---- the element-wise operations on the device ---------------------------
inline not_implemented device_unsupported(const char* op, const std::string& why) {
  return not_implemented(std::string("tgb::") + op + " on the GPU: " + why +
                         "; or move the operands to the host with to() (Matrix::to, Vector::to)");
}
inline void check_device_accum(const char* op, int code) {
  if (code == -1) throw device_unsupported(op, "the accumulator must be a predefined operator");
}

// A device operand as TC, transposed if asked (a cast or transpose is made
// aside; otherwise the matrix's own storage is used).
template <class TC, class TA>
struct device_oriented {
  device_tile_view<TA> view;
  const device_tile_matrix<TC>* p = nullptr;
  device_tile_matrix<TC> owned;
  device_oriented(const Matrix<TA>& A, bool transpose, stream_t s) : view(A) {
    if constexpr (std::is_same_v<TC, TA>) {
      if (!transpose) {
        p = &*view;
        return;
      }
      owned = cuda::transpose(*view, s);
    } else if (transpose) {
      owned = cuda::apply<TC, TA>(cuda::transpose(*view, s), coded_unary{}, s);
    } else {
      owned = cuda::apply<TC, TA>(*view, coded_unary{}, s);
    }
    p = &owned;
  }
  device_oriented(const device_oriented&) = delete;
  const device_tile_matrix<TC>& operator*() const { return *p; }
};

// C<M, replace> = accum(C, T) on the device, then C takes the result.
template <class TC, class Mask, class Accum>
void device_finish(Matrix<TC>& C, const Mask& mask, const Accum& accum, bool replace, device_tile_matrix<TC>&& T,
                   stream_t s) {
  std::shared_ptr<void> keep;
  const cuda::mask_arg M = device_mask(mask, keep, C.nrows(), C.ncols());
  auto out = std::make_unique<device_tile_matrix<TC>>(
      cuda::writeback(*device_tile_view<TC>(C), M, accum_code(accum), replace, std::move(T), false, s));
  C.assign_device_tiles(std::move(out));
}

// mode 0 ewise_mult, 1 ewise_add, 2 ewise_union (alpha and beta given).
template <class TC, class Mask, class Accum, class Op, class TA, class TB, class SA = int, class SB = int>
void ewise_cuda(const char* name, int mode, Matrix<TC>& C, const Mask& mask, const Accum& accum, const Op&,
                const Matrix<TA>& A, const Matrix<TB>& B, const descriptor& desc, const SA& alpha = 0,
                const SB& beta = 0) {
  using D = op_domain_t<Op, TA, TB>;  // operands are cast to it, the result from it to TC
  if constexpr (!cuda::device_types<TC, TA, TB> || !cuda::device_types<D>) {
    throw device_unsupported(name, "the value types must be bool, int32, int64, float or double");
  } else {
    if (op_code<Op>::value < 0) throw device_unsupported(name, "the operator must be a predefined one");
    check_device_accum(name, accum_code(accum));
    const stream_t s = current_stream();
    device_oriented<D, TA> a(A, desc.transpose_a, s);
    device_oriented<D, TB> b(B, desc.transpose_b, s);
    device_tile_matrix<D> t = cuda::ewise<D>(*a, *b, op_code<Op>::value, mode, cast<D>(alpha), cast<D>(beta), s);
    if constexpr (std::is_same_v<D, TC>) device_finish(C, mask, accum, desc.replace, std::move(t), s);
    else device_finish(C, mask, accum, desc.replace, cuda::apply<TC, D>(t, coded_unary{}, s), s);
  }
}

template <class TC, class Mask, class Accum, class F, class TA>
void apply_cuda(Matrix<TC>& C, const Mask& mask, const Accum& accum, const F& f, const Matrix<TA>& A,
                const descriptor& desc) {
  if constexpr (!cuda::device_types<TC, TA>) {
    throw device_unsupported("apply", "the value types must be bool, int32, int64, float or double");
  } else {
    if constexpr (unary_code<F>::value < 0) {
      throw device_unsupported("apply", "the operator must be identity, ainv, abs_op, lnot, one, or bind1st/bind2nd "
                                        "of a predefined binary operator");
    } else {
      check_device_accum("apply", accum_code(accum));
      const stream_t s = current_stream();
      device_oriented<TA, TA> a(A, desc.transpose_a, s);
      device_finish(C, mask, accum, desc.replace, cuda::apply<TC, TA>(*a, make_coded_unary(f), s), s);
    }
  }
}

template <class TC, class Mask, class Accum, class Pred, class TA, class Y>
void select_cuda(Matrix<TC>& C, const Mask& mask, const Accum& accum, const Pred&, const Matrix<TA>& A,
                 const Y& thunk, const descriptor& desc) {
  if constexpr (!cuda::device_types<TC, TA>) {
    throw device_unsupported("select", "the value types must be bool, int32, int64, float or double");
  } else if constexpr (select_code<Pred>::value < 0 || !std::is_arithmetic_v<Y>) {
    throw device_unsupported("select", "the selector must be a predefined one (tril, triu, diag, offdiag, value_*) "
                                       "with a numeric thunk");
  } else {
    check_device_accum("select", accum_code(accum));
    const stream_t s = current_stream();
    device_oriented<TA, TA> a(A, desc.transpose_a, s);
    device_tile_matrix<TA> kept = cuda::select<TA>(*a, coded_select{select_code<Pred>::value}, coded_scalar::of(thunk), s);
    if constexpr (std::is_same_v<TC, TA>) {
      device_finish(C, mask, accum, desc.replace, std::move(kept), s);
    } else {
      device_finish(C, mask, accum, desc.replace, cuda::apply<TC, TA>(kept, coded_unary{}, s), s);
    }
  }
}

template <class TC, class Mask, class Accum, class F, class TA, class Y>
void apply_index_cuda(Matrix<TC>& C, const Mask& mask, const Accum& accum, const F&, const Matrix<TA>& A,
                      const Y& thunk, const descriptor& desc) {
  if constexpr (!cuda::device_types<TC, TA>) {
    throw device_unsupported("apply_index", "the value types must be bool, int32, int64, float or double");
  } else if constexpr (index_unary_code<F>() < 0 || !std::is_arithmetic_v<Y>) {
    throw device_unsupported("apply_index", "the operator must be rowindex, colindex, diagindex or a predefined "
                                            "selector, with a numeric thunk");
  } else {
    check_device_accum("apply_index", accum_code(accum));
    const stream_t s = current_stream();
    device_oriented<TA, TA> a(A, desc.transpose_a, s);  // positions are A''s with transpose_a, as on the host
    device_finish(C, mask, accum, desc.replace,
                  cuda::apply_index<TC, TA>(*a, index_unary_code<F>(), coded_scalar::of(thunk), s), s);
  }
}

template <class TC, class Mask, class Accum, class TA>
void transpose_cuda(Matrix<TC>& C, const Mask& mask, const Accum& accum, const Matrix<TA>& A, bool tr,
                    const descriptor& desc) {
  if constexpr (!cuda::device_types<TC, TA>) {
    throw device_unsupported("transpose", "the value types must be bool, int32, int64, float or double");
  } else {
    check_device_accum("transpose", accum_code(accum));
    const stream_t s = current_stream();
    device_tile_matrix<TC> T;
    const device_tile_view<TA> a(A);
    if (tr) {
      device_tile_matrix<TA> t = cuda::transpose(*a, s);
      if constexpr (std::is_same_v<TC, TA>) T = std::move(t);
      else T = cuda::apply<TC, TA>(t, coded_unary{}, s);
    } else {
      T = cuda::apply<TC, TA>(*a, coded_unary{}, s);
    }
    device_finish(C, mask, accum, desc.replace, std::move(T), s);
  }
}

// The fold of A under a predefined monoid, in S (entries cast to S first).
template <class S, class Monoid, class T>
S reduce_cuda(const Monoid&, const Matrix<T>& A) {
  if constexpr (!cuda::device_types<S, T>) {
    throw device_unsupported("reduce", "the value types must be bool, int32, int64, float or double");
  } else if constexpr (monoid_code<Monoid>::value < 0) {
    throw device_unsupported("reduce", "the monoid must be a predefined one");
  } else {
    const stream_t s = current_stream();
    device_oriented<S, T> a(A, false, s);
    return cuda::reduce_all<S>(*a, coded_monoid{monoid_code<Monoid>::value}, s);
  }
}

// mxm's branch for hypersparse rows where the general one would read them
// through tiles: a transposed operand (op(A) made over A's listed rows; a
// transposed B must be in hypersparse rows too), or a mask, when op(A), the
// mask and C are all in hypersparse rows. The row saxpy over A's listed rows
// (under the mask's rows for those rows alone), then the write-back over C's
// rows: memory and time that follow the entries. False (nothing done) where
// the forms do not fit, or the policy names another method than row saxpy;
// the unmasked product without transposes has its own branch
// (mxm_product's mxm_hyper_saxpy).
template <class TC, class Mask, class Accum, class Semiring, class TA, class TB>
bool mxm_hyper(Matrix<TC>& C, const Mask& mask, const Accum& accum, const Semiring& semiring, const Matrix<TA>& A,
               const Matrix<TB>& B, const descriptor& desc, const mxm_policy& policy) {
  const hyper_matrix<TA>* ha = A.hyper_form();
  if (!ha || (desc.transpose_b && !B.hyper_form())) return false;
  if (policy.method != mxm_method::automatic && policy.method != mxm_method::row_saxpy) return false;
  auto flipped = [](const auto& h, index_t nrows, index_t ncols) {
    using T = std::decay_t<decltype(h.values[0])>;
    Matrix<T> x(nrows, ncols);
    x.set_storage(storage_control::hyper);
    x.assign_hyper(host::hyper_transpose<T>(h));
    return x;
  };
  auto run = [&](const auto& mask_ref) {
    Matrix<TA> at;
    Matrix<TB> bt;
    if (desc.transpose_a) at = flipped(*ha, A.ncols(), A.nrows());
    if (desc.transpose_b) bt = flipped(*B.hyper_form(), B.ncols(), B.nrows());
    auto T = host::mxm_hyper_saxpy<TC>(desc.transpose_a ? at : A, desc.transpose_b ? bt : B, semiring, policy,
                                       mask_ref);
    host::writeback_hyper(C, mask, accum, desc.replace, std::move(T.hyper));  // T: op(A)'s rows, hypersparse
  };
  if constexpr (std::is_same_v<Mask, no_mask_t>) {
    if (!desc.transpose_a && !desc.transpose_b) return false;
    run(host::hyper_mask_ref<bool>{});
  } else {
    const auto v = as_mask_view(mask);
    using U = typename std::decay_t<decltype(*v.object)>::value_type;
    const hyper_matrix<U>* m = v.object->hyper_form();
    if (!m || !C.hyper_form()) return false;
    host::check_mask_shape(v.object->nrows(), v.object->ncols(), C.nrows(), C.ncols());
    run(host::hyper_mask_ref<U>{m, v.structural, v.complemented});
  }
  return true;
}

// mxm's host branch, with the policy that picks its method (tests force each).
template <class TC, class Mask, class Accum, class Semiring, class TA, class TB>
void mxm_host(Matrix<TC>& C, const Mask& mask, const Accum& accum, const Semiring& semiring, const Matrix<TA>& A,
              const Matrix<TB>& B, const descriptor& desc, const mxm_policy& policy) {
  guard_alloc([&] {
    if (mxm_hyper(C, mask, accum, semiring, A, B, desc, policy)) return;
    auto M = host::make_mask(mask, C.nrows(), C.ncols(), /*defer_tiles=*/true);
    // T lies within the mask: with no accumulator, an empty C becomes T
    // whether or not replace was asked. Where C becomes T, T is made in the
    // form C will keep; where it merges with C, in rows where C and the mask
    // are rows (the merge then walks rows: k-truss's counts<C> = C*C, whose
    // entries outside C stay), else in tiles.
    const bool replace = desc.replace || (std::is_same_v<Accum, no_accum_t> && C.nvals() == 0);
    const bool becomes_t = std::is_same_v<Accum, no_accum_t> && (!M.active || replace);
    const storage_control t_form = becomes_t                      ? C.storage()
                                   : host::merges_in_rows(C, M) ? storage_control::rows
                                                                  : storage_control::tiles;
    auto T = host::mxm_product<TC>(A, desc.transpose_a, B, desc.transpose_b, M, semiring, policy, t_form);
    if (T.in_hyper) {
      host::writeback_hyper(C, accum, std::move(T.hyper));  // mxm_hyper_saxpy: no mask
    } else if (T.in_rows) {
      host::writeback(C, M, accum, replace, std::move(T.rows), /*t_within_mask=*/true, T.row_tiles);
    } else {
      host::writeback(C, M, accum, replace, std::move(T.tiles), /*t_within_mask=*/true);
    }
  });
}

template <class T>
index_t rows_of(const Matrix<T>& m, bool tr) { return tr ? m.ncols() : m.nrows(); }
template <class T>
index_t cols_of(const Matrix<T>& m, bool tr) { return tr ? m.nrows() : m.ncols(); }
}  // namespace detail

// C<M> = accum(C, A (+.*) B), with A and B optionally transposed.
template <class TC, class Mask, class Accum, class Semiring, class TA, class TB>
void mxm(Matrix<TC>& C, const Mask& mask, const Accum& accum, const Semiring& semiring, const Matrix<TA>& A,
         const Matrix<TB>& B, const descriptor& desc = {}) {
  using detail::cols_of;
  using detail::rows_of;
  const index_t m = rows_of(A, desc.transpose_a), k = cols_of(A, desc.transpose_a);
  const index_t kb = rows_of(B, desc.transpose_b), n = cols_of(B, desc.transpose_b);
  if (k != kb || m != C.nrows() || n != C.ncols())
    throw dimension_mismatch("tgb::mxm: C is " + detail::shape(C.nrows(), C.ncols()) + ", A" +
                             (desc.transpose_a ? "'" : "") + " is " + detail::shape(m, k) + ", B" +
                             (desc.transpose_b ? "'" : "") + " is " + detail::shape(kb, n));
  const backend where = detail::residence("mxm", {{"C", C.location()}, {"A", A.location()}, {"B", B.location()},
                                                   {"the mask", detail::where_mask(mask, C.location())}});
  const detail::mxm_policy policy{};
  if (where == backend::cuda) return detail::mxm_cuda(C, mask, accum, semiring, A, B, desc, policy);
  detail::mxm_host(C, mask, accum, semiring, A, B, desc, policy);
}

namespace detail {
template <class TC, class Mask, class Accum, class Op, class TA, class TB>
void ewise(const char* name, bool add, Matrix<TC>& C, const Mask& mask, const Accum& accum, const Op& op,
           const Matrix<TA>& A, const Matrix<TB>& B, const descriptor& desc) {
  const index_t ar = rows_of(A, desc.transpose_a), ac = cols_of(A, desc.transpose_a);
  const index_t br = rows_of(B, desc.transpose_b), bc = cols_of(B, desc.transpose_b);
  if (ar != br || ac != bc || ar != C.nrows() || ac != C.ncols())
    throw dimension_mismatch(std::string("tgb::") + name + ": C is " + shape(C.nrows(), C.ncols()) + ", A is " +
                             shape(ar, ac) + ", B is " + shape(br, bc));
  const backend where = residence(name, {{"C", C.location()}, {"A", A.location()}, {"B", B.location()},
                                         {"the mask", where_mask(mask, C.location())}});
  if (where == backend::cuda) return ewise_cuda(name, add ? 1 : 0, C, mask, accum, op, A, B, desc);
  guard_alloc([&] {
    // Unmasked, without an accumulator, with an operand in rows: merged row by
    // row (the other operand read as rows), and C becomes the result.
    if constexpr (std::is_same_v<Mask, no_mask_t> && std::is_same_v<Accum, no_accum_t>) {
      if ((A.row_form() || B.row_form()) && !A.hyper_form() && !B.hyper_form() && rows_fit(C.ncols())) {
        const host::rows_view<TA> a(A, desc.transpose_a);
        const host::rows_view<TB> b(B, desc.transpose_b);
        return C.assign_rows(host::ewise<TC>(*a, *b, op, add));
      }
    }
    // Both operands in hypersparse rows: merged over the listed rows, in
    // memory that follows the entries, and so is the write-back where C and
    // the mask are hypersparse too. (With an operand in tiles or rows, that
    // form already costs memory of the dimension: the tile merge below,
    // parallel, is the faster.)
    if (A.hyper_form() && B.hyper_form()) {
      const host::hyper_view<TA> a(*A.hyper_form(), desc.transpose_a);
      const host::hyper_view<TB> b(*B.hyper_form(), desc.transpose_b);
      return host::writeback_hyper(C, mask, accum, desc.replace, host::hyper_ewise<TC>(*a, *b, op, add));
    }
    auto M = host::make_mask(mask, C.nrows(), C.ncols());
    oriented<TA> a(A, desc.transpose_a);
    oriented<TB> b(B, desc.transpose_b);
    auto T = host::ewise<TC>(*a, *b, op, add);
    host::writeback(C, M, accum, desc.replace, std::move(T), false);
  });
}
}  // namespace detail

// C<M> = accum(C, A .op. B) over the union of the patterns; where only one
// operand is stored its value is taken as it is.
template <class TC, class Mask, class Accum, class Op, class TA, class TB>
void ewise_add(Matrix<TC>& C, const Mask& mask, const Accum& accum, const Op& op, const Matrix<TA>& A,
               const Matrix<TB>& B, const descriptor& desc = {}) {
  detail::ewise("ewise_add", true, C, mask, accum, op, A, B, desc);
}

// C<M> = accum(C, A .op. B) over the intersection of the patterns.
template <class TC, class Mask, class Accum, class Op, class TA, class TB>
void ewise_mult(Matrix<TC>& C, const Mask& mask, const Accum& accum, const Op& op, const Matrix<TA>& A,
                const Matrix<TB>& B, const descriptor& desc = {}) {
  detail::ewise("ewise_mult", false, C, mask, accum, op, A, B, desc);
}

namespace detail {
// C, A (or A') and B (or B') of one shape, as ewise_union needs.
template <class TC, class TA, class TB>
void check_union_shapes(const Matrix<TC>& C, const Matrix<TA>& A, const Matrix<TB>& B, const descriptor& desc) {
  const index_t ar = rows_of(A, desc.transpose_a), ac = cols_of(A, desc.transpose_a);
  const index_t br = rows_of(B, desc.transpose_b), bc = cols_of(B, desc.transpose_b);
  if (ar != br || ac != bc || ar != C.nrows() || ac != C.ncols())
    throw dimension_mismatch("tgb::ewise_union: C is " + shape(C.nrows(), C.ncols()) + ", A is " + shape(ar, ac) +
                             ", B is " + shape(br, bc));
}
}  // namespace detail

// C<M> = accum(C, A .op. B) over the union of the patterns, with A's missing
// entries taken as alpha and B's as beta (GxB_eWiseUnion): op(a, beta) where
// only A is stored. alpha and beta are cast to op's domain. On the GPU with
// a predefined operator, as ewise_add.
template <class TC, class Mask, class Accum, class Op, class TA, class SA, class TB, class SB>
void ewise_union(Matrix<TC>& C, const Mask& mask, const Accum& accum, const Op& op, const Matrix<TA>& A,
                 const SA& alpha, const Matrix<TB>& B, const SB& beta, const descriptor& desc = {}) {
  detail::check_union_shapes(C, A, B, desc);
  const backend where = detail::residence("ewise_union", {{"C", C.location()}, {"A", A.location()}, {"B", B.location()},
                                                          {"the mask", detail::where_mask(mask, C.location())}});
  if (where == backend::cuda) return detail::ewise_cuda("ewise_union", 2, C, mask, accum, op, A, B, desc, alpha, beta);
  detail::guard_alloc([&] {
    // Both in hypersparse rows: merged over the listed rows (as ewise_add).
    if (A.hyper_form() && B.hyper_form()) {
      const detail::host::hyper_view<TA> a(*A.hyper_form(), desc.transpose_a);
      const detail::host::hyper_view<TB> b(*B.hyper_form(), desc.transpose_b);
      return detail::host::writeback_hyper(C, mask, accum, desc.replace,
                                           detail::host::hyper_ewise_union<TC>(*a, alpha, *b, beta, op));
    }
    auto M = detail::host::make_mask(mask, C.nrows(), C.ncols());
    detail::oriented<TA> a(A, desc.transpose_a);
    detail::oriented<TB> b(B, desc.transpose_b);
    auto T = detail::host::ewise_union<TC>(*a, alpha, *b, beta, op);
    detail::host::writeback(C, M, accum, desc.replace, std::move(T), false);
  });
}

// Binding a scalar to a binary operator: apply(C, ..., bind1st(op, s), A)
// computes op(s, a); bind2nd(op, s) computes op(a, s).
template <class Op, class S>
constexpr bind_first<Op, S> bind1st(Op op, S s) { return bind_first<Op, S>{op, s}; }
template <class Op, class S>
constexpr bind_second<Op, S> bind2nd(Op op, S s) { return bind_second<Op, S>{op, s}; }

namespace detail {
// C and op(A) of one shape (apply, apply_index, select and their Scalar
// forms), or dimension_mismatch naming both.
template <class TC, class TA>
void check_unary_shape(const char* op, const Matrix<TC>& C, const Matrix<TA>& A, const descriptor& desc) {
  const index_t ar = rows_of(A, desc.transpose_a), ac = cols_of(A, desc.transpose_a);
  if (ar != C.nrows() || ac != C.ncols())
    throw dimension_mismatch(std::string("tgb::") + op + ": C is " + shape(C.nrows(), C.ncols()) + ", A is " +
                             shape(ar, ac));
}
// The shapes, then where C, A and the mask live (one place, or invalid_value).
template <class TC, class Mask, class TA>
backend unary_residence(const char* op, const Matrix<TC>& C, const Mask& mask, const Matrix<TA>& A,
                        const descriptor& desc) {
  check_unary_shape(op, C, A, desc);
  return residence(op, {{"C", C.location()}, {"A", A.location()}, {"the mask", where_mask(mask, C.location())}});
}
}  // namespace detail

// C<M> = accum(C, f(A)).
template <class TC, class Mask, class Accum, class UnaryOp, class TA>
void apply(Matrix<TC>& C, const Mask& mask, const Accum& accum, const UnaryOp& f, const Matrix<TA>& A,
           const descriptor& desc = {}) {
  const backend where = detail::unary_residence("apply", C, mask, A, desc);
  if (where == backend::cuda) return detail::apply_cuda(C, mask, accum, f, A, desc);
  detail::guard_alloc([&] {
    // Unmasked, without an accumulator: a matrix in rows is read as it is
    // stored (no tile copy), and C becomes the result.
    if constexpr (std::is_same_v<Mask, no_mask_t> && std::is_same_v<Accum, no_accum_t>) {
      // (the same pattern: A's tile count serves the storage rule)
      if (const auto* r = desc.transpose_a ? nullptr : A.row_form())
        return C.assign_rows(detail::host::apply<TC>(*r, f), C.storage() == storage_control::automatic ? A.ntiles() : -1);
    }
    // A in hypersparse rows: applied over its listed rows, written back as
    // ewise's results are.
    if (const auto* h = A.hyper_form()) {
      const detail::host::hyper_view<TA> a(*h, desc.transpose_a);
      return detail::host::writeback_hyper(C, mask, accum, desc.replace, detail::host::apply<TC>(*a, f));
    }
    auto M = detail::host::make_mask(mask, C.nrows(), C.ncols());
    detail::oriented<TA> a(A, desc.transpose_a);
    auto T = detail::host::apply<TC>(*a, f);
    detail::host::writeback(C, M, accum, desc.replace, std::move(T), false);
  });
}

// C<M> = accum(C, f(A(i,j), i, j, thunk)): an index-unary operator applied
// as a value (GrB_Matrix_apply_IndexOp): rowindex (i + thunk), colindex
// (j + thunk), diagindex (j - (i + thunk)), the value_* comparisons (bool,
// cast to C's type), or your own object with that call. With transpose_a
// i and j are positions in A'. On the GPU with the predefined operators and
// a numeric thunk (your own throws not_implemented, C unchanged).
template <class TC, class Mask, class Accum, class IndexOp, class TA, class Y>
void apply_index(Matrix<TC>& C, const Mask& mask, const Accum& accum, const IndexOp& f, const Matrix<TA>& A,
                 const Y& thunk, const descriptor& desc = {}) {
  const backend where = detail::unary_residence("apply_index", C, mask, A, desc);
  if (where == backend::cuda) return detail::apply_index_cuda(C, mask, accum, f, A, thunk, desc);
  detail::guard_alloc([&] {
    // A in hypersparse rows: over its listed rows (as apply), with i and j
    // read from op(A)'s own lists.
    if (const auto* h = A.hyper_form()) {
      const detail::host::hyper_view<TA> a(*h, desc.transpose_a);
      return detail::host::writeback_hyper(C, mask, accum, desc.replace, detail::host::apply_index<TC>(*a, f, thunk));
    }
    auto M = detail::host::make_mask(mask, C.nrows(), C.ncols());
    detail::oriented<TA> a(A, desc.transpose_a);
    auto T = detail::host::apply_index<TC>(*a, f, thunk);
    detail::host::writeback(C, M, accum, desc.replace, std::move(T), false);
  });
}

// C<M> = accum(C, select(A)): keeps A(i,j) where pred(A(i,j), i, j, thunk)
// (tgb::tril, triu, diag, offdiag, value_eq ... value_le, or any such object).
template <class TC, class Mask, class Accum, class Pred, class TA, class Y>
void select(Matrix<TC>& C, const Mask& mask, const Accum& accum, const Pred& pred, const Matrix<TA>& A,
            const Y& thunk, const descriptor& desc = {}) {
  const backend where = detail::unary_residence("select", C, mask, A, desc);
  if (where == backend::cuda) return detail::select_cuda(C, mask, accum, pred, A, thunk, desc);
  detail::guard_alloc([&] {
    // As apply: rows read as stored where nothing merges, hypersparse rows
    // always.
    if constexpr (std::is_same_v<Mask, no_mask_t> && std::is_same_v<Accum, no_accum_t>) {
      if (const auto* r = desc.transpose_a ? nullptr : A.row_form())
        return C.assign_rows(detail::host::select<TC>(*r, pred, thunk));
    }
    if (const auto* h = A.hyper_form()) {
      const detail::host::hyper_view<TA> a(*h, desc.transpose_a);
      return detail::host::writeback_hyper(C, mask, accum, desc.replace, detail::host::select<TC>(*a, pred, thunk));
    }
    auto M = detail::host::make_mask(mask, C.nrows(), C.ncols());
    detail::oriented<TA> a(A, desc.transpose_a);
    auto T = detail::host::select<TC>(*a, pred, thunk);
    detail::host::writeback(C, M, accum, desc.replace, std::move(T), false);
  });
}

// C<M> = accum(C, A'). With desc.transpose_a the input is transposed twice,
// as in GrB_transpose, so T = A.
template <class TC, class Mask, class Accum, class TA>
void transpose(Matrix<TC>& C, const Mask& mask, const Accum& accum, const Matrix<TA>& A,
               const descriptor& desc = {}) {
  const bool tr = !desc.transpose_a;
  const index_t ar = detail::rows_of(A, tr), ac = detail::cols_of(A, tr);
  if (ar != C.nrows() || ac != C.ncols())
    throw dimension_mismatch("tgb::transpose: C is " + detail::shape(C.nrows(), C.ncols()) + ", the result is " +
                             detail::shape(ar, ac));
  const backend where = detail::residence("transpose", {{"C", C.location()}, {"A", A.location()},
                                                        {"the mask", detail::where_mask(mask, C.location())}});
  if (where == backend::cuda) return detail::transpose_cuda(C, mask, accum, A, tr, desc);
  detail::guard_alloc([&] {
    // Unmasked, without an accumulator, A in rows: C becomes A's rows transposed.
    if constexpr (std::is_same_v<Mask, no_mask_t> && std::is_same_v<Accum, no_accum_t>) {
      if (A.row_form() && detail::rows_fit(ac)) {
        // A' has as many tiles as A.
        detail::host::rows_view<TA> a(A, tr);
        const offset_t nt = C.storage() == storage_control::automatic ? A.ntiles() : -1;
        if constexpr (std::is_same_v<TC, TA>)
          if (a.owns()) return C.assign_rows(a.take(), nt);
        return C.assign_rows(detail::host::apply<TC>(*a, identity{}), nt);
      }
    }
    // A in hypersparse rows: C is made in them (the columns that hold
    // entries become its rows), in memory that follows the entries, and
    // written back as ewise's results are.
    if (const auto* h = A.hyper_form())
      return detail::host::writeback_hyper(C, mask, accum, desc.replace,
                                           tr ? detail::host::hyper_transpose<TC>(*h)
                                              : detail::host::apply<TC>(*h, identity{}));
    auto M = detail::host::make_mask(mask, C.nrows(), C.ncols());
    detail::oriented<TA> a(A, tr);
    auto T = detail::host::apply<TC>(*a, identity{});
    detail::host::writeback(C, M, accum, desc.replace, std::move(T), false);
  });
}

// ------------------------------------------------------------- reductions
namespace detail {
// The fold of A's values as stored (tiles, rows or hypersparse rows: no copy).
template <class S, class Monoid, class T>
S reduce_all_host(const Monoid& monoid, const Matrix<T>& A) {
  bool has = false;
  if (const auto* r = A.row_form()) return host::reduce_values<S>(r->values.data(), r->values.size(), monoid, has);
  if (const auto* h = A.hyper_form()) return host::reduce_values<S>(h->values.data(), h->values.size(), monoid, has);
  return host::reduce_all<S>(A.tiles(), monoid, has);
}
}  // namespace detail

// The fold of every entry of A under the monoid; its identity if A is empty.
template <class T, class Monoid>
T reduce(const Monoid& monoid, const Matrix<T>& A) {
  if (A.location() == backend::cuda) return detail::reduce_cuda<T>(monoid, A);
  return detail::guard_alloc([&] { return detail::reduce_all_host<T>(monoid, A); });
}

// s = accum(s, fold of A) (GrB_Matrix_reduce to a scalar with accumulator).
template <class S, class Accum, class Monoid, class T>
void reduce(S& s, const Accum& accum, const Monoid& monoid, const Matrix<T>& A) {
  const S t = A.location() == backend::cuda ? detail::reduce_cuda<S>(monoid, A)
                                             : detail::guard_alloc([&] { return detail::reduce_all_host<S>(monoid, A); });
  if constexpr (std::is_same_v<Accum, no_accum_t>) s = t;
  else s = tgb::detail::accumulate<S>(accum, s, t);
}

// w<m> = accum(w, fold of each row of A) (of each column with transpose_a).
// Rows with no entries give no entry. `fold` is a monoid, or a binary
// operator that is a predefined monoid's (GrB_Matrix_reduce_BinaryOp; see
// as_monoid).
template <class TW, class Mask, class Accum, class Fold, class TA>
void reduce(Vector<TW>& w, const Mask& mask, const Accum& accum, const Fold& fold, const Matrix<TA>& A,
            const descriptor& desc = {}) {
  const auto monoid = as_monoid(fold);
  using Monoid = std::decay_t<decltype(monoid)>;
  const index_t n = detail::rows_of(A, desc.transpose_a);
  if (n != w.size())
    throw dimension_mismatch("tgb::reduce: w has size " + std::to_string(w.size()) + " but the reduced matrix has " +
                             std::to_string(n) + " rows");
  const auto M = detail::host::make_vector_mask(mask, w.size(), "reduce");
  detail::guard_alloc([&] {
    detail::vector_bitmap<TW> t(n);
    if (A.location() == backend::cuda) {
      if constexpr (!detail::cuda::device_types<TW, TA>) {
        throw detail::device_unsupported("reduce", "the value types must be bool, int32, int64, float or double");
      } else if constexpr (detail::monoid_code<Monoid>::value < 0) {
        throw detail::device_unsupported("reduce", "the monoid must be a predefined one");
      } else {
        const stream_t s = current_stream();
        detail::device_oriented<TW, TA> a(A, desc.transpose_a, s);
        detail::cuda::reduce_rows<TW>(*a, detail::coded_monoid{detail::monoid_code<Monoid>::value}, t.values.data(),
                                      t.present.data(), s);
      }
    } else {
      // Rows (or hypersparse rows) read in place, a column fold needing no
      // transpose; tiles through their (transposed) tile form.
      detail::host::read_rows_or_tiles(A, [&](const auto& a) {
        if constexpr (detail::host::is_row_list<std::decay_t<decltype(a)>>) {
          if (desc.transpose_a) detail::host::reduce_cols(a, monoid, t.values.data(), t.present.data());
          else detail::host::reduce_rows(a, monoid, t.values.data(), t.present.data());
        } else {
          detail::oriented<TA> o(A, desc.transpose_a);
          detail::host::reduce_rows(*o, monoid, t.values.data(), t.present.data());
        }
      });
    }
    t.recount();
    detail::host::write_vector(w, M, accum, desc.replace, std::move(t));
  });
}

namespace detail {
// w(i) = the number of entries stored in row i of A (absent for empty rows),
// counted in TW where A lives: the degrees the graph algorithms need.
template <class TW, class T>
Vector<TW> row_counts(const Matrix<T>& A) {
  Vector<TW> w(A.nrows());
  if (A.location() == backend::cuda) {
    Matrix<TW> ones(A.nrows(), A.ncols());
    ones.to(A.location());
    apply(ones, no_mask, no_accum, one{}, A);
    reduce(w, no_mask, no_accum, plus_monoid{}, ones);
    return w;
  }
  // On the host from the pattern as it is stored: no matrix of ones.
  guard_alloc([&] {
    vector_bitmap<TW> t(A.nrows());
    host::read_rows_or_tiles(A, [&](const auto& a) { host::count_rows(a, t.values.data(), t.present.data()); });
    t.recount();
    host::write_vector(w, host::make_vector_mask(no_mask, w.size(), "row_counts"), no_accum, false, std::move(t));
  });
  return w;
}
}  // namespace detail

}  // namespace tgb
