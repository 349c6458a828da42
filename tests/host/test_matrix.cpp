// Matrix<T>: building from COO and CSR, export, element lookup, shapes, the
// tile layout's invariants, and errors.
#include <cstdint>
#include <random>

#include "tgb/scalar.hpp"

#include "../failing_resource.hpp"
#include "../oracle.hpp"
#include "../tgb_catch.hpp"

using namespace tgb;

namespace {

// Checks the two-level layout against its definition (docs/tile-format.md).
template <class T>
void check_layout(const Matrix<T>& m) {
  const auto& p = m.tiles().pat;
  REQUIRE(p.tile_ptr.size() == static_cast<std::size_t>(detail::tiles_for(m.nrows())) + 1);
  REQUIRE(p.tile_ptr[0] == 0);
  for (index_t I = 0; I < p.tile_rows(); ++I) {
    REQUIRE(p.tile_ptr[I] <= p.tile_ptr[I + 1]);
    for (offset_t t = p.tile_ptr[I]; t < p.tile_ptr[I + 1]; ++t) {
      if (t > p.tile_ptr[I]) REQUIRE(p.tile_col[t - 1] < p.tile_col[t]);
      REQUIRE(index_t(p.tile_col[t]) < p.tile_cols());
      int n = 0;
      for (int r = 0; r < tile_dim; ++r) {
        REQUIRE(p.row_ptr[16 * t + r] == n);
        n += __builtin_popcount(p.row_mask[16 * t + r]);
        if (I * 16 + r >= m.nrows()) REQUIRE(p.row_mask[16 * t + r] == 0);
      }
      REQUIRE(n == p.tile_offset[t + 1] - p.tile_offset[t]);
      REQUIRE(n > 0);
    }
  }
}

}  // namespace

TEST_CASE("from_coo with each duplicate policy", "[matrix][build]") {
  std::vector<int> r{1, 0, 1, 1}, c{2, 0, 2, 2};
  std::vector<double> v{1.5, 2.0, 3.0, 4.0};
  CHECK_THROWS_AS(Matrix<double>::from_coo(3, 3, r, c, v, no_duplicates), invalid_value);
  try {
    Matrix<double>::from_coo(3, 3, r, c, v, no_duplicates);
  } catch (const invalid_value& e) {
    CHECK(e.info_code() == -3);
    CHECK(e.info() == info::invalid_value);  // the accessor docs/errors.md names
    CHECK(e.code() == info::invalid_value);
    CHECK(std::string(e.what()).find("(1, 2)") != std::string::npos);
  }
  CHECK(*Matrix<double>::from_coo(3, 3, r, c, v, first{}).get(1, 2) == 1.5);
  CHECK(*Matrix<double>::from_coo(3, 3, r, c, v, second{}).get(1, 2) == 4.0);
  CHECK(*Matrix<double>::from_coo(3, 3, r, c, v, plus{}).get(1, 2) == 8.5);
  CHECK(Matrix<double>::from_coo(3, 3, r, c, v, plus{}).nvals() == 2);
}

TEST_CASE("from_coo rejects out-of-range and mismatched input", "[matrix][build][errors]") {
  std::vector<int> r{0, 3}, c{0, 1};
  std::vector<int> v{1, 2};
  CHECK_THROWS_AS(Matrix<int>::from_coo(3, 3, r, c, v, no_duplicates), index_out_of_bounds);
  std::vector<int> neg{-1, 0};
  CHECK_THROWS_AS(Matrix<int>::from_coo(3, 3, neg, c, v, no_duplicates), index_out_of_bounds);
  std::vector<std::uint64_t> huge{0, std::uint64_t(1) << 63};
  CHECK_THROWS_AS(Matrix<int>::from_coo(3, 3, huge, c, v, no_duplicates), index_out_of_bounds);
  std::vector<int> short_v{1};
  CHECK_THROWS_AS(Matrix<int>::from_coo(3, 3, c, c, short_v, no_duplicates), invalid_value);
  CHECK_THROWS_AS(Matrix<int>(-1, 3), invalid_value);
  CHECK_THROWS_AS(Matrix<int>(index_t(1) << 40, 3), invalid_value);
}

