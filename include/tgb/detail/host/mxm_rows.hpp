// tgb host backend: the row paths of C = A*B, for hypersparse tiles (most
// tiles holding a few entries), where the tile paths spend their time on tile
// bookkeeping rather than on products.
//
//   row saxpy: Gustavson by scalar rows on CSR views of A and B. Each thread
//     accumulates a row in a hash table (open addressing, sized to the row's
//     product count) or, when that count is large next to the number of
//     columns, in a dense array with a generation-stamped marker. Work is
//     split into tasks of whole tile rows by product count (about 8 per
//     thread, taken dynamically); each task turns its 16 sorted rows at a
//     time straight into tiles, so no CSR of C is ever built.
//   row dot: for a non-complemented mask much sparser than the product
//     (SuiteSparse's dot3 idea): for every mask entry (i,j), a sparse dot
//     product of A's row i and B's column j, both sorted lists (linear merge,
//     or binary search in the longer one when the lengths are far apart),
//     stopping at the monoid's terminal value. C's tiles are the mask's
//     tiles, thinned to the entries whose dot product was not empty.
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

// A task's share of C when it is written as tiles: its tiles in order (tile
// columns, row bits, entry counts), their local column indices, and (typed)
// their values.
struct tile_chunk {
  buffer<tile_index_t> tcol;
  buffer<row_bits> masks;
  buffer<std::uint8_t> cidx;
  std::size_t ntiles = 0, nnz = 0;
};

// C's pattern from the tasks' chunks (task k covers tile rows
// bounds[k]..bounds[k+1]; tiles_in_row[I] counts tile row I's tiles).
// entry_base[k] receives the first entry of task k.
tile_pattern assemble_chunks(index_t nrows, index_t ncols, const std::vector<index_t>& bounds,
                             const buffer<offset_t>& tiles_in_row, const std::vector<tile_chunk>& chunks,
                             std::vector<offset_t>& entry_base);

// A product in the form its method made it. The caller stores it by the
// storage rule.
template <class T>
struct host_product {
  bool in_rows = false;
  tile_matrix<T> tiles;
  csr_matrix<T> rows;
};

// Per-task (per-thread) workspace of the saxpy rows: lives inside the
// parallel region, so nothing survives an exception.
template <class TC>
struct row_workspace {
  // hash table: key -1 empty; j a column with a value; -2-j a column the
  // mask admits that has no value yet
  buffer<index_t> hkey;
  buffer<TC> hval;
  std::size_t hsize = 0;
  // dense accumulator: mark[j] == stamp (admitted by the mask) or stamp + 1
  // (has a value)
  buffer<std::uint32_t> mark;
  buffer<TC> acc;
  std::uint32_t stamp = 1;
  // a stamp per tile column (counting C's tiles)
  buffer<std::uint32_t> tseen;
  // tiles of the current tile row (tile output): slot of each tile column
  // (all ones when none), the columns met, and per tile a count, then a fill
  // position
  buffer<std::uint32_t> tslot;
  buffer<tile_index_t> tlist;
  buffer<offset_t> tfill;
};

struct saxpy_tuning {
  // A row uses the dense accumulator when (its bound on entries) * ratio >= ncols.
  double dense_ratio = 16.0;
  // Rows of at most this many products use neither accumulator.
  offset_t tiny_row = 32;
};

// The form row saxpy writes C in: tiles at once (from each tile row's 16
// finished rows), or the form the storage rule picks for C under `control`,
// decided once C's entries and tiles are counted (its rows are kept until
// then, and turned into tiles task by task if the rule says so).
enum class saxpy_output { tiles, rule };

