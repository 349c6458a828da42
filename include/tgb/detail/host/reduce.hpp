// tgb host backend: reductions. Entries are combined in increasing column
// order, starting from the first stored entry (no identity start), so an
// empty row yields no entry and any/first-style monoids are deterministic.
#pragma once

#include <vector>

#include "tgb/detail/tile_storage.hpp"
#include "tgb/vector.hpp"

namespace tgb::detail::host {

// w(i) = fold of row i of A, for rows with at least one entry.
template <class TW, class TA, class Monoid>
void reduce_rows(const tile_matrix<TA>& A, const Monoid& m, TW* vals, std::uint8_t* present) {
  const tile_pattern& p = A.pat;
  const index_t tm = p.tile_rows();
#pragma omp parallel for schedule(dynamic, 16) if (tm > kParallelRows)
  for (index_t I = 0; I < tm; ++I) {
    TW acc[tile_dim];
    bool has[tile_dim] = {};
    for (offset_t t = p.tile_ptr[I]; t < p.tile_ptr[I + 1]; ++t) {
      const auto tr = tile_at(A, t);
      for (int r = 0; r < tile_dim; ++r)
        for (int q = tr.row_begin(r); q < tr.row_end(r); ++q) {
          const TW v = static_cast<TW>(tr.values[q]);
          if (!has[r]) {
            acc[r] = v;
            has[r] = true;
          } else if (!m.is_terminal(acc[r])) {
            acc[r] = m(acc[r], v);
          }
        }
    }
    const int nr = static_cast<int>(std::min<index_t>(tile_dim, p.nrows - I * tile_dim));
    for (int r = 0; r < nr; ++r) {
      present[I * tile_dim + r] = has[r];
      if (has[r]) vals[I * tile_dim + r] = acc[r];
    }
  }
}

// Fold of every entry; `has` false when A is empty.
template <class TS, class TA, class Monoid>
TS reduce_all(const tile_matrix<TA>& A, const Monoid& m, bool& has) {
  const std::size_t n = A.values.size();
  has = n > 0;
  if (!has) return m.template identity<TS>();
  // Fixed-size chunks combined in order keep the result independent of the
  // thread count.
  const std::size_t chunk = 1 << 16;
  const std::size_t nchunks = (n + chunk - 1) / chunk;
  buffer<TS> part(nchunks);
#pragma omp parallel for schedule(dynamic, 1) if (nchunks > 1)
  for (std::size_t c = 0; c < nchunks; ++c) {
    const std::size_t b = c * chunk, e = std::min(n, b + chunk);
    TS acc = static_cast<TS>(A.values[b]);
    for (std::size_t k = b + 1; k < e && !m.is_terminal(acc); ++k) acc = m(acc, static_cast<TS>(A.values[k]));
    part[c] = acc;
  }
  TS acc = part[0];
  for (std::size_t c = 1; c < nchunks && !m.is_terminal(acc); ++c) acc = m(acc, part[c]);
  return acc;
}

}  // namespace tgb::detail::host
