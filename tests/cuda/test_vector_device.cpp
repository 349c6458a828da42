// Vectors on the GPU: Vector::to and what a device vector allows, and mxv /
// vxm on the device against the host backend: both directions (pull and
// push, i.e. with and without the transposes), A in tiles and in rows, every
// mask mode, replace and accumulator, sizes around 16, empty and hub rows,
// semirings with operand-order-sensitive multiplies (first, second) and the
// atomic monoids of every type. Values are small integers, so floating-point
// sums are exact whatever order the device folds them in.
#include <cuda_runtime.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>

#include "../oracle.hpp"
#include "../tgb_catch.hpp"
#include "../vector_oracle.hpp"
#include "device_compare.hpp"
#include "rowpath_semiring.hpp"

using namespace tgb;
using vector_oracle::random_vector;
using vector_oracle::to_vmap;
using vector_oracle::vmap;
using device_test::both_vec;
using device_test::vdiff;
using device_test::von;
using device_test::with_mode;

namespace {


std::string data(const std::string& f) { return std::string(TGB_TEST_DATA_DIR) + "/" + f; }

template <class T>
Matrix<T> in_form(Matrix<T> m, bool rows, backend where) {
  m.set_storage(rows ? storage_control::rows : storage_control::tiles);
  m.to(where);
  return m;
}


// A matrix with a full row and a full column (hub rows and columns) and an
// empty tile row.
template <class T>
Matrix<T> hub_matrix(std::mt19937_64& rng, index_t m, index_t n) {
  std::vector<index_t> r, c;
  std::vector<T> v;
  for (index_t j = 0; j < n; ++j) r.push_back(std::min<index_t>(5, m - 1)), c.push_back(j);
  for (index_t i = 0; i < m; ++i)
    if (i != std::min<index_t>(5, m - 1)) r.push_back(i), c.push_back(std::min<index_t>(7, n - 1));
  for (index_t k = 0; k < m; ++k)
    if (k / 16 != 2) r.push_back(k), c.push_back((k * 7) % n);
  for (std::size_t k = 0; k < r.size(); ++k) v.push_back(oracle::random_value<T>(rng, false));
  return Matrix<T>::from_coo(m, n, r, c, v, first{});
}

// Runs the four products of A (mxv, mxv with A', vxm, vxm with A') on both
// backends, over every mask mode, replace and accumulator, and compares.
template <class T, class Semiring>
void both_ways(std::mt19937_64& rng, const Matrix<T>& A, const Semiring& sr, const char* what) {
  for (int dir = 0; dir < 4; ++dir) {
    const bool is_vxm = dir >= 2, tr = dir & 1;
    // u's and w's sizes: A u needs u over A's columns, A' u over its rows.
    const bool u_on_rows = is_vxm ? !tr : tr;
    const index_t ku = u_on_rows ? A.nrows() : A.ncols(), nw = u_on_rows ? A.ncols() : A.nrows();
    for (double ud : {0.0, 0.15, 1.0}) {
      const auto u = random_vector<T>(rng, ku, ud);
      const auto w0 = random_vector<T>(rng, nw, 0.3);
      const auto M = random_vector<int>(rng, nw, 0.5);
      for (int rows = 0; rows < 2; ++rows) {
        const Matrix<T> Ad = in_form(A, rows, backend::cuda);
        REQUIRE(Ad.location() == backend::cuda);
        for (int mode = 0; mode < 5; ++mode)
          for (int flags = 0; flags < 4; ++flags) {
            descriptor d;
            d.replace = flags & 1;
            if (tr) d = is_vxm ? d.with_transpose_b() : d.with_transpose_a();
            auto run = [&](backend where) {
              Vector<T> w = von(w0, where);
              const Vector<T> uu = von(u, where);
              const Vector<int> mm = von(M, where);
              const Matrix<T>& a = where == backend::cuda ? Ad : A;
              with_mode(mode, mm, [&](const auto& mk) {
                if (is_vxm) {
                  if (flags & 2) vxm(w, mk, plus{}, sr, uu, a, d);
                  else vxm(w, mk, no_accum, sr, uu, a, d);
                } else {
                  if (flags & 2) mxv(w, mk, plus{}, sr, a, uu, d);
                  else mxv(w, mk, no_accum, sr, a, uu, d);
                }
              });
              REQUIRE(w.location() == where);
              const index_t nv = w.nvals();
              w.to(backend::host);
              REQUIRE(nv == w.nvals());
              return to_vmap(w);
            };
            const auto h = run(backend::host), g = run(backend::cuda);
            INFO(what << ": " << (is_vxm ? "vxm" : "mxv") << (tr ? " transposed" : "") << ", A "
                      << A.nrows() << " x " << A.ncols() << (rows ? " in rows" : " in tiles") << ", u density "
                      << ud << ", mask " << vector_oracle::mask_name(mode) << ", replace " << (flags & 1)
                      << ", accum " << (flags >> 1));
            REQUIRE(vdiff(g, h) == "");
          }
      }
    }
  }
}

template <class T, class Semiring>
void sweep(std::uint64_t seed, const Semiring& sr, const char* what) {
  std::mt19937_64 rng(seed);
  const index_t shapes[][2] = {{0, 5}, {1, 1}, {16, 16}, {17, 33}, {40, 1}, {300, 17}, {200, 300}};
  for (const auto& sh : shapes)
    for (double density : {0.03, 0.4}) both_ways(rng, oracle::random_matrix<T>(rng, sh[0], sh[1], density), sr, what);
  both_ways(rng, hub_matrix<T>(rng, 300, 200), sr, what);
}

}  // namespace

TEST_CASE("device vector: residence, copies, counts and what needs the host", "[vector][device]") {
  std::mt19937_64 rng(11);
  const auto h = random_vector<double>(rng, 1000, 0.2);
  Vector<double> d = h;
  d.to(backend::cuda);
  REQUIRE(d.location() == backend::cuda);
  REQUIRE(d.size() == 1000);
  REQUIRE(d.nvals() == h.nvals());
  // Host access and host operations refuse a device vector.
  REQUIRE_THROWS_AS(d.get(3), invalid_value);
  REQUIRE_THROWS_AS(d.set(3, 1.0), invalid_value);
  REQUIRE_THROWS_AS(d.extract_tuples(), invalid_value);
  REQUIRE_THROWS_AS((void)(d == h), invalid_value);
  Vector<double> out(1000);
  REQUIRE_THROWS_AS(apply(out, no_mask, no_accum, ainv{}, d), invalid_value);  // mixed residence
  // A copy stays on the device; the way back is exact.
  Vector<double> c = d;
  REQUIRE(c.location() == backend::cuda);
  c.to(backend::host);
  REQUIRE(c == h);
  // clear keeps the size and the residence.
  d.clear();
  REQUIRE(d.location() == backend::cuda);
  REQUIRE(d.nvals() == 0);
  d.to(backend::host);
  REQUIRE(d.size() == 1000);
  REQUIRE(d.nvals() == 0);
}