// C = A*B (with A, B as scalar CSR), masked by M; the row path.
template <class TC, class TA, class TB, class Semiring>
host_product<TC> mxm_rows_saxpy(const csr_matrix<TA>& A, const csr_matrix<TB>& B, const host_mask& M,
                                const Semiring& s, const saxpy_tuning& tune,
                                saxpy_output output = saxpy_output::rule,
                                storage_control control = storage_control::automatic) {
  const index_t nrows = A.p.nrows, ncols = B.p.ncols;
  const index_t tm = tiles_for(nrows);
  const offset_t* arp = A.p.rowptr.data();
  const index_t* aci = A.p.colidx.data();
  const TA* av = A.values.data();
  const offset_t* brp = B.p.rowptr.data();
  const index_t* bci = B.p.colidx.data();
  const TB* bv = B.values.data();
  constexpr bool kValues = reads_values<Semiring>::value;
  auto aval = [&](offset_t p) { if constexpr (kValues) return static_cast<TC>(av[p]); else return TC{}; };
  auto bval = [&](offset_t q) { if constexpr (kValues) return static_cast<TC>(bv[q]); else return TC{}; };

  csr_pattern scratch;
  const csr_pattern* mr = M.active ? &listed_rows(M, scratch) : nullptr;
  const bool allow = M.active && !M.complement;
  const offset_t* mrp = M.active ? mr->rowptr.data() : nullptr;
  const index_t* mci = M.active ? mr->colidx.data() : nullptr;

  // Work per tile row: products, plus one per row so empty rows count.
  buffer<offset_t> work(static_cast<std::size_t>(tm), offset_t(0));
#pragma omp parallel for schedule(static, 64) if (tm > kParallelRows)
  for (index_t I = 0; I < tm; ++I) {
    offset_t w = 0;
    const index_t i1 = std::min(nrows, (I + 1) * tile_dim);
    for (index_t i = I * tile_dim; i < i1; ++i) {
      ++w;
      for (offset_t p = arp[i]; p < arp[i + 1]; ++p) w += brp[aci[p] + 1] - brp[aci[p]];
    }
    work[I] = w;
  }
  std::vector<index_t> bounds;
  split_tile_rows(work, 8 * host_threads(), bounds);
  const bool tiles_out = output == saxpy_output::tiles;
  const int ntasks = static_cast<int>(bounds.size()) - 1;
  // Each thread appends its tasks' rows to one arena of its own (grown by
  // doubling, so a thread copies its output a few times at most, not each
  // task its own); the row lengths go to rowptr[i + 1].
  const int nthreads = std::max(1, host_threads());
  std::vector<buffer<index_t>> acols(static_cast<std::size_t>(nthreads));
  std::vector<buffer<TC>> avals(static_cast<std::size_t>(nthreads));
  std::vector<int> task_thread(static_cast<std::size_t>(ntasks), 0);
  std::vector<std::size_t> task_begin(static_cast<std::size_t>(ntasks), 0), cnnz(static_cast<std::size_t>(ntasks), 0);
  // Tile output: the arena holds one tile row at a time, each task's tiles
  // go to its chunk.
  std::vector<tile_chunk> chunks(static_cast<std::size_t>(ntasks));
  std::vector<buffer<TC>> cvals(static_cast<std::size_t>(ntasks));
  buffer<offset_t> tiles_in_row(static_cast<std::size_t>(tm), offset_t(0));
  const index_t tcols = tiles_for(ncols);
  const bool tile_slots = tcols <= (index_t(1) << 22);  // at most 16 MB a thread
  // Rule output: C's tiles counted per task as its rows are made (a stamp
  // per tile column, at most 16 MB a thread); past that width the caller's
  // store counts them.
  const bool count_c_tiles =
      !tiles_out && tile_slots && control != storage_control::rows && tm < (index_t(1) << 32);
  std::vector<offset_t> task_tiles(static_cast<std::size_t>(ntasks), 0);
  buffer<offset_t> rowptr(static_cast<std::size_t>(nrows) + 1, offset_t(0));
  bool failed = false;

  // Writes tile row I's rows (row r at rb[r]..re[r] of the arrays rcol0 and
  // rval0 hold from row0o on, nused entries in all) into task's chunk as
  // tiles, in tile order.
  auto write_tiles = [&](int task, index_t I, int nr, const offset_t* rb, const offset_t* re, offset_t row0o,
                         const index_t* rcol0, const TC* rval0, std::size_t nused, row_workspace<TC>& ws) {
    tile_chunk& ch = chunks[task];
    buffer<TC>& cv = cvals[task];
      // The 16 sorted rows -> tiles, in tile order.
      if (nused == 0) return;
      grow_keep(ch.cidx, ch.nnz, ch.nnz + nused);
      grow_keep(cv, ch.nnz, ch.nnz + nused);
      if (tile_slots) {
        // Tile columns through a slot array: a few passes over the
        // entries instead of a 16-row merge per tile.
        if (ws.tslot.size() < static_cast<std::size_t>(tcols))
          ws.tslot = buffer<std::uint32_t>(static_cast<std::size_t>(tcols), ~std::uint32_t(0));
        grow_keep(ws.tlist, 0, nused);
        grow_keep(ws.tfill, 0, nused);
        std::uint32_t* slot = ws.tslot.data();
        tile_index_t* tl = ws.tlist.data();
        offset_t* fill = ws.tfill.data();
        std::size_t nt = 0;
        for (std::size_t e = 0; e < nused; ++e) {
          const index_t J = rcol0[e] >> tile_shift;
          if (slot[J] == ~std::uint32_t(0)) {
            slot[J] = 0;
            tl[nt++] = static_cast<tile_index_t>(J);
          }
        }
        std::sort(tl, tl + nt);
        try {
          grow_keep(ch.tcol, ch.ntiles, ch.ntiles + nt);
          grow_keep(ch.masks, 16 * ch.ntiles, 16 * (ch.ntiles + nt));
        } catch (...) {
          for (std::size_t l = 0; l < nt; ++l) slot[tl[l]] = ~std::uint32_t(0);
          throw;
        }
        row_bits* bits = &ch.masks[16 * ch.ntiles];
        for (std::size_t l = 0; l < nt; ++l) {
          slot[tl[l]] = static_cast<std::uint32_t>(l);
          ch.tcol[ch.ntiles + l] = tl[l];
          fill[l] = 0;
          for (int r = 0; r < tile_dim; ++r) bits[16 * l + r] = 0;
        }
        for (int r = 0; r < nr; ++r)
          for (offset_t e = (rb[r] - row0o); e < (re[r] - row0o); ++e) {
            const std::uint32_t l = slot[rcol0[e] >> tile_shift];
            bits[16 * l + r] = row_bits(bits[16 * l + r] | (1u << (rcol0[e] & (tile_dim - 1))));
            ++fill[l];
          }
        offset_t at = static_cast<offset_t>(ch.nnz);
        for (std::size_t l = 0; l < nt; ++l) {
          const offset_t c = fill[l];
          fill[l] = at;
          at += c;
        }
        for (int r = 0; r < nr; ++r)
          for (offset_t e = (rb[r] - row0o); e < (re[r] - row0o); ++e) {
            const offset_t q = fill[slot[rcol0[e] >> tile_shift]]++;
            ch.cidx[q] = static_cast<std::uint8_t>(rcol0[e] & (tile_dim - 1));
            cv[q] = rval0[e];
          }
        for (std::size_t l = 0; l < nt; ++l) slot[tl[l]] = ~std::uint32_t(0);
        ch.ntiles += nt;
        ch.nnz += nused;
        tiles_in_row[I] = static_cast<offset_t>(nt);
        return;
      }
      offset_t cur[tile_dim];
      for (int r = 0; r < tile_dim; ++r) cur[r] = (rb[r] - row0o);
      offset_t ntiles = 0;
      for (;;) {
        index_t J = -1;
        for (int r = 0; r < nr; ++r)
          if (cur[r] < (re[r] - row0o)) {
            const index_t jj = rcol0[cur[r]] >> tile_shift;
            if (J < 0 || jj < J) J = jj;
          }
        if (J < 0) break;
        grow_keep(ch.tcol, ch.ntiles, ch.ntiles + 1);
        grow_keep(ch.masks, 16 * ch.ntiles, 16 * ch.ntiles + 16);
        row_bits* bits = &ch.masks[16 * ch.ntiles];
        for (int r = 0; r < tile_dim; ++r) {
          row_bits b = 0;
          while (cur[r] < (re[r] - row0o) && (rcol0[cur[r]] >> tile_shift) == J) {
            const int c = static_cast<int>(rcol0[cur[r]] & (tile_dim - 1));
            b = row_bits(b | (1u << c));
            ch.cidx[ch.nnz] = static_cast<std::uint8_t>(c);
            cv[ch.nnz] = rval0[cur[r]];
            ++ch.nnz;
            ++cur[r];
          }
          bits[r] = b;
        }
        ch.tcol[ch.ntiles++] = static_cast<tile_index_t>(J);
        ++ntiles;
      }
      tiles_in_row[I] = ntiles;
  };

#pragma omp parallel if (ntasks > 1 && work.size() > 0)
  {
    row_workspace<TC> ws;
    const int me = std::min(thread_num(), nthreads - 1);
    std::size_t arena_fill = 0;
    if (!tiles_out) {
      // The rows of C stay in the arenas until the end: start each at its
      // thread's share of the products, so that it seldom grows and copies
      // (the memory is touched only as used).
      // A mask that is not complemented bounds C by its own entries; the
      // cap (2^24 entries, 256 MB of fp64 rows a thread) keeps a product with
      // far more products than entries from reserving what it never uses.
      double products = 0;
      for (index_t I = 0; I < tm; ++I) products += double(work[I]);
      if (allow) products = std::min(products, double(mr->nnz()));
      const double share = std::min(products / double(nthreads), double(std::size_t(1) << 24));
      try {
        grow_keep(acols[me], 0, static_cast<std::size_t>(share));
        grow_keep(avals[me], 0, static_cast<std::size_t>(share));
      } catch (...) {
#pragma omp atomic write
        failed = true;
      }
    }
#pragma omp for schedule(dynamic, 1)
    for (int task = 0; task < ntasks; ++task) {
      bool stop;
#pragma omp atomic read
      stop = failed;
      if (stop) continue;
      try {
        buffer<index_t>& rcol = acols[me];
        buffer<TC>& rval = avals[me];
        std::size_t used = arena_fill;
        task_thread[task] = me;
        task_begin[task] = used;
        for (index_t I = bounds[task]; I < bounds[task + 1]; ++I) {
          offset_t rb[tile_dim], re[tile_dim];
          const std::size_t row0 = used;
          const index_t i0 = I * tile_dim;
          const int nr = static_cast<int>(std::min<index_t>(tile_dim, nrows - i0));
          for (int r = 0; r < tile_dim; ++r) {
            rb[r] = re[r] = static_cast<offset_t>(used);
            if (r >= nr) continue;
            const index_t i = i0 + r;
            offset_t fl = 0;
            for (offset_t p = arp[i]; p < arp[i + 1]; ++p) fl += brp[aci[p] + 1] - brp[aci[p]];
            if (fl == 0) continue;
            const offset_t mlen = M.active ? mrp[i + 1] - mrp[i] : 0;
            if (allow && mlen == 0) continue;
            // Scatter the mask row first when it is no longer than the
            // products; otherwise filter the finished row by merging.
            // A row of few products skips the accumulators: its products,
            // kept in k order per column by a stable insertion sort, fold.
            const bool tiny = fl <= tune.tiny_row;
            const bool scatter = !tiny && allow && mlen <= fl;
            const offset_t entries = scatter ? mlen : fl;
            offset_t bound = std::min<offset_t>(fl, ncols);
            if (allow) bound = std::min(bound, mlen);
            if (tiny) bound = fl;
            grow_keep(rcol, used, used + static_cast<std::size_t>(bound));
            grow_keep(rval, used, used + static_cast<std::size_t>(bound));
            index_t* cols = rcol.data() + used;
            TC* vals = rval.data() + used;
            std::size_t n = 0;
            const bool dense = !tiny && double(entries) * tune.dense_ratio >= double(ncols);
            if (tiny) {
              for (offset_t p = arp[i]; p < arp[i + 1]; ++p) {
                const index_t k = aci[p];
                const TC a = aval(p);
                for (offset_t q = brp[k]; q < brp[k + 1]; ++q) {
                  const index_t j = bci[q];
                  const TC v = s.mul(a, bval(q));
                  std::size_t pos = n++;
                  for (; pos > 0 && cols[pos - 1] > j; --pos) {
                    cols[pos] = cols[pos - 1];
                    vals[pos] = vals[pos - 1];
                  }
                  cols[pos] = j;
                  vals[pos] = v;
                }
              }
              std::size_t out = 0;
              for (std::size_t e = 0; e < n; ++e) {
                if (out && cols[out - 1] == cols[e]) {
                  if (!s.add.is_terminal(vals[out - 1])) vals[out - 1] = s.add(vals[out - 1], vals[e]);
                } else {
                  cols[out] = cols[e];
                  vals[out] = vals[e];
                  ++out;
                }
              }
              n = out;
            } else if (dense) {
              if (ws.mark.size() < static_cast<std::size_t>(ncols) || ws.acc.size() < ws.mark.size()) {
                ws.mark = buffer<std::uint32_t>();
                ws.acc = buffer<TC>();
                ws.acc = buffer<TC>(static_cast<std::size_t>(ncols));
                ws.mark = buffer<std::uint32_t>(static_cast<std::size_t>(ncols), 0u);
                ws.stamp = 1;
              }
              if (ws.stamp > 0xFFFFFFF0u) {
                std::fill(ws.mark.begin(), ws.mark.end(), 0u);
                ws.stamp = 1;
              }
              const std::uint32_t admit = ws.stamp, set = ws.stamp + 1;
              ws.stamp += 2;
              std::uint32_t* mark = ws.mark.data();
              TC* acc = ws.acc.data();
              if (scatter)
                for (offset_t q = mrp[i]; q < mrp[i + 1]; ++q) mark[mci[q]] = admit;
              for (offset_t p = arp[i]; p < arp[i + 1]; ++p) {
                const index_t k = aci[p];
                const TC a = aval(p);
                for (offset_t q = brp[k]; q < brp[k + 1]; ++q) {
                  const index_t j = bci[q];
                  const std::uint32_t m = mark[j];
                  if (m == set) {
                    if (!s.add.is_terminal(acc[j])) acc[j] = s.add(acc[j], s.mul(a, bval(q)));
                  } else if (!scatter || m == admit) {
                    mark[j] = set;
                    acc[j] = s.mul(a, bval(q));
                    cols[n++] = j;
                  }
                }
              }
              if (double(n) * 8.0 >= double(ncols)) {
                n = 0;
                for (index_t j = 0; j < ncols; ++j)
                  if (mark[j] == set) cols[n++] = j;
              } else {
                std::sort(cols, cols + n);
              }
              for (std::size_t e = 0; e < n; ++e) vals[e] = acc[cols[e]];
            } else {
              std::size_t hs = 16;
              while (hs < 2 * static_cast<std::size_t>(entries)) hs *= 2;
              if (ws.hkey.size() < hs || ws.hval.size() < hs) {
                ws.hkey = buffer<index_t>();
                ws.hval = buffer<TC>();
                ws.hval = buffer<TC>(hs);
                ws.hkey = buffer<index_t>(hs, index_t(-1));
              }
              const std::size_t hm = hs - 1;
              index_t* key = ws.hkey.data();
              TC* hv = ws.hval.data();
              if (scatter)
                for (offset_t q = mrp[i]; q < mrp[i + 1]; ++q) {
                  const index_t j = mci[q];
                  std::size_t h = (static_cast<std::size_t>(j) * 257) & hm;
                  while (key[h] != -1) h = (h + 1) & hm;
                  key[h] = -2 - j;
                }
              for (offset_t p = arp[i]; p < arp[i + 1]; ++p) {
                const index_t k = aci[p];
                const TC a = aval(p);
                for (offset_t q = brp[k]; q < brp[k + 1]; ++q) {
                  const index_t j = bci[q];
                  std::size_t h = (static_cast<std::size_t>(j) * 257) & hm;
                  for (;;) {
                    const index_t kk = key[h];
                    if (kk == j) {
                      if (!s.add.is_terminal(hv[h])) hv[h] = s.add(hv[h], s.mul(a, bval(q)));
                      break;
                    }
                    if (kk == -1) {
                      if (!scatter) {
                        key[h] = j;
                        hv[h] = s.mul(a, bval(q));
                        cols[n++] = j;
                      }
                      break;
                    }
                    if (kk == -2 - j) {
                      key[h] = j;
                      hv[h] = s.mul(a, bval(q));
                      cols[n++] = j;
                      break;
                    }
                    h = (h + 1) & hm;
                  }
                }
              }
              std::sort(cols, cols + n);
              for (std::size_t e = 0; e < n; ++e) {
                std::size_t h = (static_cast<std::size_t>(cols[e]) * 257) & hm;
                while (key[h] != cols[e]) h = (h + 1) & hm;
                vals[e] = hv[h];
              }
              // Clear what this row used: the whole table while it is small
              // next to the row, else the keys one by one. With a scattered
              // mask always the whole table: emptying the row's keys first
              // would open holes in the probe chains of the mask's keys, and
              // a mask key past a hole would survive into the next row.
              if (scatter || hs <= 4 * n + 64) {
                std::fill(key, key + hs, index_t(-1));
              } else {
                for (std::size_t e = 0; e < n; ++e) {
                  std::size_t h = (static_cast<std::size_t>(cols[e]) * 257) & hm;
                  while (key[h] != cols[e]) h = (h + 1) & hm;
                  key[h] = -1;
                }
                if (scatter)
                  for (offset_t q = mrp[i]; q < mrp[i + 1]; ++q) {
                    const index_t j = mci[q];
                    std::size_t h = (static_cast<std::size_t>(j) * 257) & hm;
                    while (key[h] != -2 - j && key[h] != -1) h = (h + 1) & hm;
                    if (key[h] == -2 - j) key[h] = -1;
                  }
              }
            }
            // The mask, where it was not scattered: keep (or, complemented,
            // drop) the columns it lists.
            if (M.active && !scatter && n) {
              std::size_t out = 0;
              offset_t q = mrp[i];
              const offset_t qe = mrp[i + 1];
              for (std::size_t e = 0; e < n; ++e) {
                while (q < qe && mci[q] < cols[e]) ++q;
                const bool listed = q < qe && mci[q] == cols[e];
                if (listed == allow) {
                  cols[out] = cols[e];
                  vals[out] = vals[e];
                  ++out;
                }
              }
              n = out;
            }
            used += n;
            re[r] = static_cast<offset_t>(used);
          }
          if (tiles_out) {
            // The 16 sorted rows -> tiles of this task's chunk; the arena is
            // free again for the next tile row.
            const std::size_t nused = used - row0;
            used = row0;
            write_tiles(task, I, nr, rb, re, static_cast<offset_t>(row0), rcol.data() + row0, rval.data() + row0, nused,
                        ws);
            continue;
          }
          if (count_c_tiles) {
            // C's tiles in this tile row, for the storage rule at the end.
            if (ws.tseen.size() < static_cast<std::size_t>(tcols))
              ws.tseen = buffer<std::uint32_t>(static_cast<std::size_t>(tcols), 0u);
            const std::uint32_t mark = static_cast<std::uint32_t>(I + 1);
            offset_t nt = 0;
            for (std::size_t e = row0; e < used; ++e) {
              std::uint32_t& seen = ws.tseen[static_cast<std::size_t>(rcol[e] >> tile_shift)];
              if (seen != mark) {
                seen = mark;
                ++nt;
              }
            }
            task_tiles[task] += nt;
          }
          for (int r = 0; r < nr; ++r) rowptr[i0 + r + 1] = re[r] - rb[r];
        }
        cnnz[task] = used - task_begin[task];
        arena_fill = used;
      } catch (...) {
#pragma omp atomic write
        failed = true;
      }
    }
  }
  if (failed) throw out_of_memory("tgb: out of memory in mxm (row path)");
  host_product<TC> out;
  bool to_tiles = tiles_out || control == storage_control::tiles;
  if (count_c_tiles && control == storage_control::automatic) {
    offset_t ct = 0, cz = 0;
    for (int task = 0; task < ntasks; ++task) {
      ct += task_tiles[task];
      cz += static_cast<offset_t>(cnnz[task]);
    }
    to_tiles = choose_form(control, backend::host, nrows, ct, cz, sizeof(TC)) == storage_form::tiles;
  }
  if (to_tiles && !tiles_out) {
    // The rule wants tiles: each task's rows (still in its thread's arena,
    // row lengths in rowptr) become its chunk's tiles.
#pragma omp parallel if (ntasks > 1)
    {
      row_workspace<TC> ws;
#pragma omp for schedule(dynamic, 1)
      for (int task = 0; task < ntasks; ++task) {
        bool stop;
#pragma omp atomic read
        stop = failed;
        if (stop) continue;
        try {
          const int t = task_thread[task];
          offset_t pos = static_cast<offset_t>(task_begin[task]);
          for (index_t I = bounds[task]; I < bounds[task + 1]; ++I) {
            offset_t rb[tile_dim], re[tile_dim];
            const index_t i0 = I * tile_dim;
            const int nr = static_cast<int>(std::min<index_t>(tile_dim, nrows - i0));
            const offset_t row0 = pos;
            for (int r = 0; r < tile_dim; ++r) {
              rb[r] = pos;
              if (r < nr) pos += rowptr[i0 + r + 1];
              re[r] = pos;
            }
            write_tiles(task, I, nr, rb, re, row0, acols[t].data() + row0, avals[t].data() + row0,
                        static_cast<std::size_t>(pos - row0), ws);
          }
        } catch (...) {
#pragma omp atomic write
          failed = true;
        }
      }
    }
    if (failed) throw out_of_memory("tgb: out of memory in mxm (row path)");
  }
  if (to_tiles) {
    tile_matrix<TC>& T = out.tiles;
    std::vector<offset_t> entry_base;
    T.pat = assemble_chunks(nrows, ncols, bounds, tiles_in_row, chunks, entry_base);
    T.values = buffer<TC>(static_cast<std::size_t>(T.pat.nnz()));
#pragma omp parallel for schedule(dynamic, 1) if (ntasks > 1)
    for (int task = 0; task < ntasks; ++task)
      if (chunks[task].nnz)
        std::memcpy(static_cast<void*>(T.values.data() + entry_base[task]), cvals[task].data(),
                    chunks[task].nnz * sizeof(TC));
    return out;
  }
  out.in_rows = true;
  csr_matrix<TC>& C = out.rows;
  C.p.nrows = nrows;
  C.p.ncols = ncols;
  for (index_t i = 0; i < nrows; ++i) rowptr[i + 1] += rowptr[i];
  const offset_t nz = rowptr[nrows];
  C.p.rowptr = std::move(rowptr);
  C.p.colidx = buffer<index_t>(static_cast<std::size_t>(nz));
  C.values = buffer<TC>(static_cast<std::size_t>(nz));
#pragma omp parallel for schedule(dynamic, 1) if (ntasks > 1)
  for (int task = 0; task < ntasks; ++task)
    if (cnnz[task]) {
      const offset_t at = C.p.rowptr[std::min(nrows, bounds[task] * tile_dim)];
      const std::size_t from = task_begin[task];
      const int t = task_thread[task];
      std::memcpy(static_cast<void*>(C.p.colidx.data() + at), acols[t].data() + from, cnnz[task] * sizeof(index_t));
      std::memcpy(static_cast<void*>(C.values.data() + at), avals[t].data() + from, cnnz[task] * sizeof(TC));
    }
  return out;
}

