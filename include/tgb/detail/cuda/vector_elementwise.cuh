// tgb CUDA backend: the element-wise vector operations (declared in api.hpp):
// casts, union and intersection, apply, index-unary apply, select, fill and
// the reduction to a scalar. The predefined operators travel as run-time
// codes (algebra.hpp), as in the matrix element-wise operations, so one
// instantiation per pair of value types serves them all. Each result is a
// fresh vector in the host's bitmap layout, its count left for nvals().
#pragma once

#include "tgb/detail/cuda/common.cuh"

namespace tgb::detail::cuda {

// out(i) = f(i) for every i: f returns whether the result stores i and sets
// its value.
template <class TW, class F>
__global__ void k_vector_map(index_t n, F f, TW* t, std::uint8_t* tp) {
  for (index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x; i < n; i += index_t(gridDim.x) * blockDim.x) {
    TW x{};
    const bool has = f(i, x);
    tp[i] = has;
    t[i] = x;  // T{} where nothing is stored: a copy of t reads nothing unset
  }
}

template <class TW, class F>
device_vector<TW> vector_map(index_t n, const F& f, stream_t s, const char* what) {
  device_vector<TW> t;
  t.n = n;
  t.values = device_buffer<TW>(static_cast<std::size_t>(n), s);
  t.present = device_buffer<std::uint8_t>(static_cast<std::size_t>(n), s);
  if (n) {
    k_vector_map<TW><<<std::min<unsigned>(grid_for(n, 256), 8192), 256, 0, native(s)>>>(n, f, t.values.data(),
                                                                                          t.present.data());
    check(cudaGetLastError(), what);
  } else {
    t.nvals = 0;
  }
  return t;
}

template <class TW, class TU>
struct cast_fn {
  const TU* u;
  const std::uint8_t* up;
  __device__ bool operator()(index_t i, TW& x) const {
    if (!up[i]) return false;
    x = cast<TW>(u[i]);
    return true;
  }
};
template <class TW, class TU>
device_vector<TW> vector_cast(const device_vector<TU>& u, stream_t s) {
  device_vector<TW> t = vector_map<TW>(u.n, cast_fn<TW, TU>{u.values.data(), u.present.data()}, s, "vector cast");
  t.nvals = u.nvals.load();
  return t;
}

// mode 0: intersection; 1: union; 2: union with alpha and beta standing in
// for the missing operand (GxB_eWiseUnion).
template <class TW, class D>
struct ewise_fn {
  const D *u, *v;
  const std::uint8_t *up, *vp;
  coded_op op;
  int mode;
  D alpha, beta;
  __device__ bool operator()(index_t i, TW& x) const {
    const bool hu = up[i], hv = vp[i];
    if (hu && hv) x = cast<TW>(op(u[i], v[i]));
    else if (mode == 2 && hu) x = cast<TW>(op(u[i], beta));
    else if (mode == 2 && hv) x = cast<TW>(op(alpha, v[i]));
    else if (mode == 1 && hu) x = cast<TW>(u[i]);
    else if (mode == 1 && hv) x = cast<TW>(v[i]);
    else return false;
    return true;
  }
};
template <class TW, class D>
device_vector<TW> vector_ewise(const device_vector<D>& u, const device_vector<D>& v, int op_code, int mode, D alpha,
                               D beta, stream_t s) {
  return vector_map<TW>(u.n,
                        ewise_fn<TW, D>{u.values.data(), v.values.data(), u.present.data(), v.present.data(),
                                        coded_op{op_code}, mode, alpha, beta},
                        s, "vector element-wise");
}

template <class TW, class TU>
struct apply_fn {
  const TU* u;
  const std::uint8_t* up;
  coded_unary f;
  __device__ bool operator()(index_t i, TW& x) const {
    if (!up[i]) return false;
    x = cast<TW>(f(u[i]));
    return true;
  }
};
template <class TW, class TU>
device_vector<TW> vector_apply(const device_vector<TU>& u, const coded_unary& f, stream_t s) {
  device_vector<TW> t =
      vector_map<TW>(u.n, apply_fn<TW, TU>{u.values.data(), u.present.data(), f}, s, "vector apply");
  t.nvals = u.nvals.load();
  return t;
}

// code: index_unary_code (algebra.hpp); a vector's column index is 0.
template <class TW, class TU>
struct apply_index_fn {
  const TU* u;
  const std::uint8_t* up;
  int code;
  coded_scalar thunk;
  __device__ bool operator()(index_t i, TW& x) const {
    if (!up[i]) return false;
    x = coded_index_value<TW>{code}(u[i], i, index_t(0), thunk);
    return true;
  }
};
template <class TW, class TU>
device_vector<TW> vector_apply_index(const device_vector<TU>& u, int code, const coded_scalar& thunk, stream_t s) {
  device_vector<TW> t = vector_map<TW>(u.n, apply_index_fn<TW, TU>{u.values.data(), u.present.data(), code, thunk},
                                       s, "vector apply_index");
  t.nvals = u.nvals.load();
  return t;
}

template <class TW, class TU>
struct select_fn {
  const TU* u;
  const std::uint8_t* up;
  coded_select pred;
  coded_scalar thunk;
  __device__ bool operator()(index_t i, TW& x) const {
    if (!up[i] || !pred(u[i], i, index_t(0), thunk)) return false;
    x = cast<TW>(u[i]);
    return true;
  }
};
template <class TW, class TU>
device_vector<TW> vector_select(const device_vector<TU>& u, const coded_select& pred, const coded_scalar& thunk,
                                stream_t s) {
  return vector_map<TW>(u.n, select_fn<TW, TU>{u.values.data(), u.present.data(), pred, thunk}, s, "vector select");
}

template <class T>
struct fill_fn {
  T x;
  __device__ bool operator()(index_t, T& out) const {
    out = x;
    return true;
  }
};
template <class T>
device_vector<T> vector_fill(index_t n, T x, stream_t s) {
  device_vector<T> t = vector_map<T>(n, fill_fn<T>{x}, s, "vector fill");
  t.nvals = n;
  return t;
}

// ---- index lists: gather (extract), scatter (assign), indices from a vector ------
__device__ inline index_t index_at(const index_source& I, index_t k) {
  return I.list ? I.list[k] : static_cast<index_t>(static_cast<unsigned long long>(I.begin) +
                                                   static_cast<unsigned long long>(k) *
                                                       static_cast<unsigned long long>(I.stride));
}

template <class T>
struct gather_fn {
  const T* u;
  const std::uint8_t* up;
  index_source I;
  __device__ bool operator()(index_t k, T& x) const {
    const index_t i = index_at(I, k);
    if (!up[i]) return false;
    x = u[i];
    return true;
  }
};
template <class T>
device_vector<T> vector_gather(const device_vector<T>& u, const index_source& I, index_t len, stream_t s) {
  return vector_map<T>(len, gather_fn<T>{u.values.data(), u.present.data(), I}, s, "vector extract");
}

// z starts as a copy of w; then z(I(k)) = accum(w(I(k)), t(k)) for each k.
// The indices are distinct, so no two threads write one element.
template <class T>
__global__ void k_vector_scatter(index_t len, index_source I, const T* w, const std::uint8_t* wp, const T* t,
                                 const std::uint8_t* tp, coded_op accum, bool has_accum, T* z, std::uint8_t* zp) {
  for (index_t k = blockIdx.x * index_t(blockDim.x) + threadIdx.x; k < len; k += index_t(gridDim.x) * blockDim.x) {
    const index_t i = index_at(I, k);
    const bool hw = has_accum && wp[i], ht = tp[k];
    T v{};
    if (hw && ht) v = accum(w[i], t[k]);
    else if (hw) v = w[i];
    else if (ht) v = t[k];
    z[i] = v;
    zp[i] = hw || ht;
  }
}
template <class T>
device_vector<T> vector_scatter(const device_vector<T>& w, const device_vector<T>& t, const index_source& I,
                                int accum_code, stream_t s) {
  device_vector<T> z = clone(w, s);
  z.nvals = -1;
  if (t.n) {
    k_vector_scatter<T><<<std::min<unsigned>(grid_for(t.n, 256), 8192), 256, 0, native(s)>>>(
        t.n, I, w.values.data(), w.present.data(), t.values.data(), t.present.data(), coded_op{accum_code},
        accum_code >= 0, z.values.data(), z.present.data());
    check(cudaGetLastError(), "vector assign");
  } else {
    z.nvals = w.nvals.load();
  }
  return z;
}

// ---- scatter with repeated indices: sort (index, place), fold each run ----------
// keys[k] = list[k], order[k] = k.
__global__ void k_fold_keys(index_t len, const index_t* list, std::uint64_t* keys, std::uint64_t* order);

template <class T>
struct fold_entry {
  T v;
  // Whether the source stores a value at this place: 0 or 1 in a word of T's
  // size, so that the struct has no padding (CUB moves it as whole words,
  // and compute-sanitizer's initcheck reports unset padding bytes read).
  std::conditional_t<sizeof(T) == 8, std::uint64_t, std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint8_t>> p;
};
static_assert(sizeof(fold_entry<double>) == 16 && sizeof(fold_entry<float>) == 8 && sizeof(fold_entry<bool>) == 2,
              "fold_entry has no padding");
// Folds two entries of one run in order (associative where the operator is).
struct fold_entries {
  coded_op op;
  template <class T>
  __device__ fold_entry<T> operator()(const fold_entry<T>& a, const fold_entry<T>& b) const {
    if (!a.p) return b;
    if (!b.p) return a;
    fold_entry<T> r;
    r.v = op(a.v, b.v);
    r.p = 1;
    return r;
  }
};
template <class T>
__global__ void k_fold_gather(index_t len, const std::uint64_t* order, const T* t, const std::uint8_t* tp,
                              fold_entry<T>* out) {
  for (index_t p = blockIdx.x * index_t(blockDim.x) + threadIdx.x; p < len; p += index_t(gridDim.x) * blockDim.x) {
    const std::uint64_t k = order[p];
    fold_entry<T> e;
    e.v = t[k];
    e.p = tp[k] != 0;
    out[p] = e;
  }
}
// z(i) = accum(w(i), run's fold), or the fold where w has no i, for each of
// the *runs runs.
template <class T>
__global__ void k_fold_write(const index_t* runs, const std::uint64_t* keys, const fold_entry<T>* agg, const T* w,
                             const std::uint8_t* wp, coded_op accum, T* z, std::uint8_t* zp) {
  const index_t nr = *runs;
  for (index_t r = blockIdx.x * index_t(blockDim.x) + threadIdx.x; r < nr; r += index_t(gridDim.x) * blockDim.x) {
    const fold_entry<T> a = agg[r];
    if (!a.p) continue;
    const std::uint64_t i = keys[r];
    z[i] = wp[i] ? accum(w[i], a.v) : a.v;
    zp[i] = 1;
  }
}
// For operators that are not associative: the first place of each run walks
// it in list order.
template <class T>
__global__ void k_fold_walk(index_t len, const std::uint64_t* keys, const std::uint64_t* order, const T* t,
                            const std::uint8_t* tp, const T* w, const std::uint8_t* wp, coded_op accum, T* z,
                            std::uint8_t* zp) {
  for (index_t p = blockIdx.x * index_t(blockDim.x) + threadIdx.x; p < len; p += index_t(gridDim.x) * blockDim.x) {
    if (p > 0 && keys[p - 1] == keys[p]) continue;
    const std::uint64_t i = keys[p];
    bool has = wp[i];
    T acc = w[i];
    for (index_t q = p; q < len && keys[q] == i; ++q) {
      const std::uint64_t k = order[q];
      if (!tp[k]) continue;
      acc = has ? accum(acc, t[k]) : t[k];
      has = true;
    }
    if (has) {
      z[i] = acc;
      zp[i] = 1;
    }
  }
}
template <class T>
device_vector<T> vector_stored(const device_vector<T>& v, stream_t s) {
  if (v.nvals.load() == v.n) {
    device_vector<T> out = clone(v, s);
    return out;
  }
  device_buffer<index_t> count(1, s);
  device_buffer<T> packed(static_cast<std::size_t>(std::max<index_t>(v.n, 1)), s);
  if (v.n)
    with_temp(s, [&](void* tmp, std::size_t& b) {
      return cub::DeviceSelect::Flagged(tmp, b, v.values.data(), v.present.data(), packed.data(), count.data(), v.n,
                                        native(s));
    });
  else
    check(cudaMemsetAsync(count.data(), 0, sizeof(index_t), native(s)), "stored values");
  const index_t len = read_back(count.data(), s);
  device_vector<T> out(len, s);
  if (len) {
    check(cudaMemcpyAsync(out.values.data(), packed.data(), static_cast<std::size_t>(len) * sizeof(T),
                          cudaMemcpyDeviceToDevice, native(s)),
          "stored values");
    check(cudaMemsetAsync(out.present.data(), 1, static_cast<std::size_t>(len), native(s)), "stored values");
  }
  out.nvals = len;
  return out;
}

constexpr bool associative_code(int c) { return c == 0 || (c >= 2 && c <= 11); }

template <class T>
device_vector<T> vector_scatter_fold(const device_vector<T>& w, const device_vector<T>& t, const index_t* list,
                                     int accum_code, stream_t s) {
  device_vector<T> z = clone(w, s);
  const index_t len = t.n;
  if (!len) return z;
  z.nvals = -1;
  device_buffer<std::uint64_t> keys(static_cast<std::size_t>(len), s), order(static_cast<std::size_t>(len), s);
  const unsigned grid = std::min<unsigned>(grid_for(len, 256), 8192);
  k_fold_keys<<<grid, 256, 0, native(s)>>>(len, list, keys.data(), order.data());
  check(cudaGetLastError(), "vector assign");
  sort_pairs(keys, order, len, bits_for(static_cast<unsigned long long>(w.n)), s);
  const coded_op accum{accum_code};
  if (associative_code(accum_code)) {
    device_buffer<fold_entry<T>> in(static_cast<std::size_t>(len), s), agg(static_cast<std::size_t>(len), s);
    device_buffer<std::uint64_t> uniq(static_cast<std::size_t>(len), s);
    device_buffer<index_t> runs(1, s);
    k_fold_gather<T><<<grid, 256, 0, native(s)>>>(len, order.data(), t.values.data(), t.present.data(), in.data());
    check(cudaGetLastError(), "vector assign");
    with_temp(s, [&](void* tmp, std::size_t& b) {
      return cub::DeviceReduce::ReduceByKey(tmp, b, keys.data(), uniq.data(), in.data(), agg.data(), runs.data(),
                                            fold_entries{accum}, len, native(s));
    });
    k_fold_write<T><<<grid, 256, 0, native(s)>>>(runs.data(), uniq.data(), agg.data(), w.values.data(),
                                                 w.present.data(), accum, z.values.data(), z.present.data());
  } else {
    k_fold_walk<T><<<grid, 256, 0, native(s)>>>(len, keys.data(), order.data(), t.values.data(), t.present.data(),
                                                w.values.data(), w.present.data(), accum, z.values.data(),
                                                z.present.data());
  }
  check(cudaGetLastError(), "vector assign");
  return z;
}

template <class T>
__global__ void k_vector_differ(index_t n, const T* a, const std::uint8_t* ap, const T* b, const std::uint8_t* bp,
                                int* differ) {
  for (index_t i = blockIdx.x * index_t(blockDim.x) + threadIdx.x; i < n; i += index_t(gridDim.x) * blockDim.x)
    if (ap[i] != bp[i] || (ap[i] && !(a[i] == b[i]))) *differ = 1;
}
template <class T>
bool vector_equal(const device_vector<T>& a, const device_vector<T>& b, stream_t s) {
  if (a.n != b.n) return false;
  if (a.n == 0) return true;
  const index_t na = a.nvals.load(), nb = b.nvals.load();
  if (na >= 0 && nb >= 0 && na != nb) return false;
  device_buffer<int> differ(1, s);
  device_zero(differ.data(), sizeof(int), s);
  k_vector_differ<T><<<std::min<unsigned>(grid_for(a.n, 256), 4096), 256, 0, native(s)>>>(
      a.n, a.values.data(), a.present.data(), b.values.data(), b.present.data(), differ.data());
  check(cudaGetLastError(), "vector comparison");
  return read_back(differ.data(), s) == 0;
}

// ---- reduction -----------------------------------------------------------------
// Each block folds a contiguous stretch of u and counts the stored entries;
// one block then folds the blocks' values in block order. Values travel with
// a flag saying whether they hold anything, so that a monoid whose identity
// absorbs (any: any(identity, x) is the identity) still returns a stored
// value.
constexpr int kReduceBlocks = 1024, kReduceThreads = 256;

// The fold of the block's (x, has) in thread order; meaningful in thread 0.
template <class T>
__device__ T block_fold(T x, bool& has, const coded_monoid& m, T* smem, int* smem_has) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  warp_fold_pair(x, has, m);
  if (lane == 0) {
    smem[warp] = x;
    smem_has[warp] = has;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    x = T{};
    has = false;
    for (int w = 0; w < int(blockDim.x >> 5); ++w) fold_pair(x, has, smem[w], smem_has[w] != 0, m);
  }
  return x;
}

