// tgb: operations that build a matrix out of others' structure: the
// Kronecker product and diagonal matrices (GrB_kronecker, GrB_Matrix_diag
// as diag_matrix, GxB_Vector_diag as diag_vector; plain `diag` is the
// selector of select()). Host backend: a device operand throws not_implemented
// (nothing is copied behind the caller). The Kronecker product is formed as
// a matrix T and written into C by apply(identity), so masks, accumulators
// and replace behave as in every other operation.
#pragma once

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "tgb/operations.hpp"
#include "tgb/vector.hpp"

namespace tgb {

namespace detail {
// Whether x * y == want, without overflow.
inline bool product_is(index_t x, index_t y, index_t want) {
  if (x == 0 || y == 0) return want == 0;
  return want % x == 0 && want / x == y;
}
}  // namespace detail

// C<M> = accum(C, kron(op(A), op(B))): with A m x n and B p x q (after the
// descriptor's transposes), C is (m p) x (n q) and
//   T(i p + k, j q + l) = op(A(i, j), B(k, l))
// for every stored A(i, j) and B(k, l), cast to C's type.
template <class TC, class Mask, class Accum, class Op, class TA, class TB>
void kronecker(Matrix<TC>& C, const Mask& mask, const Accum& accum, const Op& op, const Matrix<TA>& A,
               const Matrix<TB>& B, const descriptor& desc = {}) {
  const index_t am = detail::rows_of(A, desc.transpose_a), an = detail::cols_of(A, desc.transpose_a);
  const index_t bm = detail::rows_of(B, desc.transpose_b), bn = detail::cols_of(B, desc.transpose_b);
  if (!detail::product_is(am, bm, C.nrows()) || !detail::product_is(an, bn, C.ncols()))
    throw dimension_mismatch("tgb::kronecker: C is " + detail::shape(C.nrows(), C.ncols()) + ", A" +
                             (desc.transpose_a ? "'" : "") + " is " + detail::shape(am, an) + " and B" +
                             (desc.transpose_b ? "'" : "") + " is " + detail::shape(bm, bn) +
                             ": C must be (rows of A * rows of B) x (columns of A * columns of B)");
  const backend where = detail::residence("kronecker", {{"C", C.location()}, {"A", A.location()}, {"B", B.location()},
                                                        {"the mask", detail::where_mask(mask, C.location())}});
  if (where == backend::cuda) throw detail::device_unsupported("kronecker", "it runs on the host only");
  Matrix<TC> T = detail::guard_alloc([&] {
    coo<TA> a = A.to_coo();
    coo<TB> b = B.to_coo();
    if (desc.transpose_a) a.rows.swap(a.cols);
    if (desc.transpose_b) b.rows.swap(b.cols);
    const std::size_t na = a.values.size(), nb = b.values.size();
    if (na && nb > std::size_t(-1) / sizeof(index_t) / 3 / na)
      throw out_of_memory("tgb::kronecker: " + std::to_string(na) + " x " + std::to_string(nb) +
                          " entries do not fit in memory");
    std::vector<index_t> rows, cols;
    std::vector<TC> vals;
    rows.reserve(na * nb);
    cols.reserve(na * nb);
    vals.reserve(na * nb);
    for (std::size_t p = 0; p < na; ++p)
      for (std::size_t q = 0; q < nb; ++q) {
        rows.push_back(a.rows[p] * bm + b.rows[q]);
        cols.push_back(a.cols[p] * bn + b.cols[q]);
        vals.push_back(static_cast<TC>(op(a.values[p], b.values[q])));
      }
    return Matrix<TC>::from_coo(C.nrows(), C.ncols(), rows, cols, vals, no_duplicates);
  });
  apply(C, mask, accum, identity{}, T, desc.with_transpose_a(false).with_transpose_b(false));
}

// The n + |k| square matrix with v's entries on its k-th diagonal (k > 0
// above the main one, k < 0 below): D(i, i + k) = v(i) for k >= 0,
// D(i - k, i) = v(i) for k < 0 (GrB_Matrix_diag). On the host.
template <class T>
Matrix<T> diag_matrix(const Vector<T>& v, index_t k = 0) {
  const index_t n = v.size(), off = k < 0 ? -k : k;
  if (off > std::numeric_limits<index_t>::max() - n)
    throw invalid_value("tgb::diag_matrix: the diagonal offset " + std::to_string(k) + " is too large");
  const auto [idx, vals] = v.extract_tuples();
  std::vector<index_t> rows(idx.size()), cols(idx.size());
  for (std::size_t q = 0; q < idx.size(); ++q) {
    rows[q] = k >= 0 ? idx[q] : idx[q] + off;
    cols[q] = k >= 0 ? idx[q] + off : idx[q];
  }
  return Matrix<T>::from_coo(n + off, n + off, rows, cols, vals, no_duplicates);
}

// The k-th diagonal of A as a vector (GxB_Vector_diag): w(i) = A(i, i + k)
// for k >= 0, A(i - k, i) for k < 0; w's size is the diagonal's length (0
// where the diagonal lies outside A). A on the host.
template <class T>
Vector<T> diag_vector(const Matrix<T>& A, index_t k = 0) {
  if (A.location() == backend::cuda) throw detail::device_unsupported("diag_vector", "it runs on the host only");
  const index_t m = A.nrows(), n = A.ncols();
  index_t len = 0;
  if (k >= 0 && k < n) len = std::min(m, n - k);
  if (k < 0 && -k < m) len = std::min(m + k, n);
  Vector<T> w(len);
  const coo<T> c = A.to_coo();
  for (std::size_t q = 0; q < c.values.size(); ++q)
    if (c.cols[q] - c.rows[q] == k) w.set(k >= 0 ? c.rows[q] : c.cols[q], c.values[q]);
  return w;
}

}  // namespace tgb
