// import_csr, export_csr and view_csr (include/tgb/import_export.hpp): the
// caller's arrays adopted without a copy where the matrix is kept in rows
// (the very pointers stored), converted where the rule picks tiles or
// hypersparse rows; exports that hand the row form over; every error and
// every failed allocation leaving the caller's arrays as they were.
#include <random>
#include <string>
#include <vector>

#include "../failing_resource.hpp"
#include "../oracle.hpp"
#include "../tgb_catch.hpp"

using namespace tgb;

namespace {

// m's CSR arrays in import_csr's index types.
template <class T>
void csr_arrays(const Matrix<T>& m, std::vector<offset_t>& rp, std::vector<std::int32_t>& ci, std::vector<T>& v) {
  const csr<T> c = m.to_csr();
  rp.assign(c.rowptr.begin(), c.rowptr.end());
  ci.assign(c.colidx.begin(), c.colidx.end());
  v.assign(c.values.begin(), c.values.end());
}

}  // namespace

TEST_CASE("import_csr adopts the arrays, export_csr hands them back, view_csr reads them in place", "[import]") {
  // 3 x 4:  [1 . 2 .]
  //         [. . . 3]
  //         [. . . .]
  std::vector<offset_t> rp{0, 2, 3, 3};
  std::vector<std::int32_t> ci{0, 2, 3};
  std::vector<double> v{1.0, 2.0, 3.0};
  const offset_t* rpp = rp.data();
  const std::int32_t* cip = ci.data();
  const double* vp = v.data();
  Matrix<double> A = import_csr<double>(3, 4, std::move(rp), std::move(ci), std::move(v));
  REQUIRE(rp.empty());
  REQUIRE(ci.empty());
  REQUIRE(v.empty());
  REQUIRE(A.nrows() == 3);
  REQUIRE(A.ncols() == 4);
  REQUIRE(A.nvals() == 3);
  REQUIRE(A.get(0, 0) == 1.0);
  REQUIRE(A.get(0, 2) == 2.0);
  REQUIRE(A.get(1, 3) == 3.0);
  REQUIRE_FALSE(A.get(2, 0).has_value());
  // Three entries in three tiles' worth of rows: the rule keeps rows, so the
  // matrix holds the caller's own arrays.
  const auto view = view_csr(A);
  REQUIRE(view.has_value());
  REQUIRE(view->nnz == 3);
  REQUIRE(view->rowptr == rpp);
  REQUIRE(view->colidx == cip);
  REQUIRE(view->values == vp);
  // Operations read it like any matrix.
  Matrix<double> C(3, 3);
  mxm(C, no_mask, no_accum, plus_times, A, A, descriptor{}.with_transpose_b());
  REQUIRE(oracle::to_map(C) == oracle::dmap<double>{{{0, 0}, 5.0}, {{1, 1}, 9.0}});

  csr_export<double> e = export_csr(std::move(A));
  REQUIRE(A.nrows() == 0);
  REQUIRE(A.nvals() == 0);
  REQUIRE(e.nrows == 3);
  REQUIRE(e.ncols == 4);
  REQUIRE(e.rowptr.data() == rpp);
  REQUIRE(e.colidx.data() == cip);
  REQUIRE(e.values.data() == vp);
  // And back in, still without a copy.
  Matrix<double> B = import_csr<double>(3, 4, std::move(e.rowptr), std::move(e.colidx), std::move(e.values));
  REQUIRE(e.values.size() == 0);
  REQUIRE(view_csr(B).has_value());
  REQUIRE(view_csr(B)->values == vp);
  REQUIRE(B.nvals() == 3);

  // A matrix in tiles has no row view; set_storage(rows) makes one.
  Matrix<double> T = Matrix<double>::from_coo(32, 32, std::vector<index_t>{0, 1}, std::vector<index_t>{0, 1},
                                              std::vector<double>{4, 5}, no_duplicates);
  T.set_storage(storage_control::tiles);
  REQUIRE_FALSE(view_csr(T).has_value());
  T.set_storage(storage_control::rows);
  REQUIRE(view_csr(T).has_value());
  REQUIRE(view_csr(T)->nnz == 2);
}