TEST_CASE("device mxv: errors leave w unchanged", "[vector][device]") {
  std::mt19937_64 rng(12);
  const auto A = oracle::random_matrix<double>(rng, 40, 30, 0.2);
  const auto u = random_vector<double>(rng, 30, 0.5);
  const auto w0 = random_vector<double>(rng, 40, 0.5);
  Matrix<double> Ad = A;
  Ad.to(backend::cuda);
  Vector<double> ud = von(u, backend::cuda), w = von(w0, backend::cuda);
  auto unchanged = [&] {
    Vector<double> back = w;
    back.to(backend::host);
    REQUIRE(back == w0);
  };
  // Mixed residence.
  REQUIRE_THROWS_AS(mxv(w, no_mask, no_accum, plus_times, A, ud), invalid_value);
  REQUIRE_THROWS_AS(mxv(w, no_mask, no_accum, plus_times, Ad, u), invalid_value);
  REQUIRE_THROWS_AS(mxv(w, von(random_vector<int>(rng, 40, 0.5), backend::host), no_accum, plus_times, Ad, ud),
                    invalid_value);
  unchanged();
  // Shapes come first, wherever the operands live.
  REQUIRE_THROWS_AS(vxm(w, no_mask, no_accum, plus_times, ud, Ad), dimension_mismatch);
  // A user-defined semiring and accumulator.
  const auto mine = make_semiring(plus_monoid{}, [](double a, double b) { return a * b + 1; });
  REQUIRE_THROWS_AS(mxv(w, no_mask, no_accum, mine, Ad, ud), not_implemented);
  REQUIRE_THROWS_AS(mxv(w, no_mask, [](double a, double b) { return a - b; }, plus_times, Ad, ud), not_implemented);
  unchanged();
}

TEST_CASE("device mxv/vxm against the host: fp64", "[vector][device]") {
  sweep<double>(21, plus_times, "plus_times fp64");
  sweep<double>(22, min_plus, "min_plus fp64");
  sweep<double>(23, plus_first, "plus_first fp64");
  sweep<double>(24, max_second, "max_second fp64");
}

TEST_CASE("device mxv/vxm against the host: integers, float and bool", "[vector][device]") {
  sweep<std::int64_t>(31, plus_pair, "plus_pair int64");
  sweep<std::int64_t>(32, min_second, "min_second int64");
  sweep<std::int64_t>(33, max_times, "max_times int64");
  sweep<std::int32_t>(34, max_min, "max_min int32");
  sweep<std::int32_t>(35, plus_times, "plus_times int32");
  sweep<std::int32_t>(36, min_first, "min_first int32");
  sweep<float>(37, plus_times, "plus_times fp32");
  sweep<float>(38, max_plus, "max_plus fp32");
  sweep<bool>(39, lor_land, "lor_land bool");
  sweep<bool>(40, any_pair, "any_pair bool");
  sweep<bool>(41, plus_second, "plus_second bool");
}

TEST_CASE("device mxv/vxm with a user-defined semiring against the host", "[vector][device]") {
  // Bitwise or with a terminal value, and a multiply that is not symmetric
  // (3a - b): both operand orders, the generic atomic fold of the push.
  // Instantiated in rowpath_semiring.cu through <tgb/cuda/mxm.cuh>.
  sweep<std::int64_t>(43, rowpath_test::bor_skew, "bor_skew int64 (user-defined)");
}

TEST_CASE("device mxv/vxm with operands of other types: cast as on the host", "[vector][device]") {
  std::mt19937_64 rng(42);
  for (int rows = 0; rows < 2; ++rows) {
    const auto A = oracle::random_matrix<std::int32_t>(rng, 70, 50, 0.1);
    const auto Ab = oracle::random_matrix<bool>(rng, 70, 50, 0.1);
    const auto u = random_vector<float>(rng, 50, 0.5);
    const auto q = random_vector<std::int64_t>(rng, 70, 0.3);
    const auto u64 = random_vector<std::int64_t>(rng, 50, 1.0);
    const Matrix<std::int32_t> Ad = in_form(A, rows, backend::cuda);
    const Matrix<bool> Abd = in_form(Ab, rows, backend::cuda);
    auto check = [&](const auto& run, const char* what) {
      INFO(what << (rows ? " (A in rows)" : " (A in tiles)"));
      const auto h = run(backend::host), g = run(backend::cuda);
      REQUIRE(vdiff(g, h) == "");
    };
    check([&](backend at) {  // A and u cast to double: A's values are read
      Vector<double> w(70, at);
      mxv(w, no_mask, no_accum, plus_times, at == backend::cuda ? Ad : A, von(u, at));
      w.to(backend::host);
      return to_vmap(w);
    }, "plus_times, int32 A, fp32 u into fp64");
    check([&](backend at) {  // a bool pattern under any_first/second: its values are not read
      Vector<std::int64_t> w(50, at);
      vxm(w, no_mask, no_accum, min_first, von(q, at), at == backend::cuda ? Abd : Ab);
      w.to(backend::host);
      return to_vmap(w);
    }, "min_first, bool A, int64 u");
    check([&](backend at) {
      Vector<std::int64_t> w(70, at);
      mxv(w, no_mask, no_accum, plus_second, at == backend::cuda ? Abd : Ab, von(u64, at));
      w.to(backend::host);
      return to_vmap(w);
    }, "plus_second, bool A, int64 u");
  }
}

TEST_CASE("device mxv/vxm on real graphs against the host", "[vector][device]") {
  for (const char* name : {"karate.mtx", "ca-GrQc.mtx", "jagmesh7.mtx"}) {
    const auto A = io::read_matrix_market<double>(data(name));
    std::mt19937_64 rng(51);
    for (int rows = 0; rows < 2; ++rows) {
      const Matrix<double> Ad = in_form(A, rows, backend::cuda);
      for (double ud : {0.01, 1.0}) {
        const auto u = random_vector<double>(rng, A.ncols(), ud);
        Vector<double> wh(A.nrows()), wg = von(Vector<double>(A.nrows()), backend::cuda);
        mxv(wh, no_mask, no_accum, plus_times, A, u);
        mxv(wg, no_mask, no_accum, plus_times, Ad, von(u, backend::cuda));
        wg.to(backend::host);
        INFO(name << (rows ? " in rows" : " in tiles") << ", u density " << ud);
        REQUIRE(vdiff(to_vmap(wg), to_vmap(wh)) == "");
        Vector<double> vh(A.ncols()), vg = von(Vector<double>(A.ncols()), backend::cuda);
        vxm(vh, complement(u), no_accum, min_plus, u, A);
        const auto ug = von(u, backend::cuda);
        vxm(vg, complement(ug), no_accum, min_plus, ug, Ad);
        vg.to(backend::host);
        REQUIRE(vdiff(to_vmap(vg), to_vmap(vh)) == "");
      }
    }
  }
}

