// tgb CUDA backend: the type-independent steps of the dot method
// (include/tgb/detail/cuda/dot.cuh): the rule's quantities measured on the
// device, and C's pattern from the mask entries whose dot product found a
// term (over tiles from the dot's row bits, over rows from its flags).
#include <cub/block/block_reduce.cuh>

#include "tgb/detail/cuda/common.cuh"
#include "tgb/detail/cuda/plan.hpp"
#include "tgb/detail/cuda/row_spgemm.cuh"

namespace tgb::detail::cuda {

namespace {

constexpr int kThreads = 256;
using count_t = unsigned long long;

// Entries of each scalar row and scalar column of P: one thread per local
// row of each tile (a thread per tile walked 16 rows and every entry: 60 us
// for lap2d's L on the H100).
__global__ void k_line_counts(pattern_ref P, const index_t* tile_row, count_t* rows, count_t* cols) {
  const offset_t g = blockIdx.x * offset_t(blockDim.x) + threadIdx.x;
  const offset_t t = g >> 4;
  const int r = int(g & 15);
  if (t >= P.ntiles) return;
  std::uint32_t m = P.row_mask[16 * t + r];
  if (!m) return;
  const index_t j0 = index_t(P.tile_col[t]) << tile_shift;
  atomicAdd(rows + (tile_row[t] << tile_shift) + r, count_t(tile::popcount16(m)));
  for (; m; m &= m - 1) atomicAdd(cols + j0 + __ffs(int(m)) - 1, count_t(1));
}

// products = sum_k a_col[k] * b_row[k] over k < inner;
// work = sum_i m_row[i] * a_row[i] (i < nrows) + sum_j m_col[j] * b_col[j] (j < ncols).
struct work_lines {
  const count_t *a_row, *a_col, *b_row, *b_col, *m_row, *m_col;
  index_t inner, nrows, ncols;
};
__global__ void k_work(work_lines L, count_t* out) {
  using reduce_t = cub::BlockReduce<count_t, kThreads>;
  __shared__ typename reduce_t::TempStorage tmp;
  count_t prod = 0, work = 0;
  const index_t stride = index_t(gridDim.x) * blockDim.x;
  for (index_t k = blockIdx.x * index_t(blockDim.x) + threadIdx.x; k < L.inner; k += stride)
    prod += L.a_col[k] * L.b_row[k];
  for (index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x; i < L.nrows; i += stride)
    work += L.m_row[i] * L.a_row[i];
  for (index_t j = blockIdx.x * index_t(blockDim.x) + threadIdx.x; j < L.ncols; j += stride)
    work += L.m_col[j] * L.b_col[j];
  prod = reduce_t(tmp).Sum(prod);
  __syncthreads();
  work = reduce_t(tmp).Sum(work);
  if (threadIdx.x == 0) {
    atomicAdd(out, prod);
    atomicAdd(out + 1, work);
  }
}

// out[i] = i (each mask tile's own index, carried through finish_pattern).
__global__ void k_iota(offset_t n, offset_t* out) {
  for (offset_t i = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; i < n; i += offset_t(gridDim.x) * blockDim.x)
    out[i] = i;
}

struct lines {
  device_buffer<count_t> rows, cols;
};

lines line_counts(const device_pattern& p, stream_t s) {
  lines l{device_buffer<count_t>(std::size_t(p.nrows) + 1, s), device_buffer<count_t>(std::size_t(p.ncols) + 1, s)};
  check(cudaMemsetAsync(l.rows.data(), 0, l.rows.size() * sizeof(count_t), native(s)), "line counts");
  check(cudaMemsetAsync(l.cols.data(), 0, l.cols.size() * sizeof(count_t), native(s)), "line counts");
  if (p.ntiles) {
    device_buffer<index_t> row = tile_rows_of(p, s);
    k_line_counts<<<grid_for(16 * p.ntiles, kThreads), kThreads, 0, native(s)>>>(ref(p), row.data(), l.rows.data(),
                                                                                l.cols.data());
  }
  check(cudaGetLastError(), "line counts");
  return l;
}

}  // namespace

namespace {
// The rule's two sums from the line counts: op(A)'s rows and columns, op(B)'s
// rows and columns, the mask's rows and columns.
mxm_work work_of(const work_lines& L, stream_t s) {
  device_buffer<count_t> out(2, s);
  check(cudaMemsetAsync(out.data(), 0, 2 * sizeof(count_t), native(s)), "product work");
  const index_t widest = std::max(L.inner, std::max(L.nrows, L.ncols));
  k_work<<<std::min(grid_for(widest, kThreads), 1024u), kThreads, 0, native(s)>>>(L, out.data());
  check(cudaGetLastError(), "product work");
  count_t h[2];
  copy_device_to_host(h, out.data(), sizeof(h), s);
  mxm_work w;
  w.products = double(h[0]);
  w.dot_work = double(h[1]);
  return w;
}

// Row lengths and column counts of a row form: a thread per row for the
// lengths and per entry for the columns (a thread walking a hub row's
// entries held up the rest: 24 us for email-Eu-core's 16k entries).
__global__ void k_row_line_counts(index_t nrows, offset_t nnz, const offset_t* row_ptr, const std::int32_t* col,
                                  count_t* rows, count_t* cols) {
  const offset_t stride = offset_t(gridDim.x) * blockDim.x;
  for (offset_t g = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; g < nrows || g < nnz; g += stride) {
    if (g < nrows) rows[g] = count_t(row_ptr[g + 1] - row_ptr[g]);
    if (g < nnz) atomicAdd(cols + col[g], count_t(1));
  }
}

lines line_counts_rows(const rows::csr_ref& p, stream_t s) {
  lines l{device_buffer<count_t>(std::size_t(p.nrows) + 1, s), device_buffer<count_t>(std::size_t(p.ncols) + 1, s)};
  check(cudaMemsetAsync(l.rows.data(), 0, l.rows.size() * sizeof(count_t), native(s)), "line counts");
  check(cudaMemsetAsync(l.cols.data(), 0, l.cols.size() * sizeof(count_t), native(s)), "line counts");
  const offset_t widest = std::max<offset_t>(p.nrows, p.nnz);
  if (widest)
    k_row_line_counts<<<grid_for(widest, kThreads), kThreads, 0, native(s)>>>(p.nrows, p.nnz, p.row_ptr, p.col,
                                                                             l.rows.data(), l.cols.data());
  check(cudaGetLastError(), "line counts");
  return l;
}

__global__ void k_rows_from_dest(index_t nrows, const offset_t* m_row_ptr, const offset_t* dest, offset_t* row_ptr) {
  for (index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x; i <= nrows; i += index_t(gridDim.x) * blockDim.x)
    row_ptr[i] = dest[m_row_ptr[i]];
}
}  // namespace

mxm_work product_work(const device_pattern& A, bool ta, const device_pattern& B, bool tb, const device_pattern& M,
                      stream_t s) {
  // One count per distinct pattern (the triangle product passes L three times).
  lines la = line_counts(A, s), lb, lm;
  const lines* pb = &la;
  if (&B != &A) {
    lb = line_counts(B, s);
    pb = &lb;
  }
  const lines* pm = &lm;
  if (&M == &A) pm = &la;
  else if (&M == &B) pm = pb;
  else lm = line_counts(M, s);
  // op(A)'s rows are A's columns where ta; op(B)'s columns are B's rows where tb.
  work_lines L;
  L.a_row = ta ? la.cols.data() : la.rows.data();
  L.a_col = ta ? la.rows.data() : la.cols.data();
  L.b_row = tb ? pb->cols.data() : pb->rows.data();
  L.b_col = tb ? pb->rows.data() : pb->cols.data();
  L.m_row = pm->rows.data();
  L.m_col = pm->cols.data();
  L.inner = ta ? A.nrows : A.ncols;
  L.nrows = M.nrows;
  L.ncols = M.ncols;
  mxm_work w = work_of(L, s);
  w.entries = double(A.nnz) + double(B.nnz);
  w.tiles = double(A.ntiles) + double(B.ntiles);
  return w;
}

mxm_work product_work_rows(const rows::csr_ref& A, const rows::csr_ref& Bt, const rows::csr_ref& M, stream_t s) {
  // A holds op(A)'s rows, Bt op(B)''s: op(B)'s row k is Bt's column k.
  lines la = line_counts_rows(A, s), lb, lm;
  const lines* pb = &la;
  if (Bt.row_ptr != A.row_ptr || Bt.col != A.col) {
    lb = line_counts_rows(Bt, s);
    pb = &lb;
  }
  const lines* pm = &lm;
  if (M.row_ptr == A.row_ptr && M.col == A.col) pm = &la;
  else if (M.row_ptr == Bt.row_ptr && M.col == Bt.col) pm = pb;
  else lm = line_counts_rows(M, s);
  work_lines L;
  L.a_row = la.rows.data();
  L.a_col = la.cols.data();
  L.b_row = pb->cols.data();
  L.b_col = pb->rows.data();
  L.m_row = pm->rows.data();
  L.m_col = pm->cols.data();
  L.inner = A.ncols;
  L.nrows = M.nrows;
  L.ncols = M.ncols;
  mxm_work w = work_of(L, s);
  w.entries = double(A.nnz) + double(Bt.nnz);
  w.row_operand = true;
  return w;
}

device_buffer<offset_t> rows_from_found(const offset_t* m_row_ptr, index_t nrows, offset_t nnz,
                                        device_buffer<offset_t>& found, device_buffer<offset_t>& dest,
                                        offset_t* total, stream_t s) {
  check(cudaMemsetAsync(found.data() + nnz, 0, sizeof(offset_t), native(s)), "row dot");
  dest = device_buffer<offset_t>(nnz + 1, s);
  exclusive_sum(found.data(), dest.data(), nnz + 1, s);
  device_buffer<offset_t> row_ptr(nrows + 1, s);
  k_rows_from_dest<<<grid_for(nrows + 1, kThreads), kThreads, 0, native(s)>>>(nrows, m_row_ptr, dest.data(),
                                                                               row_ptr.data());
  check(cudaGetLastError(), "row dot");
  *total = read_back(dest.data() + nnz, s);
  return row_ptr;
}

device_pattern found_pattern(const device_pattern& M, const index_t* tile_row, device_buffer<row_bits>& bits,
                             device_buffer<offset_t>& count, device_buffer<offset_t>& map, stream_t s) {
  candidates c;
  c.n = M.ntiles;
  c.key = tile_keys(M, tile_row, s);
  c.mask.swap(bits);
  c.count.swap(count);
  c.carry0 = device_buffer<offset_t>(M.ntiles, s);  // each kept tile carries its mask tile
  if (M.ntiles) k_iota<<<grid_for(M.ntiles, kThreads), kThreads, 0, native(s)>>>(M.ntiles, c.carry0.data());
  check(cudaGetLastError(), "dot pattern");
  device_pattern p = finish_pattern(M.nrows, M.ncols, c, s);
  map.swap(c.carry0);
  return p;
}

}  // namespace tgb::detail::cuda
