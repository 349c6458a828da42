// tgb host backend: row saxpy, C<M> = A*B by scalar rows (Gustavson), the
// method for hypersparse operands, where tiles cost more than they hold.
//
// One pass over the products. Work is split into tasks of consecutive tile
// rows of about equal product counts (about 8 a thread, taken dynamically).
// A task makes each tile row's 16 rows together, in a block of its thread's
// arena: blocks are allocated at a fixed size and never grown or moved, a
// tile row gets room for its bound on entries before it starts, so no row is
// ever copied while C is made. The tile row's tiles are counted as it ends.
// Then the storage rule picks C's form from the exact counts, C's arrays are
// allocated once at their size, and each tile row is copied to its place in
// C's rows, or written as its tiles in place.
//
// A row's accumulator: a row of at most tiny_row products sorts them by an
// insertion sort (stable, so equal columns fold in increasing k); a row whose
// bound on entries, times dense_ratio, reaches the column count uses a dense
// array with a generation-stamped marker; the others an open-addressing hash
// table sized to twice the bound. A non-complemented mask row no longer than
// the products is scattered into the accumulator first (only its columns are
// admitted); otherwise the finished row is filtered by the mask row.
//
// Every entry is created by its first product and then added to in
// increasing k, as the tile paths and the oracle do. Every array comes from
// tgb's host resource; an allocation failure inside a parallel region raises
// a flag and out_of_memory is thrown after it (the workspaces live inside the
// regions; the arena is freed on the way out).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "tgb/detail/host/mxm_rows.hpp"

