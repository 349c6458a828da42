// Row saxpy on the device (row_spgemm.cuh) against the host backend: every
// symbolic and numeric bin, the hub rows (thousands of entries) in both hub
// bins (global tables pooled and reused by a block; shared-memory windows,
// several a row), the predefined semiring families and a user-defined one,
// transposes and accumulators, and the device row form it leaves in C read
// back by the other operations. Values are small integers, so every sum is
// exact in every type: patterns and values must equal the host's.
#include <array>
#include <random>
#include <vector>

#include "../oracle.hpp"
#include "rowpath_semiring.hpp"
#include "tgb/detail/cuda/plan.hpp"
#include "../tgb_catch.hpp"

using namespace tgb;

namespace {

using oracle::on_host;

constexpr int kGlobal = 8, kWindow = 9;  // the hub bins (row_spgemm.cuh)
std::array<long long, 10> sym_hits{};
std::array<long long, 10> num_hits{};

// Every other product runs the shared bins' symbolic pass as one kernel
// (fused below any count) and the rest as a kernel a bin (below none).
detail::mxm_policy saxpy_policy(std::size_t window_bytes = 0) {
  static int calls = 0;
  detail::mxm_policy p;
  p.method = detail::mxm_method::row_saxpy;
  p.hub_window_bytes = window_bytes;
  p.fused_bins_max_products = calls++ % 2 ? 1e300 : 0.0;
  return p;
}

// An m x n matrix whose row i has deg[i % deg.size()] entries (every ninth
// row none), small nonzero integer values (true for bool; a third of them 0
// with zeros).
template <class T>
Matrix<T> rows_with(std::uint64_t seed, index_t m, index_t n, const std::vector<int>& deg, bool zeros = false) {
  std::mt19937_64 rng(seed);
  std::vector<index_t> r, c;
  std::vector<T> v;
  std::uniform_int_distribution<index_t> col(0, n - 1);
  std::uniform_int_distribution<int> val(1, 4);
  for (index_t i = 0; i < m; ++i) {
    if (i % 9 == 4) continue;
    const int d = deg[std::size_t(i) % deg.size()];
    for (int q = 0; q < d; ++q) {
      r.push_back(i);
      c.push_back(col(rng));
      const int w = val(rng);
      v.push_back(zeros && rng() % 3 == 0 ? T(0) : static_cast<T>((rng() & 1) ? w : -w));
    }
  }
  return Matrix<T>::from_coo(m, n, r, c, v, tgb::first{});
}

// C = op(A) op(B) (accumulated into a random C where asked) on the host and,
// by row saxpy, on the device.
template <class TC, class TA, class TB, class SR, class Acc>
void compare(std::mt19937_64& rng, const SR& sr, const Acc& acc, const Matrix<TA>& A, const Matrix<TB>& B,
             bool accum, bool ta = false, bool tb = false, std::size_t window_bytes = 0) {
  const index_t m = ta ? A.ncols() : A.nrows(), n = tb ? B.nrows() : B.ncols();
  const auto C0 = oracle::random_matrix<TC>(rng, m, n, 0.05);
  descriptor d;
  d.transpose_a = ta;
  d.transpose_b = tb;
  Matrix<TC> host = C0;
  if (accum) mxm(host, no_mask, acc, sr, A, B, d);
  else mxm(host, no_mask, no_accum, sr, A, B, d);
  Matrix<TC> dev = oracle::on_device(C0);
  const long long runs = detail::cuda::last_row_saxpy_stats().runs;
  const detail::mxm_policy pol = saxpy_policy(window_bytes);
  if (accum) detail::mxm_cuda(dev, no_mask, acc, sr, oracle::on_device(A), oracle::on_device(B), d, pol);
  else detail::mxm_cuda(dev, no_mask, no_accum, sr, oracle::on_device(A), oracle::on_device(B), d, pol);
  const auto& st = detail::cuda::last_row_saxpy_stats();
  INFO("A " << A.nrows() << "x" << A.ncols() << " nnz " << A.nvals() << ", B nnz " << B.nvals() << ", accum " << accum
            << ", ta " << ta << ", tb " << tb);
  REQUIRE(st.runs == runs + 1);  // row saxpy planned this product
  for (int b = 0; b < 10; ++b) sym_hits[std::size_t(b)] += st.symbolic[b];
  for (int b = 0; b < 10; ++b) num_hits[std::size_t(b)] += st.numeric[b];
  REQUIRE(dev.location() == backend::cuda);
  // An unaccumulated product stays in rows; an accumulated one is tiles.
  CHECK(dev.form() == (accum ? storage_form::tiles : storage_form::rows));
  REQUIRE(dev.nvals() == host.nvals());
  REQUIRE(oracle::diff(oracle::to_map(on_host(dev)), oracle::to_map(host), 0) == "");
}

}  // namespace