TEST_CASE("from_csr sorts rows and validates", "[matrix][build]") {
  std::vector<int> rp{0, 2, 2, 3}, ci{5, 1, 0};
  std::vector<float> v{1, 2, 3};
  auto m = Matrix<float>::from_csr(3, 6, rp, ci, v);
  CHECK(m.nvals() == 3);
  CHECK(*m.get(0, 1) == 2.0f);
  CHECK(*m.get(0, 5) == 1.0f);
  auto out = m.to_csr();
  CHECK(out.rowptr == std::vector<offset_t>{0, 2, 2, 3});
  CHECK(out.colidx == std::vector<index_t>{1, 5, 0});
  std::vector<int> bad_rp{0, 3, 2, 3};
  CHECK_THROWS_AS(Matrix<float>::from_csr(3, 6, bad_rp, ci, v), invalid_value);
  std::vector<int> dup_ci{1, 1, 0};
  CHECK_THROWS_AS(Matrix<float>::from_csr(3, 6, rp, dup_ci, v), invalid_value);
  std::vector<int> oob_ci{1, 6, 0};
  CHECK_THROWS_AS(Matrix<float>::from_csr(3, 6, rp, oob_ci, v), index_out_of_bounds);
  std::vector<int> short_rp{0, 2};
  CHECK_THROWS_AS(Matrix<float>::from_csr(3, 6, short_rp, ci, v), invalid_value);
}

TEST_CASE("element lookup: absent is not an error, outside is", "[matrix]") {
  std::vector<int> r{16}, c{31};
  std::vector<std::int64_t> v{-7};
  auto m = Matrix<std::int64_t>::from_coo(17, 33, r, c, v, no_duplicates);
  CHECK(*m.get(16, 31) == -7);
  CHECK_FALSE(m.get(16, 32).has_value());
  CHECK_FALSE(m.get(0, 0).has_value());
  CHECK_THROWS_AS(m.get(17, 0), invalid_index);
  CHECK_THROWS_AS(m.get(0, -1), invalid_index);
  try {
    m.get(17, 0);
  } catch (const error& e) {
    CHECK(e.info_code() == -4);
  }
}

TEST_CASE("every shape round-trips through the tile layout", "[matrix][random]") {
  std::mt19937_64 rng(7);
  for (index_t m : {0, 1, 15, 16, 17, 33, 250})
    for (index_t n : {0, 1, 15, 16, 17, 33, 301})
      for (double density : {0.01, 0.2, 1.0}) {
        auto A = oracle::random_matrix<double>(rng, m, n, density);
        INFO(m << " x " << n << " density " << density);
        CHECK(A.nrows() == m);
        CHECK(A.ncols() == n);
        check_layout(A);
        const auto coo = A.to_coo();
        // Sorted by (row, col), and every entry found by get().
        for (std::size_t k = 0; k < coo.rows.size(); ++k) {
          if (k) REQUIRE(std::make_pair(coo.rows[k - 1], coo.cols[k - 1]) < std::make_pair(coo.rows[k], coo.cols[k]));
          REQUIRE(*A.get(coo.rows[k], coo.cols[k]) == coo.values[k]);
        }
        const auto B = Matrix<double>::from_coo(m, n, coo.rows, coo.cols, coo.values, no_duplicates);
        REQUIRE(oracle::diff(oracle::to_map(B), oracle::to_map(A)) == "");
        const auto csr = A.to_csr();
        const auto C = Matrix<double>::from_csr(m, n, csr.rowptr, csr.colidx, csr.values);
        REQUIRE(oracle::diff(oracle::to_map(C), oracle::to_map(A)) == "");
      }
}

TEST_CASE("bool matrices and clear()", "[matrix]") {
  std::vector<int> r{0, 1}, c{1, 0};
  std::vector<bool> v{true, false};
  auto m = Matrix<bool>::from_coo(2, 2, r, c, v, no_duplicates);
  CHECK(m.nvals() == 2);
  CHECK(*m.get(0, 1) == true);
  CHECK(*m.get(1, 0) == false);
  m.clear();
  CHECK(m.nvals() == 0);
  CHECK(m.nrows() == 2);
}