namespace {
// A row-form matrix past the merge-path pull's threshold (2^18 entries):
// hub rows that span many blocks (some back to back), empty rows and runs of
// them, rows of every length in between.
template <class T>
Matrix<T> merge_matrix(std::mt19937_64& rng, index_t m, index_t n) {
  std::vector<index_t> r, c;
  std::vector<T> v;
  std::uniform_int_distribution<index_t> col(0, n - 1);
  std::uniform_int_distribution<int> len(0, 40);
  for (index_t i = 0; i < m; ++i) {
    index_t k = (i % 97 == 3 || i == m - 1 || i == m - 2) ? 6000 + 37 * (i % 5) : (i % 13 == 0 ? 0 : len(rng));
    if (i >= 1000 && i < 1300) k = 0;  // a run of empty rows
    for (index_t q = 0; q < k; ++q) {
      r.push_back(i);
      c.push_back(col(rng));
      v.push_back(oracle::random_value<T>(rng, false));
    }
  }
  auto A = Matrix<T>::from_coo(m, n, r, c, v, first{});
  A.set_storage(storage_control::rows);
  return A;
}

// Rows laid out by hand for the merge path's block edges (2,048 items a
// block, an item per entry and per row end): a row of 15,000 entries (eight
// blocks), a row whose end is a block's last item, rows of 2,047-2,049, runs
// of empty rows; then short rows up to past 2^18 entries.
template <class T>
Matrix<T> merge_edges(std::mt19937_64& rng, index_t n) {
  std::vector<index_t> len = {0, 15000, 3, 0, 0};
  index_t items = 0;
  for (index_t l : len) items += l + 1;
  const index_t fill = 2048 - (items + 1) % 2048;  // the next row's end is item 2048 k - 1
  len.push_back(fill);
  for (index_t l : {index_t(1), index_t(2047), index_t(2048), index_t(2049), index_t(0), index_t(0)}) len.push_back(l);
  index_t total = 0;
  for (index_t l : len) total += l;
  for (index_t i = 0; total < (index_t(1) << 18) + 5000; ++i) {
    len.push_back(i % 7 == 0 ? 0 : 5 + i % 29);
    total += len.back();
  }
  std::vector<index_t> r, c;
  std::vector<T> v;
  for (index_t i = 0; i < index_t(len.size()); ++i)
    for (index_t q = 0; q < len[static_cast<std::size_t>(i)]; ++q) {  // distinct columns in a row
      r.push_back(i);
      c.push_back((i * 131 + q) % n);
      v.push_back(oracle::random_value<T>(rng, false));
    }
  auto A = Matrix<T>::from_coo(index_t(len.size()), n, r, c, v, no_duplicates);
  A.set_storage(storage_control::rows);
  return A;
}

// Tile rows of 31, 32 and 62 tiles (the edges of 31-tile windows) and a full
// 16 x 16 tile.
template <class T>
Matrix<T> tile_edges(std::mt19937_64& rng) {
  std::vector<index_t> r, c;
  std::vector<T> v;
  auto put = [&](index_t i, index_t j) {
    r.push_back(i);
    c.push_back(j);
    v.push_back(oracle::random_value<T>(rng, false));
  };
  for (index_t i = 0; i < 16; ++i)
    for (index_t j = 0; j < 16; ++j) put(i, j);                      // tile (0, 0), full
  for (index_t J = 1; J < 31; ++J) put(J % 16, J * 16 + J % 16);    // tile row 0: 31 tiles
  for (index_t J = 0; J < 32; ++J) put(16 + J % 16, J * 16 + 3);    // tile row 1: 32 tiles
  for (index_t J = 0; J < 62; ++J) put(32 + J % 16, J * 16 + 7), put(32 + (J + 5) % 16, J * 16 + 9);  // 62
  auto A = Matrix<T>::from_coo(48, 62 * 16, r, c, v, no_duplicates);
  A.set_storage(storage_control::tiles);
  return A;
}

// w = M u on the host and Md u on the device (Md: M where the device keeps
// it), with the mask m or none: equal exactly.
template <class T, class S>
void mxv_both(const Matrix<T>& M, const Matrix<T>& Md, const Vector<T>& u, const Vector<int>& m, bool masked,
              const S& semiring, const std::string& what) {
  Vector<T> wh(M.nrows()), wg(M.nrows(), backend::cuda);
  if (masked) {
    mxv(wh, m, no_accum, semiring, M, u);
    mxv(wg, von(m, backend::cuda), no_accum, semiring, Md, von(u, backend::cuda));
  } else {
    mxv(wh, no_mask, no_accum, semiring, M, u);
    mxv(wg, no_mask, no_accum, semiring, Md, von(u, backend::cuda));
  }
  wg.to(backend::host);
  INFO(what << (masked ? ", masked" : ""));
  REQUIRE(vdiff(to_vmap(wg), to_vmap(wh)) == "");
}

template <class T, class S>
void merge_case(std::mt19937_64& rng, const S& semiring, const char* what) {
  {
    // Hand-laid rows and tiles, unmasked and masked.
    const auto E = merge_edges<T>(rng, 20000), G = tile_edges<T>(rng);
    for (const Matrix<T>* M : {&E, &G}) {
      Matrix<T> Md = *M;
      Md.to(backend::cuda);
      const auto u = random_vector<T>(rng, M->ncols(), 0.7);
      const auto m = random_vector<int>(rng, M->nrows(), 0.5);
      for (int masked = 0; masked < 2; ++masked)
        mxv_both(*M, Md, u, m, masked == 1, semiring,
                 std::string(what) + (M == &E ? ": rows at the merge path's block edges" : ": tile rows of 31, 32, 62 tiles"));
    }
  }
  const auto A = merge_matrix<T>(rng, 9000, 7000);
  REQUIRE(A.nvals() >= (index_t(1) << 18));
  // A masked pull in rows takes the long-row pass (rows past 256 entries).
  {
    Matrix<T> Ad = A;
    Ad.to(backend::cuda);
    const auto u = random_vector<T>(rng, A.ncols(), 1.0);
    const auto m = random_vector<int>(rng, A.nrows(), 0.5);
    Vector<T> wh(A.nrows()), wg(A.nrows(), backend::cuda);
    mxv(wh, structure(m), no_accum, semiring, A, u);
    mxv(wg, structure(von(m, backend::cuda)), no_accum, semiring, Ad, von(u, backend::cuda));
    wg.to(backend::host);
    INFO(what << ", masked, long-row pass");
    REQUIRE(vdiff(to_vmap(wg), to_vmap(wh)) == "");
  }
  // In rows (the merge path) and in tiles (hub tile rows of 400+ tiles).
  for (int rows = 0; rows < 2; ++rows)
    for (double ud : {1.0, 0.3}) {
      const Matrix<T> Ad = in_form(A, rows, backend::cuda);
      const auto u = random_vector<T>(rng, A.ncols(), ud);
      Vector<T> wh(A.nrows()), wg(A.nrows(), backend::cuda);
      mxv(wh, no_mask, no_accum, semiring, A, u);
      mxv(wg, no_mask, no_accum, semiring, Ad, von(u, backend::cuda));
      wg.to(backend::host);
      INFO(what << (rows ? " in rows" : " in tiles") << ", u density " << ud);
      REQUIRE(vdiff(to_vmap(wg), to_vmap(wh)) == "");
    }
}
}  // namespace

