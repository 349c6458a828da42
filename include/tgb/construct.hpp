// tgb: operations that build a matrix out of others' structure: the
// Kronecker product and diagonal matrices (GrB_kronecker, GrB_Matrix_diag
// as diag_matrix, GxB_Vector_diag as diag_vector; plain `diag` is the
// selector of select()). Each runs where its operands live: on the host, or
// on the GPU for bool, int32, int64, float and double and (kronecker) a
// predefined operator and accumulator, else not_implemented (nothing is
// copied behind the caller). The Kronecker product is formed as a matrix T
// and written into C through the write-back, so masks, accumulators and
// replace behave as in every other operation; on the GPU its operands are
// cast to the operator's domain first, as the element-wise operations do.
#pragma once

#include <algorithm>
#include <limits>
#include <memory>
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

// The pairs of a Kronecker product, or out_of_memory where they cannot be
// counted in memory.
inline void check_kron_pairs(offset_t na, offset_t nb, std::size_t bytes_each) {
  if (na && std::size_t(nb) > std::size_t(-1) / bytes_each / std::size_t(na))
    throw out_of_memory("tgb::kronecker: " + std::to_string(na) + " x " + std::to_string(nb) +
                        " entries do not fit in memory");
}

template <class TC, class Mask, class Accum, class Op, class TA, class TB>
void kronecker_cuda(Matrix<TC>& C, const Mask& mask, const Accum& accum, const Op&, const Matrix<TA>& A,
                    const Matrix<TB>& B, const descriptor& desc) {
  using D = op_domain_t<Op, TA, TB>;  // operands are cast to it, the result from it to TC
  if constexpr (!cuda::device_types<TC, TA, TB> || !cuda::device_types<D>) {
    throw device_unsupported("kronecker", "the value types must be bool, int32, int64, float or double");
  } else {
    if (op_code<Op>::value < 0) throw device_unsupported("kronecker", "the operator must be a predefined one");
    check_device_accum("kronecker", accum_code(accum));
    check_kron_pairs(A.nvals(), B.nvals(), 16);  // a key and a source a pair
    const stream_t s = current_stream();
    device_tile_matrix<D> t;
    {
      const device_oriented<D, TA> a(A, desc.transpose_a, s);
      const device_oriented<D, TB> b(B, desc.transpose_b, s);
      t = cuda::kronecker<D>(*a, *b, op_code<Op>::value, s);
    }
    if constexpr (std::is_same_v<D, TC>) device_finish(C, mask, accum, desc.replace, std::move(t), s);
    else device_finish(C, mask, accum, desc.replace, cuda::apply<TC, D>(t, coded_unary{}, s), s);
  }
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
  if constexpr (!std::is_same_v<Mask, no_mask_t>) {
    const auto& m = *detail::as_mask_view(mask).object;
    detail::host::check_mask_shape(m.nrows(), m.ncols(), C.nrows(), C.ncols());
  }
  const backend where = detail::residence("kronecker", {{"C", C.location()}, {"A", A.location()}, {"B", B.location()},
                                                        {"the mask", detail::where_mask(mask, C.location())}});
  if (where == backend::cuda) return detail::kronecker_cuda(C, mask, accum, op, A, B, desc);
  Matrix<TC> T = detail::guard_alloc([&] {
    coo<TA> a = A.to_coo();
    coo<TB> b = B.to_coo();
    if (desc.transpose_a) a.rows.swap(a.cols);
    if (desc.transpose_b) b.rows.swap(b.cols);
    const std::size_t na = a.values.size(), nb = b.values.size();
    detail::check_kron_pairs(offset_t(na), offset_t(nb), 3 * sizeof(index_t));
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
// D(i - k, i) = v(i) for k < 0 (GrB_Matrix_diag). D lives where v does.
template <class T>
Matrix<T> diag_matrix(const Vector<T>& v, index_t k = 0) {
  const index_t n = v.size(), off = k < 0 ? -k : k;
  if (off > std::numeric_limits<index_t>::max() - n)
    throw invalid_value("tgb::diag_matrix: the diagonal offset " + std::to_string(k) + " is too large");
  if (v.location() == backend::cuda) {
    if constexpr (!detail::cuda::device_types<T>) {
      throw detail::device_unsupported("diag_matrix", "the value type must be bool, int32, int64, float or double");
    } else {
      Matrix<T> D(n + off, n + off);
      D.to(backend::cuda);
      D.assign_device_tiles(std::make_unique<detail::device_tile_matrix<T>>(
          detail::cuda::diag_matrix<T>(v.device(), k, current_stream())));
      return D;
    }
  }
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
// where the diagonal lies outside A). w lives where A does.
template <class T>
Vector<T> diag_vector(const Matrix<T>& A, index_t k = 0) {
  const index_t m = A.nrows(), n = A.ncols();
  index_t len = 0;
  if (k >= 0 && k < n) len = std::min(m, n - k);
  if (k < 0 && -k < m) len = std::min(m + k, n);
  if (A.location() == backend::cuda) {
    if constexpr (!detail::cuda::device_types<T>) {
      throw detail::device_unsupported("diag_vector", "the value type must be bool, int32, int64, float or double");
    } else {
      Vector<T> w(len, backend::cuda);
      w.assign_device(detail::cuda::diag_vector<T>(*detail::device_tile_view<T>(A), k, len, current_stream()));
      return w;
    }
  }
  Vector<T> w(len);
  const coo<T> c = A.to_coo();
  for (std::size_t q = 0; q < c.values.size(); ++q)
    if (c.cols[q] - c.rows[q] == k) w.set(k >= 0 ? c.rows[q] : c.cols[q], c.values[q]);
  return w;
}

}  // namespace tgb