TEST_CASE("the layout stores nnz offsets in 64 bits and dimensions up to 2^36", "[matrix][limits]") {
  static_assert(sizeof(offset_t) == 8, "nnz offsets are 64-bit");
  // A tall, thin matrix past 2^26 rows, not a multiple of 16 (stored in
  // hypersparse rows: see docs/tile-format.md).
  const index_t big = (index_t(1) << 26) + 5;
  std::vector<index_t> r{0, big - 1}, c{0, 3};
  std::vector<int> v{1, 2};
  auto m = Matrix<int>::from_coo(big, 4, r, c, v, no_duplicates);
  CHECK(*m.get(big - 1, 3) == 2);
  CHECK(m.ntiles() == 2);
}

TEST_CASE("moving to the GPU fails cleanly where there is none", "[matrix][backend]") {
  Matrix<double> A(3, 3);
  if (cuda_device_count() == 0) {
    CHECK_THROWS_AS(A.to(backend::cuda), not_implemented);
    CHECK(A.location() == backend::host);
  } else {
    A.to(backend::cuda);
    CHECK(A.location() == backend::cuda);
    A.to(backend::host);
  }
  CHECK(A.nrows() == 3);
}

TEST_CASE("column dimensions and indices past 2^31 and 2^32", "[matrix][limits]") {
  // Wide matrices cost nothing per column, so the 32-bit boundaries can be
  // crossed here: column 2^32 + 4 lives in tile column 2^28, entries compare
  // across the boundary, and the select predicates do their index arithmetic
  // in 64 bits.
  for (index_t ncols : {(index_t(1) << 31) + 3, (index_t(1) << 32) + 5}) {
    INFO("ncols " << ncols);
    const std::vector<index_t> r{0, 1, 15, 15}, c{0, ncols - 1, (index_t(1) << 31) - 1, ncols - 2};
    const std::vector<double> v{1, 2, 3, 4};
    const auto A = Matrix<double>::from_coo(16, ncols, r, c, v, no_duplicates);
    REQUIRE(A.get(1, ncols - 1) == std::optional<double>(2));
    REQUIRE(A.get(15, (index_t(1) << 31) - 1) == std::optional<double>(3));
    REQUIRE_FALSE(A.get(15, index_t(1) << 31).has_value());
    REQUIRE_THROWS_AS(A.get(0, ncols), invalid_index);
    Matrix<double> S(16, ncols), U(16, ncols);
    ewise_add(S, no_mask, no_accum, plus{}, A, A);
    REQUIRE(S.get(15, ncols - 2) == std::optional<double>(8));
    select(U, no_mask, no_accum, triu{}, A, index_t(1) << 31);  // keeps j >= i + 2^31
    offset_t want = 0;
    for (std::size_t e = 0; e < r.size(); ++e) want += c[e] >= r[e] + (index_t(1) << 31);
    REQUIRE(U.nvals() == want);
    REQUIRE(want >= 1);
    Vector<double> w(16);
    reduce(w, no_mask, no_accum, max_monoid{}, A);
    REQUIRE(w.get(15) == std::optional<double>(4));
    const auto coo = A.to_coo();
    REQUIRE(coo.cols == c);
    REQUIRE_THROWS_AS(Matrix<double>::from_coo(16, ncols, std::vector<index_t>{0}, std::vector<index_t>{ncols},
                                               std::vector<double>{1}, no_duplicates),
                      index_out_of_bounds);
  }
}

