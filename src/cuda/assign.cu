// tgb CUDA backend: extract and assign on matrices (matrix_assign.hpp's
// device side). The plans are type-independent: each gives a pattern and,
// for each of its entries, the entry of the source whose value it takes
// (`gather`); the typed steps (assign.cuh) copy the values, and are
// instantiated at the end for the value types the library ships.
//   extract_pattern  T = A(I, J): row k of T is row I(k) of A (through A's
//                    CSR view, so only the rows picked are walked), each
//                    entry (I(k), c) landing at every l with J(l) = c
//                    (J's inverse: arithmetic for all and ranges, a sorted
//                    copy of a list); lists may repeat.
//   scatter_pattern  T(I(r), J(c)) = A(r, c): A relabeled into C's shape
//                    (the source of assign; subassign's mask, its admitted
//                    entries only).
//   grid_pattern     every position of I x J (the scalar assign).
//   cut_pattern      C's entries inside I x J, or outside it (assign's
//                    region, replaced where no accumulator is given).
// Keys are entry keys (tile key << 8 | local row << 4 | local column), sorted
// with CUB's radix sort and read off by pattern_from_sorted_keys, as the
// device's COO import does.
#include <algorithm>
#include <limits>
#include <string>

#include "tgb/detail/cuda/assign.cuh"
#include "tgb/detail/cuda/common.cuh"
#include "tgb/detail/cuda/plan.hpp"
#include "shared.cuh"