TEST_CASE("import_csr and export_csr over every form: the same entries as from_csr and to_csr", "[import]") {
  std::mt19937_64 rng(4401);
  struct shape {
    index_t m, n;
    double density;
  };
  // Tile-dense (the rule picks tiles: a copy), sparse (rows: adopted), tall
  // and hypersparse (hypersparse rows: a copy), sizes around 16, empty.
  const shape shapes[] = {{48, 40, 0.6}, {300, 280, 0.01}, {1 << 17, 64, 2e-5}, {15, 17, 0.2},
                          {16, 16, 0.0}, {0, 5, 0.0},      {5, 0, 0.0},         {1, 1, 1.0}};
  for (const shape& s : shapes) {
    INFO("shape " << s.m << " x " << s.n << ", density " << s.density);
    const Matrix<double> ref = oracle::random_matrix<double>(rng, s.m, s.n, s.density);
    const auto want = oracle::to_map(ref);
    std::vector<offset_t> rp;
    std::vector<std::int32_t> ci;
    std::vector<double> v;
    csr_arrays(ref, rp, ci, v);
    const double* vp = v.data();
    Matrix<double> A = import_csr<double>(s.m, s.n, std::move(rp), std::move(ci), std::move(v));
    REQUIRE(oracle::diff(oracle::to_map(A), want).empty());
    // Adopted exactly where the matrix is kept in rows: the sparse square
    // one is (hypersparse tiles), the tile-dense and the tall one are not.
    INFO("stored as " << storage_form_name(A.form()));
    if (s.m == 300) REQUIRE(A.form() == storage_form::rows);
    if (s.m == 48) REQUIRE(A.form() == storage_form::tiles);
    if (s.m == (1 << 17)) REQUIRE(A.form() == storage_form::hyper);
    if (A.row_form() && A.nvals() > 0) REQUIRE(view_csr(A)->values == vp);
    if (!A.row_form()) REQUIRE_FALSE(view_csr(A).has_value());
    for (storage_control c : {storage_control::tiles, storage_control::rows, storage_control::hyper}) {
      Matrix<double> X = ref;
      X.set_storage(c);
      const csr<double> w = ref.to_csr();
      const bool in_rows = X.row_form() != nullptr;
      const double* xp = in_rows ? X.row_form()->values.data() : nullptr;
      csr_export<double> e = export_csr(std::move(X));
      REQUIRE(X.nvals() == 0);
      REQUIRE(e.rowptr.size() == w.rowptr.size());
      for (std::size_t i = 0; i < w.rowptr.size(); ++i) REQUIRE(e.rowptr[i] == w.rowptr[i]);
      REQUIRE(e.colidx.size() == w.colidx.size());
      for (std::size_t k = 0; k < w.colidx.size(); ++k) {
        REQUIRE(e.colidx[k] == w.colidx[k]);
        REQUIRE(e.values[k] == w.values[k]);
      }
      if (in_rows && w.values.size() > 0) REQUIRE(e.values.data() == xp);
    }
  }
}

TEST_CASE("import_csr: bool through host_array, integer values", "[import]") {
  host_array<offset_t> rp(3);
  rp[0] = 0;
  rp[1] = 1;
  rp[2] = 2;
  host_array<std::int32_t> ci(2);
  ci[0] = 1;
  ci[1] = 0;
  host_array<bool> v(2);
  v[0] = true;
  v[1] = false;
  const bool* vp = v.data();
  Matrix<bool> P = import_csr<bool>(2, 2, std::move(rp), std::move(ci), std::move(v));
  REQUIRE(oracle::to_map(P) == oracle::dmap<bool>{{{0, 1}, true}, {{1, 0}, false}});
  if (P.row_form()) REQUIRE(view_csr(P)->values == vp);
  std::vector<offset_t> rp2{0, 0, 2};
  std::vector<std::int32_t> ci2{0, 3};
  std::vector<std::int64_t> v2{-7, 1ll << 40};
  Matrix<std::int64_t> I = import_csr<std::int64_t>(2, 4, std::move(rp2), std::move(ci2), std::move(v2));
  REQUIRE(oracle::to_map(I) == oracle::dmap<std::int64_t>{{{1, 0}, -7}, {{1, 3}, 1ll << 40}});
  // Wider than a row form holds (2^33 columns): built as from_csr builds it.
  std::vector<offset_t> rp3{0, 1};
  std::vector<std::int32_t> ci3{5};
  std::vector<double> v3{2.5};
  Matrix<double> W = import_csr<double>(1, index_t(1) << 33, std::move(rp3), std::move(ci3), std::move(v3));
  REQUIRE(W.ncols() == index_t(1) << 33);
  REQUIRE(W.get(0, 5) == 2.5);
  REQUIRE(W.nvals() == 1);
  REQUIRE(rp3.empty());
  REQUIRE(v3.empty());
  REQUIRE_FALSE(view_csr(W).has_value());
}