TEST_CASE("row saxpy: every bin equals host, every semiring family", "[cuda][mxm][rowsaxpy]") {
  std::mt19937_64 rng(3001);
  // Rows of A from one entry to 900 times B's rows of 1 to 14 entries over
  // 6,000 columns: products from 1 to past 4,096, entries past 2,048.
  const std::vector<int> adeg{1, 2, 3, 5, 8, 16, 40, 100, 300, 900}, bdeg{1, 3, 6, 14};
  const auto Ad = rows_with<double>(1, 300, 2500, adeg), Bd = rows_with<double>(2, 2500, 6000, bdeg);
  compare<double, double, double>(rng, plus_times, plus{}, Ad, Bd, false);
  compare<double, double, double>(rng, plus_times, plus{}, Ad, Bd, true);
  compare<double, double, double>(rng, min_plus, min{}, Ad, Bd, false);
  compare<double, double, double>(rng, max_min, max{}, Ad, Bd, false);
  const auto Af = rows_with<float>(1, 300, 2500, adeg), Bf = rows_with<float>(2, 2500, 6000, bdeg);
  compare<float, float, float>(rng, max_times, max{}, Af, Bf, false);
  compare<float, float, float>(rng, plus_first, plus{}, Af, Bf, true);
  const auto Ai = rows_with<std::int32_t>(1, 300, 2500, adeg), Bi = rows_with<std::int32_t>(2, 2500, 6000, bdeg);
  compare<std::int32_t, std::int32_t, std::int32_t>(rng, plus_times, plus{}, Ai, Bi, false);
  compare<std::int32_t, std::int32_t, std::int32_t>(rng, min_first, min{}, Ai, Bi, false);
  compare<std::int32_t, std::int32_t, std::int32_t>(rng, any_second, second{}, Ai, Bi, false);
  const auto Al = rows_with<std::int64_t>(1, 300, 2500, adeg), Bl = rows_with<std::int64_t>(2, 2500, 6000, bdeg);
  compare<std::int64_t, std::int64_t, std::int64_t>(rng, plus_second, plus{}, Al, Bl, false);
  compare<std::int64_t, std::int64_t, std::int64_t>(rng, any_first, min{}, Al, Bl, true);
  compare<std::int64_t, std::int64_t, std::int64_t>(rng, rowpath_test::bor_skew, plus{}, Al, Bl, false);
  const auto Ab = rows_with<bool>(1, 300, 2500, adeg), Bb = rows_with<bool>(2, 2500, 6000, bdeg);
  compare<bool, bool, bool>(rng, lor_land, lor{}, Ab, Bb, false);
  compare<bool, bool, bool>(rng, any_pair, lor{}, Ab, Bb, true);
  compare<std::int64_t, bool, bool>(rng, plus_pair, plus{}, Ab, Bb, false);
  for (int b = 0; b < 8; ++b) {
    INFO("symbolic bin " << b);
    CHECK(sym_hits[std::size_t(b)] > 0);
  }
  CHECK(sym_hits[kGlobal] + sym_hits[kWindow] > 0);
  for (int b = 0; b < 8; ++b) {
    INFO("numeric bin " << b);
    CHECK(num_hits[std::size_t(b)] > 0);
  }
}

