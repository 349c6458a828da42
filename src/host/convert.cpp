// tgb: triplet sorting, CSR validation and transposition of the pattern.
#include <algorithm>
#include <numeric>
#include <string>

#include "tgb/matrix.hpp"

namespace tgb::detail {

void sort_triplets(index_t nrows, const index_t* rows, const index_t* cols, std::size_t n, buffer<offset_t>& rowptr,
                   buffer<row_col_t>& colidx, buffer<offset_t>& order) {
  // Counting sort by row (stable), then each row by (column, position).
  rowptr = buffer<offset_t>(static_cast<std::size_t>(nrows) + 1, offset_t(0));
  for (std::size_t k = 0; k < n; ++k) ++rowptr[rows[k] + 1];
  for (index_t i = 0; i < nrows; ++i) rowptr[i + 1] += rowptr[i];
  order = buffer<offset_t>(n);
  {
    buffer<offset_t> next(static_cast<std::size_t>(nrows) + 1);
    std::copy(rowptr.begin(), rowptr.end(), next.begin());
    for (std::size_t k = 0; k < n; ++k) order[next[rows[k]]++] = static_cast<offset_t>(k);
  }
#pragma omp parallel for schedule(dynamic, 1024) if (nrows > kParallelTiles)
  for (index_t i = 0; i < nrows; ++i) {
    // Indices, not pointers: with no entries order.data() is null, and
    // null + 1 is undefined (found by fuzz_from_coo).
    bool sorted = true;
    for (offset_t p = rowptr[i]; p + 1 < rowptr[i + 1]; ++p)
      if (cols[order[p + 1]] < cols[order[p]]) {
        sorted = false;
        break;
      }
    if (!sorted)
      std::stable_sort(order.data() + rowptr[i], order.data() + rowptr[i + 1],
                       [&](offset_t x, offset_t y) { return cols[x] < cols[y]; });
  }
  colidx = buffer<row_col_t>(n);
  for (std::size_t p = 0; p < n; ++p) colidx[p] = static_cast<row_col_t>(cols[order[p]]);
}

void sort_csr_rows(index_t nrows, index_t, const offset_t* rowptr, buffer<row_col_t>& colidx, buffer<offset_t>& order) {
  const std::size_t n = colidx.size();
  order = buffer<offset_t>(n);
  std::iota(order.begin(), order.end(), offset_t(0));
  bool dup = false;
  index_t dup_row = -1, dup_col = -1;
  for (index_t i = 0; i < nrows; ++i) {
    offset_t* b = order.data() + rowptr[i];
    offset_t* e = order.data() + rowptr[i + 1];
    bool sorted = true;
    for (offset_t p = rowptr[i]; p + 1 < rowptr[i + 1]; ++p)
      if (colidx[p + 1] <= colidx[p]) {
        sorted = false;
        break;
      }
    if (sorted) continue;
    std::stable_sort(b, e, [&](offset_t x, offset_t y) { return colidx[x] < colidx[y]; });
    for (offset_t* p = b; p + 1 < e; ++p)
      if (colidx[p[0]] == colidx[p[1]] && !dup) {
        dup = true;
        dup_row = i;
        dup_col = colidx[p[0]];
      }
  }
  if (dup)
    throw invalid_value("tgb: from_csr: duplicate entry (" + std::to_string(dup_row) + ", " + std::to_string(dup_col) +
                        ")");
  buffer<row_col_t> sorted(n);
  for (std::size_t p = 0; p < n; ++p) sorted[p] = colidx[order[p]];
  colidx.swap(sorted);
}

tile_pattern transpose_pattern(const tile_pattern& a, buffer<offset_t>& gather) {
  buffer<offset_t> rp, src;
  buffer<index_t> ci;
  pattern_to_csr(a, rp, ci, src);
  // Counting sort by column: rows come out increasing within each column.
  buffer<offset_t> tp(static_cast<std::size_t>(a.ncols) + 1, offset_t(0));
  for (std::size_t p = 0; p < ci.size(); ++p) ++tp[ci[p] + 1];
  for (index_t j = 0; j < a.ncols; ++j) tp[j + 1] += tp[j];
  buffer<index_t> tcol(ci.size());
  buffer<offset_t> tsrc(ci.size());
  {
    buffer<offset_t> next(tp);
    for (index_t i = 0; i < a.nrows; ++i)
      for (offset_t p = rp[i]; p < rp[i + 1]; ++p) {
        const offset_t q = next[ci[p]]++;
        tcol[q] = i;
        tsrc[q] = src[p];
      }
  }
  buffer<offset_t> perm;
  tile_pattern t = pattern_from_sorted_csr(a.ncols, a.nrows, tp.data(), tcol.data(), perm);
  gather = buffer<offset_t>(perm.size());
  for (std::size_t e = 0; e < perm.size(); ++e) gather[e] = tsrc[perm[e]];
  return t;
}

}  // namespace tgb::detail
