// tgb CUDA backend: the element-wise vector operations for every pair of the
// value types the library ships (so that they also cast), fill and reduce
// per type, gather, scatter and comparison per type.
#include "tgb/detail/cuda/vector_elementwise.cuh"


namespace tgb::detail::cuda {

// The first k (in list order) whose index lies outside [0, bound); the
// count is len, or *len_at where that is given.
__global__ void k_first_outside(const index_t* list, index_t len, const index_t* len_at, index_t bound,
                                unsigned long long* first) {
  const index_t n = len_at ? *len_at : len;
  for (index_t k = blockIdx.x * index_t(blockDim.x) + threadIdx.x; k < n; k += index_t(gridDim.x) * blockDim.x)
    if (list[k] < 0 || list[k] >= bound) atomicMin(first, static_cast<unsigned long long>(k));
}

// One read-back (count and check together), two where an index is bad.
vector_index_list vector_indices(const device_vector<index_t>& v, index_t bound, stream_t s) {
  vector_index_list out;
  struct result {
    index_t len;
    unsigned long long first;
  };
  device_buffer<result> r(1, s);
  check(cudaMemsetAsync(&r.data()->len, 0, sizeof(index_t), native(s)), "index list from a vector");
  check(cudaMemsetAsync(&r.data()->first, 0xFF, sizeof(unsigned long long), native(s)), "index list from a vector");
  const bool full = v.nvals.load() == v.n;
  if (v.n) {
    const unsigned grid = std::min<unsigned>(grid_for(v.n, 256), 4096);
    if (full) {
      out.list = v.values.data();
      k_first_outside<<<grid, 256, 0, native(s)>>>(out.list, v.n, nullptr, bound, &r.data()->first);
    } else {
      out.keep = device_buffer<index_t>(static_cast<std::size_t>(v.n), s);
      out.list = out.keep.data();
      with_temp(s, [&](void* t, std::size_t& b) {
        return cub::DeviceSelect::Flagged(t, b, v.values.data(), v.present.data(), out.keep.data(), &r.data()->len,
                                          v.n, native(s));
      });
      k_first_outside<<<grid, 256, 0, native(s)>>>(out.list, 0, &r.data()->len, bound, &r.data()->first);
    }
    check(cudaGetLastError(), "index list from a vector");
  }
  const result got = read_back(r.data(), s);
  out.len = full ? v.n : got.len;
  if (got.first != ~0ull) {
    out.has_bad = true;
    out.bad = read_back(out.list + got.first, s);
  }
  return out;
}

__global__ void k_fold_keys(index_t len, const index_t* list, std::uint64_t* keys, std::uint64_t* order) {
  for (index_t k = blockIdx.x * index_t(blockDim.x) + threadIdx.x; k < len; k += index_t(gridDim.x) * blockDim.x) {
    keys[k] = static_cast<std::uint64_t>(list[k]);
    order[k] = static_cast<std::uint64_t>(k);
  }
}

__global__ void k_adjacent_repeat(index_t len, const std::uint64_t* keys, unsigned long long* first) {
  for (index_t p = 1 + blockIdx.x * index_t(blockDim.x) + threadIdx.x; p < len; p += index_t(gridDim.x) * blockDim.x)
    if (keys[p] == keys[p - 1]) atomicMin(first, static_cast<unsigned long long>(keys[p]));
}

index_t vector_first_repeat(const index_t* list, index_t len, index_t bound, stream_t s) {
  if (len < 2) return -1;
  device_buffer<std::uint64_t> keys(static_cast<std::size_t>(len), s), order(static_cast<std::size_t>(len), s);
  const unsigned grid = std::min<unsigned>(grid_for(len, 256), 8192);
  k_fold_keys<<<grid, 256, 0, native(s)>>>(len, list, keys.data(), order.data());
  check(cudaGetLastError(), "repeated indices");
  sort_keys(keys, len, bits_for(static_cast<unsigned long long>(bound)), s);
  device_buffer<unsigned long long> first(1, s);
  check(cudaMemsetAsync(first.data(), 0xFF, sizeof(unsigned long long), native(s)), "repeated indices");
  k_adjacent_repeat<<<grid, 256, 0, native(s)>>>(len, keys.data(), first.data());
  check(cudaGetLastError(), "repeated indices");
  const unsigned long long got = read_back(first.data(), s);
  return got == ~0ull ? index_t(-1) : static_cast<index_t>(got);
}

#define TGB_CUDA_VECTOR_PAIR(TW, TU)                                                                          \
  template device_vector<TW> vector_cast<TW, TU>(const device_vector<TU>&, stream_t);                        \
  template device_vector<TW> vector_ewise<TW, TU>(const device_vector<TU>&, const device_vector<TU>&, int, int, \
                                                  TU, TU, stream_t);                                          \
  template device_vector<TW> vector_apply<TW, TU>(const device_vector<TU>&, const coded_unary&, stream_t);   \
  template device_vector<TW> vector_apply_index<TW, TU>(const device_vector<TU>&, int, const coded_scalar&,  \
                                                        stream_t);                                            \
  template device_vector<TW> vector_select<TW, TU>(const device_vector<TU>&, const coded_select&,            \
                                                   const coded_scalar&, stream_t);
#define TGB_CUDA_VECTOR_FROM(TU)                                                                               \
  TGB_CUDA_VECTOR_PAIR(bool, TU) TGB_CUDA_VECTOR_PAIR(std::int32_t, TU) TGB_CUDA_VECTOR_PAIR(std::int64_t, TU) \
  TGB_CUDA_VECTOR_PAIR(float, TU) TGB_CUDA_VECTOR_PAIR(double, TU)                                            \
  template device_vector<TU> vector_fill(index_t, TU, stream_t);                                              \
  template TU vector_reduce(const device_vector<TU>&, const coded_monoid&, bool*, stream_t);                   \
  template device_vector<TU> vector_gather(const device_vector<TU>&, const index_source&, index_t, stream_t);   \
  template device_vector<TU> vector_scatter(const device_vector<TU>&, const device_vector<TU>&,                 \
                                            const index_source&, int, stream_t);                               \
  template device_vector<TU> vector_stored(const device_vector<TU>&, stream_t);                                \
  template device_vector<TU> vector_scatter_fold(const device_vector<TU>&, const device_vector<TU>&,              \
                                                 const index_t*, int, stream_t);                                \
  template bool vector_equal(const device_vector<TU>&, const device_vector<TU>&, stream_t);

TGB_CUDA_VECTOR_FROM(bool)
TGB_CUDA_VECTOR_FROM(std::int32_t)
TGB_CUDA_VECTOR_FROM(std::int64_t)
TGB_CUDA_VECTOR_FROM(float)
TGB_CUDA_VECTOR_FROM(double)

}  // namespace tgb::detail::cuda