TEST_CASE("row saxpy: rows past 4,096 entries take the hub bins", "[cuda][mxm][rowsaxpy]") {
  std::mt19937_64 rng(3002);
  // A's rows of 2,000 and 9,000 entries (some 1,300 and 2,500 distinct
  // columns) times B's rows of about 6 over 40,000 columns: some 7,000 and
  // 13,000 entries; rows of 1 between them, so a block takes hub rows of
  // several sizes in turn and reuses its table or window.
  const std::vector<int> adeg{2000, 1, 0, 9000, 40};
  const std::vector<int> bdeg{1, 3, 6, 14};
  const auto sym0 = sym_hits, num0 = num_hits;
  const auto grew = [](const std::array<long long, 10>& now, const std::array<long long, 10>& before, int b) {
    return now[std::size_t(b)] > before[std::size_t(b)];
  };
  // Each product must put rows in a hub bin of each pass; `where` says which.
  const auto hub = [&](int sym_bin, int num_bin, auto&& run) {
    const auto s0 = sym_hits, n0 = num_hits;
    run();
    CHECK(grew(sym_hits, s0, sym_bin));
    CHECK(grew(num_hits, n0, num_bin));
  };
  // 40,000 columns: windows in both passes (the numeric pass's of about
  // 12,000 fp64 or 20,000 int32 columns on an H100: several a row).
  const auto B = rows_with<double>(2, 2500, 40000, bdeg);
  hub(kWindow, kWindow, [&] {
    compare<double, double, double>(rng, plus_times, plus{}, rows_with<double>(3, 40, 2500, adeg), B, false);
  });
  hub(kWindow, kWindow, [&] {
    compare<float, float, float>(rng, min_plus, min{}, rows_with<float>(3, 40, 2500, adeg),
                                 rows_with<float>(2, 2500, 40000, bdeg), false);
  });
  hub(kWindow, kWindow, [&] {
    compare<std::int32_t, std::int32_t, std::int32_t>(rng, any_second, second{}, rows_with<std::int32_t>(3, 40, 2500, adeg),
                                                      rows_with<std::int32_t>(2, 2500, 40000, bdeg), false);
  });
  hub(kWindow, kWindow, [&] {
    compare<std::int64_t, bool, bool>(rng, plus_pair, plus{}, rows_with<bool>(3, 40, 2500, adeg),
                                      rows_with<bool>(2, 2500, 40000, bdeg), false);
  });
  hub(kWindow, kWindow, [&] {
    compare<std::int64_t, std::int64_t, std::int64_t>(rng, rowpath_test::bor_skew, plus{},
                                                      rows_with<std::int64_t>(3, 40, 2500, adeg),
                                                      rows_with<std::int64_t>(2, 2500, 40000, bdeg), true);
  });
  // 1,000,000 columns: the numeric pass's windows would be some 80 walks of
  // A's row, so its rows take global hash tables (dense needs the columns at
  // most 16 times a row's bound), ordered by the bitonic sort; the symbolic
  // bitmap takes two windows a row.
  const auto Bwide = rows_with<double>(7, 2500, 1000000, bdeg);
  hub(kWindow, kGlobal, [&] {
    compare<double, double, double>(rng, plus_times, plus{}, rows_with<double>(3, 40, 2500, adeg), Bwide, false);
  });
  hub(kWindow, kGlobal, [&] {
    compare<std::int32_t, std::int32_t, std::int32_t>(rng, any_second, second{}, rows_with<std::int32_t>(3, 40, 2500, adeg),
                                                      rows_with<std::int32_t>(7, 2500, 1000000, bdeg), false);
  });
  hub(kWindow, kGlobal, [&] {
    compare<double, double, double>(rng, max_min, max{}, rows_with<double>(3, 40, 2500, adeg), Bwide, true);
  });
  // Windows of 20 KB (mxm_policy::hub_window_bytes): A's rows of some 7,200
  // distinct columns times B's rows of one entry over 1,000,000 columns make
  // a hub row's products no more than A's row, so seven bitmap windows cost
  // too many walks: global tables in both passes. With 40,000 columns and A's rows of 3,000 (some 28,000 entries)
  // the bitmap is one window and the numeric windows (2,048 fp64 columns)
  // twenty a row.
  hub(kGlobal, kGlobal, [&] {
    compare<double, double, double>(rng, plus_times, plus{}, rows_with<double>(3, 40, 20000, {9000, 1}),
                                    rows_with<double>(8, 20000, 1000000, {1}), false, false, false, 20 * 1024);
  });
  hub(kWindow, kWindow, [&] {
    compare<double, double, double>(rng, plus_times, plus{}, rows_with<double>(3, 40, 2500, {3000, 1}),
                                    rows_with<double>(2, 2500, 40000, {14, 20}), false, false, false, 20 * 1024);
  });
  // op(A) = A': the four rows of A' hold some 1,300 distinct columns each.
  hub(kWindow, kWindow, [&] {
    compare<double, double, double>(rng, plus_times, plus{}, rows_with<double>(5, 2500, 4, {3}), B, false, true);
  });
  for (int b : {kGlobal, kWindow}) {
    INFO("hub bin " << b);
    CHECK(grew(sym_hits, sym0, b));
    CHECK(grew(num_hits, num0, b));
  }
}