TEST_CASE("import_csr errors leave the caller's arrays as they were", "[import]") {
  struct bad {
    const char* what;
    index_t m, n;
    std::vector<offset_t> rp;
    std::vector<std::int32_t> ci;
    std::vector<double> v;
    bool out_of_bounds;
  };
  const bad cases[] = {
      {"rowptr too short", 3, 3, {0, 1, 2}, {0, 1}, {1, 2}, false},
      {"rowptr not from 0", 2, 3, {1, 1, 2}, {0, 1}, {1, 2}, false},
      {"rowptr past the entries", 2, 3, {0, 1, 3}, {0, 1}, {1, 2}, false},
      {"rowptr decreasing", 3, 3, {0, 2, 1, 2}, {0, 1}, {1, 2}, false},
      {"rowptr inside past the entries", 2, 3, {0, 3, 2}, {0, 1}, {1, 2}, false},
      {"values shorter", 2, 3, {0, 1, 2}, {0, 1}, {1}, false},
      {"unsorted row", 1, 3, {0, 2}, {2, 0}, {1, 2}, false},
      {"repeated column", 1, 3, {0, 2}, {1, 1}, {1, 2}, false},
      {"column past ncols", 2, 3, {0, 1, 2}, {0, 3}, {1, 2}, true},
      {"negative column", 2, 3, {0, 1, 2}, {-1, 0}, {1, 2}, true},
  };
  for (const bad& b : cases) {
    INFO(b.what);
    std::vector<offset_t> rp = b.rp;
    std::vector<std::int32_t> ci = b.ci;
    std::vector<double> v = b.v;
    const double* vp = v.data();
    if (b.out_of_bounds)
      REQUIRE_THROWS_AS(import_csr<double>(b.m, b.n, std::move(rp), std::move(ci), std::move(v)), index_out_of_bounds);
    else
      REQUIRE_THROWS_AS(import_csr<double>(b.m, b.n, std::move(rp), std::move(ci), std::move(v)), invalid_value);
    REQUIRE(rp == b.rp);
    REQUIRE(ci == b.ci);
    REQUIRE(v == b.v);
    REQUIRE(v.data() == vp);
  }
  std::vector<offset_t> rp{0};
  std::vector<std::int32_t> ci;
  std::vector<double> v;
  REQUIRE_THROWS_AS(import_csr<double>(-1, 2, std::move(rp), std::move(ci), std::move(v)), invalid_value);
  REQUIRE(rp == std::vector<offset_t>{0});
  // One array passed as two (row pointers and values of an int64 matrix).
  std::vector<std::int64_t> x{0, 1};
  std::vector<std::int32_t> c1{0};
  REQUIRE_THROWS_AS(import_csr<std::int64_t>(1, 2, std::move(x), std::move(c1), std::move(x)), invalid_value);
  REQUIRE(x == std::vector<std::int64_t>{0, 1});
  REQUIRE(c1 == std::vector<std::int32_t>{0});
}

