// tgb CUDA backend: tile matrices from COO/CSR arrays already in device memory,
// and back to such arrays, without a trip through the host.
//
// From arrays: each entry gets the key (tile key << 8 | local row << 4 |
// local column) with tile key I * tile_cols + J, the keys are radix-sorted
// with their input positions (stable, so duplicates stay in input order), and
// the tile pattern is read off the sorted keys as the transpose does. The
// host waits twice: once for the validation flags and the number of distinct
// entries, once for the number of tiles.
//
// Adopted row arrays (import_device_csr) are only checked: row pointers,
// columns in range and increasing within rows, one read-only pass each.
//
// To arrays: the scalar row pointers (scalar_row_ptr, shared with the row
// path's CSR of B), then one warp per tile row writes its rows, columns and
// values in CSR order (csr.cuh).
#include <cuda_runtime.h>

#include <string>

#include "tgb/detail/cuda/common.cuh"
#include "csr.cuh"

namespace tgb::detail::cuda {

namespace {

constexpr int kThreads = 256;
constexpr unsigned long long kNone = ~0ull;

// Element k of an integer array as a signed 64-bit value; unsigned 64-bit
// values past INT64_MAX come back as -1 (out of range of any dimension).
__host__ __device__ inline long long load_int(const int_array& a, offset_t k) {
  if (a.width == 4) {
    return a.is_signed ? (long long)static_cast<const std::int32_t*>(a.data)[k]
                       : (long long)static_cast<const std::uint32_t*>(a.data)[k];
  }
  if (a.is_signed) return static_cast<const std::int64_t*>(a.data)[k];
  const std::uint64_t v = static_cast<const std::uint64_t*>(a.data)[k];
  return v > 0x7FFFFFFFFFFFFFFFull ? -1 : (long long)v;
}

__device__ inline void store_int(const int_out& a, offset_t k, long long v) {
  if (a.width == 4) {
    if (a.is_signed) static_cast<std::int32_t*>(a.data)[k] = std::int32_t(v);
    else static_cast<std::uint32_t*>(a.data)[k] = std::uint32_t(v);
  } else if (a.is_signed) {
    static_cast<std::int64_t*>(a.data)[k] = v;
  } else {
    static_cast<std::uint64_t*>(a.data)[k] = std::uint64_t(v);
  }
}

// status[0]: first bad row pointer; [1]: first entry with a bad row;
// [2]: first entry with a bad column; [3]: number of distinct entries.
__global__ void k_check_rowptr(index_t nrows, int_array rp, offset_t n, unsigned long long* status) {
  for (index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x; i <= nrows; i += index_t(gridDim.x) * blockDim.x) {
    const long long v = load_int(rp, i);
    bool ok = v >= 0 && v <= n;
    if (i == 0) ok = ok && v == 0;
    else ok = ok && v >= load_int(rp, i - 1);
    if (i == nrows) ok = ok && v == n;
    if (!ok) atomicMin(&status[0], (unsigned long long)i);
  }
}

__global__ void k_entry_keys(offset_t n, index_t nrows, index_t ncols, index_t tile_cols, int_array rowptr,
                             int_array rows, int_array cols, std::uint64_t* key, std::uint64_t* idx,
                             unsigned long long* status) {
  for (offset_t e = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; e < n; e += offset_t(gridDim.x) * blockDim.x) {
    long long i = 0;
    if (rows.data) {
      i = load_int(rows, e);
      if (i < 0 || i >= nrows) {
        atomicMin(&status[1], (unsigned long long)e);
        i = 0;
      }
    } else if (nrows > 0) {
      // The last row whose pointer is <= e (bounded even if the pointers are
      // bad: those are reported by k_check_rowptr).
      index_t lo = 0, hi = nrows;
      while (hi - lo > 1) {
        const index_t mid = lo + (hi - lo) / 2;
        if (load_int(rowptr, mid) <= e) lo = mid;
        else hi = mid;
      }
      i = lo;
    }
    long long j = load_int(cols, e);
    if (j < 0 || j >= ncols) {
      atomicMin(&status[2], (unsigned long long)e);
      j = 0;
    }
    const std::uint64_t tk = std::uint64_t(i >> tile_shift) * std::uint64_t(tile_cols) + std::uint64_t(j >> tile_shift);
    key[e] = (tk << 8) | (std::uint64_t(i & 15) << 4) | std::uint64_t(j & 15);
    idx[e] = std::uint64_t(e);
  }
}

__global__ void k_entry_heads(offset_t n, const std::uint64_t* key, offset_t* head) {
  for (offset_t e = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; e <= n; e += offset_t(gridDim.x) * blockDim.x)
    head[e] = (e < n && (e == 0 || key[e] != key[e - 1])) ? 1 : 0;
}

__global__ void k_store_status(const offset_t* count, unsigned long long* status) { status[3] = *count; }

__global__ void k_first_duplicate(offset_t n, const offset_t* head, unsigned long long* first) {
  for (offset_t e = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; e < n; e += offset_t(gridDim.x) * blockDim.x)
    if (!head[e]) atomicMin(first, (unsigned long long)e);
}

// The distinct keys and where each one's run of duplicates starts.
__global__ void k_runs(offset_t n, const std::uint64_t* key, const offset_t* head, const offset_t* pos,
                       std::uint64_t* ukey, offset_t* run) {
  for (offset_t e = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; e <= n; e += offset_t(gridDim.x) * blockDim.x) {
    if (e == n) run[pos[n]] = n;
    else if (head[e]) {
      ukey[pos[e]] = key[e];
      run[pos[e]] = e;
    }
  }
}

template <class T>
__global__ void k_fold_values(offset_t u, const offset_t* run, const std::uint64_t* idx, const T* src, coded_op op,
                              T* out) {
  for (offset_t k = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; k < u; k += offset_t(gridDim.x) * blockDim.x) {
    if (!run) {
      out[k] = src[idx[k]];
      continue;
    }
    const offset_t b = run[k], e = run[k + 1];
    T acc = src[idx[b]];
    for (offset_t q = b + 1; q < e; ++q) acc = op(acc, src[idx[q]]);
    out[k] = acc;
  }
}

__global__ void k_store_rowptr(index_t nrows, const offset_t* off, int_out rowptr) {
  for (index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x; i <= nrows; i += index_t(gridDim.x) * blockDim.x)
    store_int(rowptr, i, off[i]);
}

// Rows, columns and values of one entry at its CSR position.
template <class T>
struct store_entry {
  const T* values;
  int_out rows, cols;
  T* out;
  __device__ void operator()(offset_t p, index_t i, index_t j, offset_t e) const {
    if (rows.data) store_int(rows, p, i);
    if (cols.data) store_int(cols, p, j);
    if (out) out[p] = values[e];
  }
};

// Throws invalid_value unless p is device (or managed) memory.
void check_device_pointer(const void* p, const char* what, const char* name) {
  if (!p) throw invalid_value(std::string("tgb: ") + what + ": " + name + " is null");
  cudaPointerAttributes a{};
  const cudaError_t e = cudaPointerGetAttributes(&a, p);
  if (e != cudaSuccess) {
    cudaGetLastError();
    throw invalid_value(std::string("tgb: ") + what + ": " + name + " is not a pointer CUDA knows (" +
                        cudaGetErrorString(e) + ")");
  }
  if (a.type != cudaMemoryTypeDevice && a.type != cudaMemoryTypeManaged)
    throw invalid_value(std::string("tgb: ") + what + ": " + name +
                        " is not in device memory (pass host arrays to the host constructors, then call to())");
}

long long read_int(const int_array& a, offset_t k, stream_t s) {
  std::uint64_t raw = 0;
  copy_device_to_host(&raw, static_cast<const char*>(a.data) + k * a.width, a.width, s);
  return load_int(int_array{&raw, a.width, a.is_signed}, 0);
}

// The largest value an output index type holds.
long long max_of(const int_out& a) {
  if (a.width == 4) return a.is_signed ? 0x7FFFFFFFll : 0xFFFFFFFFll;
  return 0x7FFFFFFFFFFFFFFFll;
}

void check_fits(const int_out& a, long long need, const char* what, const char* name) {
  if (a.data && need > max_of(a))
    throw invalid_value(std::string("tgb: ") + what + ": " + name + " holds " + std::to_string(a.width * 8) +
                        "-bit integers, too narrow for " + std::to_string(need));
}

}  // namespace

template <class T>
device_tile_matrix<T> from_device_arrays(const char* what, bool csr, index_t nrows, index_t ncols, int_array rowptr,
                                         int_array rows, int_array cols, const T* values, offset_t n, int dup_code,
                                         stream_t s) {
  check_dimensions(nrows, ncols);
  if (n < 0) throw invalid_value(std::string("tgb: ") + what + ": negative entry count " + std::to_string(n));
  if (csr) rows = int_array{};
  else rowptr = int_array{};
  if (csr) check_device_pointer(rowptr.data, what, "rowptr");
  if (n > 0) {
    if (!csr) check_device_pointer(rows.data, what, "rows");
    check_device_pointer(cols.data, what, "column indices");
    check_device_pointer(values, what, "values");
  }
  const index_t tm = tiles_for(nrows), tc = tiles_for(ncols);
  const int key_bits = entry_key_bits(tm, tc);
  device_buffer<unsigned long long> status(4, s);
  check(cudaMemsetAsync(status.data(), 0xFF, 4 * sizeof(unsigned long long), native(s)), "memset");
  if (csr)
    k_check_rowptr<<<grid_for(nrows + 1, kThreads), kThreads, 0, native(s)>>>(nrows, rowptr, n, status.data());
  device_buffer<std::uint64_t> key(n, s), idx(n, s);
  if (n)
    k_entry_keys<<<grid_for(n, kThreads), kThreads, 0, native(s)>>>(n, nrows, ncols, tc, rowptr, rows, cols,
                                                                     key.data(), idx.data(), status.data());
  check(cudaGetLastError(), what);
  sort_pairs(key, idx, n, key_bits, s);
  device_buffer<offset_t> head(n + 1, s), pos(n + 1, s);
  k_entry_heads<<<grid_for(n + 1, kThreads), kThreads, 0, native(s)>>>(n, key.data(), head.data());
  exclusive_sum(head.data(), pos.data(), n + 1, s);
  k_store_status<<<1, 1, 0, native(s)>>>(pos.data() + n, status.data());
  unsigned long long st[4];
  copy_device_to_host(st, status.data(), sizeof st, s);
  if (st[0] != kNone)
    throw invalid_value(std::string("tgb: ") + what + ": row pointers must start at 0, never decrease and end at nnz = " +
                        std::to_string(n) + " (row " + std::to_string(st[0]) + ")");
  if (st[1] != kNone)
    throw index_out_of_bounds(std::string("tgb: ") + what + ": row index " + std::to_string(read_int(rows, st[1], s)) +
                              " at position " + std::to_string(st[1]) + " is outside [0, " + std::to_string(nrows) +
                              ")");
  if (st[2] != kNone)
    throw index_out_of_bounds(std::string("tgb: ") + what + ": column index " +
                              std::to_string(read_int(cols, st[2], s)) + " at position " + std::to_string(st[2]) +
                              " is outside [0, " + std::to_string(ncols) + ")");
  const offset_t u = offset_t(st[3]);
  if (u < n && dup_code < 0) {
    device_buffer<unsigned long long> first(1, s);
    check(cudaMemsetAsync(first.data(), 0xFF, sizeof(unsigned long long), native(s)), "memset");
    k_first_duplicate<<<grid_for(n, kThreads), kThreads, 0, native(s)>>>(n, head.data(), first.data());
    const offset_t e = offset_t(read_back(first.data(), s));
    const std::uint64_t k = read_back(key.data() + e, s);
    const std::uint64_t tk = k >> 8;
    const index_t i = index_t(tk / std::uint64_t(tc)) * tile_dim + index_t((k >> 4) & 15);
    const index_t j = index_t(tk % std::uint64_t(tc)) * tile_dim + index_t(k & 15);
    throw invalid_value(std::string("tgb: ") + what + ": duplicate entry (" + std::to_string(i) + ", " +
                        std::to_string(j) + ") and the duplicate policy is no_duplicates");
  }
  device_tile_matrix<T> out;
  device_buffer<offset_t> run;
  if (u < n) {
    device_buffer<std::uint64_t> ukey(u, s);
    run = device_buffer<offset_t>(u + 1, s);
    k_runs<<<grid_for(n + 1, kThreads), kThreads, 0, native(s)>>>(n, key.data(), head.data(), pos.data(),
                                                                   ukey.data(), run.data());
    check(cudaGetLastError(), what);
    key.swap(ukey);
  }
  head = device_buffer<offset_t>();
  pos = device_buffer<offset_t>();
  out.pat = pattern_from_sorted_keys(nrows, ncols, key.data(), u, s);
  key = device_buffer<std::uint64_t>();
  out.values = device_buffer<T>(u, s);
  if (u)
    k_fold_values<T><<<grid_for(u, kThreads), kThreads, 0, native(s)>>>(u, run.data(), idx.data(), values,
                                                                         coded_op{dup_code}, out.values.data());
  check(cudaGetLastError(), what);
  return out;
}

template <class T>
void to_device_arrays(const device_tile_matrix<T>& A, int_out rowptr, int_out rows, int_out cols, T* values,
                      stream_t s) {
  const char* what = "to_device_csr/to_device_coo";
  const device_pattern& p = A.pat;
  check_fits(rowptr, p.nnz, what, "rowptr");
  check_fits(rows, p.nrows - 1, what, "rows");
  check_fits(cols, p.ncols - 1, what, "column indices");
  if (rowptr.data) check_device_pointer(rowptr.data, what, "rowptr");
  if (p.nnz > 0) {
    if (rows.data) check_device_pointer(rows.data, what, "rows");
    if (cols.data) check_device_pointer(cols.data, what, "column indices");
    if (values) check_device_pointer(values, what, "values");
  }
  const device_buffer<offset_t> off = scalar_row_ptr(p, s);
  if (rowptr.data)
    k_store_rowptr<<<grid_for(p.nrows + 1, kThreads), kThreads, 0, native(s)>>>(p.nrows, off.data(), rowptr);
  if (p.nnz > 0 && (rows.data || cols.data || values) && p.nrows > 0)
    csr::for_entries(p, off.data(), store_entry<T>{A.values.data(), rows, cols, values}, s);
  check(cudaGetLastError(), what);
}

// The device's two forms: rows to tiles through the array import (its
// checks cannot fail on a well-formed row form), tiles to rows through the
// export with 32-bit columns.
template <class T>
device_tile_matrix<T> tiles_of(const device_row_matrix<T>& r, stream_t s) {
  return from_device_arrays<T>("row form to tiles", true, r.nrows, r.ncols, int_array_of(r.row_ptr.data()),
                               int_array{}, int_array_of(r.col.data()), r.values.data(), r.nnz, -1, s);
}

template <class T>
device_row_matrix<T> rows_of(const device_tile_matrix<T>& t, stream_t s) {
  if (!rows_fit(t.pat.ncols))
    throw not_implemented("tgb: the device's row form holds at most 2^31 - 2 columns (" + std::to_string(t.pat.ncols) +
                          " asked)");
  device_row_matrix<T> r;
  r.nrows = t.pat.nrows;
  r.ncols = t.pat.ncols;
  r.nnz = t.pat.nnz;
  r.row_ptr = scalar_row_ptr(t.pat, s);
  r.col = device_buffer<std::int32_t>(r.nnz, s);
  r.values = device_buffer<T>(r.nnz, s);
  if (r.nnz > 0 && r.nrows > 0)
    csr::for_entries(t.pat, r.row_ptr.data(), store_entry<T>{t.values.data(), int_out{}, int_out_of(r.col.data()), r.values.data()}, s);
  check(cudaGetLastError(), "tiles to row form");
  return r;
}

namespace {
// status[1]: the first entry not after the one before it in its row (it does
// not start a row, and its column is not larger); status[2]: the first entry
// with a column outside [0, ncols). The row pointers were checked first.
__global__ void k_check_sorted_rows(offset_t n, index_t nrows, index_t ncols, const offset_t* rp,
                                    const std::int32_t* col, unsigned long long* status) {
  for (offset_t e = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; e < n; e += offset_t(gridDim.x) * blockDim.x) {
    const std::int32_t j = col[e];
    if (j < 0 || j >= ncols) atomicMin(&status[2], (unsigned long long)e);
    if (e == 0 || col[e - 1] < j) continue;
    // Whether e starts a row: some rp[i] == e (a binary search; only the
    // row boundaries and the errors get here).
    index_t lo = 0, hi = nrows;  // rp[lo] <= e < rp[hi] holds for lo = 0 and hi = nrows
    while (hi - lo > 1) {
      const index_t mid = lo + (hi - lo) / 2;
      if (rp[mid] <= e) lo = mid;
      else hi = mid;
    }
    if (rp[lo] != e) atomicMin(&status[1], (unsigned long long)e);
  }
}
}  // namespace

void check_csr_arrays(const char* what, index_t nrows, index_t ncols, const offset_t* rowptr, const std::int32_t* col,
                      offset_t nnz, stream_t s) {
  check_device_pointer(rowptr, what, "rowptr");
  if (nnz > 0) check_device_pointer(col, what, "column indices");
  device_buffer<unsigned long long> status(4, s);
  check(cudaMemsetAsync(status.data(), 0xFF, 4 * sizeof(unsigned long long), native(s)), "memset");
  k_check_rowptr<<<grid_for(nrows + 1, kThreads), kThreads, 0, native(s)>>>(nrows, int_array_of(rowptr), nnz,
                                                                             status.data());
  check(cudaGetLastError(), what);
  unsigned long long st[4];
  copy_device_to_host(st, status.data(), sizeof st, s);
  if (st[0] != kNone)
    throw invalid_value(std::string("tgb: ") + what + ": row pointers must start at 0, never decrease and end at nnz = " +
                        std::to_string(nnz) + " (row " + std::to_string(st[0]) + ")");
  if (nnz == 0) return;
  k_check_sorted_rows<<<grid_for(nnz, kThreads), kThreads, 0, native(s)>>>(nnz, nrows, ncols, rowptr, col,
                                                                           status.data());
  check(cudaGetLastError(), what);
  copy_device_to_host(st, status.data(), sizeof st, s);
  if (st[2] != kNone)
    throw index_out_of_bounds(std::string("tgb: ") + what + ": column index " +
                              std::to_string(read_back(col + st[2], s)) + " at position " + std::to_string(st[2]) +
                              " is outside [0, " + std::to_string(ncols) + ")");
  if (st[1] != kNone)
    throw invalid_value(std::string("tgb: ") + what + ": the entry at position " + std::to_string(st[1]) +
                        " does not come after the one before it in its row: rows must be sorted by column, "
                        "without repeats");
}

namespace {
__global__ void k_flags_to_bool(offset_t n, const std::uint8_t* ok, bool* out) {
  for (offset_t e = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; e < n; e += offset_t(gridDim.x) * blockDim.x)
    out[e] = ok ? ok[e] != 0 : true;
}
template <class U>
__global__ void k_nonzero(offset_t n, const U* vals, std::uint8_t* ok) {
  for (offset_t e = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; e < n; e += offset_t(gridDim.x) * blockDim.x)
    ok[e] = vals[e] != U(0) ? 1 : 0;
}
}  // namespace

std::unique_ptr<mask_tiles> mask_to_tiles(const mask_arg& M, stream_t s) {
  auto own = std::make_unique<mask_tiles>();
  mask_tiles& t = *own;
  device_buffer<bool> vals(M.nnz, s);
  if (M.nnz) k_flags_to_bool<<<grid_for(M.nnz, kThreads), kThreads, 0, native(s)>>>(M.nnz, M.ok, vals.data());
  check(cudaGetLastError(), "mask to tiles");
  t.m = from_device_arrays<bool>("mask rows to tiles", true, M.nrows, M.ncols, int_array_of(M.row_ptr), int_array{},
                                 int_array_of(M.col), vals.data(), M.nnz, -1, s);
  t.arg.pat = &t.m.pat;
  t.arg.complement = M.complement;
  if (M.ok) {
    t.bits = value_mask_bits(t.m, s);
    t.arg.bits = t.bits.data();
  } else {
    t.arg.bits = t.m.pat.row_mask.data();
  }
  return own;
}

template <class U>
device_buffer<std::uint8_t> nonzero_flags(const device_row_matrix<U>& m, stream_t s) {
  device_buffer<std::uint8_t> ok(m.nnz, s);
  if (m.nnz) k_nonzero<U><<<grid_for(m.nnz, kThreads), kThreads, 0, native(s)>>>(m.nnz, m.values.data(), ok.data());
  check(cudaGetLastError(), "value mask flags");
  return ok;
}

#define TGB_CUDA_CONVERT(T)                                                                                      \
  template device_tile_matrix<T> from_device_arrays(const char*, bool, index_t, index_t, int_array, int_array, \
                                                    int_array, const T*, offset_t, int, stream_t);             \
  template void to_device_arrays(const device_tile_matrix<T>&, int_out, int_out, int_out, T*, stream_t);        \
  template device_tile_matrix<T> tiles_of(const device_row_matrix<T>&, stream_t);                               \
  template device_row_matrix<T> rows_of(const device_tile_matrix<T>&, stream_t);                                \
  template device_buffer<std::uint8_t> nonzero_flags(const device_row_matrix<T>&, stream_t);
TGB_CUDA_CONVERT(bool)
TGB_CUDA_CONVERT(std::int32_t)
TGB_CUDA_CONVERT(std::int64_t)
TGB_CUDA_CONVERT(float)
TGB_CUDA_CONVERT(double)

}  // namespace tgb::detail::cuda