TEST_CASE("row saxpy: long rows of B are walked by the whole block", "[cuda][mxm][rowsaxpy]") {
  std::mt19937_64 rng(3004);
  // Every tenth row of B holds 1,500 entries, the rest 4 (B's mean about 150:
  // teams of 32 lanes, and a row of 1,500 is long for every block-wide
  // group). A's rows of 5,000 entries meet some 340 long rows, past the
  // queue's 256 places (the rest walked by their teams) and fill the global
  // bin; its rows of 1 and 3 entries that meet a long row land in the 2,048-
  // and 4,096-product bins, whose rows also have the whole block. The values
  // go through the hardware atomics in shared and global memory: fp64 and
  // int32 plus, int64 min, bool lor.
  const std::vector<int> skew{4, 4, 4, 4, 4, 4, 4, 4, 4, 1500}, adeg{5000, 3, 1};
  const auto hub = [&](auto&& run) {
    const long long before = num_hits[kGlobal] + num_hits[kWindow];
    run();
    CHECK(num_hits[kGlobal] + num_hits[kWindow] > before);
  };
  hub([&] {
    compare<double, double, double>(rng, plus_times, plus{}, rows_with<double>(11, 40, 6000, adeg),
                                    rows_with<double>(12, 6000, 20000, skew), false);
  });
  hub([&] {
    compare<std::int32_t, std::int32_t, std::int32_t>(rng, plus_times, plus{}, rows_with<std::int32_t>(11, 40, 6000, adeg),
                                                      rows_with<std::int32_t>(12, 6000, 20000, skew), false);
  });
  hub([&] {
    compare<std::int64_t, std::int64_t, std::int64_t>(rng, min_plus, min{}, rows_with<std::int64_t>(11, 40, 6000, adeg),
                                                      rows_with<std::int64_t>(12, 6000, 20000, skew), false);
  });
  hub([&] {
    compare<bool, bool, bool>(rng, lor_land, lor{}, rows_with<bool>(11, 40, 6000, adeg),
                              rows_with<bool>(12, 6000, 20000, skew), false);
  });
}

TEST_CASE("row saxpy: transposes, sizes around one tile, empty rows and products", "[cuda][mxm][rowsaxpy][sanitize]") {
  std::mt19937_64 rng(3003);
  for (index_t sz : {0, 1, 15, 16, 17, 33}) {
    for (int deg : {0, 1, 3, 40}) {
      INFO("size " << sz << " degree " << deg);
      const auto A = rows_with<double>(10 + sz, sz + 2, sz + 5, {deg, 1});
      const auto B = rows_with<double>(20 + sz, sz + 5, sz + 3, {2, deg});
      compare<double, double, double>(rng, plus_times, plus{}, A, B, deg == 1);
      const auto At = rows_with<std::int64_t>(30 + sz, sz + 5, sz + 2, {deg, 2});
      const auto Bt = rows_with<std::int64_t>(40 + sz, sz + 3, sz + 5, {1, deg});
      compare<std::int64_t, std::int64_t, std::int64_t>(rng, min_plus, min{}, At, Bt, false, true, true);
      compare<std::int64_t, std::int64_t, std::int64_t>(rng, plus_times, plus{}, At, At, deg == 3, true, false);
    }
  }
  // A's rows meet only empty rows of B: a product with no entries.
  const auto A = Matrix<double>::from_coo(40, 40, std::vector<index_t>{3, 35}, std::vector<index_t>{20, 21},
                                          std::vector<double>{1, 2}, tgb::first{});
  const auto B = Matrix<double>::from_coo(40, 40, std::vector<index_t>{5}, std::vector<index_t>{7},
                                          std::vector<double>{1}, tgb::first{});
  compare<double, double, double>(rng, plus_times, plus{}, A, B, false);
}