TEST_CASE("import_csr and export_csr under failing allocations: all or nothing, nothing leaked", "[import][oom]") {
  std::mt19937_64 rng(4402);
  // Rows (adopted) and tiles (converted from a copy).
  for (double density : {0.01, 0.7}) {
    INFO("density " << density);
    const Matrix<double> ref = oracle::random_matrix<double>(rng, 64, 48, density);
    const auto want = oracle::to_map(ref);
    std::vector<offset_t> rp0;
    std::vector<std::int32_t> ci0;
    std::vector<double> v0;
    csr_arrays(ref, rp0, ci0, v0);
    bool done = false;
    for (long long k = 0; !done && k < 400; ++k) {
      oracle::failing_resource r(k);
      std::vector<offset_t> rp = rp0;
      std::vector<std::int32_t> ci = ci0;
      std::vector<double> v = v0;
      const double* const vp = v.data();
      {
        Matrix<double> A;
        done = oracle::run_with(r, [&] { A = import_csr<double>(64, 48, std::move(rp), std::move(ci), std::move(v)); });
        if (done) {
          REQUIRE(oracle::diff(oracle::to_map(A), want).empty());
          REQUIRE(rp.empty());
          REQUIRE(ci.empty());
          REQUIRE(v.empty());
        } else {
          // Given back: the same storage, not a copy.
          REQUIRE(rp == rp0);
          REQUIRE(ci == ci0);
          REQUIRE(v == v0);
          REQUIRE(v.data() == vp);
          REQUIRE(A.nvals() == 0);
        }
      }
      // Every block from the resource is back once the matrix is gone.
      REQUIRE(r.live() == 0);
    }
    REQUIRE(done);
    // The export of each form: a row form moves out (no allocation), the
    // others are converted; a failure leaves A as it was.
    for (storage_control c : {storage_control::tiles, storage_control::rows, storage_control::hyper}) {
      done = false;
      for (long long k = 0; !done && k < 400; ++k) {
        oracle::failing_resource r(k);
        {
          Matrix<double> A = ref;
          A.set_storage(c);
          csr_export<double> e;
          done = oracle::run_with(r, [&] { e = export_csr(std::move(A)); });
          if (done) {
            REQUIRE(e.rowptr.size() == rp0.size());
            REQUIRE(e.values.size() == v0.size());
            for (std::size_t k = 0; k < v0.size(); ++k) REQUIRE(e.values[k] == v0[k]);
            REQUIRE(A.nvals() == 0);
          } else {
            REQUIRE(oracle::diff(oracle::to_map(A), want).empty());
            REQUIRE(A.storage() == c);
          }
        }
        REQUIRE(r.live() == 0);
      }
      REQUIRE(done);
    }
  }
}

TEST_CASE("import_device_csr and export_device_csr: what needs a GPU, what a host matrix gets", "[import][device]") {
  Matrix<double> h = Matrix<double>::from_coo(2, 3, std::vector<index_t>{0, 1}, std::vector<index_t>{2, 0}, std::vector<double>{1.5, 2.5}, first{});
  device_array<offset_t> rp;
  device_array<std::int32_t> ci;
  device_array<double> v;
  if (cuda_device_count() == 0) {
    // No GPU (CI): the device forms say so and change nothing.
    REQUIRE_THROWS_AS(import_device_csr<double>(0, 0, std::move(rp), std::move(ci), std::move(v)), not_implemented);
    REQUIRE_THROWS_AS(export_device_csr(std::move(h)), not_implemented);
    // Device memory itself: the same error on a CUDA build without a GPU as
    // on a build without the CUDA backend, never a panic.
    REQUIRE_THROWS_AS(device_array<double>(3), not_implemented);
  } else {
    REQUIRE(device_array<double>(3).size() == 3);
    REQUIRE_THROWS_AS(import_device_csr<double>(2, 3, std::move(rp), std::move(ci), std::move(v)), invalid_value);
    REQUIRE_THROWS_AS(export_device_csr(std::move(h)), invalid_value);  // a host matrix: export_csr
  }
  REQUIRE(h.nrows() == 2);
  REQUIRE(h.nvals() == 2);
  REQUIRE(!view_device_csr(h));
  REQUIRE(view_csr(h).has_value() == (h.row_form() != nullptr));
}