namespace tgb::detail::cuda {

namespace {

constexpr int kThreads = 256;

__device__ inline index_t index_at(const index_source& L, index_t k) {
  if (L.list) return L.list[k];
  return index_t((unsigned long long)L.begin + (unsigned long long)k * (unsigned long long)L.stride);
}

__device__ inline std::uint64_t entry_key(index_t i, index_t j, index_t tile_cols) {
  const std::uint64_t tk = std::uint64_t(i >> tile_shift) * std::uint64_t(tile_cols) + std::uint64_t(j >> tile_shift);
  return (tk << 8) | (std::uint64_t(i & 15) << 4) | std::uint64_t(j & 15);
}

// The positions l of an index list with L(l) = x: a list through a sorted
// copy (values, positions); all and ranges by arithmetic.
struct index_inverse {
  const std::uint64_t* value = nullptr;  // a list's values, sorted
  const std::uint64_t* pos = nullptr;    // their positions in the list
  index_t count = 0;
  index_t begin = 0, stride = 1;
  __device__ void find(index_t x, offset_t& lo, offset_t& hi) const {
    if (value) {
      lo = lower_bound(value, count, std::uint64_t(x));
      hi = lower_bound(value, count, std::uint64_t(x) + 1);
      return;
    }
    const index_t d = x - begin;
    lo = hi = 0;
    if (d % stride != 0) return;
    const index_t l = d / stride;
    if (l < 0 || l >= count) return;
    lo = l;
    hi = l + 1;
  }
  __device__ index_t at(offset_t q) const { return value ? index_t(pos[q]) : index_t(q); }
};

__global__ void k_list_pairs(index_t n, const index_t* list, std::uint64_t* value, std::uint64_t* pos) {
  for (index_t l = blockIdx.x * index_t(blockDim.x) + threadIdx.x; l < n; l += index_t(gridDim.x) * blockDim.x) {
    value[l] = std::uint64_t(list[l]);
    pos[l] = std::uint64_t(l);
  }
}

// The inverse of L (count entries, indices in [0, extent)); a list's sorted
// copy is kept in `value` and `pos`.
index_inverse inverse_of(const index_source& L, index_t count, index_t extent, device_buffer<std::uint64_t>& value,
                         device_buffer<std::uint64_t>& pos, stream_t s) {
  index_inverse inv;
  inv.count = count;
  if (!L.list) {
    inv.begin = L.begin;
    inv.stride = L.stride;
    return inv;
  }
  value = device_buffer<std::uint64_t>(count, s);
  pos = device_buffer<std::uint64_t>(count, s);
  if (count)
    k_list_pairs<<<grid_for(count, kThreads), kThreads, 0, native(s)>>>(count, L.list, value.data(), pos.data());
  check(cudaGetLastError(), "index list");
  sort_pairs(value, pos, count, bits_for(static_cast<unsigned long long>(extent)), s);
  inv.value = value.data();
  inv.pos = pos.data();
  return inv;
}

// Sorts n keys with their sources and reads the pattern off them.
device_pattern pattern_of(index_t nrows, index_t ncols, device_buffer<std::uint64_t>& key,
                          device_buffer<std::uint64_t>& src, offset_t n, device_buffer<offset_t>& gather, stream_t s) {
  sort_pairs(key, src, n, entry_key_bits(tiles_for(nrows), tiles_for(ncols)), s);
  device_pattern p = pattern_from_sorted_keys(nrows, ncols, key.data(), n, s);
  gather = device_buffer<offset_t>(n, s);
  static_assert(sizeof(offset_t) == sizeof(std::uint64_t), "positions copy as 64-bit words");
  if (n)
    check(cudaMemcpyAsync(gather.data(), src.data(), n * sizeof(offset_t), cudaMemcpyDeviceToDevice, native(s)),
          "copy");
  return p;
}

// ---- extract ------------------------------------------------------------

// len[k]: the entries of row I(k) of A (len[m] = 0 for the scan).
__global__ void k_picked_lengths(index_t m, index_source I, const offset_t* row_ptr, offset_t* len) {
  for (index_t k = blockIdx.x * index_t(blockDim.x) + threadIdx.x; k <= m; k += index_t(gridDim.x) * blockDim.x) {
    if (k == m) {
      len[k] = 0;
      continue;
    }
    const index_t i = index_at(I, k);
    len[k] = row_ptr[i + 1] - row_ptr[i];
  }
}

// Picked entry q (of E, rows' offsets `off`): its row k and A's CSR entry.
__device__ inline offset_t picked_entry(offset_t q, index_t m, const offset_t* off, index_source I,
                                        const offset_t* row_ptr, index_t& k) {
  k = index_t(last_le(off, offset_t(m) + 1, q));
  return row_ptr[index_at(I, k)] + (q - off[k]);
}

__global__ void k_picked_counts(offset_t E, index_t m, const offset_t* off, index_source I, const offset_t* row_ptr,
                                const index_t* col, index_inverse J, offset_t* cnt) {
  for (offset_t q = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; q <= E; q += offset_t(gridDim.x) * blockDim.x) {
    if (q == E) {
      cnt[q] = 0;
      continue;
    }
    index_t k;
    const offset_t e = picked_entry(q, m, off, I, row_ptr, k);
    offset_t lo, hi;
    J.find(col[e], lo, hi);
    cnt[q] = hi - lo;
  }
}

__global__ void k_picked_keys(offset_t E, index_t m, const offset_t* off, index_source I, const offset_t* row_ptr,
                              const index_t* col, const offset_t* pos, index_inverse J, const offset_t* out,
                              index_t tile_cols, std::uint64_t* key, std::uint64_t* src) {
  for (offset_t q = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; q < E; q += offset_t(gridDim.x) * blockDim.x) {
    index_t k;
    const offset_t e = picked_entry(q, m, off, I, row_ptr, k);
    offset_t lo, hi;
    J.find(col[e], lo, hi);
    for (offset_t t = lo; t < hi; ++t) {
      const offset_t o = out[q] + (t - lo);
      key[o] = entry_key(k, J.at(t), tile_cols);
      src[o] = std::uint64_t(pos[e]);
    }
  }
}

// ---- assign -------------------------------------------------------------

// Entries of each tile of A that are kept: those `admit` sets, or all
// (cnt[nt] = 0 for the scan).
__global__ void k_kept_counts(offset_t nt, pattern_ref A, const row_bits* admit, offset_t* cnt) {
  for (offset_t t = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; t <= nt; t += offset_t(gridDim.x) * blockDim.x) {
    offset_t c = 0;
    if (t < nt && admit)
      for (int r = 0; r < tile_dim; ++r) c += __popc(unsigned(admit[16 * t + r]));
    else if (t < nt)
      c = A.tile_offset[t + 1] - A.tile_offset[t];
    cnt[t] = c;
  }
}

// Every kept entry of A (a thread a tile) keyed at (I(r), J(c)) in C's grid,
// from its tile's place `at`.
__global__ void k_scatter_keys(offset_t nt, const index_t* tile_row, pattern_ref A, const row_bits* admit,
                               const offset_t* at, index_source I, index_source J, index_t tile_cols,
                               std::uint64_t* key, std::uint64_t* src) {
  for (offset_t t = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; t < nt; t += offset_t(gridDim.x) * blockDim.x) {
    const index_t r0 = tile_row[t] << tile_shift, c0 = index_t(A.tile_col[t]) << tile_shift;
    const offset_t e0 = A.tile_offset[t], e1 = A.tile_offset[t + 1];
    offset_t o = at[t];
    for (int r = 0; r < tile_dim; ++r) {
      const offset_t b = e0 + A.row_ptr[16 * t + r];
      const offset_t e = r == tile_dim - 1 ? e1 : e0 + A.row_ptr[16 * t + r + 1];
      for (offset_t q = b; q < e; ++q) {
        const int c = A.col_idx[q];
        if (admit && !((admit[16 * t + r] >> c) & 1u)) continue;
        key[o] = entry_key(index_at(I, r0 + r), index_at(J, c0 + c), tile_cols);
        src[o++] = std::uint64_t(q);
      }
    }
  }
}

__global__ void k_grid_keys(offset_t n, index_t nj, index_source I, index_source J, index_t tile_cols,
                            std::uint64_t* key, std::uint64_t* src) {
  for (offset_t q = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; q < n; q += offset_t(gridDim.x) * blockDim.x) {
    const index_t k = index_t(q / nj), l = index_t(q % nj);
    key[q] = entry_key(index_at(I, k), index_at(J, l), tile_cols);
    src[q] = 0;
  }
}

__global__ void k_flag_indices(index_t n, index_source L, std::uint8_t* flag) {
  for (index_t k = blockIdx.x * index_t(blockDim.x) + threadIdx.x; k < n; k += index_t(gridDim.x) * blockDim.x)
    flag[index_at(L, k)] = 1;
}

// keep[e] for each entry of C (a thread a tile): inside the region, or
// outside it.
__global__ void k_in_region(offset_t nt, const index_t* tile_row, pattern_ref C, const std::uint8_t* in_rows,
                            const std::uint8_t* in_cols, bool inside, offset_t* keep) {
  for (offset_t t = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; t <= nt; t += offset_t(gridDim.x) * blockDim.x) {
    if (t == nt) {
      keep[C.tile_offset[nt]] = 0;
      continue;
    }
    const index_t r0 = tile_row[t] << tile_shift, c0 = index_t(C.tile_col[t]) << tile_shift;
    const offset_t e0 = C.tile_offset[t], e1 = C.tile_offset[t + 1];
    for (int r = 0; r < tile_dim; ++r) {
      const offset_t b = e0 + C.row_ptr[16 * t + r];
      const offset_t e = r == tile_dim - 1 ? e1 : e0 + C.row_ptr[16 * t + r + 1];
      for (offset_t q = b; q < e; ++q) keep[q] = (in_rows[r0 + r] && in_cols[c0 + C.col_idx[q]]) == inside ? 1 : 0;
    }
  }
}

__global__ void k_kept_keys(offset_t nt, const index_t* tile_row, pattern_ref C, const offset_t* keep,
                            const offset_t* at, index_t tile_cols, std::uint64_t* key, offset_t* gather) {
  for (offset_t t = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; t < nt; t += offset_t(gridDim.x) * blockDim.x) {
    const index_t r0 = tile_row[t] << tile_shift, c0 = index_t(C.tile_col[t]) << tile_shift;
    const offset_t e0 = C.tile_offset[t], e1 = C.tile_offset[t + 1];
    for (int r = 0; r < tile_dim; ++r) {
      const offset_t b = e0 + C.row_ptr[16 * t + r];
      const offset_t e = r == tile_dim - 1 ? e1 : e0 + C.row_ptr[16 * t + r + 1];
      for (offset_t q = b; q < e; ++q)
        if (keep[q]) {
          key[at[q]] = entry_key(r0 + r, c0 + C.col_idx[q], tile_cols);
          gather[at[q]] = q;
        }
    }
  }
}

}  // namespace

device_pattern extract_pattern(const device_pattern& A, const index_source& I, index_t m, const index_source& J,
                               index_t n, device_buffer<offset_t>& gather, stream_t s) {
  entry_key_bits(tiles_for(m), tiles_for(n));  // throws before any work if keys cannot fit
  const csr_pattern a = csr_of(A, s);
  device_buffer<std::uint64_t> jv, jp;
  const index_inverse Ji = inverse_of(J, n, A.ncols, jv, jp, s);
  device_buffer<offset_t> len(m + 1, s), off(m + 1, s);
  k_picked_lengths<<<grid_for(m + 1, kThreads), kThreads, 0, native(s)>>>(m, I, a.row_ptr.data(), len.data());
  check(cudaGetLastError(), "extract");
  exclusive_sum(len.data(), off.data(), m + 1, s);
  const offset_t E = read_back(off.data() + m, s);
  len = device_buffer<offset_t>();
  device_buffer<offset_t> cnt(E + 1, s), out(E + 1, s);
  k_picked_counts<<<grid_for(E + 1, kThreads), kThreads, 0, native(s)>>>(E, m, off.data(), I, a.row_ptr.data(),
                                                                          a.col.data(), Ji, cnt.data());
  check(cudaGetLastError(), "extract");
  exclusive_sum(cnt.data(), out.data(), E + 1, s);
  const offset_t N = read_back(out.data() + E, s);
  cnt = device_buffer<offset_t>();
  device_buffer<std::uint64_t> key(N, s), src(N, s);
  if (E)
    k_picked_keys<<<grid_for(E, kThreads), kThreads, 0, native(s)>>>(E, m, off.data(), I, a.row_ptr.data(),
                                                                      a.col.data(), a.pos.data(), Ji, out.data(),
                                                                      tiles_for(n), key.data(), src.data());
  check(cudaGetLastError(), "extract");
  return pattern_of(m, n, key, src, N, gather, s);
}

device_pattern scatter_pattern(const device_pattern& A, const row_bits* admit, const index_source& I,
                               const index_source& J, index_t nrows, index_t ncols, device_buffer<offset_t>& gather,
                               stream_t s) {
  entry_key_bits(tiles_for(nrows), tiles_for(ncols));
  const offset_t nt = A.ntiles;
  device_buffer<offset_t> cnt(nt + 1, s), at(nt + 1, s);
  k_kept_counts<<<grid_for(nt + 1, kThreads), kThreads, 0, native(s)>>>(nt, ref(A), admit, cnt.data());
  check(cudaGetLastError(), "assign");
  exclusive_sum(cnt.data(), at.data(), nt + 1, s);
  const offset_t n = admit ? read_back(at.data() + nt, s) : A.nnz;
  device_buffer<std::uint64_t> key(n, s), src(n, s);
  {
    const device_buffer<index_t> row = tile_rows_of(A, s);
    if (nt)
      k_scatter_keys<<<grid_for(nt, kThreads), kThreads, 0, native(s)>>>(nt, row.data(), ref(A), admit, at.data(), I,
                                                                          J, tiles_for(ncols), key.data(),
                                                                          src.data());
    check(cudaGetLastError(), "assign");
  }
  return pattern_of(nrows, ncols, key, src, n, gather, s);
}

device_pattern grid_pattern(const index_source& I, index_t ni, const index_source& J, index_t nj, index_t nrows,
                            index_t ncols, stream_t s) {
  entry_key_bits(tiles_for(nrows), tiles_for(ncols));
  // 16 bytes of keys and sources an entry, twice for the sort: past that the
  // count alone would not fit (a scalar over all of a 2^31 x 2^31 C).
  if (ni && nj > std::numeric_limits<offset_t>::max() / 32 / ni)
    throw out_of_memory("tgb::assign: a scalar at " + std::to_string(ni) + " x " + std::to_string(nj) +
                        " positions does not fit in memory");
  const offset_t n = offset_t(ni) * offset_t(nj);
  device_buffer<std::uint64_t> key(n, s), src(n, s);
  if (n)
    k_grid_keys<<<grid_for(n, kThreads), kThreads, 0, native(s)>>>(n, nj, I, J, tiles_for(ncols), key.data(),
                                                                    src.data());
  check(cudaGetLastError(), "assign");
  device_buffer<offset_t> unused;
  return pattern_of(nrows, ncols, key, src, n, unused, s);
}

device_pattern cut_pattern(const device_pattern& C, const index_source& I, index_t ni, const index_source& J,
                           index_t nj, bool inside, device_buffer<offset_t>& gather, stream_t s) {
  const offset_t n = C.nnz;
  device_buffer<std::uint8_t> in_rows(C.nrows, s), in_cols(C.ncols, s);
  check(cudaMemsetAsync(in_rows.data(), 0, std::size_t(C.nrows), native(s)), "assign");
  check(cudaMemsetAsync(in_cols.data(), 0, std::size_t(C.ncols), native(s)), "assign");
  if (ni) k_flag_indices<<<grid_for(ni, kThreads), kThreads, 0, native(s)>>>(ni, I, in_rows.data());
  if (nj) k_flag_indices<<<grid_for(nj, kThreads), kThreads, 0, native(s)>>>(nj, J, in_cols.data());
  const device_buffer<index_t> row = tile_rows_of(C, s);
  device_buffer<offset_t> keep(n + 1, s), at(n + 1, s);
  k_in_region<<<grid_for(C.ntiles + 1, kThreads), kThreads, 0, native(s)>>>(C.ntiles, row.data(), ref(C),
                                                                              in_rows.data(), in_cols.data(), inside,
                                                                              keep.data());
  check(cudaGetLastError(), "assign");
  exclusive_sum(keep.data(), at.data(), n + 1, s);
  const offset_t kept = read_back(at.data() + n, s);
  device_buffer<std::uint64_t> key(kept, s);
  gather = device_buffer<offset_t>(kept, s);
  if (C.ntiles)
    k_kept_keys<<<grid_for(C.ntiles, kThreads), kThreads, 0, native(s)>>>(C.ntiles, row.data(), ref(C), keep.data(),
                                                                           at.data(), tiles_for(C.ncols), key.data(),
                                                                           gather.data());
  check(cudaGetLastError(), "assign");
  // C's entries come in tile order, which is key order: no sort.
  return pattern_from_sorted_keys(C.nrows, C.ncols, key.data(), kept, s);
}

#define TGB_CUDA_ASSIGN(T)                                                                                     \
  template device_tile_matrix<T> extract<T>(const device_tile_matrix<T>&, const index_source&, index_t,          \
                                            const index_source&, index_t, stream_t);                             \
  template device_tile_matrix<T> assign_region<T>(const device_tile_matrix<T>&, const device_tile_matrix<T>*,    \
                                                  const T*, const index_source&, index_t, const index_source&,   \
                                                  index_t, int, stream_t);                       \
  template device_tile_matrix<T> subassign_region<T>(const device_tile_matrix<T>&, const device_tile_matrix<T>*, \
                                                     const T*, const index_source&, index_t, const index_source&, \
                                                     index_t, const mask_arg&, int, bool, stream_t);

TGB_CUDA_ASSIGN(bool)
TGB_CUDA_ASSIGN(std::int32_t)
TGB_CUDA_ASSIGN(std::int64_t)
TGB_CUDA_ASSIGN(float)
TGB_CUDA_ASSIGN(double)

}  // namespace tgb::detail::cuda