TEST_CASE("row saxpy: the device row form it leaves is read by every operation", "[cuda][rowsaxpy][storage][sanitize]") {
  std::mt19937_64 rng(3004);
  const auto A = rows_with<double>(5, 120, 120, {1, 2, 4, 7});
  Matrix<double> host(120, 120);
  mxm(host, no_mask, no_accum, plus_times, A, A);
  const auto dA = oracle::on_device(A);
  Matrix<double> C = oracle::on_device(Matrix<double>(120, 120));
  mxm(C, no_mask, no_accum, plus_times, dA, dA);  // automatic: A is hypersparse
  REQUIRE(C.location() == backend::cuda);
  REQUIRE(C.form() == storage_form::rows);
  CHECK(C.nvals() == host.nvals());
  CHECK(C.ntiles() == host.ntiles());
  CHECK(C.stored_bytes() > 0);
  // Exports and copies.
  CHECK(oracle::diff(oracle::to_map(on_host(C)), oracle::to_map(host), 0) == "");
  {
    const csr<double> c = C.to_csr(), h = host.to_csr();
    CHECK(c.rowptr == h.rowptr);
    CHECK(c.colidx == h.colidx);
    CHECK(c.values == h.values);
  }
  Matrix<double> copy = C;
  CHECK(copy.form() == storage_form::rows);
  CHECK(oracle::diff(oracle::to_map(on_host(copy)), oracle::to_map(host), 0) == "");
  // The row form as an operand of the other operations, and of mxm (also as
  // its mask).
  auto same = [&](const Matrix<double>& dev, const Matrix<double>& hst) {
    REQUIRE(dev.location() == backend::cuda);
    CHECK(oracle::diff(oracle::to_map(on_host(dev)), oracle::to_map(hst), 0) == "");
  };
  {
    Matrix<double> h(120, 120), d = oracle::on_device(Matrix<double>(120, 120));
    ewise_add(h, no_mask, no_accum, plus{}, host, A);
    ewise_add(d, no_mask, no_accum, plus{}, C, dA);
    same(d, h);
    apply(h, no_mask, no_accum, ainv{}, host, descriptor{}.with_transpose_a());
    apply(d, no_mask, no_accum, ainv{}, C, descriptor{}.with_transpose_a());
    same(d, h);
    select(h, no_mask, plus{}, tril{}, host, 0);
    select(d, no_mask, plus{}, tril{}, C, 0);
    same(d, h);
    CHECK(reduce<double>(plus_monoid{}, C) == reduce<double>(plus_monoid{}, host));
  }
  {
    Matrix<double> h(120, 120), d = oracle::on_device(Matrix<double>(120, 120));
    mxm(h, structure(host), no_accum, plus_times, host, A);
    mxm(d, structure(C), no_accum, plus_times, C, dA);
    same(d, h);
    Matrix<double> h2 = host, d2 = C;  // C accumulates into its own row form
    mxm(h2, no_mask, plus{}, plus_times, host, host);
    mxm(d2, no_mask, plus{}, plus_times, C, C);
    same(d2, h2);
  }
  // The owner's control converts on the device and sticks.
  C.set_storage(storage_control::tiles);
  CHECK(C.form() == storage_form::tiles);
  CHECK(C.location() == backend::cuda);
  same(C, host);
  C.set_storage(storage_control::rows);
  CHECK(C.form() == storage_form::rows);
  same(C, host);
  // ... and holds for every result written into the matrix afterwards.
  C.set_storage(storage_control::tiles);
  mxm(C, no_mask, no_accum, plus_times, dA, dA);  // row saxpy's rows, stored as tiles
  CHECK(C.form() == storage_form::tiles);
  same(C, host);
  C.set_storage(storage_control::rows);
  ewise_add(C, no_mask, no_accum, plus{}, C, C);  // a tile result, stored as rows
  CHECK(C.form() == storage_form::rows);
  {
    Matrix<double> h2(120, 120);
    ewise_add(h2, no_mask, no_accum, plus{}, host, host);
    same(C, h2);
  }
  C.clear();
  CHECK(C.nvals() == 0);
  CHECK(C.location() == backend::cuda);
  CHECK(C.form() == storage_form::rows);
}