TEST_CASE("device mxv on a large matrix: merge path over rows, hub tile rows", "[vector][device]") {
  std::mt19937_64 rng(81);
  merge_case<double>(rng, plus_times, "plus_times fp64");
  merge_case<std::int64_t>(rng, min_plus, "min_plus int64");
  merge_case<std::int32_t>(rng, plus_second, "plus_second int32");
  merge_case<bool>(rng, lor_land, "lor_land bool");
  merge_case<float>(rng, max_first, "max_first fp32");
}

// More tile rows than the block-per-tile-row pull takes (2,048): the warp per
// tile row, reading a row's entries one at a time (sparse tiles) and four at
// a time (dense tiles); and a matrix in rows whose rows are all short (lane
// groups, no long-row pass).
TEST_CASE("device mxv over many tile rows: sparse and dense tiles, short rows", "[vector][device]") {
  std::mt19937_64 rng(83);
  const index_t n = 40000;
  std::vector<index_t> r, c;
  std::vector<double> v;
  auto put = [&](index_t i, index_t j) {
    r.push_back(i);
    c.push_back(j);
    v.push_back(oracle::random_value<double>(rng, false));
  };
  for (index_t i = 0; i < n; ++i) put(i, i), put(i, (i * 7919 + 5) % n);
  const auto sparse = Matrix<double>::from_coo(n, n, r, c, v, first{});
  r.clear(), c.clear(), v.clear();
  for (index_t i = 0; i < n; ++i) {
    for (index_t j = i / 16 * 16; j < i / 16 * 16 + 16; ++j) put(i, j);
    put(i, (i + 16) % n);
  }
  const auto dense = Matrix<double>::from_coo(n, n, r, c, v, first{});
  for (const Matrix<double>* M : {&sparse, &dense})
    for (int rows = 0; rows < 2; ++rows)
      for (double ud : {1.0, 0.3})
        for (int masked = 0; masked < 2; ++masked) {
          const Matrix<double> Ad = in_form(*M, rows, backend::cuda);
          const auto u = random_vector<double>(rng, n, ud);
          const auto m = random_vector<int>(rng, n, 0.5);
          mxv_both(*M, Ad, u, m, masked == 1, plus_times,
                   std::string(M == &sparse ? "sparse tiles" : "dense tiles") + (rows ? ", in rows" : ", in tiles") +
                       ", u density " + std::to_string(ud));
        }
}

namespace {


template <class TW, class TU>
void elementwise_for(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (index_t n : {index_t(0), index_t(1), index_t(17), index_t(1000)})
    for (double density : {0.0, 0.3, 1.0}) {
      const auto u = random_vector<TU>(rng, n, density), v = random_vector<TU>(rng, n, 0.5);
      const auto w0 = random_vector<TW>(rng, n, 0.3);
      both_vec(rng, w0, [&](Vector<TW>& w, const auto& mk, const auto& acc, descriptor d, backend at) {
        ewise_add(w, mk, acc, times{}, von(u, at), von(v, at), d);
      }, "ewise_add times");
      both_vec(rng, w0, [&](Vector<TW>& w, const auto& mk, const auto& acc, descriptor d, backend at) {
        ewise_mult(w, mk, acc, minus{}, von(u, at), von(v, at), d);
      }, "ewise_mult minus");
      both_vec(rng, w0, [&](Vector<TW>& w, const auto& mk, const auto& acc, descriptor d, backend at) {
        ewise_union(w, mk, acc, lt{}, von(u, at), 2, von(v, at), 3, d);
      }, "ewise_union lt");
      both_vec(rng, w0, [&](Vector<TW>& w, const auto& mk, const auto& acc, descriptor d, backend at) {
        apply(w, mk, acc, bind2nd(times{}, 3), von(u, at), d);
      }, "apply bind2nd times");
      both_vec(rng, w0, [&](Vector<TW>& w, const auto& mk, const auto& acc, descriptor d, backend at) {
        apply(w, mk, acc, ainv{}, von(u, at), d);
      }, "apply ainv");
      both_vec(rng, w0, [&](Vector<TW>& w, const auto& mk, const auto& acc, descriptor d, backend at) {
        apply_index(w, mk, acc, rowindex{}, von(u, at), 2, d);
      }, "apply_index rowindex");
      both_vec(rng, w0, [&](Vector<TW>& w, const auto& mk, const auto& acc, descriptor d, backend at) {
        apply_index(w, mk, acc, value_gt{}, von(u, at), 1, d);
      }, "apply_index value_gt");
      both_vec(rng, w0, [&](Vector<TW>& w, const auto& mk, const auto& acc, descriptor d, backend at) {
        select(w, mk, acc, value_ge{}, von(u, at), 1, d);
      }, "select value_ge");
      both_vec(rng, w0, [&](Vector<TW>& w, const auto& mk, const auto& acc, descriptor d, backend at) {
        assign(w, mk, acc, von(u, at), all, d);
      }, "assign all");
      both_vec(rng, w0, [&](Vector<TW>& w, const auto& mk, const auto& acc, descriptor d, backend at) {
        (void)at;
        assign(w, mk, acc, 7, all, d);
      }, "assign scalar");
      both_vec(rng, w0, [&](Vector<TW>& w, const auto& mk, const auto& acc, descriptor d, backend at) {
        (void)at;
        assign(w, mk, acc, Scalar<TW>(), all, d);
      }, "assign empty Scalar");
      both_vec(rng, w0, [&](Vector<TW>& w, const auto& mk, const auto& acc, descriptor d, backend at) {
        extract(w, mk, acc, von(u, at), all, d);
      }, "extract all");
      // Reductions: the GPU folds in another order, so sums are compared for
      // integer-valued data only (every test value is a small integer).
      const Vector<TU> ud = von(u, backend::cuda);
      INFO("reduce, size " << n << " density " << density);
      REQUIRE(reduce(plus_monoid{}, ud) == reduce(plus_monoid{}, u));
      REQUIRE(reduce(min_monoid{}, ud) == reduce(min_monoid{}, u));
      REQUIRE(reduce(max_monoid{}, ud) == reduce(max_monoid{}, u));
      // any: some stored value (the identity only where nothing is stored).
      const auto um = to_vmap(u);
      const TU any_value = reduce(any_monoid{}, ud);
      if (um.empty()) REQUIRE(any_value == any_monoid{}.identity<TU>());
      else REQUIRE(std::any_of(um.begin(), um.end(), [&](const auto& e) { return e.second == any_value; }));
      TW s1 = TW(1), s2 = TW(1);
      reduce(s1, plus{}, max_monoid{}, ud);
      reduce(s2, plus{}, max_monoid{}, u);
      REQUIRE(s1 == s2);
      Scalar<TW> e1, e2;
      reduce(e1, no_accum, plus_monoid{}, ud);
      reduce(e2, no_accum, plus_monoid{}, u);
      REQUIRE(e1.nvals() == e2.nvals());
      if (e1.nvals()) REQUIRE(e1.get() == e2.get());
    }
}

}  // namespace

