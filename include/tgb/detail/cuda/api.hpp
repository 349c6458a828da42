// tgb CUDA backend: what host code may call. Definitions live in the .cuh
// files beside this one and are instantiated in src/cuda for the predefined
// semirings on their types; a .cu file that includes <tgb/cuda/mxm.cuh> may
// instantiate others (see docs/api.md).
#pragma once

#include <memory>
#include <type_traits>

#include "tgb/algebra.hpp"
#include "tgb/detail/device_storage.hpp"
#include "tgb/detail/mxm_method.hpp"

namespace tgb::detail::cuda {

// A mask for the device pipeline: M's tile structure on the device, the bits
// that admit a write in each of its tiles, and whether to complement them.
// A mask stored in rows (mxm's dot reads it so; every other method converts
// it to tiles first) gives its CSR instead of pat, and for a value mask a flag
// per entry.
struct mask_arg {
  const device_pattern* pat = nullptr;  // nullptr: no mask, or a mask in rows
  const row_bits* bits = nullptr;       // 16 per tile of pat
  bool complement = false;
  index_t nrows = 0, ncols = 0;
  offset_t nnz = 0;
  const offset_t* row_ptr = nullptr;  // a mask in rows: nrows + 1
  const std::int32_t* col = nullptr;
  const std::uint8_t* ok = nullptr;  // value masks in rows: entry e admits where ok[e] (null: every entry)
  bool given() const { return pat != nullptr || row_ptr != nullptr; }
  bool in_rows() const { return pat == nullptr && row_ptr != nullptr; }
};

// A mask in rows as tiles (for the methods and write-backs that read tiles):
// the tiles, their bits, and the mask_arg over them.
struct mask_tiles {
  device_tile_matrix<bool> m;
  device_buffer<row_bits> bits;
  mask_arg arg;
};
std::unique_ptr<mask_tiles> mask_to_tiles(const mask_arg& rows_mask, stream_t s);  // arg points into it
// Flags of a row-form matrix's entries whose value is nonzero (value masks).
template <class U>
device_buffer<std::uint8_t> nonzero_flags(const device_row_matrix<U>& m, stream_t s);

// Bits of M's entries whose value is nonzero (value masks).
template <class U>
device_buffer<row_bits> value_mask_bits(const device_tile_matrix<U>& m, stream_t s);

// A' on the device.
template <class T>
device_tile_matrix<T> transpose(const device_tile_matrix<T>& a, stream_t s);

// How the device runs one product: the operands' transposes and the
// method policy (mxm_method.hpp).
struct mxm_request {
  bool transpose_a = false, transpose_b = false;
  mxm_policy policy;
};

// A device matrix as an operation reads it: its tiles or its rows (one of
// them set), and what an operation hands back (one of them set).
template <class T>
struct device_operand {
  const device_tile_matrix<T>* tiles = nullptr;
  const device_row_matrix<T>* rows = nullptr;
  index_t nrows() const { return tiles ? tiles->pat.nrows : rows->nrows; }
  index_t ncols() const { return tiles ? tiles->pat.ncols : rows->ncols; }
  offset_t nnz() const { return tiles ? tiles->pat.nnz : rows->nnz; }
};
template <class T>
struct device_result {
  std::unique_ptr<device_tile_matrix<T>> tiles;
  std::unique_ptr<device_row_matrix<T>> rows;
};

// T = op(A) (+.*) op(B) computed only where the mask admits, by the method
// the policy names or the rule picks, then C<M, replace> = accum(C, T)
// (accum_code: -2 none, else tgb::detail::op_code). Row saxpy leaves an
// unmasked, unaccumulated product in rows; every other result is tiles.
template <class TC, class TA, class TB, class Semiring>
device_result<TC> mxm(device_operand<TC> C, const mask_arg& M, int accum_code, bool replace, const Semiring& s,
                      device_operand<TA> A, device_operand<TB> B, const mxm_request& how, stream_t stream);

// Conversions between the two device forms (rows need ncols to fit 32 bits:
// rows_fit).
template <class T>
device_tile_matrix<T> tiles_of(const device_row_matrix<T>& r, stream_t s);
template <class T>
device_row_matrix<T> rows_of(const device_tile_matrix<T>& t, stream_t s);

// C<M, replace> = accum(C, T), T consumed (t_within_mask: T has nothing
// outside the mask).
template <class T>
device_tile_matrix<T> writeback(const device_tile_matrix<T>& C, const mask_arg& M, int accum_code, bool replace,
                                device_tile_matrix<T>&& t, bool t_within_mask, stream_t s);

// The element-wise operations, with the predefined operators passed by code
// (algebra.hpp) so that one instantiation per type serves them all. Their
// results go through writeback() like mxm's.
template <class TC, class TA>
device_tile_matrix<TC> apply(const device_tile_matrix<TA>& A, const coded_unary& f, stream_t s);
// code: index_unary_code (algebra.hpp).
template <class TC, class TA>
device_tile_matrix<TC> apply_index(const device_tile_matrix<TA>& A, int code, const coded_scalar& thunk, stream_t s);
template <class T>
device_tile_matrix<T> select(const device_tile_matrix<T>& A, const coded_select& pred, const coded_scalar& thunk,
                             stream_t s);
// mode 0: intersection of A and B, 1: union, 2: union with alpha (for A)
// and beta (for B) where one is missing (GxB_eWiseUnion); op(a, b) where
// both are stored. As vector_ewise.
template <class T>
device_tile_matrix<T> ewise(const device_tile_matrix<T>& A, const device_tile_matrix<T>& B, int op_code, int mode,
                            T alpha, T beta, stream_t s);
// Fold of each row into host arrays values[nrows], present[nrows].
template <class T>
void reduce_rows(const device_tile_matrix<T>& A, const coded_monoid& m, T* values, std::uint8_t* present,
                 stream_t s);
// Fold of every entry (the identity if there is none).
template <class T>
T reduce_all(const device_tile_matrix<T>& A, const coded_monoid& m, stream_t s);

// ---- vectors (vector.cuh) -------------------------------------------------
// Which elements a vector mask admits, one byte each: stored (structure) or
// stored and nonzero (value), flipped if complemented.
template <class U>
device_buffer<std::uint8_t> vector_admits(const device_vector<U>& m, bool structural, bool complement, stream_t s);

// A matrix as the vector products read it: its tile pattern or its rows,
// and its values (null where the multiply does not read them: a pattern of
// another type, such as BFS's bool matrix under any_second).
template <class T>
struct vector_operand {
  const device_pattern* tiles = nullptr;  // A in tiles, or
  const offset_t* row_ptr = nullptr;      // A in rows (nrows + 1)
  const std::int32_t* col = nullptr;
  index_t nrows = 0, ncols = 0;
  offset_t nnz = 0;
  const T* values = nullptr;
  std::atomic<offset_t>* longest = nullptr;  // rows: the matrix's cached longest row (lazy_count)
};
template <class T, class TA>
vector_operand<T> vector_operand_of(const device_operand<TA>& A, bool with_values) {
  vector_operand<T> o;
  o.nrows = A.nrows();
  o.ncols = A.ncols();
  o.nnz = A.nnz();
  if (A.tiles) o.tiles = &A.tiles->pat;
  else o.row_ptr = A.rows->row_ptr.data(), o.col = A.rows->col.data(), o.longest = &A.rows->longest.value;
  if constexpr (std::is_same_v<T, TA>)
    if (with_values) o.values = A.tiles ? A.tiles->values.data() : A.rows->values.data();
  return o;
}

// t = A u over the semiring, by rows of A (pull: t(i) = add_k A(i,k) u(k)),
// or t = A' u by scatter (push: t(j) = add_k A(k,j) u(k), folded with
// atomics in no set order), computed only where admit[i] (null: every i).
// matrix_first orders the multiply: mul(a, u(k)) for mxv, mul(u(k), a) for
// vxm. A is read as it is stored (tiles or rows); nothing is transposed.
// reuse (may be null): a vector of t's size whose contents t replaces whole;
// its arrays become t's instead of new ones where they belong to `stream`
// (given back if the call throws: out of memory before any write leaves them
// as they were; a CUDA error after a launch leaves their contents unspecified,
// with the count unknown).
template <class T, class Semiring>
device_vector<T> vector_product(const vector_operand<T>& A, bool push, bool matrix_first, const device_vector<T>& u,
                                const std::uint8_t* admit, const Semiring& s, stream_t stream,
                                device_vector<T>* reuse = nullptr);

// w<admit, replace> = accum(w, t) (accum_code: -2 none, else op_code), t
// consumed (the result is written over its arrays); t_within_mask: t has
// nothing outside the mask.
template <class T>
device_vector<T> vector_writeback(const device_vector<T>& w, const std::uint8_t* admit, int accum_code, bool replace,
                                  device_vector<T>&& t, bool t_within_mask, stream_t s);

// w<admit, replace>(all) = accum(w, src) in place (assign over all indices):
// src is u (null: the scalar *x at every position; x null too: nothing, as
// an empty u). Nothing is allocated; w's count becomes unknown. After a CUDA
// error w's contents are unspecified.
template <class T>
void vector_assign_all(device_vector<T>& w, const device_vector<T>* u, const T* x, const std::uint8_t* admit,
                       int accum_code, bool replace, stream_t s);

// BFS push levels fused into one cooperative kernel (bfs.cu), for tgb::bfs
// on a pattern A in rows: from the frontier q (its stored positions, q(k) = k),
// each level claims the vertices no parent holds, writing parent(j) = k and
// level(j) = level0, level0 + 1, ...; it stops where the frontier empties or,
// with `automatic`, where Beamer's rule (the new frontier's out-edges above
// unexplored / alpha, unexplored first reduced by them) asks for the pull.
// q leaves holding the last frontier (q(j) = j). False, doing nothing, where
// the device cannot launch it (no cooperative launch).
struct bfs_fused_state {
  long long unexplored = 0;  // in and out
  long long levels = 0, frontier = 0, frontier_edges = 0;
  bool stopped_for_pull = false;
};
template <class T>
bool bfs_push_fused(const device_row_matrix<bool>& A, device_vector<T>& q, device_vector<T>& parent,
                    device_vector<T>& level, std::int64_t level0, double alpha, bool automatic, bfs_fused_state& st,
                    stream_t s);

// The element-wise vector operations (vector_elementwise.cuh), the predefined
// operators by code as for matrices. Each returns t for vector_writeback.
template <class TW, class TU>
device_vector<TW> vector_cast(const device_vector<TU>& u, stream_t s);
// mode 0: intersection, 1: union, 2: union with alpha (for u) and beta (for
// v) where one is missing; op(u, v) where both are stored.
template <class TW, class D>
device_vector<TW> vector_ewise(const device_vector<D>& u, const device_vector<D>& v, int op_code, int mode, D alpha,
                               D beta, stream_t s);
template <class TW, class TU>
device_vector<TW> vector_apply(const device_vector<TU>& u, const coded_unary& f, stream_t s);
// code 0 rowindex, 1 colindex, 2 diagindex; 10 + c: selector c's result.
template <class TW, class TU>
device_vector<TW> vector_apply_index(const device_vector<TU>& u, int code, const coded_scalar& thunk, stream_t s);
template <class TW, class TU>
device_vector<TW> vector_select(const device_vector<TU>& u, const coded_select& pred, const coded_scalar& thunk,
                                stream_t s);
// x at every index of [0, n).
template <class T>
device_vector<T> vector_fill(index_t n, T x, stream_t s);
// The fold of u's entries; *has false (and the identity) where u is empty.
template <class T>
T vector_reduce(const device_vector<T>& u, const coded_monoid& m, bool* has, stream_t s);

// An index list for assign and extract on the device: index k is list[k], or
// begin + k * stride (modulo 2^64, as index_list forms it) where list is null.
struct index_source {
  const index_t* list = nullptr;
  index_t begin = 0, stride = 1;
};
// T = A(I, J), m x n (|I| = m, |J| = n; lists may repeat): GrB_extract.
template <class T>
device_tile_matrix<T> extract(const device_tile_matrix<T>& A, const index_source& I, index_t m, const index_source& J,
                              index_t n, stream_t s);
// C with its region I x J (ni x nj, no repeats) written from a source: A
// (ni x nj; A(k, l) lands at (I(k), J(l))), or *x at every position of the
// region, or nothing (neither: an empty source). accum_code >= 0 folds
// accum(C, source) where both are stored and keeps C's entries the source
// lacks; otherwise the region holds the source's entries alone. GrB_assign's
// Z, which the caller writes back through the mask.
template <class T>
device_tile_matrix<T> assign_region(const device_tile_matrix<T>& C, const device_tile_matrix<T>* A, const T* x,
                                    const index_source& I, index_t ni, const index_source& J, index_t nj,
                                    int accum_code, stream_t s);
// C with its region written as GxB_subassign does: inside I x J, C(I,J)<M,
// replace> = accum(C(I,J), source), M (ni x nj, given as tiles) relabeled
// into C's positions, its complement and replace acting inside the region
// only; outside it C as it is.
template <class T>
device_tile_matrix<T> subassign_region(const device_tile_matrix<T>& C, const device_tile_matrix<T>* A, const T* x,
                                       const index_source& I, index_t ni, const index_source& J, index_t nj,
                                       const mask_arg& M, int accum_code, bool replace, stream_t s);
// kron(A, B): T(i p + k, j q + l) = op(A(i, j), B(k, l)) for B p x q (op
// a coded operator, applied in T).
template <class T>
device_tile_matrix<T> kronecker(const device_tile_matrix<T>& A, const device_tile_matrix<T>& B, int op_code,
                                stream_t s);
// The (n + |k|) square matrix with v on its k-th diagonal (GrB_Matrix_diag).
template <class T>
device_tile_matrix<T> diag_matrix(const device_vector<T>& v, index_t k, stream_t s);
// A's k-th diagonal as a vector of len (GxB_Vector_diag).
template <class T>
device_vector<T> diag_vector(const device_tile_matrix<T>& A, index_t k, index_t len, stream_t s);
// t(k) = u(I(k)) for k < len (extract).
template <class T>
device_vector<T> vector_gather(const device_vector<T>& u, const index_source& I, index_t len, stream_t s);
// w with w(I(k)) replaced by t(k), or by accum(w(I(k)), t(k)) where both are
// stored (accum_code >= 0), for k < t.n (assign's region; I has no repeats).
template <class T>
device_vector<T> vector_scatter(const device_vector<T>& w, const device_vector<T>& t, const index_source& I,
                                int accum_code, stream_t s);
// w with t(k) accumulated into w(list[k]) for k < t.n, where the list may
// repeat an index: the values at one index fold in list order
// (accum(accum(w(i), t(k1)), t(k2)) ...; the first into an empty position
// stores it), as a build's dup folds them. Associative predefined operators
// fold by a segmented reduction (floating-point sums in another grouping
// than the host's), the others by a walk per index. accum_code >= 0.
template <class T>
device_vector<T> vector_scatter_fold(const device_vector<T>& w, const device_vector<T>& t, const index_t* list,
                                     int accum_code, stream_t s);
// v's stored values in index order as a full vector of their count (one
// read-back where v is not full).
template <class T>
device_vector<T> vector_stored(const device_vector<T>& v, stream_t s);
// The smallest index that list[0, len) holds more than once, or -1 (one
// read-back). Indices lie in [0, bound).
index_t vector_first_repeat(const index_t* list, index_t len, index_t bound, stream_t s);
// Whether a and b have the same size, stored positions and values (==).
template <class T>
bool vector_equal(const device_vector<T>& a, const device_vector<T>& b, stream_t s);
// An index list held by a vector: the values of v's stored entries in index
// order (len of them; list is v's own values where every entry is stored,
// else `keep`), and the first index outside [0, bound) where there is one.
struct vector_index_list {
  device_buffer<index_t> keep;
  const index_t* list = nullptr;
  index_t len = 0;
  bool has_bad = false;
  index_t bad = 0;
};
vector_index_list vector_indices(const device_vector<index_t>& v, index_t bound, stream_t s);

// ---- conversion from and to arrays in device memory ----------------------
// An integer array in device memory: 4 or 8 bytes per element, signed or not.
struct int_array {
  const void* data = nullptr;
  int width = 8;
  bool is_signed = true;
};
struct int_out {
  void* data = nullptr;
  int width = 8;
  bool is_signed = true;
};
template <class I>
inline constexpr bool device_index_type =
    std::is_integral_v<I> && !std::is_same_v<I, bool> && (sizeof(I) == 4 || sizeof(I) == 8);
template <class I>
int_array int_array_of(const I* p) {
  static_assert(device_index_type<I>, "device index arrays hold 32- or 64-bit integers");
  return int_array{p, int(sizeof(I)), std::is_signed_v<I>};
}
template <class I>
int_out int_out_of(I* p) {
  static_assert(device_index_type<I>, "device index arrays hold 32- or 64-bit integers");
  return int_out{p, int(sizeof(I)), std::is_signed_v<I>};
}

// A tile matrix from n entries in device memory: either rows[n] (COO) or, if
// csr, rowptr[nrows + 1] (rows need not be sorted) with cols[n] and
// values[n]. Indices are checked (index_out_of_bounds, invalid_value);
// duplicates are an error when dup_code < 0, else folded in input order by
// the predefined operator dup_code (tgb::detail::op_code). `what` names the
// caller in messages. The arrays are only read.
template <class T>
device_tile_matrix<T> from_device_arrays(const char* what, bool csr, index_t nrows, index_t ncols, int_array rowptr,
                                         int_array rows, int_array cols, const T* values, offset_t n, int dup_code,
                                         stream_t s);
// Checks row arrays in device memory as the device row form keeps them
// (import_device_csr): nrows + 1 row pointers from 0 to nnz that never
// decrease, nnz columns in [0, ncols) increasing within each row; throws
// invalid_value or index_out_of_bounds (what names the caller). Waits.
void check_csr_arrays(const char* what, index_t nrows, index_t ncols, const offset_t* rowptr, const std::int32_t* col,
                      offset_t nnz, stream_t s);
// Writes A's entries in row-major order into device arrays of A.nnz entries
// (rowptr: nrows + 1): any of them may be null to skip it. Checks that the
// index types hold the values; issued on s without waiting.
template <class T>
void to_device_arrays(const device_tile_matrix<T>& A, int_out rowptr, int_out rows, int_out cols, T* values,
                      stream_t s);

// ---- which combinations the library instantiates ------------------------
template <class T, class... L>
inline constexpr bool one_of = (std::is_same_v<T, L> || ...);

template <class T>
inline constexpr bool device_value_type = one_of<T, bool, std::int32_t, std::int64_t, float, double>;

// Whether this build has the CUDA backend at all (device code paths compile
// away without it).
#if defined(TGB_HAVE_CUDA)
inline constexpr bool built = true;
#else
inline constexpr bool built = false;
#endif

// Types the element-wise operations and reductions run on the GPU for.
template <class... T>
inline constexpr bool device_types = built && (device_value_type<T> && ...);

// Every semiring of the catalogue (algebra.hpp).
#define TGB_SEMIRING_TYPE(name, add, mul, unused) , semiring<add, mul>
template <class S>
inline constexpr bool device_semiring = one_of<S TGB_SEMIRINGS(TGB_SEMIRING_TYPE, ~)>;
#undef TGB_SEMIRING_TYPE

// True where the library holds a device mxm for (TC, TA, TB, Semiring):
// every predefined semiring with all three types equal, and plus_pair into
// int64 from bool (triangle counting). Specialize to true in a .cu file that
// includes <tgb/cuda/mxm.cuh> to enable another combination there.
template <class TC, class TA, class TB, class Semiring>
struct mxm_enabled
    : std::bool_constant<
#if defined(TGB_HAVE_CUDA)
          (device_value_type<TC> && std::is_same_v<TC, TA> && std::is_same_v<TC, TB> && device_semiring<Semiring>) ||
          (std::is_same_v<TC, std::int64_t> && std::is_same_v<TA, bool> && std::is_same_v<TB, bool> &&
           std::is_same_v<Semiring, std::decay_t<decltype(plus_pair)>>)
#else
          false
#endif
          > {
};

// True where the library holds a device mxv/vxm for (TW, TA, TU, Semiring):
// every predefined semiring on the value types (u and A are cast to w's type,
// A only where the multiply reads it). To enable another semiring, include
// <tgb/cuda/mxm.cuh> in a .cu file, instantiate vector_product<TW, S> there
// and specialize this to true where callers see it.
template <class TW, class TA, class TU, class Semiring>
struct mxv_enabled : std::bool_constant<device_types<TW, TA, TU> && device_semiring<Semiring>> {};

}  // namespace tgb::detail::cuda
