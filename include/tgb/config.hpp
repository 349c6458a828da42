// tgb: basic types and portability macros shared by every header.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__CUDACC__)
#define TGB_HD __host__ __device__
#define TGB_DEVICE_CODE 1
#else
#define TGB_HD
#endif

#define TGB_VERSION_MAJOR 0
#define TGB_VERSION_MINOR 1
#define TGB_VERSION_PATCH 0

// CUDA's stream handle, declared here so host-only code can pass streams.
struct CUstream_st;

namespace tgb {

// A CUDA stream (cudaStream_t); nullptr is the default stream.
using stream_t = CUstream_st*;

// Global row/column index and dimension type (signed, like GrB_Index but with
// room to detect negative input).
using index_t = std::int64_t;
// Offsets into the entry arrays: 64 bits so a matrix may hold more than 2^31
// stored entries.
using offset_t = std::int64_t;
// Tile-column index. A tile covers 16 columns, so 32 bits reach 2^36 columns.
using tile_index_t = std::uint32_t;

inline constexpr int tile_dim = 16;
inline constexpr int tile_shift = 4;
inline constexpr int tile_area = tile_dim * tile_dim;
// Largest supported row or column count: every tile index must fit in 32 bits.
inline constexpr index_t max_dimension = index_t(1) << 36;

// Where a matrix lives and where an operation runs.
enum class backend { host, cuda };

}  // namespace tgb