// w as its own mask and source: the device assigns over all indices in place
// and uses a structural mask's presence bytes as they are, so each position
// must be read before it is written (as the host's in-place paths do).
TEST_CASE("device vector operations with w as its own mask and source", "[vector][device]") {
  std::mt19937_64 rng(66);
  for (index_t n : {index_t(17), index_t(1000), index_t(70001)}) {
    const auto w0 = random_vector<double>(rng, n, 0.4), u = random_vector<double>(rng, n, 0.3);
    const auto A = oracle::random_matrix<double>(rng, n, n, n > 5000 ? 0.0002 : 0.02);
    const descriptor replace = descriptor{}.with_replace();
    auto both = [&](const char* what, auto op) {
      auto run = [&](backend where) {
        Vector<double> w = von(w0, where);
        const Vector<double> uu = von(u, where);
        Matrix<double> AA = A;
        AA.to(where);
        op(w, uu, AA);
        w.to(backend::host);
        return to_vmap(w);
      };
      const auto h = run(backend::host), g = run(backend::cuda);
      INFO(what << ", size " << n);
      REQUIRE(vdiff(g, h) == "");
    };
    both("assign w<struct(w)> += w", [&](auto& w, const auto&, const auto&) { assign(w, structure(w), plus{}, w, all); });
    both("assign w<struct(w), replace> = 3", [&](auto& w, const auto&, const auto&) {
      assign(w, structure(w), no_accum, 3.0, all, replace);
    });
    both("assign w<!struct(w)> = u", [&](auto& w, const auto& uu, const auto&) {
      assign(w, complement(structure(w)), no_accum, uu, all);
    });
    both("assign w<w, replace> = u", [&](auto& w, const auto& uu, const auto&) { assign(w, w, no_accum, uu, all, replace); });
    both("assign w<struct(u)> = w", [&](auto& w, const auto& uu, const auto&) { assign(w, structure(uu), no_accum, w, all); });
    both("ewise_add w<struct(w)> = w + u", [&](auto& w, const auto& uu, const auto&) {
      ewise_add(w, structure(w), no_accum, plus{}, w, uu);
    });
    both("vxm w<struct(w)> += w A", [&](auto& w, const auto&, const auto& AA) {
      vxm(w, structure(w), plus{}, plus_times, w, AA);
    });
    both("mxv w<struct(u), replace> = A w", [&](auto& w, const auto& uu, const auto& AA) {
      mxv(w, structure(uu), no_accum, plus_times, AA, w, replace);
    });
  }
}

// A device vector made on one stream and assigned over all indices on
// another: its arrays are copied back and freed on their own stream, so the
// operation builds its result aside there instead of writing them in place.
TEST_CASE("device assign over all indices from another stream", "[vector][device]") {
  std::mt19937_64 rng(68);
  const index_t n = 100000;
  const auto w0 = random_vector<double>(rng, n, 0.4), u = random_vector<double>(rng, n, 0.3);
  const auto m = random_vector<int>(rng, n, 0.5);
  Vector<double> wh = w0;
  assign(wh, structure(m), plus{}, u, all);
  assign(wh, m, no_accum, 2.5, all);
  cudaStream_t st;
  REQUIRE(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking) == cudaSuccess);
  {
    Vector<double> wd = von(w0, backend::cuda);  // arrays on the default stream
    {
      stream_scope scope(reinterpret_cast<stream_t>(st));
      const Vector<double> ud = von(u, backend::cuda);
      const Vector<int> md = von(m, backend::cuda);
      assign(wd, structure(md), plus{}, ud, all);
      assign(wd, md, no_accum, 2.5, all);
      REQUIRE(cudaStreamSynchronize(st) == cudaSuccess);
    }
    wd.to(backend::host);
    REQUIRE(vdiff(to_vmap(wd), to_vmap(wh)) == "");
  }
  REQUIRE(cudaStreamDestroy(st) == cudaSuccess);
}

TEST_CASE("device vector element-wise operations against the host", "[vector][device]") {
  elementwise_for<double, double>(61);
  elementwise_for<std::int64_t, std::int64_t>(62);
  elementwise_for<bool, double>(63);
  elementwise_for<double, std::int32_t>(64);
  elementwise_for<float, bool>(65);
}

TEST_CASE("device vector operations: what stays on the host", "[vector][device]") {
  std::mt19937_64 rng(66);
  const Vector<double> u = von(random_vector<double>(rng, 50, 0.5), backend::cuda);
  Vector<double> w(50, backend::cuda);
  REQUIRE(w.location() == backend::cuda);
  REQUIRE(w.nvals() == 0);
  // User-defined operators and monoids.
  REQUIRE_THROWS_AS(apply(w, no_mask, no_accum, [](double x) { return x + 1; }, u), not_implemented);
  REQUIRE_THROWS_AS(ewise_add(w, no_mask, no_accum, [](double a, double b) { return a + b; }, u, u), not_implemented);
  REQUIRE_THROWS_AS(reduce(make_monoid([](double a, double b) { return a + b; }, 0.0), u), not_implemented);
  REQUIRE(w.nvals() == 0);
}