template <class T>
__global__ void k_vector_reduce_blocks(index_t n, const T* u, const std::uint8_t* up, coded_monoid m, T* part,
                                       std::uint8_t* part_has, unsigned long long* count) {
  __shared__ T smem[kReduceThreads / 32];
  __shared__ int smem_has[kReduceThreads / 32];
  const index_t per = (n + gridDim.x - 1) / gridDim.x;
  const index_t b = blockIdx.x * per, e = b + per < n ? b + per : n;
  T acc{};
  bool has = false;
  unsigned long long k = 0;
  for (index_t i = b + threadIdx.x; i < e; i += blockDim.x)
    if (up[i]) {
      fold_pair(acc, has, u[i], true, m);
      ++k;
    }
  for (int o = 16; o > 0; o >>= 1) k += __shfl_down_sync(0xFFFFFFFFu, k, o);
  if ((threadIdx.x & 31) == 0 && k) atomicAdd(count, k);
  acc = block_fold(acc, has, m, smem, smem_has);
  if (threadIdx.x == 0) {
    part[blockIdx.x] = acc;
    part_has[blockIdx.x] = has;
  }
}

template <class T>
__global__ void k_vector_reduce_final(int nparts, const T* part, const std::uint8_t* part_has, coded_monoid m,
                                      T* out) {
  __shared__ T smem[kReduceThreads / 32];
  __shared__ int smem_has[kReduceThreads / 32];
  T acc{};
  bool has = false;
  // Contiguous parts per thread, then threads in order: a fixed order for a
  // given n, whatever the GPU.
  const int per = (nparts + blockDim.x - 1) / blockDim.x;
  for (int k = threadIdx.x * per; k < (int(threadIdx.x) + 1) * per && k < nparts; ++k)
    fold_pair(acc, has, part[k], part_has[k] != 0, m);
  acc = block_fold(acc, has, m, smem, smem_has);
  if (threadIdx.x == 0) *out = acc;
}

template <class T>
T vector_reduce(const device_vector<T>& u, const coded_monoid& m, bool* has, stream_t s) {
  *has = false;
  if (u.n == 0 || u.nvals == 0) return m.identity<T>();
  struct result {
    T value;
    unsigned long long count;
  };
  device_buffer<result> out(1, s);
  device_buffer<T> part(kReduceBlocks, s);
  device_buffer<std::uint8_t> part_has(kReduceBlocks, s);
  device_zero(out.data(), sizeof(result), s);
  const int blocks = int(std::min<index_t>(kReduceBlocks, (u.n + kReduceThreads - 1) / kReduceThreads));
  k_vector_reduce_blocks<T><<<blocks, kReduceThreads, 0, native(s)>>>(u.n, u.values.data(), u.present.data(), m,
                                                                       part.data(), part_has.data(),
                                                                       &out.data()->count);
  k_vector_reduce_final<T><<<1, kReduceThreads, 0, native(s)>>>(blocks, part.data(), part_has.data(), m,
                                                                &out.data()->value);
  check(cudaGetLastError(), "vector reduce");
  const result r = read_back(out.data(), s);
  *has = r.count > 0;
  return *has ? r.value : m.identity<T>();
}

}  // namespace tgb::detail::cuda
