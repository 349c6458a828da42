// tgb host backend: the row paths of C = A*B, for hypersparse tiles (most
// tiles holding a few entries), where the tile paths spend their time on tile
// bookkeeping rather than on products: their shared helpers, and the row dot.
// Row saxpy (Gustavson by scalar rows) is in row_saxpy.hpp.
//
//   row dot: for a non-complemented mask much sparser than the product
//     (SuiteSparse's dot3 idea): for every mask entry (i,j), a sparse dot
//     product of A's row i and B's column j, both sorted lists (linear merge,
//     or binary search in the longer one when the lengths are far apart),
//     stopping at the monoid's terminal value. C comes out in row form: the
//     mask's rows, thinned to the entries whose dot product was not empty.
//
// Both create an entry on its first product and then add in increasing k,
// as the tile paths and the oracle do. Every array comes from tgb's host
// resource; an allocation failure inside a parallel region raises a flag and
// out_of_memory is thrown after it, with nothing kept between calls.
#pragma once

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "tgb/algebra.hpp"
#include "tgb/detail/host/mask.hpp"
#include "tgb/detail/row_storage.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "tgb/detail/host/threads.hpp"

namespace tgb::detail::host {

// The positions a non-complemented mask lets through, or a complemented one
// blocks, as sorted rows (M.bits: a value mask has dropped its zeros).
csr_pattern mask_rows(const host_mask& M);
// The same, read off the mask's row form where it has one (no copy), else
// built into scratch.
inline const csr_pattern& listed_rows(const host_mask& M, csr_pattern& scratch) {
  if (const csr_pattern* r = M.rows()) return *r;
  scratch = mask_rows(M);
  return scratch;
}

// Entries per scalar row and per scalar column of a pattern.
void row_counts(const tile_pattern& p, buffer<offset_t>& out);
void col_counts(const tile_pattern& p, buffer<offset_t>& out);

// Splits tile rows into at most `tasks` consecutive ranges of about equal
// work (work[I]: tile row I's cost); bounds gets ranges + 1 entries.
void split_tile_rows(const buffer<offset_t>& work, int tasks, std::vector<index_t>& bounds);

// Bits set in a 16-bit row mask, without a library call (__builtin_popcount
// is one when the build does not target POPCNT).
inline int bitcount16(std::uint32_t x) {
  x = x - ((x >> 1) & 0x5555u);
  x = (x & 0x3333u) + ((x >> 2) & 0x3333u);
  x = (x + (x >> 4)) & 0x0F0Fu;
  return static_cast<int>((x + (x >> 8)) & 0x1Fu);
}

// Bit r set <=> rows[r] != 0, for a tile's 16 row masks (SSE2 where built
// for it): lets the hypersparse loops visit only a tile's non-empty rows.
inline std::uint32_t nonempty_rows(const row_bits* rows) {
#if defined(__SSE2__)
  const __m128i z = _mm_setzero_si128();
  const __m128i lo = _mm_cmpeq_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(rows)), z);
  const __m128i hi = _mm_cmpeq_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(rows + 8)), z);
  return ~static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_packs_epi16(lo, hi))) & 0xFFFFu;
#else
  std::uint32_t m = 0;
  for (int r = 0; r < tile_dim; ++r) m |= std::uint32_t(rows[r] != 0) << r;
  return m;
#endif
}

// Whether the multiply reads its operands: not for pair (plus_pair,
// any_pair), whose CSR views then carry no values.
template <class S, class = void>
struct reads_values : std::true_type {};
template <class S>
struct reads_values<S, std::void_t<typename S::mul_type>>
    : std::bool_constant<!std::is_same_v<typename S::mul_type, pair>> {};

inline int host_threads() { return max_threads(); }

// Grows a scratch array to hold at least n elements, keeping the first `used`.
template <class T>
void grow_keep(buffer<T>& b, std::size_t used, std::size_t n) {
  if (n <= b.size()) return;
  buffer<T> bigger(std::max(n, 2 * b.size()));
  if (used) std::memcpy(static_cast<void*>(bigger.data()), b.data(), used * sizeof(T));
  b.swap(bigger);
}