namespace {
// Distinct indices of [0, n) in random order, k of them.
std::vector<index_t> distinct(std::mt19937_64& rng, index_t n, index_t k) {
  std::vector<index_t> p(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) p[static_cast<std::size_t>(i)] = i;
  std::shuffle(p.begin(), p.end(), rng);
  p.resize(static_cast<std::size_t>(k));
  return p;
}

template <class TW, class TU>
void index_lists_for(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (index_t n : {index_t(1), index_t(17), index_t(1000)}) {
    const auto w0 = random_vector<TW>(rng, n, 0.3);
    std::vector<index_list> lists = {index_list(all), index_list::range(0, n), index_list::range(n - 1, -1, -1),
                                     index_list(distinct(rng, n, n / 2)), index_list(distinct(rng, n, n))};
    if (n > 4) lists.push_back(index_list::range(1, n, 3));
    for (const index_list& I : lists) {
      const index_t len = I.count(n);
      INFO("n " << n << ", " << len << " indices");
      const auto u = random_vector<TU>(rng, len, 0.6);
      both_vec(rng, w0, [&](Vector<TW>& w, const auto& mk, const auto& acc, descriptor d, backend at) {
        assign(w, mk, acc, von(u, at), I, d);
      }, "assign a vector into a list");
      both_vec(rng, w0, [&](Vector<TW>& w, const auto& mk, const auto& acc, descriptor d, backend) {
        assign(w, mk, acc, 5, I, d);
      }, "assign a scalar into a list");
      both_vec(rng, w0, [&](Vector<TW>& w, const auto& mk, const auto& acc, descriptor d, backend) {
        assign(w, mk, acc, Scalar<TW>(), I, d);
      }, "assign an empty Scalar into a list");
      // extract: w (of len) = u2(I), u2 of size n.
      const auto u2 = random_vector<TU>(rng, n, 0.6);
      const auto e0 = random_vector<TW>(rng, len, 0.3);
      both_vec(rng, e0, [&](Vector<TW>& w, const auto& mk, const auto& acc, descriptor d, backend at) {
        extract(w, mk, acc, von(u2, at), I, d);
      }, "extract a list");
    }
    // A scalar into a list with repeats: each position written once.
    std::vector<index_t> rep = distinct(rng, n, (n + 1) / 2);
    for (index_t k = 0, m = index_t(rep.size()); k < m; ++k) rep.push_back(rep[static_cast<std::size_t>(k)]);
    std::shuffle(rep.begin(), rep.end(), rng);
    both_vec(rng, w0, [&](Vector<TW>& w, const auto& mk, const auto& acc, descriptor d, backend) {
      assign(w, mk, acc, 3, index_list(rep), d);
    }, "assign a scalar into a list with repeats");
    // extract with repeats and with a vector of indices (int64 and int32, some not stored).
    const auto u2 = random_vector<TU>(rng, n, 0.6);
    std::uniform_int_distribution<index_t> any(0, n - 1);
    std::vector<index_t> many(static_cast<std::size_t>(2 * n));
    for (auto& i : many) i = any(rng);
    const auto e0 = random_vector<TW>(rng, 2 * n, 0.3);
    both_vec(rng, e0, [&](Vector<TW>& w, const auto& mk, const auto& acc, descriptor d, backend at) {
      extract(w, mk, acc, von(u2, at), index_list(many), d);
    }, "extract a list with repeats");
    Vector<std::int64_t> I64(2 * n);
    Vector<std::int32_t> I32(3 * n);
    for (index_t k = 0; k < 2 * n; ++k) {
      I64.set(k, many[static_cast<std::size_t>(k)]);
      I32.set(k + k / 2, static_cast<std::int32_t>(many[static_cast<std::size_t>(k)]));
    }
    both_vec(rng, e0, [&](Vector<TW>& w, const auto& mk, const auto& acc, descriptor d, backend at) {
      extract(w, mk, acc, von(u2, at), von(I64, at), d);
    }, "extract by an int64 vector of indices");
    both_vec(rng, e0, [&](Vector<TW>& w, const auto& mk, const auto& acc, descriptor d, backend at) {
      extract(w, mk, acc, von(u2, at), von(I32, at), d);
    }, "extract by an int32 vector of indices with unstored entries");
    // assign through a vector of indices: distinct ones, int32, every other
    // position stored.
    const std::vector<index_t> dl = distinct(rng, n, (n + 1) / 2);
    Vector<std::int32_t> J(2 * n);
    for (std::size_t k = 0; k < dl.size(); ++k) J.set(index_t(2 * k), static_cast<std::int32_t>(dl[k]));
    const auto uj = random_vector<TU>(rng, index_t(dl.size()), 0.6);
    both_vec(rng, w0, [&](Vector<TW>& w, const auto& mk, const auto& acc, descriptor d, backend at) {
      assign(w, mk, acc, von(uj, at), von(J, at), d);
    }, "assign through an int32 vector of indices");
  }
}
}  // namespace

TEST_CASE("device assign and extract with index lists against the host", "[vector][device][index_list]") {
  index_lists_for<double, double>(71);
  index_lists_for<std::int64_t, std::int32_t>(72);
  index_lists_for<bool, float>(73);
}

namespace {
// build(w, I, X, dup) on both backends: the tuples as an int64 and an int32
// vector of indices (with unstored entries) and X (the device folds the
// int32 list after a cast).
template <class T, class Dup>
void build_case(std::mt19937_64& rng, index_t n, index_t len, const Dup& dup, const char* what) {
  std::uniform_int_distribution<index_t> any(0, n - 1);
  Vector<std::int64_t> I64(len);
  Vector<std::int32_t> I32(len + len / 2);
  const auto X = random_vector<T>(rng, len, 1.0);
  for (index_t k = 0; k < len; ++k) {
    // A third of the tuples aim at index 0 (one long run), some at the
    // first eighth, the rest anywhere.
    const index_t i = k % 3 == 0 ? 0 : k % 3 == 1 ? any(rng) % std::max<index_t>(1, n / 8) : any(rng);
    I64.set(k, i);
    I32.set(k + k / 2, static_cast<std::int32_t>(i));
  }
  for (int form = 0; form < 2; ++form) {
    auto run = [&](backend where) {
      Vector<T> w(n, where);
      if (form == 0) build(w, von(I64, where), von(X, where), dup);
      else build(w, von(I32, where), von(X, where), dup);
      REQUIRE(w.location() == where);
      w.to(backend::host);
      return to_vmap(w);
    };
    const auto h = run(backend::host), g = run(backend::cuda);
    INFO(what << ": size " << n << ", " << len << " tuples, form " << form);
    REQUIRE(vdiff(g, h) == "");
  }
}
}  // namespace

TEST_CASE("device build from vectors: repeats fold by dup as on the host", "[vector][device][index_list]") {
  std::mt19937_64 rng(75);
  for (index_t n : {index_t(1), index_t(17), index_t(5000)}) {
    const index_t len = n == 5000 ? 300000 : 3 * n;  // a run of 100,000 at index 0
    build_case<std::int64_t>(rng, n, len, min{}, "int64 min");
    build_case<std::int64_t>(rng, n, len, plus{}, "int64 plus");
    build_case<std::int64_t>(rng, n, len, second{}, "int64 second (the last value wins)");
    build_case<std::int64_t>(rng, n, len, minus{}, "int64 minus (not associative: walked in list order)");
    build_case<double>(rng, n, len, max{}, "fp64 max");
    build_case<bool>(rng, n, len, lor{}, "bool lor");
  }
  // Without dup a repeat is an error on the device too; indices outside w,
  // counts that differ and a w that is not empty as well; w unchanged.
  Vector<std::int64_t> I(3);
  I.set(0, 5), I.set(1, 9), I.set(2, 5);
  const Vector<double> X3 = von(random_vector<double>(rng, 3, 1.0), backend::cuda);
  Vector<double> w(40, backend::cuda);
  REQUIRE_THROWS_AS(build(w, von(I, backend::cuda), X3), invalid_value);
  I.set(2, 40);
  REQUIRE_THROWS_AS(build(w, von(I, backend::cuda), X3, min{}), index_out_of_bounds);
  I.remove(2);
  REQUIRE_THROWS_AS(build(w, von(I, backend::cuda), X3, min{}), invalid_value);
  REQUIRE(w.nvals() == 0);
  I.set(2, 7);
  build(w, von(I, backend::cuda), X3);
  REQUIRE(w.nvals() == 3);
  REQUIRE_THROWS_AS(build(w, von(I, backend::cuda), X3, min{}), output_not_empty);
  // assign through a vector of indices on the device: repeats refused (the
  // device finds them), w unchanged; without repeats as through the list.
  Vector<double> v = von(random_vector<double>(rng, 40, 0.5), backend::cuda);
  const Vector<double> before = v;
  I.set(2, 5);
  REQUIRE_THROWS_AS(assign(v, no_mask, plus{}, X3, von(I, backend::cuda)), invalid_value);
  REQUIRE(v == before);
  I.set(2, 7);
  Vector<double> v2 = v;
  assign(v, no_mask, plus{}, X3, von(I, backend::cuda));
  assign(v2, no_mask, plus{}, X3, index_list({5, 9, 7}));
  REQUIRE(v == v2);
}