TEST_CASE("set, remove and resize one entry at a time, in every form, against a map", "[matrix][element]") {
  // GrB_Matrix_setElement, _removeElement and _resize: random edits on
  // matrices held in each form (and by the rule), checked after every step.
  std::mt19937_64 rng(17);
  const storage_control controls[] = {storage_control::automatic, storage_control::tiles, storage_control::rows,
                                      storage_control::hyper};
  for (index_t n : {1, 5, 16, 40, 70000})
    for (storage_control ctl : controls) {
      INFO("n=" << n << " control=" << int(ctl));
      const index_t m = n + 3;
      Matrix<double> A = oracle::random_matrix<double>(rng, n, m, n > 1000 ? 4e-8 : 0.2);
      A.set_storage(ctl);
      auto want = oracle::to_map(A);
      for (int step = 0; step < 60; ++step) {
        index_t i = index_t(rng() % std::uint64_t(n)), j = index_t(rng() % std::uint64_t(m));
        if (!want.empty() && rng() % 2 == 0) {
          // A stored position: an overwrite in place, or a removal.
          auto it = want.begin();
          std::advance(it, static_cast<long>(rng() % want.size()));
          i = it->first.first, j = it->first.second;
        }
        if (rng() % 3 == 0) {
          A.remove(i, j);
          want.erase({i, j});
        } else {
          A.set(i, j, step + 0.5);
          want[{i, j}] = step + 0.5;
        }
        REQUIRE(oracle::to_map(A) == want);
        REQUIRE(A.nvals() == offset_t(want.size()));
        REQUIRE(A.storage() == ctl);
        if (ctl == storage_control::tiles) REQUIRE(A.form() == storage_form::tiles);
        if (ctl == storage_control::rows) REQUIRE(A.form() == storage_form::rows);
        if (ctl == storage_control::hyper) REQUIRE(A.form() == storage_form::hyper);
      }
      // An int set into a double matrix is cast; a stored entry is
      // overwritten in place.
      A.set(0, 0, 7);
      CHECK(A.get(0, 0) == 7.0);
      A.set(0, 0, 8.25f);
      CHECK(A.get(0, 0) == 8.25);
      // Shrink, then grow: entries outside the smaller shape are gone.
      const index_t n2 = std::max<index_t>(1, n / 2), m2 = std::max<index_t>(1, m / 2);
      A.resize(n2, m2);
      for (auto it = want.begin(); it != want.end();)
        it = it->first.first >= n2 || it->first.second >= m2 ? want.erase(it) : std::next(it);
      want[{0, 0}] = 8.25;
      CHECK(A.nrows() == n2);
      CHECK(A.ncols() == m2);
      CHECK(oracle::to_map(A) == want);
      A.resize(n2 + 20, m2 + 30);
      CHECK(A.nrows() == n2 + 20);
      CHECK(A.ncols() == m2 + 30);
      CHECK(oracle::to_map(A) == want);
      A.set(n2 + 19, m2 + 29, 1.0);
      CHECK(A.get(n2 + 19, m2 + 29) == 1.0);
    }
  // Out of memory at any allocation of an edit: the matrix is as it was
  // before that edit, and nothing leaks.
  {
    const Matrix<double> R0 = oracle::random_matrix<double>(rng, 40, 40, 0.2);
    std::vector<oracle::dmap<double>> states{oracle::to_map(R0)};
    states.push_back(states.back());
    states.back()[{39, 38}] = 1.5;
    states.push_back(states.back());
    states.back().erase({0, 0});
    states.push_back({});
    for (const auto& [k, v] : states[2])
      if (k.first < 30 && k.second < 35) states.back()[k] = v;
    for (long long k = 0;; ++k) {
      oracle::failing_resource fail(k);
      int stage = 0;
      bool done;
      {
        Matrix<double> R = R0;
        done = oracle::run_with(fail, [&] {
          R.set(39, 38, 1.5);
          stage = 1;
          R.remove(0, 0);
          stage = 2;
          R.resize(30, 35);
          stage = 3;
        });
        REQUIRE(oracle::to_map(R) == states[static_cast<std::size_t>(stage)]);
      }
      CHECK(fail.live() == 0);
      if (done) break;
    }
  }
  // Errors: outside the shape, bad dimensions; the matrix is unchanged.
  Matrix<int> B(4, 4);
  B.set(1, 2, 5);
  CHECK_THROWS_AS(B.set(4, 0, 1), invalid_index);
  CHECK_THROWS_AS(B.remove(0, -1), invalid_index);
  CHECK_THROWS_AS(B.resize(-1, 3), invalid_value);
  CHECK(B.nvals() == 1);
  CHECK(B.get(1, 2) == 5);
  B.remove(3, 3);  // not stored: nothing happens
  CHECK(B.nvals() == 1);
  // GrB_Matrix_setElement_Scalar: cast to C's type; an empty Scalar removes.
  set_element(B, Scalar<double>(2.75), 3, 0);
  CHECK(B.get(3, 0) == 2);
  set_element(B, Scalar<double>(), 1, 2);
  CHECK(!B.get(1, 2));
  CHECK(B.nvals() == 1);
}
