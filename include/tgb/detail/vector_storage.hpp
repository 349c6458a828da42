// tgb: the host storage of a Vector, in GraphBLAS's two forms: the bitmap
// (a value and a presence byte per element, and the count) and the sparse
// form (the stored indices, increasing, and their values); the rule that
// picks between them, and the conversions. The backends produce and read
// these; tgb::Vector (vector.hpp) holds one or both.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "tgb/config.hpp"
#include "tgb/detail/buffer.hpp"
#include "tgb/error.hpp"

namespace tgb {

namespace detail {
// The storage of a vector, as the backends produce and read it: values[i] is
// meaningful only where present[i] is 1; nvals counts the ones.
template <class T>
struct vector_bitmap {
  index_t n = 0;
  index_t nvals = 0;
  buffer<T> values;
  buffer<std::uint8_t> present;

  vector_bitmap() = default;
  // n elements, none stored (values left unset).
  explicit vector_bitmap(index_t size)
      : n(size), values(static_cast<std::size_t>(size)), present(static_cast<std::size_t>(size), std::uint8_t(0)) {}
  void swap(vector_bitmap& o) noexcept {
    std::swap(n, o.n);
    std::swap(nvals, o.nvals);
    values.swap(o.values);
    present.swap(o.present);
  }
  // After a backend wrote the presence bytes itself.
  // Eight presence bytes at a time: the high bit of each nonzero byte, counted.
  void recount() noexcept {
    index_t k = 0;
    const std::uint8_t* p = present.data();
    const index_t words = n / 8;
    constexpr std::uint64_t low7 = 0x7F7F7F7F7F7F7F7FULL;
#pragma omp parallel for reduction(+ : k) schedule(static) if (n > 1 << 20)
    for (index_t q = 0; q < words; ++q) {
      std::uint64_t w;
      std::memcpy(&w, p + 8 * q, 8);
      // 0x80 in each nonzero byte, moved to 0x01 and summed by a multiply
      // (no popcount: without -mpopcnt it is a libgcc call, 15% of a BFS).
      k += static_cast<index_t>((((((w & low7) + low7) | w) & ~low7) >> 7) * 0x0101010101010101ULL >> 56);
    }
    for (index_t i = 8 * words; i < n; ++i) k += p[i] != 0;
    nvals = k;
  }
};

// The sparse form: the stored indices, increasing, and their values.
template <class T>
struct vector_sparse {
  index_t n = 0;
  buffer<index_t> index;
  buffer<T> values;

  vector_sparse() = default;
  // nvals entries of a vector of size `size` (arrays left unset).
  vector_sparse(index_t size, index_t nvals)
      : n(size), index(static_cast<std::size_t>(nvals)), values(static_cast<std::size_t>(nvals)) {}
  index_t nvals() const noexcept { return static_cast<index_t>(index.size()); }
  void swap(vector_sparse& o) noexcept {
    std::swap(n, o.n);
    index.swap(o.index);
    values.swap(o.values);
  }
};

// The storage rule for a host vector's form: sparse while it holds at most
// one position in 16 (an empty vector is sparse whatever its size). A result
// an operation made as a bitmap turns sparse only at one in 64 or fewer: the
// conversion is a pass over n, and the next operation may want the bitmap
// back (Bellman-Ford's relaxed distances meet the full distance vector).
inline constexpr index_t kSparseRatio = 16;
inline bool sparse_fits(index_t nvals, index_t n) noexcept { return nvals == 0 || nvals <= n / kSparseRatio; }
inline bool bitmap_goes_sparse(index_t nvals, index_t n) noexcept {
  return nvals == 0 || nvals <= n / (4 * kSparseRatio);
}

template <class T>
vector_bitmap<T> bitmap_of(const vector_sparse<T>& s) {
  vector_bitmap<T> b(s.n);
  const index_t k = s.nvals();
  for (index_t e = 0; e < k; ++e) {
    b.values[s.index[e]] = s.values[e];
    b.present[s.index[e]] = 1;
  }
  b.nvals = k;
  return b;
}

// Positions of a bitmap in increasing order; 8 absent ones are skipped a word at a time.
template <class T>
vector_sparse<T> sparse_of(const vector_bitmap<T>& b) {
  vector_sparse<T> s(b.n, b.nvals);
  const std::uint8_t* p = b.present.data();
  index_t k = 0;
  const index_t words = b.n / 8;
  for (index_t q = 0; q < words && k < b.nvals; ++q) {
    std::uint64_t w;
    std::memcpy(&w, p + 8 * q, 8);
    if (!w) continue;
    for (index_t i = 8 * q; i < 8 * q + 8; ++i)
      if (p[i]) {
        s.index[k] = i;
        s.values[k++] = b.values[i];
      }
  }
  for (index_t i = 8 * words; i < b.n && k < b.nvals; ++i)
    if (p[i]) {
      s.index[k] = i;
      s.values[k++] = b.values[i];
    }
  return s;
}

inline void check_vector_size(index_t n) {
  if (n < 0 || n > max_dimension) throw invalid_value("tgb: invalid vector size " + std::to_string(n));
}
}  // namespace detail

}  // namespace tgb