TEST_CASE("device index lists: errors leave w unchanged, and == on the device", "[vector][device][index_list]") {
  std::mt19937_64 rng(74);
  const Vector<double> uh = random_vector<double>(rng, 40, 0.5);
  const Vector<double> u = von(uh, backend::cuda);
  Vector<double> w = von(random_vector<double>(rng, 40, 0.5), backend::cuda);
  const Vector<double> w_before = w;
  REQUIRE(w == w_before);
  // A repeated index in assign of a vector; an index outside w.
  REQUIRE_THROWS_AS(assign(w, no_mask, no_accum, von(random_vector<double>(rng, 3, 1.0), backend::cuda),
                           index_list({1, 2, 1})),
                    invalid_value);
  REQUIRE_THROWS_AS(assign(w, no_mask, no_accum, 1.0, index_list({1, 40})), index_out_of_bounds);
  // A vector of indices with one outside u, or with the wrong count.
  Vector<std::int64_t> bad(40);
  for (index_t k = 0; k < 40; ++k) bad.set(k, k == 29 ? 40 : k);
  REQUIRE_THROWS_AS(extract(w, no_mask, no_accum, u, von(bad, backend::cuda)), index_out_of_bounds);
  bad.set(29, -3);
  REQUIRE_THROWS_AS(extract(w, no_mask, no_accum, u, von(bad, backend::cuda)), index_out_of_bounds);
  bad.remove(29);
  REQUIRE_THROWS_AS(extract(w, no_mask, no_accum, u, von(bad, backend::cuda)), dimension_mismatch);
  // A host vector of indices for device vectors: mixed residence.
  bad.set(29, 3);
  REQUIRE_THROWS_AS(extract(w, no_mask, no_accum, u, bad), invalid_value);
  REQUIRE(w == w_before);
  // == compares positions and values: the same pattern with one value
  // changed, the same count with another pattern; sizes differ: not equal.
  {
    Vector<std::int64_t> a(100), b(100);
    for (index_t i = 0; i < 100; i += 3) a.set(i, i), b.set(i, i);
    const Vector<std::int64_t> ad = von(a, backend::cuda);
    REQUIRE(ad == von(b, backend::cuda));
    b.set(33, -1);
    REQUIRE_FALSE(ad == von(b, backend::cuda));
    b.set(33, 33);
    b.remove(99);
    b.set(98, 98);
    REQUIRE(b.nvals() == a.nvals());
    REQUIRE_FALSE(ad == von(b, backend::cuda));
    REQUIRE_FALSE(von(b, backend::cuda) == ad);
  }
  Vector<double> x = w;
  assign(x, no_mask, no_accum, 1234.0, index_list({7}));
  REQUIRE_FALSE(x == w);
  REQUIRE(x != w);
  REQUIRE_FALSE(Vector<double>(5, backend::cuda) == Vector<double>(6, backend::cuda));
  REQUIRE(Vector<double>(0, backend::cuda) == Vector<double>(0, backend::cuda));
  REQUIRE_THROWS_AS(void(x == uh), invalid_value);
  x.to(backend::host);
  Vector<double> wh = w;
  wh.to(backend::host);
  wh.set(7, 1234.0);
  REQUIRE(x == wh);
}

namespace {
// Every reached vertex's parent is reached one level earlier and has an edge to it.
void check_parents(const Matrix<double>& A, const bfs_result& r, index_t source) {
  for (index_t v = 0; v < A.nrows(); ++v) {
    const auto lv = r.level.get(v);
    const auto pv = r.parent.get(v);
    REQUIRE(lv.has_value() == pv.has_value());
    if (!lv || v == source) continue;
    const auto lp = r.level.get(*pv);
    REQUIRE(lp.has_value());
    REQUIRE(*lp == *lv - 1);
    REQUIRE(A.get(*pv, v).has_value());
  }
}

// bfs, sssp, pagerank, bc and cc of one graph on the GPU against the host.
// One test case a graph (below), so that the sanitizers run each in its own
// process (under racecheck the four together took longer than a device call
// may run) and the kernel cover can pick the smallest that launches them.
void algorithms_against_host(const char* name) {
  const auto A = io::read_matrix_market<double>(data(name));
  Matrix<double> Ad = A;
  Ad.to(backend::cuda);
  INFO(name);
  for (bfs_direction dir : {bfs_direction::automatic, bfs_direction::push, bfs_direction::pull}) {
    bfs_options o;
    o.direction = dir;
    const bfs_result h = bfs(A, 3, o);
    bfs_result g = bfs(Ad, 3, o);
    REQUIRE(g.level.location() == backend::cuda);
    g.level.to(backend::host);
    g.parent.to(backend::host);
    REQUIRE(g.level == h.level);
    check_parents(A, g, 3);
  }
  for (int delta = -1; delta < 1; ++delta) {
    const sssp_result h = delta < 0 ? sssp_bellman_ford(A, 1) : sssp_delta_stepping(A, 1);
    sssp_result g = delta < 0 ? sssp_bellman_ford(Ad, 1) : sssp_delta_stepping(Ad, 1);
    g.distance.to(backend::host);
    INFO((delta < 0 ? "bellman-ford" : "delta-stepping"));
    // min and plus over the file's values: the same sums in any order up
    // to rounding; the distances are compared within 1e-12 relative.
    const auto gm = to_vmap(g.distance), hm = to_vmap(h.distance);
    REQUIRE(gm.size() == hm.size());
    for (const auto& [v, x] : hm) {
      REQUIRE(gm.count(v) == 1);
      REQUIRE(std::fabs(gm.at(v) - x) <= 1e-12 * std::max(1.0, std::fabs(x)));
    }
  }
  const Vector<double> ph = pagerank(A);
  Vector<double> pg = pagerank(Ad);
  pg.to(backend::host);
  const auto gm = to_vmap(pg), hm = to_vmap(ph);
  REQUIRE(gm.size() == hm.size());
  for (const auto& [v, x] : hm) REQUIRE(std::fabs(gm.at(v) - x) <= 1e-12);
  // Betweenness over three sources in batches of two (device products;
  // the sums may round differently: compared within 1e-9 relative).
  bc_options bo;
  bo.batch = 2;
  const Vector<double> bh = betweenness_centrality(A, {0, 3, 5}, bo);
  Vector<double> bg = betweenness_centrality(Ad, {0, 3, 5}, bo);
  bg.to(backend::host);
  const auto bgm = to_vmap(bg), bhm = to_vmap(bh);
  REQUIRE(bgm.size() == bhm.size());
  for (const auto& [v, x] : bhm) REQUIRE(std::fabs(bgm.at(v) - x) <= 1e-9 * std::max(1.0, std::fabs(x)));
  Vector<std::int64_t> cg = connected_components(Ad);
  REQUIRE(cg.location() == backend::cuda);
  cg.to(backend::host);
  REQUIRE(cg == connected_components(A));
}
}  // namespace