// The dot over a mask stored in rows (dot.cuh, product_rows): every mask kind
// (structure, values with zeros, complement: that one goes to tiles), replace
// and accumulators into a C with entries, transposes, forced and by the rule.
TEST_CASE("row dot: a mask in rows equals host", "[cuda][mxm][rowsaxpy][dot][sanitize]") {
  std::mt19937_64 rng(3005);
  for (int forced = 0; forced < 2; ++forced) {
    detail::mxm_policy pol;
    if (forced) pol.method = detail::mxm_method::row_dot;
    for (int mask = 1; mask < 5; ++mask) {
      for (int variant = 0; variant < 4; ++variant) {
        const bool ta = variant & 1, tb = (variant & 2) != 0, accum = variant == 1, replace = variant == 2;
        INFO("forced " << forced << " mask " << mask << " variant " << variant);
        auto A = rows_with<double>(50 + variant, 90, 70, {1, 3, 0, 8});
        auto B = rows_with<double>(60 + variant, tb ? 80 : 70, tb ? 70 : 80, {2, 0, 5});
        if (variant % 2 == 0) {
          A.set_storage(storage_control::rows);
          B.set_storage(storage_control::rows);
        }
        const Matrix<double> a = ta ? [&] {
          Matrix<double> t(70, 90);
          transpose(t, no_mask, no_accum, A);
          return t;
        }()
                                    : A;
        auto Mv = rows_with<int>(70 + variant, 90, 80, {4, 1, 0, 9}, /*zeros=*/true);
        Mv.set_storage(storage_control::rows);  // the operands: rows in half the variants, the rule's choice else
        const auto C0 = oracle::random_matrix<double>(rng, 90, 80, 0.05);
        descriptor d;
        d.transpose_a = ta;
        d.transpose_b = tb;
        d.replace = replace;
        auto run = [&](Matrix<double>& C, const Matrix<double>& x, const Matrix<double>& y, const Matrix<int>& m,
                       bool device) {
          oracle::with_mask_mode(mask, m, [&](const auto& mk) {
            if (!device) {
              if (accum) mxm(C, mk, plus{}, plus_times, x, y, d);
              else mxm(C, mk, no_accum, plus_times, x, y, d);
            } else {
              if (accum) detail::mxm_cuda(C, mk, plus{}, plus_times, x, y, d, pol);
              else detail::mxm_cuda(C, mk, no_accum, plus_times, x, y, d, pol);
            }
          });
        };
        Matrix<double> host = C0;
        run(host, a, B, Mv, false);
        Matrix<double> dev = oracle::on_device(C0);
        const auto dM = oracle::on_device(Mv);
        REQUIRE(dM.form() == storage_form::rows);
        run(dev, oracle::on_device(a), oracle::on_device(B), dM, true);
        REQUIRE(dev.location() == backend::cuda);
        REQUIRE(oracle::diff(oracle::to_map(on_host(dev)), oracle::to_map(host), 1e-12) == "");
      }
    }
  }
  // The triangle product with L in rows: no conversion, C in rows.
  const auto S = rows_with<bool>(80, 300, 300, {2, 5, 9, 1});
  Matrix<bool> U(300, 300), L(300, 300);
  ewise_add(U, no_mask, no_accum, lor{}, S, S, descriptor{}.with_transpose_b());
  select(L, no_mask, no_accum, tril{}, U, -1);
  L.set_storage(storage_control::rows);
  Matrix<std::int64_t> Ch(300, 300);
  mxm(Ch, structure(L), no_accum, plus_pair, L, L, descriptor{}.with_transpose_b());
  const auto dL = oracle::on_device(L);
  REQUIRE(dL.form() == storage_form::rows);
  Matrix<std::int64_t> Cd = oracle::on_device(Matrix<std::int64_t>(300, 300));
  mxm(Cd, structure(dL), no_accum, plus_pair, dL, dL, descriptor{}.with_transpose_b());
  CHECK(Cd.form() == storage_form::rows);
  CHECK(oracle::diff(oracle::to_map(on_host(Cd)), oracle::to_map(Ch)) == "");
}
