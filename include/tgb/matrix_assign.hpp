// tgb: extract and assign on matrices (GrB_Matrix_extract, GrB_Col_extract,
// GrB_Matrix_assign and its scalar form, GrB_Row_assign, GrB_Col_assign, and
// SuiteSparse's GxB_Matrix_subassign). Index sets are tgb::index_list (all,
// a list, a range with a stride), as for vectors (vector_operations.hpp).
//   extract(C, mask, accum, A, I, J, desc)     C<M> = accum(C, A(I,J))
//   extract(w, mask, accum, A, I, j, desc)     w<m> = accum(w, A(I,j))
//   assign(C, mask, accum, A, I, J, desc)      C<M>(I,J) = accum(C(I,J), A)
//   assign(C, mask, accum, x, I, J, desc)      C<M>(I,J) = accum(C(I,J), x)
//   assign_row(C, mask, accum, u, i, J, desc)  C<m'>(i,J) = accum(C(i,J), u')
//   assign_col(C, mask, accum, u, I, j, desc)  C<m>(I,j) = accum(C(I,j), u)
//   subassign(C, mask, accum, A or x, I, J, desc)  C(I,J)<M> = accum(C(I,J), A)
//   subassign_row(C, mask, accum, u, i, J, desc)  C(i,J)<m'> = accum(C(i,J), u')
//   subassign_col(C, mask, accum, u, I, j, desc)  C(I,j)<m> = accum(C(I,j), u)
// (x a value here; a tgb::Scalar, which may be empty, in scalar.hpp, through
// the same assign_scalar.)
// desc.transpose_a reads A' (extract and assign from a matrix; for the
// column extract, w = A'(I,j), row j of A restricted to I). The masks:
// assign's is over all of C, and replace clears C outside it; subassign's is
// |I| x |J|, over C(I,J) alone, and replace clears only there; assign_row's
// is a Vector over row i (assign_col's over column j), the other rows
// (columns) untouched; subassign_row's is a Vector over J alone (|J| long),
// subassign_col's over I, and replace clears only C(i,J) (C(I,j)). Where A
// (u) has no entry, C(I,J)'s entry is deleted without an accumulator and
// kept with one.
//
// Where they run: extract (of a matrix), assign and subassign (of a matrix or
// a scalar) run where C, A and the mask live, on the host or the GPU (mixed
// residence throws invalid_value, as every operation); on the GPU for the
// value types bool, int32, int64, float and double and a predefined
// accumulator (else not_implemented). The line forms (the column extract,
// assign_row and assign_col, subassign_row and subassign_col) run where their
// operands live too; on the GPU they are made of the operations above and the
// vector ones (see "The line forms on the GPU" below). On the host the output
// goes through the host write-back, so the storage rule applies.
//
// Errors, checked in this order before anything changes (on any error the
// output is unchanged): residence as above; then shapes that do not
// conform, the mask's included, throw dimension_mismatch naming them; a
// single row or column index outside C (A) throws invalid_index
// (GrB_INVALID_INDEX); an index-list entry outside it throws
// index_out_of_bounds; a repeated index throws invalid_value in the
// assignments of a matrix or vector (which value lands is undefined) and in
// a masked subassign of a scalar; it is harmless in assign of a scalar and
// in extract.
//
// Costs on the GPU: extract walks A's CSR view (made per call) over the rows
// I picks, finds each entry's columns in J by arithmetic (all, ranges) or a
// binary search in a sorted copy of the list, and sorts the entries it keeps
// by position; assign relabels A's entries into C's positions (a sort), then
// merges them with C's entries outside the region (or with all of C, through
// the accumulator) by the element-wise union, and writes C back through the
// mask: O(nnz(C) + nnz(A)) work and memory, plus C's dimensions in bytes
// (the region's rows and columns as flags) where C's entries are split at
// the region (assign without an accumulator, every subassign). subassign
// relabels its mask's admitted entries the same way and writes C's entries
// inside the region back through it, then puts back those outside.
// Costs on the host: every call works on rows (CSR). extract reads A as
// rows, making them per call where A is stored as tiles (and transposing A
// per call with transpose_a); assign and subassign rebuild C, in
// O(nnz(C) + nnz(A) + nrows(C) log|I| + |I| + |J|) (the log only for a list
// that is not a progression), the same for assign_row, with I = {i}: no work
// in proportion to C's width. assign_col reads and writes column j as a
// vector of C's rows. subassign_row and subassign_col are subassign's, with
// I = {i} (J = {j}): subassign_col rebuilds C, unlike assign_col.
// The line forms on the GPU: the column extract is the vector extract of
// column j of A (A e_j over any_first, e_j the unit vector; row j, e_j' A
// over any_second, with transpose_a). subassign_row (subassign_col) is the
// subassign of u as a 1 x |J| (|I| x 1) matrix, the mask likewise. assign_row
// (assign_col) without a mask is that subassign; with one it is the subassign
// of C's whole row i (column j) under the mask, of the line r that an
// unmasked assign would leave: u's entries at J over C's row (over nothing
// with an accumulator, which keeps C where r has no entry). Each costs a
// vector product and the subassign's rebuild of C: O(nnz(C)) plus C's width.
#pragma once