TEST_CASE("algorithms on the GPU against the host: bfs, sssp, pagerank, bc, cc (karate)", "[vector][device][algorithms]") {
  algorithms_against_host("karate.mtx");
}
TEST_CASE("algorithms on the GPU against the host: bfs, sssp, pagerank, bc, cc (ca-GrQc)", "[vector][device][algorithms]") {
  algorithms_against_host("ca-GrQc.mtx");
}
TEST_CASE("algorithms on the GPU against the host: bfs, sssp, pagerank, bc, cc (jagmesh7)", "[vector][device][algorithms]") {
  algorithms_against_host("jagmesh7.mtx");
}
TEST_CASE("algorithms on the GPU against the host: bfs, sssp, pagerank, bc, cc (cage8)", "[vector][device][algorithms]") {
  algorithms_against_host("cage8.mtx");
}

// On the GPU, bfs runs its push levels fused in one cooperative kernel
// (detail::cuda::bfs_push_fused) and hands over to the vector operations
// where Beamer's rule asks for the pull: the levels must equal the host's,
// the parents be valid, and the push and pull step counts (the same
// decisions on the same counts) equal the host's.
TEST_CASE("bfs on the GPU: fused push levels, long paths and the switch to the pull", "[vector][device][algorithms]") {
  std::mt19937_64 rng(67);
  auto path_with_chords = [&](index_t n, index_t chords, bool directed) {
    std::vector<index_t> r, c;
    for (index_t i = 0; i + 1 < n; ++i) {
      r.push_back(i), c.push_back(i + 1);
      if (!directed) r.push_back(i + 1), c.push_back(i);
    }
    std::uniform_int_distribution<index_t> pick(0, n - 1);
    for (index_t k = 0; k < chords; ++k) {
      const index_t a = pick(rng), b = pick(rng);
      r.push_back(a), c.push_back(b);
      if (!directed) r.push_back(b), c.push_back(a);
    }
    return Matrix<double>::from_coo(n, n, r, c, std::vector<double>(r.size(), 1.0), tgb::first{});
  };
  struct graph {
    const char* name;
    Matrix<double> A;
    index_t source;
  };
  std::vector<graph> graphs;
  graphs.push_back({"path of 3000", path_with_chords(3000, 0, false), 0});
  graphs.push_back({"directed path of 2000, 20 chords", path_with_chords(2000, 20, true), 5});
  graphs.push_back({"random, 20000 vertices, mean degree 8", oracle::random_matrix<double>(rng, 20000, 20000, 8.0 / 20000), 7});
  graphs.push_back({"path of 5000 with 300 chords", path_with_chords(5000, 300, false), 2500});
  for (const graph& g : graphs) {
    Matrix<double> Ad = g.A;
    Ad.to(backend::cuda);
    for (bfs_direction dir : {bfs_direction::automatic, bfs_direction::push}) {
      bfs_options o;
      o.direction = dir;
      const bfs_result h = bfs(g.A, g.source, o);
      bfs_result d = bfs(Ad, g.source, o);
      d.level.to(backend::host);
      d.parent.to(backend::host);
      INFO(g.name << (dir == bfs_direction::push ? ", push only" : ", automatic") << ": host " << h.push_steps
                  << " push + " << h.pull_steps << " pull, GPU " << d.push_steps << " + " << d.pull_steps);
      REQUIRE(d.level == h.level);
      check_parents(g.A, d, g.source);
      REQUIRE(d.push_steps == h.push_steps);
      REQUIRE(d.pull_steps == h.pull_steps);
    }
  }
}

TEST_CASE("connected components on the GPU against the host and a union-find", "[vector][device][algorithms]") {
  std::mt19937_64 rng(75);
  // Random graphs from nearly empty (many components, isolated vertices) to
  // one component, directed (weak components), ids shuffled so that the
  // smallest id of a component sits anywhere in it; a long path in reverse.
  for (index_t n : {index_t(1), index_t(50), index_t(3000)})
    for (double avg : {0.3, 1.0, 4.0}) {
      std::uniform_int_distribution<index_t> v(0, n - 1);
      std::vector<index_t> r, c;
      for (index_t e = 0; e < index_t(avg * double(n)); ++e) r.push_back(v(rng)), c.push_back(v(rng));
      const auto A = Matrix<double>::from_coo(n, n, r, c, std::vector<double>(r.size(), 1.0), plus{});
      // Union-find over the edges, each vertex's label the smallest id of its set.
      std::map<index_t, index_t> up;
      auto find = [&](index_t x) {
        while (up.count(x)) x = up[x];
        return x;
      };
      for (std::size_t e = 0; e < r.size(); ++e) {
        const index_t a = find(r[e]), b = find(c[e]);
        if (a != b) up[std::max(a, b)] = std::min(a, b);
      }
      Matrix<double> Ad = A;
      Ad.to(backend::cuda);
      Vector<std::int64_t> cg = connected_components(Ad);
      cg.to(backend::host);
      INFO("n " << n << ", " << r.size() << " edges");
      REQUIRE(cg.nvals() == n);
      for (index_t i = 0; i < n; ++i) REQUIRE(cg.get(i) == find(i));
      REQUIRE(cg == connected_components(A));
    }
  const index_t n = 5000;
  std::vector<index_t> r, c;
  for (index_t i = 0; i + 1 < n; ++i) r.push_back(n - 1 - i), c.push_back(n - 2 - i);
  Matrix<double> P = Matrix<double>::from_coo(n, n, r, c, std::vector<double>(r.size(), 1.0), plus{});
  P.to(backend::cuda);
  Vector<std::int64_t> cp = connected_components(P);
  cp.to(backend::host);
  REQUIRE(cp.nvals() == n);
  for (index_t i = 0; i < n; ++i) REQUIRE(cp.get(i) == 0);
}