namespace tgb::detail::host {

// Per-thread workspace of row saxpy.
template <class TC>
struct row_workspace {
  // hash table: key -1 empty; j a column with a value; -2-j a column the
  // mask admits that has no value yet. Every key is -1 between rows.
  buffer<index_t> hkey;
  buffer<TC> hval;
  // dense accumulator: mark[j] == stamp (admitted by the mask) or stamp + 1
  // (has a value)
  buffer<std::uint32_t> mark;
  buffer<TC> acc;
  std::uint32_t stamp = 1;
  // C's tiles: a stamp per tile column (counting a tile row's tiles); the
  // slot of each tile column in the tile row being written (all ones when
  // none) and a fill position per tile; past 2^22 tile columns, a list of a
  // tile row's tile columns instead of the stamps.
  buffer<std::uint32_t> tseen;
  std::uint32_t tstamp = 0;
  buffer<std::uint32_t> tslot;
  buffer<offset_t> tfill;
  buffer<tile_index_t> tids;
  // a tile row too big for a block, made here first
  buffer<index_t> bcol;
  buffer<TC> bval;
  // radix sort: the other half of the ping-pong, and the digit counts
  buffer<index_t> rtmp;
  std::uint32_t rcount[256];
};

// Sorts a[0..n) by the field of `bits` bits at `shift` (a column, alone or in
// the upper half of a packed key): an LSD radix sort by bytes for long rows
// (rows of 10^3-10^4 entries took a fifth of soc-Slashdot0902's A*A in
// std::sort), std::sort below 256 entries. The fields are distinct.
template <class TC>
void sort_row(index_t* a, std::size_t n, int shift, int bits, row_workspace<TC>& ws) {
  if (n < 256) {
    std::sort(a, a + n);
    return;
  }
  if (ws.rtmp.size() < n) {
    const std::size_t grown = std::max(n, 2 * ws.rtmp.size());
    ws.rtmp = buffer<index_t>();
    ws.rtmp = buffer<index_t>(grown);
  }
  index_t* from = a;
  index_t* to = ws.rtmp.data();
  for (int d = 0; d < bits; d += 8) {
    const int sh = shift + d;
    std::uint32_t* c = ws.rcount;
    std::fill(c, c + 256, 0u);
    for (std::size_t e = 0; e < n; ++e) ++c[(static_cast<std::uint64_t>(from[e]) >> sh) & 0xFF];
    std::uint32_t sum = 0;
    for (int b = 0; b < 256; ++b) {
      const std::uint32_t x = c[b];
      c[b] = sum;
      sum += x;
    }
    for (std::size_t e = 0; e < n; ++e) to[c[(static_cast<std::uint64_t>(from[e]) >> sh) & 0xFF]++] = from[e];
    std::swap(from, to);
  }
  if (from != a) std::memcpy(static_cast<void*>(a), from, n * sizeof(index_t));
}

// Bits needed for the values 0..n-1 (at least 1).
inline int bits_for(index_t n) {
  int b = 1;
  while (b < 63 && (index_t(1) << b) < n) ++b;
  return b;
}

// A block of a thread's arena: rows of C, never moved once made.
template <class TC>
struct row_block {
  buffer<index_t> col;
  buffer<TC> val;
  std::size_t used = 0;
};

struct saxpy_tuning {
  // A row uses the dense accumulator when (its bound on entries) * ratio >= ncols.
  double dense_ratio = 16.0;
  // Rows of at most this many products use neither accumulator.
  offset_t tiny_row = 32;
};

// Tile row I of C as its tiles, in place in T (whose tile_ptr is final, and
// whose entries start at rowptr[16 I]): its rows lie one after another at
// rcol/rval, row i's length rowptr[i + 1] - rowptr[i].
template <class TC>
void write_tile_row(index_t I, const index_t* rcol, const TC* rval, const buffer<offset_t>& rowptr, tile_matrix<TC>& T,
                    bool tile_slots, row_workspace<TC>& ws) {
  const index_t i0 = I * tile_dim;
  const int nr = static_cast<int>(std::min<index_t>(tile_dim, T.pat.nrows - i0));
  const offset_t e0 = rowptr[static_cast<std::size_t>(i0)];
  std::size_t rb[tile_dim], re[tile_dim];
  for (int r = 0; r < nr; ++r) {
    rb[r] = static_cast<std::size_t>(rowptr[static_cast<std::size_t>(i0 + r)] - e0);
    re[r] = static_cast<std::size_t>(rowptr[static_cast<std::size_t>(i0 + r + 1)] - e0);
  }
  const offset_t t0 = T.pat.tile_ptr[I];
  const offset_t nt = T.pat.tile_ptr[I + 1] - t0;
  tile_index_t* tcol = T.pat.tile_col.data() + t0;
  row_bits* bits = T.pat.row_mask.data() + 16 * t0;
  std::uint8_t* rptr = T.pat.row_ptr.data() + 16 * t0;
  offset_t* tend = T.pat.tile_offset.data() + t0 + 1;
  std::uint8_t* cidx = T.pat.col_idx.data();
  TC* vals = T.values.data();
  if (tile_slots) {
    // Tile columns through a slot array: a few passes over the entries.
    const std::size_t tcols = static_cast<std::size_t>(tiles_for(T.pat.ncols));
    if (ws.tslot.size() < tcols) ws.tslot = buffer<std::uint32_t>(tcols, ~std::uint32_t(0));
    if (ws.tfill.size() < static_cast<std::size_t>(nt)) ws.tfill = buffer<offset_t>(static_cast<std::size_t>(nt));
    std::uint32_t* slot = ws.tslot.data();
    offset_t* fill = ws.tfill.data();
    offset_t got = 0;
    for (int r = 0; r < nr; ++r)
      for (std::size_t e = rb[r]; e < re[r]; ++e) {
        const index_t J = rcol[e] >> tile_shift;
        if (slot[J] == ~std::uint32_t(0)) {
          slot[J] = 0;
          tcol[got++] = static_cast<tile_index_t>(J);
        }
      }
    std::sort(tcol, tcol + nt);
    for (offset_t l = 0; l < nt; ++l) {
      slot[tcol[l]] = static_cast<std::uint32_t>(l);
      fill[l] = 0;
      for (int r = 0; r < tile_dim; ++r) bits[16 * l + r] = 0;
    }
    for (int r = 0; r < nr; ++r)
      for (std::size_t e = rb[r]; e < re[r]; ++e) {
        const std::uint32_t l = slot[rcol[e] >> tile_shift];
        bits[16 * l + r] = row_bits(bits[16 * l + r] | (1u << (rcol[e] & (tile_dim - 1))));
        ++fill[l];
      }
    offset_t at = e0;
    for (offset_t l = 0; l < nt; ++l) {
      int within = 0;
      for (int r = 0; r < tile_dim; ++r) {
        rptr[16 * l + r] = static_cast<std::uint8_t>(within);
        within += bitcount16(bits[16 * l + r]);
      }
      const offset_t c = fill[l];
      fill[l] = at;
      at += c;
      tend[l] = at;
    }
    for (int r = 0; r < nr; ++r)
      for (std::size_t e = rb[r]; e < re[r]; ++e) {
        const offset_t q = fill[slot[rcol[e] >> tile_shift]]++;
        cidx[q] = static_cast<std::uint8_t>(rcol[e] & (tile_dim - 1));
        vals[q] = rval[e];
      }
    for (offset_t l = 0; l < nt; ++l) slot[tcol[l]] = ~std::uint32_t(0);
    return;
  }
  // Wide matrices: a merge of the 16 sorted rows, a tile at a time.
  std::size_t cur[tile_dim];
  for (int r = 0; r < nr; ++r) cur[r] = rb[r];
  offset_t at = e0;
  for (offset_t l = 0; l < nt; ++l) {
    index_t J = -1;
    for (int r = 0; r < nr; ++r)
      if (cur[r] < re[r]) {
        const index_t jj = rcol[cur[r]] >> tile_shift;
        if (J < 0 || jj < J) J = jj;
      }
    tcol[l] = static_cast<tile_index_t>(J);
    int within = 0;
    for (int r = 0; r < tile_dim; ++r) {
      row_bits b = 0;
      rptr[16 * l + r] = static_cast<std::uint8_t>(within);
      while (r < nr && cur[r] < re[r] && (rcol[cur[r]] >> tile_shift) == J) {
        const int c = static_cast<int>(rcol[cur[r]] & (tile_dim - 1));
        b = row_bits(b | (1u << c));
        cidx[at] = static_cast<std::uint8_t>(c);
        vals[at] = rval[cur[r]];
        ++at;
        ++within;
        ++cur[r];
      }
      bits[16 * l + r] = b;
    }
    tend[l] = at;
  }
}

// C = A*B (A, B as scalar CSR), masked by M, stored in the form `control`
// names, or (automatic) the one the storage rule picks for C's counts.
template <class TC, class TA, class TB, class Semiring>
host_product<TC> mxm_rows_saxpy(const csr_matrix<TA>& A, const csr_matrix<TB>& B, const host_mask& M,
                                const Semiring& s, const saxpy_tuning& tune,
                                storage_control control = storage_control::automatic) {
  const index_t nrows = A.p.nrows, ncols = B.p.ncols;
  const index_t tm = tiles_for(nrows);
  const offset_t* arp = A.p.rowptr.data();
  const row_col_t* aci = A.p.colidx.data();
  const TA* av = A.values.data();
  const offset_t* brp = B.p.rowptr.data();
  const row_col_t* bci = B.p.colidx.data();
  const TB* bv = B.values.data();
  constexpr bool kValues = reads_values<Semiring>::value;
  auto aval = [&](offset_t p) { if constexpr (kValues) return static_cast<TC>(av[p]); else return TC{}; };
  auto bval = [&](offset_t q) { if constexpr (kValues) return static_cast<TC>(bv[q]); else return TC{}; };

  csr_pattern scratch;
  const csr_pattern* mr = M.active ? &listed_rows(M, scratch) : nullptr;
  const bool allow = M.active && !M.complement;
  const offset_t* mrp = M.active ? mr->rowptr.data() : nullptr;
  const row_col_t* mci = M.active ? mr->colidx.data() : nullptr;

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
  const int ntasks = static_cast<int>(bounds.size()) - 1;
  const int nthreads = std::max(1, host_threads());
  const index_t tcols = tiles_for(ncols);
  const bool tile_slots = tcols <= (index_t(1) << 22);  // stamps and slots: at most 16 MB a thread
  const bool count_tiles = control != storage_control::rows;
  const int col_bits = bits_for(ncols);
  // Blocks of a thread's arena: a quarter of its share of the products (of
  // the mask's entries, when a mask bounds C), between 2^12 and 2^22 entries,
  // or a tile row's bound where that is more.
  double products = 0;
  for (index_t I = 0; I < tm; ++I) products += double(work[I]);
  if (allow) products = std::min(products, double(mr->nnz()));
  const std::size_t block_entries =
      static_cast<std::size_t>(std::clamp(products / (4.0 * nthreads), 4096.0, double(std::size_t(1) << 22)));

  buffer<offset_t> rowptr(static_cast<std::size_t>(nrows) + 1, offset_t(0));  // lengths, then offsets
  buffer<offset_t> tiles_in_row(static_cast<std::size_t>(tm), offset_t(0));
  // Where each tile row's rows were made (row after row, lengths in rowptr).
  buffer<const index_t*> tr_col(static_cast<std::size_t>(tm));
  buffer<const TC*> tr_val(static_cast<std::size_t>(tm));
  std::vector<std::vector<row_block<TC>>> arena(static_cast<std::size_t>(nthreads));

  // Row i of C, sorted, into cols/vals (room for its bound): returns its
  // entry count. fl: its products; mlen: its mask row's length.
  auto make_row = [&](index_t i, offset_t fl, offset_t mlen, row_workspace<TC>& ws, index_t* cols,
                      TC* vals) -> std::size_t {
    const bool tiny = fl <= tune.tiny_row;
    const bool scatter = !tiny && allow && mlen <= fl;
    const offset_t entries = scatter ? mlen : fl;
    std::size_t n = 0;
    const bool dense = !tiny && double(entries) * tune.dense_ratio >= double(ncols);
    if (tiny) {
      // The products in k order per column (stable insertion sort), folded.
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
        sort_row(cols, n, 0, col_bits, ws);
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
      // A new column is listed with its slot, (j << 32) | h, where both fit
      // (packed): one sort then orders the row and finds each value, with
      // no second probe.
      const bool packed = ncols <= (index_t(1) << 31) && hs <= (std::size_t(1) << 32);
      auto listed = [&](index_t j, std::size_t h) {
        return packed ? static_cast<index_t>((static_cast<std::uint64_t>(j) << 32) | h) : j;
      };
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
                cols[n++] = listed(j, h);
              }
              break;
            }
            if (kk == -2 - j) {
              key[h] = j;
              hv[h] = s.mul(a, bval(q));
              cols[n++] = listed(j, h);
              break;
            }
            h = (h + 1) & hm;
          }
        }
      }
      if (packed) sort_row(cols, n, 32, col_bits, ws);
      else std::sort(cols, cols + n);
      // Empty the table after the row: whole while it is small next to the
      // row, else key by key (a search that runs until it finds its key, so
      // the holes it leaves do not matter). With a scattered mask always
      // whole: the mask's keys that no product met stay in it otherwise.
      const bool whole = scatter || hs <= 4 * n + 64;
      for (std::size_t e = 0; e < n; ++e) {
        std::size_t h;
        if (packed) {
          h = static_cast<std::size_t>(cols[e]) & 0xFFFFFFFFu;
          cols[e] = static_cast<index_t>(static_cast<std::uint64_t>(cols[e]) >> 32);
        } else {
          h = (static_cast<std::size_t>(cols[e]) * 257) & hm;
          while (key[h] != cols[e]) h = (h + 1) & hm;
        }
        vals[e] = hv[h];
        if (!whole) key[h] = -1;
      }
      if (whole) std::fill(key, key + hs, index_t(-1));
    }
    // The mask, where it was not scattered: keep (or, complemented, drop)
    // the columns it lists.
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
    return n;
  };

  // ---- C's rows, a tile row at a time, into the arena; C's tiles counted.
  const char* oom = "tgb: out of memory in mxm (row path)";
  parallel_tasks(
      ntasks, 1, ntasks > 1, oom, [] { return row_workspace<TC>(); },
      [&](row_workspace<TC>& ws, std::int64_t task) {
        std::vector<row_block<TC>>& blocks = arena[static_cast<std::size_t>(std::min(thread_num(), nthreads - 1))];
        for (index_t I = bounds[task]; I < bounds[task + 1]; ++I) {
          const index_t i0 = I * tile_dim;
          const int nr = static_cast<int>(std::min<index_t>(tile_dim, nrows - i0));
          // Each row's products, mask length and bound on entries.
          offset_t fl[tile_dim], ml[tile_dim], room = 0;
          for (int r = 0; r < nr; ++r) {
            const index_t i = i0 + r;
            offset_t f = 0;
            for (offset_t p = arp[i]; p < arp[i + 1]; ++p) f += brp[aci[p] + 1] - brp[aci[p]];
            fl[r] = f;
            ml[r] = M.active ? mrp[i + 1] - mrp[i] : 0;
            if (f == 0 || (allow && ml[r] == 0)) continue;
            offset_t bound = std::min<offset_t>(f, ncols);
            if (allow) bound = std::min(bound, ml[r]);
            if (f <= tune.tiny_row) bound = f;  // the insertion sort holds every product
            room += bound;
          }
          if (room == 0) continue;
          auto open_block = [&](std::size_t need) {
            if (!blocks.empty() && blocks.back().col.size() - blocks.back().used >= need) return;
            row_block<TC> b;
            const std::size_t size = std::max(block_entries, need);
            b.col = buffer<index_t>(size);
            b.val = buffer<TC>(size);
            blocks.push_back(std::move(b));
          };
          // A tile row whose bound exceeds a block is made in the workspace
          // and copied into the arena at its real size: blocks sized by
          // bounds would reserve the sum of the bounds, not of the entries.
          const bool big = static_cast<std::size_t>(room) > block_entries;
          index_t* cols;
          TC* vals;
          if (big) {
            if (ws.bcol.size() < static_cast<std::size_t>(room)) {
              ws.bcol = buffer<index_t>();
              ws.bval = buffer<TC>();
              ws.bcol = buffer<index_t>(static_cast<std::size_t>(room));
              ws.bval = buffer<TC>(static_cast<std::size_t>(room));
            }
            cols = ws.bcol.data();
            vals = ws.bval.data();
          } else {
            open_block(static_cast<std::size_t>(room));
            cols = blocks.back().col.data() + blocks.back().used;
            vals = blocks.back().val.data() + blocks.back().used;
          }
          std::size_t used = 0;
          for (int r = 0; r < nr; ++r) {
            if (fl[r] == 0 || (allow && ml[r] == 0)) continue;
            const std::size_t n = make_row(i0 + r, fl[r], ml[r], ws, cols + used, vals + used);
            rowptr[i0 + r + 1] = static_cast<offset_t>(n);
            used += n;
          }
          if (big && used) {
            open_block(used);
            row_block<TC>& to = blocks.back();
            std::memcpy(static_cast<void*>(to.col.data() + to.used), cols, used * sizeof(index_t));
            std::memcpy(static_cast<void*>(to.val.data() + to.used), vals, used * sizeof(TC));
            cols = to.col.data() + to.used;
            vals = to.val.data() + to.used;
          }
          if (used) {
            tr_col[I] = cols;
            tr_val[I] = vals;
            blocks.back().used += used;
          }
          if (!count_tiles || used == 0) continue;
          // C's tiles in this tile row: the tile columns its entries meet.
          offset_t nt = 0;
          if (tile_slots) {
            if (ws.tseen.size() < static_cast<std::size_t>(tcols))
              ws.tseen = buffer<std::uint32_t>(static_cast<std::size_t>(tcols), 0u);
            if (++ws.tstamp == 0) {
              std::fill(ws.tseen.begin(), ws.tseen.end(), 0u);
              ws.tstamp = 1;
            }
            std::uint32_t* seen = ws.tseen.data();
            for (std::size_t e = 0; e < used; ++e) {
              std::uint32_t& sj = seen[static_cast<std::size_t>(cols[e] >> tile_shift)];
              if (sj != ws.tstamp) {
                sj = ws.tstamp;
                ++nt;
              }
            }
          } else {
            if (ws.tids.size() < used) {
              ws.tids = buffer<tile_index_t>();
              ws.tids = buffer<tile_index_t>(used);
            }
            tile_index_t* ids = ws.tids.data();
            for (std::size_t e = 0; e < used; ++e) ids[e] = static_cast<tile_index_t>(cols[e] >> tile_shift);
            std::sort(ids, ids + used);
            nt = static_cast<offset_t>(std::unique(ids, ids + used) - ids);
          }
          tiles_in_row[I] = nt;
        }
      });

  for (index_t i = 0; i < nrows; ++i) rowptr[i + 1] += rowptr[i];
  const offset_t cz = rowptr[static_cast<std::size_t>(nrows)];
  offset_t ct = 0;
  for (index_t I = 0; I < tm; ++I) ct += tiles_in_row[I];
  const bool to_tiles =
      count_tiles && choose_form(control, backend::host, nrows, ncols, ct, cz, sizeof(TC)) == storage_form::tiles;

  host_product<TC> out;
  out.in_rows = !to_tiles;
  if (!to_tiles) {
    csr_matrix<TC>& C = out.rows;
    C.p.nrows = nrows;
    C.p.ncols = ncols;
    C.p.colidx = buffer<row_col_t>(static_cast<std::size_t>(cz));
    C.values = buffer<TC>(static_cast<std::size_t>(cz));
#pragma omp parallel for schedule(dynamic, 1) if (ntasks > 1)
    for (int task = 0; task < ntasks; ++task)
      for (index_t I = bounds[task]; I < bounds[task + 1]; ++I) {
        const offset_t b = rowptr[static_cast<std::size_t>(I * tile_dim)];
        const std::size_t n = static_cast<std::size_t>(rowptr[static_cast<std::size_t>(std::min(nrows, (I + 1) * tile_dim))] - b);
        if (n == 0) continue;
        row_col_t* to = C.p.colidx.data() + b;  // B's columns fit row_col_t, so C's do
        const index_t* from = tr_col[I];
        for (std::size_t e = 0; e < n; ++e) to[e] = static_cast<row_col_t>(from[e]);
        std::memcpy(static_cast<void*>(C.values.data() + b), tr_val[I], n * sizeof(TC));
      }
    if (count_tiles) out.row_tiles = ct;
    C.p.rowptr = std::move(rowptr);
    return out;
  }

  // Tiles: each tile row's entries become its tiles, in place.
  tile_matrix<TC>& T = out.tiles;
  T.pat = tile_pattern::empty(nrows, ncols);
  for (index_t I = 0; I < tm; ++I) T.pat.tile_ptr[I + 1] = T.pat.tile_ptr[I] + tiles_in_row[I];
  T.pat.tile_col = buffer<tile_index_t>(static_cast<std::size_t>(ct));
  T.pat.tile_offset = buffer<offset_t>(static_cast<std::size_t>(ct) + 1);
  T.pat.tile_offset[0] = 0;
  T.pat.row_ptr = buffer<std::uint8_t>(static_cast<std::size_t>(16 * ct));
  T.pat.row_mask = buffer<row_bits>(static_cast<std::size_t>(16 * ct));
  T.pat.col_idx = buffer<std::uint8_t>(static_cast<std::size_t>(cz));
  T.values = buffer<TC>(static_cast<std::size_t>(cz));
  parallel_tasks(
      ntasks, 1, ntasks > 1, oom, [] { return row_workspace<TC>(); },
      [&](row_workspace<TC>& ws, std::int64_t task) {
        for (index_t I = bounds[task]; I < bounds[task + 1]; ++I)
          if (tiles_in_row[I]) write_tile_row(I, tr_col[I], tr_val[I], rowptr, T, tile_slots, ws);
      });
  return out;
}

}  // namespace tgb::detail::host