// One dot product: a's sorted row (ac, avals, la) against b's (bc, bvals,
// lb), in increasing k. Returns false when no k is shared.
template <class TC, class TA, class TB, class Semiring>
inline bool sparse_dot(const index_t* ac, const TA* avals, offset_t la, const index_t* bc, const TB* bvals,
                       offset_t lb, const Semiring& s, TC& out) {
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
    const index_t* lo = ac;
    for (offset_t q = 0; q < lb; ++q) {
      lo = std::lower_bound(lo, ac + la, bc[q]);
      if (lo == ac + la) break;
      if (*lo == bc[q] && add(lo - ac, q)) break;
    }
  } else if (lb > 16 * la) {
    const index_t* lo = bc;
    for (offset_t p = 0; p < la; ++p) {
      lo = std::lower_bound(lo, bc + lb, ac[p]);
      if (lo == bc + lb) break;
      if (*lo == ac[p] && add(p, lo - bc)) break;
    }
  } else {
    offset_t p = 0, q = 0;
    while (p < la && q < lb) {
      const index_t x = ac[p], y = bc[q];
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
  const index_t* mci = mrows.colidx.data();
  buffer<index_t> cols(static_cast<std::size_t>(nz));
  buffer<TC> vals(static_cast<std::size_t>(nz));
  buffer<offset_t> rowptr(static_cast<std::size_t>(nrows) + 1, offset_t(0));
  const offset_t* arp = A.p.rowptr.data();
  const index_t* aci = A.p.colidx.data();
  const TA* av = A.values.data();
  const offset_t* brp = Bt.p.rowptr.data();
  const index_t* bci = Bt.p.colidx.data();
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
  bool failed = false;
#pragma omp parallel if (nz > 4096 && nrows > kParallelRows)
  {
    buffer<std::uint32_t> mstamp, mwhere;
    std::uint32_t cur = 0;
#pragma omp for schedule(dynamic, 256)
    for (index_t i = 0; i < nrows; ++i) {
      bool stop;
#pragma omp atomic read
      stop = failed;
      if (stop) continue;
      const offset_t q0 = mrp[i], q1 = mrp[i + 1];
      const offset_t a0 = arp[i], la = arp[i + 1] - a0;
      if (q0 == q1 || la == 0) continue;
      offset_t out = q0;
      try {
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
            const index_t j = mci[q];
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
            const index_t j = mci[q];
            const offset_t b0 = brp[j];
            TC v;
            if (sparse_dot<TC>(aci + a0, av ? av + a0 : av, la, bci + b0, bv ? bv + b0 : bv, brp[j + 1] - b0, s, v)) {
              cols[out] = j;
              vals[out++] = v;
            }
          }
        }
      } catch (...) {
#pragma omp atomic write
        failed = true;
      }
      rowptr[i + 1] = out - q0;
    }
  }
  if (failed) throw out_of_memory("tgb: out of memory in mxm (row dot)");
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
  C.p.colidx = buffer<index_t>(static_cast<std::size_t>(cz));
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