#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "tgb/detail/host/matrix_assign.hpp"
#include "tgb/index_list.hpp"
#include "tgb/operations.hpp"
#include "tgb/vector_operations.hpp"

namespace tgb {

namespace detail {
// A matrix mask must be nrows x ncols (`what` names what it covers).
inline void check_matrix_mask(no_mask_t, index_t, index_t, const char*, const char*) {}
template <class Mask>
void check_matrix_mask(const Mask& mask, index_t nrows, index_t ncols, const char* op, const char* what) {
  const auto& m = *as_mask_view(mask).object;
  static_assert(std::is_same_v<std::decay_t<decltype(m)>, Matrix<typename std::decay_t<decltype(m)>::value_type>>,
                "this operation takes a Matrix mask");
  if (m.nrows() != nrows || m.ncols() != ncols)
    throw dimension_mismatch(std::string("tgb::") + op + ": the mask is " + shape(m.nrows(), m.ncols()) + " but " +
                             what + " is " + shape(nrows, ncols));
}
inline void check_vector_mask(no_mask_t, index_t, const char*, const std::string&) {}
template <class Mask>
void check_vector_mask(const Mask& mask, index_t n, const char* op, const std::string& what) {
  const auto& m = *as_mask_view(mask).object;
  static_assert(std::is_same_v<std::decay_t<decltype(m)>, Vector<typename std::decay_t<decltype(m)>::value_type>>,
                "this operation takes a Vector mask");
  if (m.size() != n)
    throw dimension_mismatch(std::string("tgb::") + op + ": the mask has size " + size_text(m.size()) + " but " +
                             what);
}
template <class Mask>
backend where_matrix_mask(const Mask& mask) {
  return where_mask(mask, backend::host);
}

// A single row or column index (GrB_INVALID_INDEX outside the shape).
inline void check_line(const char* op, const char* what, index_t x, index_t n) {
  if (x < 0 || x >= n)
    throw invalid_index(std::string("tgb::") + op + ": " + what + " index " + std::to_string(x) + " is outside [0, " +
                        std::to_string(n) + ")");
}

inline void check_repeats(const char* op, const char* which, const host::index_map& L) {
  if (L.repeats())
    throw invalid_value(std::string("tgb::") + op + ": the " + which +
                        " index list repeats an index; which value lands there is undefined");
}

// assign (sub: subassign) on the GPU, once the checks have passed: Z = C
// with C(I,J) written from op(A) (or from x: a value, or none for an empty
// Scalar; A null), then C<M, replace> = Z for assign; subassign's mask and
// replace act inside the region (cuda::subassign_region). I and J hold no
// repeats (a scalar's are removed first).
template <class TC, class Mask, class Accum, class TA>
void assign_cuda(const char* op, bool sub, Matrix<TC>& C, const Mask& mask, const Accum& accum, const Matrix<TA>* A,
                 const TC* x, const index_list& I, const index_list& J, const descriptor& desc) {
  if constexpr (!cuda::device_types<TC, TA>) {
    throw device_unsupported(op, "the value types must be bool, int32, int64, float or double");
  } else {
    check_device_accum(op, accum_code(accum));
    const stream_t s = current_stream();
    device_buffer<index_t> ki, kj;
    const cuda::index_source is = device_indices(I, ki, s), js = device_indices(J, kj, s);
    const index_t ni = I.count(C.nrows()), nj = J.count(C.ncols());
    std::shared_ptr<void> keep;
    const cuda::mask_arg m = sub ? device_mask(mask, keep, ni, nj) : cuda::mask_arg{};
    device_tile_matrix<TC> Z;
    {
      const device_tile_view<TC> c(C);
      std::optional<device_oriented<TC, TA>> a;
      if (A) a.emplace(*A, desc.transpose_a, s);
      const device_tile_matrix<TC>* src = A ? &**a : nullptr;
      Z = sub ? cuda::subassign_region<TC>(*c, src, x, is, ni, js, nj, m, accum_code(accum), desc.replace, s)
              : cuda::assign_region<TC>(*c, src, x, is, ni, js, nj, accum_code(accum), s);
    }
    if (sub) device_finish(C, no_mask, no_accum, false, std::move(Z), s);
    else device_finish(C, mask, no_accum, desc.replace, std::move(Z), s);
  }
}

// C<M> = accum(C, op(A)(I,J)) on the GPU, once the checks have passed; T is
// made in A's type and cast to C's.
template <class TC, class Mask, class Accum, class TA>
void extract_cuda(Matrix<TC>& C, const Mask& mask, const Accum& accum, const Matrix<TA>& A, const index_list& I,
                  const index_list& J, const descriptor& desc) {
  if constexpr (!cuda::device_types<TC, TA>) {
    throw device_unsupported("extract", "the value types must be bool, int32, int64, float or double");
  } else {
    check_device_accum("extract", accum_code(accum));
    const stream_t s = current_stream();
    device_buffer<index_t> ki, kj;
    const cuda::index_source is = device_indices(I, ki, s), js = device_indices(J, kj, s);
    device_tile_matrix<TA> t;
    {
      const device_oriented<TA, TA> a(A, desc.transpose_a, s);
      t = cuda::extract<TA>(*a, is, C.nrows(), js, C.ncols(), s);
    }
    if constexpr (std::is_same_v<TC, TA>) device_finish(C, mask, accum, desc.replace, std::move(t), s);
    else device_finish(C, mask, accum, desc.replace, cuda::apply<TC, TA>(t, coded_unary{}, s), s);
  }
}

// Checks shared by assign and subassign: the mask against what it covers (C,
// or C(I,J) for subassign), then the index lists against C.
template <class TC, class Mask>
void check_assign(const char* op, bool sub, const Matrix<TC>& C, const Mask& mask, const index_list& I,
                  const index_list& J) {
  if (sub) check_matrix_mask(mask, I.count(C.nrows()), J.count(C.ncols()), op, "C(I,J)");
  else check_matrix_mask(mask, C.nrows(), C.ncols(), op, "C");
  I.check(C.nrows(), op);
  J.check(C.ncols(), op);
}

// assign / subassign, once the checks have passed: Z is C with C(I,J)
// rewritten from the source make_src() makes (in C's columns). For assign,
// Z is written back through the mask over all of C; for subassign the mask
// (relabeled into C's columns) acts inside the region.
template <class TC, class Mask, class Accum, class MakeSource>
void assign_matrix_host(bool sub, Matrix<TC>& C, const Mask& mask, const Accum& accum, const host::index_map& im,
                        const host::index_map& jm, const MakeSource& make_src, const descriptor& desc) {
  guard_alloc([&] {
    const host::rows_view<TC> c(C, false);
    auto src = make_src();
    if (!sub) {
      auto M = host::make_mask(mask, C.nrows(), C.ncols());
      csr_matrix<TC> Z = host::assign_region(*c, im, jm, src.get(), accum, host::region_mask{}, false);
      host::writeback(C, M, no_accum, desc.replace, std::move(Z), false);
      return;
    }
    host::region_mask rm;
    csr_matrix<bool> mrows;
    if constexpr (!std::is_same_v<Mask, no_mask_t>) {
      const auto view = as_mask_view(mask);
      using U = typename std::decay_t<decltype(*view.object)>::value_type;
      const host::rows_view<U> m(*view.object, false);
      const U* mv = m->values.data();
      mrows = host::relabel_columns<bool>(*m, jm, C.ncols(), false,
                                          [&](offset_t q) { return view.structural || mv[q] != U(0); });
      rm.rows = &mrows.p;
      rm.complement = view.complemented;
    }
    csr_matrix<TC> R = host::assign_region(*c, im, jm, src.get(), accum, rm, desc.replace);
    host::writeback(C, host::host_mask{}, no_accum, false, std::move(R), false);
  });
}

// The source of an assignment from a matrix: A (A') relabeled into C's columns.
template <class TC>
struct matrix_source {
  csr_matrix<TC> rows;
  host::assign_source<TC> get() const { return host::assign_source<TC>{&rows, nullptr, TC{}}; }
};
template <class TC>
struct scalar_source {
  std::vector<index_t> cols;
  TC x;
  host::assign_source<TC> get() const { return host::assign_source<TC>{nullptr, &cols, x}; }
};

template <class TC, class Mask, class Accum, class TA>
void assign_matrix(const char* op, bool sub, Matrix<TC>& C, const Mask& mask, const Accum& accum,
                   const Matrix<TA>& A, const index_list& I, const index_list& J, const descriptor& desc) {
  const backend where =
      residence(op, {{"C", C.location()}, {"A", A.location()}, {"the mask", where_mask(mask, C.location())}});
  const bool tr = desc.transpose_a;
  const index_t m = I.count(C.nrows()), n = J.count(C.ncols());
  const index_t ar = rows_of(A, tr), ac = cols_of(A, tr);
  if (ar != m || ac != n)
    throw dimension_mismatch(std::string("tgb::") + op + ": the index lists select " + shape(m, n) + " of C (" +
                             shape(C.nrows(), C.ncols()) + ") but A" + (tr ? "'" : "") + " is " + shape(ar, ac));
  check_assign(op, sub, C, mask, I, J);
  const host::index_map im = guard_alloc([&] { return host::index_map(I, C.nrows()); });
  const host::index_map jm = guard_alloc([&] { return host::index_map(J, C.ncols()); });
  check_repeats(op, "row", im);
  check_repeats(op, "column", jm);
  if (where == backend::cuda) return assign_cuda<TC>(op, sub, C, mask, accum, &A, nullptr, I, J, desc);
  assign_matrix_host(sub, C, mask, accum, im, jm, [&] {
    const host::rows_view<TA> a(A, tr);
    return matrix_source<TC>{host::relabel_columns<TC>(*a, jm, C.ncols(), true, [](offset_t) { return true; })};
  }, desc);
}

// x, already cast to C's type, at every position of I x J; no x (an empty
// Scalar, tgb/scalar.hpp) assigns as an empty |I| x |J| matrix would: the
// region's entries are deleted without an accumulator and kept with one.
template <class TC, class Mask, class Accum>
void assign_scalar(const char* op, bool sub, Matrix<TC>& C, const Mask& mask, const Accum& accum,
                   const std::optional<TC>& x, const index_list& I, const index_list& J, const descriptor& desc) {
  const backend where = residence(op, {{"C", C.location()}, {"the mask", where_mask(mask, C.location())}});
  check_assign(op, sub, C, mask, I, J);
  const host::index_map im = guard_alloc([&] { return host::index_map(I, C.nrows()); });
  const host::index_map jm = guard_alloc([&] { return host::index_map(J, C.ncols()); });
  // A repeat writes the same value again, unless a subassign mask could
  // admit one copy of a position and not the other.
  if (sub && !std::is_same_v<Mask, no_mask_t>) {
    check_repeats(op, "row", im);
    check_repeats(op, "column", jm);
  }
  if (where == backend::cuda) {
    // The device's region has no repeats: a repeated index only writes x again.
    const index_list Iu = im.repeats() ? index_list(im.distinct()) : I;
    const index_list Ju = jm.repeats() ? index_list(jm.distinct()) : J;
    return assign_cuda<TC, Mask, Accum, TC>(op, sub, C, mask, accum, nullptr, x ? &*x : nullptr, Iu, Ju, desc);
  }
  assign_matrix_host(sub, C, mask, accum, im, jm, [&] {
    return x ? scalar_source<TC>{jm.distinct(), *x} : scalar_source<TC>{{}, TC{}};
  }, desc);
}

template <class S>
using if_scalar = std::enable_if_t<!is_maskable<S>::value && !std::is_same_v<S, index_list>>;
}  // namespace detail

namespace detail {
// u as a 1 x n matrix (row) or an n x 1 one, its values as they are, where
// u lives.
template <class T>
Matrix<T> line_matrix(const Vector<T>& u, bool row) {
  if (u.location() == backend::cuda) return line_matrix_cuda(u, row);
  auto [idx, vals] = u.extract_tuples();
  const std::vector<index_t> zero(idx.size(), 0);
  return row ? Matrix<T>::from_coo(1, u.size(), zero, idx, vals, first{})
             : Matrix<T>::from_coo(u.size(), 1, idx, zero, vals, first{});
}

// C(i,J)<m'> = accum(C(i,J), u') (row) or C(I,j)<m> = accum(C(I,j), u)
// (column): the subassign of u as a 1 x |J| (|I| x 1) matrix, the mask the
// same line as a matrix, read the same way (values, structure, complement).
template <class TC, class Mask, class Accum, class TU>
void subassign_line(const char* op, bool row, Matrix<TC>& C, const Mask& mask, const Accum& accum,
                    const Vector<TU>& u, index_t at, const index_list& L, const descriptor& desc) {
  residence(op, {{"C", C.location()}, {"u", u.location()}, {"the mask", where_mask(mask, C.location())}});
  const index_t width = row ? C.ncols() : C.nrows();
  const index_t len = L.count(width);
  if (len != u.size())
    throw dimension_mismatch(std::string("tgb::") + op + ": the index list has " + size_text(len) +
                             " indices but u has size " + size_text(u.size()));
  check_vector_mask(mask, len, op, "the index list has " + size_text(len) + " indices");
  check_line(op, row ? "row" : "column", at, row ? C.nrows() : C.ncols());
  // The list's bounds and repeats: assign_matrix checks them, under op's name.
  const Matrix<TU> U = guard_alloc([&] { return line_matrix(u, row); });
  const index_list one = index_list::range(at, at + 1);
  const index_list& I = row ? one : L;
  const index_list& J = row ? L : one;
  const descriptor d = desc.with_transpose_a(false);  // u is a line: nothing to transpose
  if constexpr (std::is_same_v<Mask, no_mask_t>) {
    assign_matrix(op, true, C, no_mask, accum, U, I, J, d);
  } else {
    const auto v = as_mask_view(mask);
    const auto M = guard_alloc([&] { return line_matrix(*v.object, row); });
    assign_matrix(op, true, C, mask_view<std::decay_t<decltype(M)>>{&M, v.structural, v.complemented}, accum, U, I,
                  J, d);
  }
}

// Row at of A (row) or column at as a device vector of A's type: e' A over
// any_second (e the unit vector at `at`) or A e over any_first.
template <class T>
Vector<T> line_of_cuda(const Matrix<T>& A, bool row, index_t at) {
  Vector<T> e(row ? A.nrows() : A.ncols(), backend::cuda);
  tgb::assign(e, no_mask, no_accum, T(1), index_list::range(at, at + 1));
  Vector<T> t(row ? A.ncols() : A.nrows(), backend::cuda);
  if (row) tgb::vxm(t, no_mask, no_accum, any_second, e, A);
  else tgb::mxv(t, no_mask, no_accum, any_first, A, e);
  return t;
}

// GrB_Row_assign (row) or GrB_Col_assign on the device, as the header says:
// unmasked, the subassign of u; masked, the subassign of C's whole line of
// r under the mask.
template <class TC, class Mask, class Accum, class TU>
void assign_line_cuda(const char* op, bool row, Matrix<TC>& C, const Mask& mask, const Accum& accum,
                      const Vector<TU>& u, index_t at, const index_list& L, const descriptor& desc) {
  const descriptor d = desc.with_transpose_a(false);
  if constexpr (std::is_same_v<Mask, no_mask_t>) {
    subassign_line(op, row, C, no_mask, accum, u, at, L, d);
  } else {
    if constexpr (std::is_same_v<Accum, no_accum_t>) {
      Vector<TC> r = line_of_cuda(C, row, at);  // u cast to C's type, as the host writes it
      tgb::assign(r, no_mask, no_accum, u, L);
      subassign_line(op, row, C, mask, no_accum, r, at, index_list(all), d);
    } else {
      Vector<TU> r(row ? C.ncols() : C.nrows(), backend::cuda);  // u as it is: the accumulator casts
      tgb::assign(r, no_mask, no_accum, u, L);
      subassign_line(op, row, C, mask, accum, r, at, index_list(all), d);
    }
  }
}
}  // namespace detail

// ------------------------------------------------------------------ extract
// C<M> = accum(C, A(I,J)) (GrB_Matrix_extract): T(k,l) = A(I[k], J[l]), of
// A' with desc.transpose_a. C must be |I| x |J|; repeats are allowed.
template <class TC, class Mask, class Accum, class TA>
void extract(Matrix<TC>& C, const Mask& mask, const Accum& accum, const Matrix<TA>& A, const index_list& I,
             const index_list& J, const descriptor& desc = {}) {
  const backend where = detail::residence(
      "extract", {{"C", C.location()}, {"A", A.location()}, {"the mask", detail::where_mask(mask, C.location())}});
  const bool tr = desc.transpose_a;
  const index_t ar = detail::rows_of(A, tr), ac = detail::cols_of(A, tr);
  const index_t m = I.count(ar), n = J.count(ac);
  if (m != C.nrows() || n != C.ncols())
    throw dimension_mismatch("tgb::extract: C is " + detail::shape(C.nrows(), C.ncols()) + " but the index lists select " +
                             detail::shape(m, n) + " of A" + (tr ? "'" : "") + " (" + detail::shape(ar, ac) + ")");
  detail::check_matrix_mask(mask, C.nrows(), C.ncols(), "extract", "C");
  I.check(ar, "extract");
  J.check(ac, "extract");
  if (where == backend::cuda) return detail::extract_cuda(C, mask, accum, A, I, J, desc);
  detail::guard_alloc([&] {
    auto M = detail::host::make_mask(mask, C.nrows(), C.ncols());
    const detail::host::rows_view<TA> a(A, tr);
    const detail::host::index_map im(I, ar), jm(J, ac);
    auto T = detail::host::extract_rows<TC>(*a, im, jm);
    detail::host::writeback(C, M, accum, desc.replace, std::move(T), false);
  });
}

// w<m> = accum(w, A(I,j)) (GrB_Col_extract): t(k) = A(I[k], j); with
// desc.transpose_a, A'(I[k], j) = A(j, I[k]), a row of A. |I| must equal w's
// size; j outside A throws invalid_index.
template <class TW, class Mask, class Accum, class TA>
void extract(Vector<TW>& w, const Mask& mask, const Accum& accum, const Matrix<TA>& A, const index_list& I, index_t j,
             const descriptor& desc = {}) {
  const backend where = detail::residence(
      "extract", {{"w", w.location()}, {"A", A.location()}, {"the mask", detail::where_mask(mask, w.location())}});
  const bool tr = desc.transpose_a;
  const index_t ar = detail::rows_of(A, tr), ac = detail::cols_of(A, tr);
  const index_t len = I.count(ar);
  if (len != w.size())
    throw dimension_mismatch("tgb::extract: w has size " + detail::size_text(w.size()) + " but the index list has " +
                             detail::size_text(len) + " indices (A" + (tr ? "'" : "") + " is " +
                             detail::shape(ar, ac) + ")");
  detail::check_vector_mask(mask, w.size(), "extract", "w has size " + detail::size_text(w.size()));
  // Under transpose_a, j picks a row of A (a column of A').
  detail::check_line("extract", tr ? "row" : "column", j, ac);
  I.check(ar, "extract");
  if (where == backend::cuda) {
    const Vector<TA> line = detail::line_of_cuda(A, tr, j);
    return extract(w, mask, accum, line, I, desc.with_transpose_a(false));
  }
  detail::guard_alloc([&] {
    const auto M = detail::host::make_vector_mask(mask, w.size(), "extract");
    detail::vector_bitmap<TW> t(len);
    t.nvals = detail::host::fill_count(len, [&](index_t k) {
      const std::optional<TA> x = tr ? A.get(j, I[k]) : A.get(I[k], j);
      if (!x) return false;
      t.values[k] = detail::cast<TW>(*x);
      t.present[k] = 1;
      return true;
    });
    detail::host::write_vector(w, M, accum, desc.replace, std::move(t));
  });
}

// ------------------------------------------------------------------- assign
// C<M>(I,J) = accum(C(I,J), A) (GrB_Matrix_assign): A (A' with
// desc.transpose_a) is |I| x |J|, A(k,l) goes to C(I[k], J[l]); the mask is
// over all of C.
template <class TC, class Mask, class Accum, class TA>
void assign(Matrix<TC>& C, const Mask& mask, const Accum& accum, const Matrix<TA>& A, const index_list& I,
            const index_list& J, const descriptor& desc = {}) {
  detail::assign_matrix("assign", false, C, mask, accum, A, I, J, desc);
}

// C<M>(I,J) = accum(C(I,J), x) (GrB_Matrix_assign_<type>): x, cast to C's
// type, at every position of I x J.
template <class TC, class Mask, class Accum, class S, class = detail::if_scalar<S>>
void assign(Matrix<TC>& C, const Mask& mask, const Accum& accum, const S& scalar, const index_list& I,
            const index_list& J, const descriptor& desc = {}) {
  detail::assign_scalar("assign", false, C, mask, accum, std::optional<TC>(detail::cast<TC>(scalar)), I, J, desc);
}

// C(I,J)<M> = accum(C(I,J), A) (GxB_Matrix_subassign): M is |I| x |J| and
// acts on C(I,J) alone; outside it C is untouched, replace included.
template <class TC, class Mask, class Accum, class TA>
void subassign(Matrix<TC>& C, const Mask& mask, const Accum& accum, const Matrix<TA>& A, const index_list& I,
               const index_list& J, const descriptor& desc = {}) {
  detail::assign_matrix("subassign", true, C, mask, accum, A, I, J, desc);
}

// C(I,J)<M> = accum(C(I,J), x) (GxB_Matrix_subassign_<type>).
template <class TC, class Mask, class Accum, class S, class = detail::if_scalar<S>>
void subassign(Matrix<TC>& C, const Mask& mask, const Accum& accum, const S& scalar, const index_list& I,
               const index_list& J, const descriptor& desc = {}) {
  detail::assign_scalar("subassign", true, C, mask, accum, std::optional<TC>(detail::cast<TC>(scalar)), I, J, desc);
}

// C<m'>(i,J) = accum(C(i,J), u') (GrB_Row_assign): u(k) goes to C(i, J[k]);
// the mask is a Vector over row i (C's columns); replace clears row i outside
// it; other rows are untouched.
template <class TC, class Mask, class Accum, class TU>
void assign_row(Matrix<TC>& C, const Mask& mask, const Accum& accum, const Vector<TU>& u, index_t i,
                const index_list& J, const descriptor& desc = {}) {
  const backend where = detail::residence(
      "assign_row", {{"C", C.location()}, {"u", u.location()}, {"the mask", detail::where_mask(mask, C.location())}});
  const index_t len = J.count(C.ncols());
  if (len != u.size())
    throw dimension_mismatch("tgb::assign_row: the index list has " + detail::size_text(len) +
                             " indices but u has size " + detail::size_text(u.size()));
  detail::check_vector_mask(mask, C.ncols(), "assign_row", "C has " + detail::size_text(C.ncols()) + " columns");
  detail::check_line("assign_row", "row", i, C.nrows());
  J.check(C.ncols(), "assign_row");
  const detail::host::index_map jm = detail::guard_alloc([&] { return detail::host::index_map(J, C.ncols()); });
  detail::check_repeats("assign_row", "column", jm);
  if (where == backend::cuda) return detail::assign_line_cuda("assign_row", true, C, mask, accum, u, i, J, desc);
  // The region assign with I = {i} and u as its one source row; the mask,
  // over row i, is read only at row i's and J's columns, and replace clears
  // row i (all of it) outside the mask; other rows are copied through.
  detail::guard_alloc([&] {
    const index_list rows = index_list::range(i, i + 1);
    const detail::host::index_map im(rows, C.nrows());
    const detail::host::rows_view<TC> c(C, false);
    const detail::matrix_source<TC> src{detail::host::row_source<TC>(u.bitmap(), jm, C.ncols())};
    detail::host::region_mask rm;
    rm.whole_rows = true;
    detail::csr_matrix<bool> mrow;
    if constexpr (!std::is_same_v<Mask, no_mask_t>) {
      const auto M = detail::host::make_vector_mask(mask, C.ncols(), "assign_row");
      mrow = detail::host::row_mask(*c, i, jm, M);
      rm.rows = &mrow.p;
    }
    detail::csr_matrix<TC> R = detail::host::assign_region(*c, im, jm, src.get(), accum, rm, desc.replace);
    detail::host::writeback(C, detail::host::host_mask{}, no_accum, false, std::move(R), false);
  });
}

// C<m>(I,j) = accum(C(I,j), u) (GrB_Col_assign): u(k) goes to C(I[k], j);
// the mask is a Vector over column j (C's rows).
template <class TC, class Mask, class Accum, class TU>
void assign_col(Matrix<TC>& C, const Mask& mask, const Accum& accum, const Vector<TU>& u, const index_list& I,
                index_t j, const descriptor& desc = {}) {
  const backend where = detail::residence(
      "assign_col", {{"C", C.location()}, {"u", u.location()}, {"the mask", detail::where_mask(mask, C.location())}});
  const index_t len = I.count(C.nrows());
  if (len != u.size())
    throw dimension_mismatch("tgb::assign_col: the index list has " + detail::size_text(len) +
                             " indices but u has size " + detail::size_text(u.size()));
  detail::check_vector_mask(mask, C.nrows(), "assign_col", "C has " + detail::size_text(C.nrows()) + " rows");
  detail::check_line("assign_col", "column", j, C.ncols());
  I.check(C.nrows(), "assign_col");
  const detail::host::index_map im = detail::guard_alloc([&] { return detail::host::index_map(I, C.nrows()); });
  detail::check_repeats("assign_col", "row", im);
  if (where == backend::cuda) return detail::assign_line_cuda("assign_col", false, C, mask, accum, u, j, I, desc);
  detail::guard_alloc([&] {
    const auto M = detail::host::make_vector_mask(mask, C.nrows(), "assign_col");
    const detail::host::rows_view<TC> c(C, false);
    const detail::vector_bitmap<TU>& ub = u.bitmap();
    auto line = detail::host::vector_assign(detail::host::col_vector(*c, j), M, accum, desc.replace, I,
                                            [&](index_t k, TC& x) {
                                              if (!ub.present[k]) return false;
                                              x = detail::cast<TC>(ub.values[k]);
                                              return true;
                                            });
    detail::host::writeback(C, detail::host::host_mask{}, no_accum, false, detail::host::with_col(*c, j, line), false);
  });
}


// C(i,J)<m'> = accum(C(i,J), u') (GxB_Row_subassign): u(k) goes to C(i,
// J[k]); the mask is a Vector of |J| entries over C(i,J) alone; replace
// clears only there; the rest of C is untouched.
template <class TC, class Mask, class Accum, class TU>
void subassign_row(Matrix<TC>& C, const Mask& mask, const Accum& accum, const Vector<TU>& u, index_t i,
                   const index_list& J, const descriptor& desc = {}) {
  detail::subassign_line("subassign_row", true, C, mask, accum, u, i, J, desc);
}

// C(I,j)<m> = accum(C(I,j), u) (GxB_Col_subassign): the mask is a Vector of
// |I| entries over C(I,j) alone.
template <class TC, class Mask, class Accum, class TU>
void subassign_col(Matrix<TC>& C, const Mask& mask, const Accum& accum, const Vector<TU>& u, const index_list& I,
                   index_t j, const descriptor& desc = {}) {
  detail::subassign_line("subassign_col", false, C, mask, accum, u, j, I, desc);
}

}  // namespace tgb