// A product in the form its method made it. The caller stores it by the
// storage rule.
template <class T>
struct host_product {
  bool in_rows = false;
  bool in_hyper = false;  // in hyper (mxm_hyper_saxpy), else rows or tiles
  tile_matrix<T> tiles;
  csr_matrix<T> rows;
  hyper_matrix<T> hyper;
  offset_t row_tiles = -1;  // in rows: C's tile count where the method counted it
};

// One dot product: a's sorted row (ac, avals, la) against b's (bc, bvals,
// lb), in increasing k. Returns false when no k is shared.
template <class TC, class Col, class TA, class TB, class Semiring>
inline bool sparse_dot(const Col* ac, const TA* avals, offset_t la, const Col* bc, const TB* bvals, offset_t lb,
                       const Semiring& s, TC& out) {
  if (la == 0 || lb == 0 || ac[la - 1] < bc[0] || bc[lb - 1] < ac[0]) return false;
  bool any = false;
  TC acc{};
  auto add = [&](offset_t p, offset_t q) {
    TC prod;
    if constexpr (reads_values<Semiring>::value) prod = s.mul(static_cast<TC>(avals[p]), static_cast<TC>(bvals[q]));
    else prod = s.mul(TC{}, TC{});
    if (any) {
      acc = s.add(acc, prod);
    } else {
      acc = prod;
      any = true;
    }
    return s.add.is_terminal(acc);
  };
  if (la > 16 * lb) {
    const Col* lo = ac;
    for (offset_t q = 0; q < lb; ++q) {
      lo = std::lower_bound(lo, ac + la, bc[q]);
      if (lo == ac + la) break;
      if (*lo == bc[q] && add(lo - ac, q)) break;
    }
  } else if (lb > 16 * la) {
    const Col* lo = bc;
    for (offset_t p = 0; p < la; ++p) {
      lo = std::lower_bound(lo, bc + lb, ac[p]);
      if (lo == bc + lb) break;
      if (*lo == ac[p] && add(p, lo - bc)) break;
    }
  } else {
    offset_t p = 0, q = 0;
    while (p < la && q < lb) {
      const Col x = ac[p], y = bc[q];
      if (x == y) {
        if (add(p++, q++)) break;
      } else {
        p += x < y;
        q += y < x;
      }
    }
  }
  if (any) out = acc;
  return any;
}

