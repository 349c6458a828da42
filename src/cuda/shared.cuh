// tgb CUDA backend: small kernels and steps that several translation units of
// src/cuda use (each gets its own copy: internal linkage).
#pragma once

#include "tgb/detail/cuda/common.cuh"

namespace tgb::detail::cuda {
namespace {

__global__ void k_set(offset_t* p, offset_t v) { *p = v; }

// A C tile key I * cols + J -> (I, J). Both fit 32 bits on all but huge
// matrices, and a 32-bit division is a few instructions where a 64-bit one
// is a long software routine (it was a large share of k_compact's issued
// instructions on lap2d, H100 ncu r100).
__device__ inline void split_tile_key(std::uint64_t key, std::uint64_t cols, index_t& I, index_t& J) {
  if (((key | cols) >> 32) == 0) {
    const std::uint32_t k = std::uint32_t(key), c = std::uint32_t(cols), q = k / c;
    I = index_t(q);
    J = index_t(k - q * c);
  } else {
    const std::uint64_t q = key / cols;
    I = index_t(q);
    J = index_t(key - q * cols);
  }
}

// tile_ptr[I] = first tile of tile row I, from each tile's (sorted) tile row.
__global__ void k_tile_ptr(index_t tm, const index_t* tile_row, offset_t nt, offset_t* tile_ptr) {
  for (index_t I = blockIdx.x * index_t(blockDim.x) + threadIdx.x; I <= tm; I += index_t(gridDim.x) * blockDim.x)
    tile_ptr[I] = lower_bound(tile_row, nt, I);
}

// Heads of runs of equal keys among the first n (keys below `invalid`).
__global__ void k_heads(offset_t n, const std::uint64_t* key, std::uint64_t invalid, offset_t* head) {
  for (offset_t p = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; p <= n; p += offset_t(gridDim.x) * blockDim.x)
    head[p] = (p < n && key[p] != invalid && (p == 0 || key[p] != key[p - 1])) ? 1 : 0;
}

__global__ void k_scatter_heads(offset_t n, const std::uint64_t* key, const offset_t* head, const offset_t* idx,
                                offset_t* begin, std::uint64_t* ckey) {
  for (offset_t p = blockIdx.x * offset_t(blockDim.x) + threadIdx.x; p < n; p += offset_t(gridDim.x) * blockDim.x)
    if (head[p]) {
      begin[idx[p]] = p;
      ckey[idx[p]] = key[p];
    }
}

constexpr int kSmallThreads = 256;

// Run heads of sorted keys -> candidate list (key, first position).
void heads_to_candidates(const device_buffer<std::uint64_t>& key, offset_t n, std::uint64_t invalid,
                         device_buffer<std::uint64_t>& ckey, device_buffer<offset_t>& begin, offset_t& nc,
                         stream_t s) {
  device_buffer<offset_t> head(n + 1, s), idx(n + 1, s);
  k_heads<<<grid_for(n + 1, kSmallThreads), kSmallThreads, 0, native(s)>>>(n, key.data(), invalid, head.data());
  exclusive_sum(head.data(), idx.data(), n + 1, s);
  nc = read_back(idx.data() + n, s);
  ckey = device_buffer<std::uint64_t>(nc, s);
  begin = device_buffer<offset_t>(nc, s);
  k_scatter_heads<<<grid_for(n, kSmallThreads), kSmallThreads, 0, native(s)>>>(n, key.data(), head.data(), idx.data(),
                                                                      begin.data(), ckey.data());
  check(cudaGetLastError(), "candidate heads");
}

}  // namespace
}  // namespace tgb::detail::cuda
