// Runs the shared per-tile routines on the GPU, one thread per tile pair, so
// the tests can compare them with the same routines run on the host.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tgb/detail/tile_storage.hpp"

namespace tgb_test {

// Tile pairs (A tile t, B tile t) of two matrices with the same tile count,
// plus 16 mask bits per pair.
template <class T>
struct tile_pairs {
  const tgb::detail::tile_matrix<T>* a;
  const tgb::detail::tile_matrix<T>* b;
  std::vector<std::uint16_t> allowed;  // 16 per pair
  bool replace = false;
};

// Per pair: the symbolic bits ANDed with `allowed`, the numeric values from
// the sparse and from the dense accumulator (compressed, 256 slots per pair),
// and the write-back of "C = A tile, T = B tile" with accumulator plus.
template <class T>
struct tile_results {
  std::vector<std::uint16_t> c_mask;
  std::vector<T> sparse_vals, dense_vals;
  std::vector<std::uint16_t> wb_mask;
  std::vector<T> wb_vals;
};

// semiring: 0 plus_times, 1 min_plus, 2 any_second, 3 max_min
template <class T>
tile_results<T> run_tiles_device(const tile_pairs<T>& in, int semiring);
template <class T>
tile_results<T> run_tiles_host(const tile_pairs<T>& in, int semiring);

bool device_available();
std::string device_name();

}  // namespace tgb_test