// C<M> = A*B by dot products, M not complemented: for every position the
// mask admits (mrows: its rows), the dot product of A's row and Bt's row (B'
// as scalar CSR: C's columns as rows). C comes out in row form: the mask's
// rows, thinned to the entries whose dot product was not empty.
template <class TC, class TA, class TB, class Semiring>
csr_matrix<TC> mxm_rows_dot(const csr_matrix<TA>& A, const csr_matrix<TB>& Bt, const csr_pattern& mrows,
                            const Semiring& s) {
  const index_t nrows = mrows.nrows;
  const offset_t nz = mrows.nnz();
  const offset_t* mrp = mrows.rowptr.data();
  const row_col_t* mci = mrows.colidx.data();
  buffer<row_col_t> cols(static_cast<std::size_t>(nz));
  buffer<TC> vals(static_cast<std::size_t>(nz));
  buffer<offset_t> rowptr(static_cast<std::size_t>(nrows) + 1, offset_t(0));
  const offset_t* arp = A.p.rowptr.data();
  const row_col_t* aci = A.p.colidx.data();
  const TA* av = A.values.data();
  const offset_t* brp = Bt.p.rowptr.data();
  const row_col_t* bci = Bt.p.colidx.data();
  const TB* bv = Bt.values.data();
  // Phase 1: each row's admitted entries, their dot products written over
  // the mask's own positions (found ones first). Rows of A with at least
  // kLongRow entries are scattered once into a per-thread marker (column ->
  // position in the row), and each of their mask entries walks only B's row;
  // shorter rows merge.
  constexpr offset_t kLongRow = 16;
  const index_t inner = A.p.ncols;
  // The marker costs 8 bytes per column per thread, whatever the row: keep it
  // to 32 MB a thread, longer inner dimensions merge.
  const bool use_marker = inner <= (index_t(1) << 22);
  struct marker {
    buffer<std::uint32_t> mstamp, mwhere;
    std::uint32_t cur = 0;
  };
  parallel_tasks(
      nrows, 256, nz > 4096 && nrows > kParallelRows, "tgb: out of memory in mxm (row dot)", [] { return marker(); },
      [&](marker& mk, std::int64_t i) {
        buffer<std::uint32_t>& mstamp = mk.mstamp;
        buffer<std::uint32_t>& mwhere = mk.mwhere;
        std::uint32_t& cur = mk.cur;
        const offset_t q0 = mrp[i], q1 = mrp[i + 1];
        const offset_t a0 = arp[i], la = arp[i + 1] - a0;
        if (q0 == q1 || la == 0) return;
        offset_t out = q0;
        if (use_marker && la >= kLongRow) {
          if (mstamp.size() < static_cast<std::size_t>(inner)) {
            mstamp = buffer<std::uint32_t>();
            mwhere = buffer<std::uint32_t>(static_cast<std::size_t>(inner));
            mstamp = buffer<std::uint32_t>(static_cast<std::size_t>(inner), 0u);
            cur = 0;
          }
          if (cur == 0xFFFFFFFFu) {
            std::fill(mstamp.begin(), mstamp.end(), 0u);
            cur = 0;
          }
          ++cur;
          for (offset_t p = 0; p < la; ++p) {
            mstamp[aci[a0 + p]] = cur;
            mwhere[aci[a0 + p]] = static_cast<std::uint32_t>(p);
          }
          for (offset_t q = q0; q < q1; ++q) {
            const row_col_t j = mci[q];
            bool any = false;
            TC acc{};
            for (offset_t b = brp[j]; b < brp[j + 1]; ++b) {
              const index_t k = bci[b];
              if (mstamp[k] != cur) continue;
              TC prod;
              if constexpr (reads_values<Semiring>::value)
                prod = s.mul(static_cast<TC>(av[a0 + mwhere[k]]), static_cast<TC>(bv[b]));
              else
                prod = s.mul(TC{}, TC{});
              if (any) {
                acc = s.add(acc, prod);
              } else {
                acc = prod;
                any = true;
              }
              if (s.add.is_terminal(acc)) break;
            }
            if (any) {
              cols[out] = j;
              vals[out++] = acc;
            }
          }
        } else {
          for (offset_t q = q0; q < q1; ++q) {
            const row_col_t j = mci[q];
            const offset_t b0 = brp[j];
            TC v;
            if (sparse_dot<TC>(aci + a0, av ? av + a0 : av, la, bci + b0, bv ? bv + b0 : bv, brp[j + 1] - b0, s, v)) {
              cols[out] = j;
              vals[out++] = v;
            }
          }
        }
        rowptr[i + 1] = out - q0;
      });
  // Phase 2: the found entries, compacted.
  csr_matrix<TC> C;
  C.p.nrows = nrows;
  C.p.ncols = mrows.ncols;
  for (index_t i = 0; i < nrows; ++i) rowptr[i + 1] += rowptr[i];
  const offset_t cz = rowptr[nrows];
  C.p.rowptr = std::move(rowptr);
  if (cz == nz) {
    C.p.colidx = std::move(cols);
    C.values = std::move(vals);
    return C;
  }
  C.p.colidx = buffer<row_col_t>(static_cast<std::size_t>(cz));
  C.values = buffer<TC>(static_cast<std::size_t>(cz));
  const offset_t* crp = C.p.rowptr.data();
#pragma omp parallel for schedule(static, 1024) if (nrows > kParallelTiles)
  for (index_t i = 0; i < nrows; ++i) {
    const offset_t n = crp[i + 1] - crp[i];
    for (offset_t e = 0; e < n; ++e) {
      C.p.colidx[crp[i] + e] = cols[mrp[i] + e];
      C.values[crp[i] + e] = vals[mrp[i] + e];
    }
  }
  return C;
}

}  // namespace tgb::detail::host
