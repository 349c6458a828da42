// The three storage forms (tiles, rows, hypersparse rows) and the rule that
// picks one: round trips, every mxm method on every mix of operand forms
// against the naive oracle, forms switching across operations, the owner's
// control, and hypersparse matrices whose memory follows their entries.
#include <atomic>
#include <memory_resource>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tgb/io/edge_list.hpp"
#include "tgb/io/matrix_market.hpp"

#include "../failing_resource.hpp"
#include "../oracle.hpp"
#include "../tgb_catch.hpp"

using namespace tgb;
using detail::host::mxm_method;
using detail::host::mxm_policy;

namespace {

template <class T>
Matrix<T> in_form(Matrix<T> m, storage_form f) {
  m.set_storage(f == storage_form::rows    ? storage_control::rows
                : f == storage_form::hyper ? storage_control::hyper
                                           : storage_control::tiles);
  return m;
}

// A random matrix with a hub row, a hub column and every fifth row empty.
Matrix<double> hubby(std::mt19937_64& rng, index_t nrows, index_t ncols, double density) {
  oracle::dmap<double> m;
  for (const auto& [k, v] : oracle::to_map(oracle::random_matrix<double>(rng, nrows, ncols, density)))
    if (k.first % 5 != 2) m[k] = v;
  if (nrows > 3 && ncols > 3) {
    for (index_t j = 0; j < ncols; j += 2) m[{nrows / 2, j}] = double(j % 7 + 1);
    for (index_t i = 0; i < nrows; i += 3)
      if (i % 5 != 2) m[{i, ncols / 3}] = double(i % 5 + 1);
  }
  return oracle::from_map(nrows, ncols, m);
}

const storage_form kForms[] = {storage_form::tiles, storage_form::rows, storage_form::hyper};
// Two of the three forms, a different pair each round.
storage_form form_of(int round, int bit) { return kForms[(round + bit) % 3]; }

}  // namespace

TEST_CASE("storage rule: the smallest form, the owner's control, tiles on the device", "[storage]") {
  using detail::choose_form;
  // One entry a tile: rows (12 bytes an entry) beat tiles (69 bytes a tile).
  CHECK(choose_form(storage_control::automatic, backend::host, 1000, 1000, 1000, 1000, 8) == storage_form::rows);
  // 200 entries a tile: tiles (about 9.3 bytes an entry).
  CHECK(choose_form(storage_control::automatic, backend::host, 1000, 1000, 10, 2000, 8) == storage_form::tiles);
  CHECK(choose_form(storage_control::tiles, backend::host, 1000, 1000, 1000, 1000, 8) == storage_form::tiles);
  CHECK(choose_form(storage_control::rows, backend::host, 1000, 1000, 10, 2000, 8) == storage_form::rows);
  CHECK(choose_form(storage_control::rows, backend::cuda, 1000, 1000, 1000, 1000, 8) == storage_form::rows);
  CHECK(choose_form(storage_control::automatic, backend::cuda, 1000, 1000, 1000, 1000, 8) == storage_form::rows);
  // Rows have 32-bit columns: a matrix wider than kRowMaxCols is never in rows.
  const index_t wide = detail::kRowMaxCols + 1;
  CHECK(detail::rows_fit(detail::kRowMaxCols));
  CHECK_FALSE(detail::rows_fit(wide));
  CHECK(choose_form(storage_control::automatic, backend::host, 1000, wide, 1000, 1000, 8) == storage_form::tiles);
  CHECK(choose_form(storage_control::rows, backend::host, 1000, wide, 10, 2000, 8) == storage_form::tiles);

  std::mt19937_64 rng(7);
  const auto sparse = oracle::random_matrix<double>(rng, 2000, 2000, 0.0005);
  CHECK(sparse.form() == storage_form::rows);
  CHECK(sparse.stored_bytes() == detail::row_form_bytes(2000, sparse.nvals(), sizeof(double)));
  const auto dense = oracle::random_matrix<double>(rng, 64, 64, 0.9);
  CHECK(dense.form() == storage_form::tiles);
  CHECK(dense.stored_bytes() <= detail::row_form_bytes(64, dense.nvals(), sizeof(double)));
  // Whatever the form, the stored bytes never exceed the other form's.
  for (const auto* m : {&sparse, &dense}) {
    const double rows = detail::row_form_bytes(m->nrows(), m->nvals(), sizeof(double));
    const double tiles = detail::tile_form_bytes(m->nrows(), m->ntiles(), m->nvals(), sizeof(double));
    CHECK(m->stored_bytes() == std::min(rows, tiles));
  }
}

TEST_CASE("storage forms: exact round trips, element access and counts in both forms", "[storage]") {
  std::mt19937_64 rng(11);
  for (index_t n : {0, 1, 15, 16, 17, 33, 100})
    for (double d : {0.02, 0.3, 1.0}) {
      const auto M = oracle::random_matrix<double>(rng, n, n + 3, d);
      const auto want = oracle::to_map(M);
      const csr<double> wc = M.to_csr();
      for (storage_form f : kForms) {
        INFO("n=" << n << " density=" << d << " form=" << storage_form_name(f));
        const Matrix<double> X = in_form(M, f);
        REQUIRE(X.form() == f);
        CHECK(oracle::to_map(X) == want);
        const csr<double> c = X.to_csr();
        CHECK(c.rowptr == wc.rowptr);
        CHECK(c.colidx == wc.colidx);
        CHECK(c.values == wc.values);
        CHECK(X.nvals() == M.nvals());
        CHECK(X.ntiles() == M.ntiles());
        for (index_t i = 0; i < n; i += 3)
          for (index_t j = 0; j < n + 3; j += 2) CHECK(X.get(i, j) == M.get(i, j));
        // A copy keeps the form and the control; the tiles seen through
        // tiles() are the same arrays whichever form holds the entries.
        const Matrix<double> Y = X;
        CHECK(Y.form() == f);
        CHECK(oracle::to_map(Y) == want);
        const auto& xt = X.tiles();
        const auto& mt = M.tiles();
        CHECK(std::vector<tile_index_t>(xt.pat.tile_col.begin(), xt.pat.tile_col.end()) ==
              std::vector<tile_index_t>(mt.pat.tile_col.begin(), mt.pat.tile_col.end()));
        CHECK(std::vector<double>(xt.values.begin(), xt.values.end()) ==
              std::vector<double>(mt.values.begin(), mt.values.end()));
      }
    }
}

TEST_CASE("storage forms: every mxm method on every mix of operand, mask and output forms", "[storage][mxm]") {
  std::mt19937_64 rng(23);
  const mxm_method methods[] = {mxm_method::automatic, mxm_method::row_saxpy, mxm_method::row_dot,
                                mxm_method::tile_gustavson, mxm_method::tile_dot};
  int cases = 0;
  for (int round = 0; round < 3; ++round) {
    const index_t m = round == 0 ? 17 : round == 1 ? 40 : 70, k = m + 5, n = m - 1;
    const double d = round == 2 ? 0.3 : 0.06;
    const auto A0 = hubby(rng, m, k, d);
    const auto B0 = hubby(rng, k, n, d);
    const auto Bt0 = hubby(rng, n, k, d);
    const auto C0 = oracle::random_matrix<double>(rng, m, n, 0.2);
    const auto M0 = oracle::random_matrix<int>(rng, m, n, 0.3);
    for (int forms = 0; forms < 16; ++forms) {
      const auto A = in_form(A0, form_of(round, forms & 1));
      const auto B = in_form(B0, form_of(round, (forms >> 1) & 1));
      const auto Bt = in_form(Bt0, form_of(round, (forms >> 1) & 1));
      const auto Mm = in_form(M0, form_of(round, (forms >> 2) & 1));
      const auto C1 = in_form(C0, form_of(round, (forms >> 3) & 1));
      for (mxm_method method : methods)
        for (int mask = 0; mask < 5; ++mask)
          for (int flags = 0; flags < 8; ++flags) {
            const bool replace = flags & 1, accum = flags & 2, tb = flags & 4;
            mxm_policy pol;
            pol.method = method;
            descriptor desc;
            desc.replace = replace;
            desc.transpose_b = tb;
            Matrix<double> C = C1;
            const Matrix<double>& Bop = tb ? Bt : B;
            auto run = [&](const auto& mk) {
              if (accum) detail::mxm_host(C, mk, plus{}, plus_times, A, Bop, desc, pol);
              else detail::mxm_host(C, mk, no_accum, plus_times, A, Bop, desc, pol);
            };
            const oracle::mask_spec ms = oracle::with_mask_mode(mask, Mm, run);
            auto Bm = oracle::to_map(Bop);
            if (tb) Bm = oracle::transposed(Bm);
            const auto T = oracle::product<double>(oracle::to_map(A), Bm, plus_times);
            const auto want = oracle::writeback<double>(oracle::to_map(C0), T, ms,
                                                        accum ? std::optional<plus>(plus{}) : std::optional<plus>(),
                                                        replace);
            INFO("m=" << m << " forms=" << forms << " method=" << int(method) << " mask=" << mask
                      << " replace=" << replace << " accum=" << accum << " tb=" << tb);
            REQUIRE(oracle::diff(oracle::to_map(C), want, 1e-12) == "");
            // The output's form is the rule's (C's control is the one set).
            const storage_form f = form_of(round, (forms >> 3) & 1);
            REQUIRE(C.form() == f);
            ++cases;
          }
    }
  }
  CHECK(cases == 3 * 16 * 5 * 5 * 8);
}

TEST_CASE("storage forms: element-wise, apply, select, reduce and mxv read both forms alike", "[storage]") {
  std::mt19937_64 rng(31);
  const auto A0 = hubby(rng, 50, 50, 0.05);
  const auto B0 = hubby(rng, 50, 50, 0.05);
  Vector<double> u(50);
  for (index_t i = 0; i < 50; i += 3) u.set(i, double(i % 4 + 1));
  Matrix<double> ref_add(50, 50), ref_mult(50, 50), ref_sel(50, 50), ref_app(50, 50), ref_val(50, 50);
  Matrix<int> ref_cast(50, 50);
  select(ref_val, no_mask, no_accum, value_gt{}, in_form(A0, storage_form::tiles), 3.0);
  apply(ref_cast, no_mask, no_accum, bind2nd(times{}, 2.5), in_form(A0, storage_form::tiles));
  ewise_add(ref_add, no_mask, no_accum, plus{}, in_form(A0, storage_form::tiles), in_form(B0, storage_form::tiles));
  ewise_mult(ref_mult, no_mask, no_accum, times{}, in_form(A0, storage_form::tiles), in_form(B0, storage_form::tiles));
  select(ref_sel, no_mask, no_accum, tril{}, in_form(A0, storage_form::tiles), 0);
  apply(ref_app, no_mask, no_accum, ainv{}, in_form(A0, storage_form::tiles));
  Vector<double> ref_w(50);
  mxv(ref_w, no_mask, no_accum, plus_times, in_form(A0, storage_form::tiles), u);
  const double ref_sum = reduce(plus_monoid{}, in_form(A0, storage_form::tiles));
  for (int forms = 1; forms < 9; ++forms) {
    const auto A = in_form(A0, kForms[forms % 3]);
    const auto B = in_form(B0, kForms[forms / 3]);
    INFO("forms=" << forms);
    Matrix<double> C(50, 50);
    ewise_add(C, no_mask, no_accum, plus{}, A, B);
    CHECK(oracle::to_map(C) == oracle::to_map(ref_add));
    ewise_mult(C, no_mask, no_accum, times{}, A, B);
    CHECK(oracle::to_map(C) == oracle::to_map(ref_mult));
    select(C, no_mask, no_accum, tril{}, A, 0);
    CHECK(oracle::to_map(C) == oracle::to_map(ref_sel));
    // Unmasked apply and select read rows and hypersparse rows as stored.
    select(C, no_mask, no_accum, value_gt{}, A, 3.0);
    CHECK(oracle::to_map(C) == oracle::to_map(ref_val));
    apply(C, no_mask, no_accum, ainv{}, A);
    CHECK(oracle::to_map(C) == oracle::to_map(ref_app));
    Matrix<int> Ci(50, 50);
    apply(Ci, no_mask, no_accum, bind2nd(times{}, 2.5), A);
    CHECK(oracle::to_map(Ci) == oracle::to_map(ref_cast));
    Matrix<double> C2(50, 50);
    apply(C2, structure(B), no_accum, ainv{}, A);
    Matrix<double> masked(50, 50);
    apply(masked, structure(in_form(B0, storage_form::tiles)), no_accum, ainv{}, in_form(A0, storage_form::tiles));
    CHECK(oracle::to_map(C2) == oracle::to_map(masked));
    Vector<double> w(50);
    mxv(w, no_mask, no_accum, plus_times, A, u);
    CHECK(w == ref_w);
    CHECK(reduce(plus_monoid{}, A) == ref_sum);
  }
}

TEST_CASE("storage forms switch across operations by the rule, and keep the owner's control", "[storage]") {
  std::mt19937_64 rng(41);
  const index_t n = 400;
  // A hypersparse graph is stored in rows; its square is much denser.
  const auto A = oracle::random_matrix<double>(rng, n, n, 0.003);
  REQUIRE(A.form() == storage_form::rows);
  Matrix<double> C(n, n);
  // A dense block times its transpose fills C's tiles: tiles.
  const auto D = oracle::random_matrix<double>(rng, n, 40, 0.8);
  mxm(C, no_mask, no_accum, plus_times, D, D, descriptor{}.with_transpose_b());
  CHECK(C.form() == storage_form::tiles);
  // The same C receiving a hypersparse result goes to rows.
  select(C, no_mask, no_accum, tril{}, A, 0);
  REQUIRE(C.nvals() > 0);
  CHECK(C.form() == storage_form::rows);
  // The owner's choice sticks through later operations.
  C.set_storage(storage_control::tiles);
  CHECK(C.form() == storage_form::tiles);
  select(C, no_mask, no_accum, triu{}, A, 0);
  CHECK(C.form() == storage_form::tiles);
  CHECK(C.storage() == storage_control::tiles);
  C.set_storage(storage_control::automatic);
  CHECK(C.form() == storage_form::rows);
  // clear() and an empty result keep the shape; an empty matrix is tiles.
  C.clear();
  CHECK(C.nvals() == 0);
  CHECK(C.nrows() == n);
  CHECK(C.form() == storage_form::tiles);
}


TEST_CASE("hypersparse rows: the rule picks them where few rows have entries", "[storage][hyper]") {
  using detail::choose_form;
  const index_t n = index_t(1) << 20;
  // 1,000 non-empty rows of 2^20: hypersparse (16 bytes a row, not 8 a row of the matrix).
  CHECK(choose_form(storage_control::automatic, backend::host, n, n, 1000, 1000, 8, 1000) == storage_form::hyper);
  // Unknown row count, the device, or more than one row in 16: never.
  CHECK(choose_form(storage_control::automatic, backend::host, n, n, 1000, 1000, 8) == storage_form::tiles);
  CHECK(choose_form(storage_control::automatic, backend::cuda, n, n, 1000, 1000, 8, 1000) == storage_form::tiles);
  CHECK(choose_form(storage_control::automatic, backend::host, n, n, n / 4, n / 4, 8, n / 8) == storage_form::rows);
  // Below kHyperMinRows rows, a pointer per row is cheap: never.
  CHECK(choose_form(storage_control::automatic, backend::host, 4096, 4096, 10, 10, 8, 10) != storage_form::hyper);
  // Few rows (one in 16), but made of dense 16x16 tiles: tiles are smaller.
  CHECK(choose_form(storage_control::automatic, backend::host, n, n, 65536, 16777216, 8, 65536) == storage_form::tiles);
  // The same rows, sparse: listed rows (the tile form's pointers alone are 512 KB).
  CHECK(choose_form(storage_control::automatic, backend::host, n, n, 1600, 25600, 8, 1600) == storage_form::hyper);
  CHECK(choose_form(storage_control::hyper, backend::host, 100, 100, 1, 1, 8, 1) == storage_form::hyper);
  CHECK(choose_form(storage_control::hyper, backend::cuda, 100, 100, 1, 1, 8, 1) == storage_form::tiles);

  // Built from triplets: few triplets take the sort without a row array.
  std::mt19937_64 rng(5);
  oracle::dmap<double> want;
  std::vector<index_t> r, c;
  std::vector<double> v;
  for (int k = 0; k < 300; ++k) {
    const index_t i = index_t(rng() % 700) * 97, j = index_t(rng() % n);
    r.push_back(i), c.push_back(j), v.push_back(double(k % 9 + 1));
    want[{i, j}] += v.back();
  }
  const auto H = Matrix<double>::from_coo(n, n, r, c, v, plus{});
  CHECK(H.form() == storage_form::hyper);
  CHECK(oracle::to_map(H) == want);
  const index_t nvec = detail::count_nonempty_rows(H.tiles().pat, n);
  CHECK(H.stored_bytes() == detail::hyper_form_bytes(nvec, H.nvals(), sizeof(double)));
  // Duplicates found on that path too, reported with their row.
  std::vector<index_t> r2{5, 70000, 5}, c2{9, 1, 9};
  std::vector<double> v2{1, 2, 3};
  std::string what;
  try {
    Matrix<double>::from_coo(n, n, r2, c2, v2, no_duplicates);
  } catch (const invalid_value& e) {
    what = e.what();
  }
  CHECK(what.find("duplicate entry (5, 9)") != std::string::npos);
  // An empty matrix of many rows is hypersparse; clear() makes one again.
  Matrix<double> E(n, n);
  CHECK(E.form() == storage_form::hyper);
  CHECK(E.stored_bytes() < 64);
  Matrix<double> F = H;
  F.set_storage(storage_control::tiles);
  CHECK(F.form() == storage_form::tiles);
  F.set_storage(storage_control::automatic);
  CHECK(F.form() == storage_form::hyper);
  F.clear();
  CHECK(F.form() == storage_form::hyper);
  CHECK(F.nvals() == 0);
}

TEST_CASE("hypersparse rows: operation results in the rule's form, equal to tiles'", "[storage][hyper]") {
  // 2^17 rows, a few hundred entries in a few hundred rows: every
  // operation's inputs and outputs are hypersparse by the rule.
  std::mt19937_64 rng(9);
  const index_t n = index_t(1) << 17;
  auto sparse = [&](int entries) {
    std::vector<index_t> r, c;
    std::vector<double> v;
    for (int k = 0; k < entries; ++k) {
      r.push_back(index_t(rng() % 300) * 400 + index_t(rng() % 3));
      c.push_back(index_t(rng() % 300) * 400 + index_t(rng() % 3));
      v.push_back(double(k % 7 + 1));
    }
    return Matrix<double>::from_coo(n, n, r, c, v, plus{});
  };
  const auto A = sparse(600), B = sparse(600);
  REQUIRE(A.form() == storage_form::hyper);
  const auto At = in_form(A, storage_form::tiles), Bt = in_form(B, storage_form::tiles);
  Matrix<double> C(n, n), Ct(n, n);
  mxm(C, no_mask, no_accum, plus_times, A, B);
  mxm(Ct, no_mask, no_accum, plus_times, At, Bt);
  REQUIRE(Ct.nvals() > 0);
  CHECK(C.form() == storage_form::hyper);
  CHECK(oracle::to_map(C) == oracle::to_map(Ct));
  // Unmasked products over hypersparse operands run over the listed rows
  // only (mxm_hyper_saxpy), with either operand in tiles too, and under an
  // accumulator.
  for (int mix = 0; mix < 3; ++mix) {
    const Matrix<double>& x = mix == 2 ? At : A;
    const Matrix<double>& y = mix == 1 ? Bt : B;
    Matrix<double> Cm(n, n);
    mxm(Cm, no_mask, no_accum, min_plus, x, y);
    Matrix<double> Cr(n, n);
    mxm(Cr, no_mask, no_accum, min_plus, At, Bt);
    CHECK(oracle::to_map(Cm) == oracle::to_map(Cr));
    mxm(Cm, no_mask, plus{}, plus_times, x, y);
    mxm(Cr, no_mask, plus{}, plus_times, At, Bt);
    CHECK(oracle::to_map(Cm) == oracle::to_map(Cr));
  }
  {
    // Rectangular: (n x q) times (q x r), the shapes carried through.
    const index_t q = (index_t(1) << 16) + 7, r = 3 * n + 1;
    auto rect = [&](index_t nr, index_t nc) {
      std::vector<index_t> ri, ci;
      std::vector<double> v;
      for (int e = 0; e < 300; ++e) {
        ri.push_back(index_t(rng() % 40) * (nr / 40));
        ci.push_back(index_t(rng() % 40) * (nc / 40));
        v.push_back(double(e % 3 + 1));
      }
      return Matrix<double>::from_coo(nr, nc, ri, ci, v, plus{});
    };
    const auto X = rect(n, q), Y = rect(q, r);
    REQUIRE(X.form() == storage_form::hyper);
    Matrix<double> Z(n, r), Zt(n, r);
    mxm(Z, no_mask, no_accum, plus_times, X, Y);
    mxm(Zt, no_mask, no_accum, plus_times, in_form(X, storage_form::tiles), in_form(Y, storage_form::tiles));
    REQUIRE(Zt.nvals() > 0);
    CHECK(Z.nrows() == n);
    CHECK(Z.ncols() == r);
    CHECK(oracle::to_map(Z) == oracle::to_map(Zt));
  }
  mxm(C, structure(A), plus{}, plus_times, A, B, descriptor{}.with_transpose_b());
  mxm(Ct, structure(At), plus{}, plus_times, At, Bt, descriptor{}.with_transpose_b());
  CHECK(oracle::to_map(C) == oracle::to_map(Ct));
  ewise_add(C, no_mask, no_accum, plus{}, A, B);
  ewise_add(Ct, no_mask, no_accum, plus{}, At, Bt);
  CHECK(C.form() == storage_form::hyper);
  CHECK(oracle::to_map(C) == oracle::to_map(Ct));
  transpose(C, no_mask, no_accum, A);
  transpose(Ct, no_mask, no_accum, At);
  CHECK(oracle::to_map(C) == oracle::to_map(Ct));
  select(C, no_mask, no_accum, triu{}, A, 0);
  CHECK(oracle::to_map(C) == oracle::to_map(Ct = [&] {
          Matrix<double> x(n, n);
          select(x, no_mask, no_accum, triu{}, At, 0);
          return x;
        }()));
  apply(C, no_mask, no_accum, bind2nd(plus{}, 1.0), A);
  CHECK(C.form() == storage_form::hyper);
  {
    Matrix<double> x(n, n);
    apply(x, no_mask, no_accum, bind2nd(plus{}, 1.0), At);
    CHECK(oracle::to_map(C) == oracle::to_map(x));
    // A select that empties listed rows: they are no longer listed.
    select(C, no_mask, no_accum, value_gt{}, A, 5.0);
    select(x, no_mask, no_accum, value_gt{}, At, 5.0);
    CHECK(oracle::to_map(C) == oracle::to_map(x));
    CHECK(C.stored_bytes() == detail::hyper_form_bytes(detail::count_nonempty_rows(C.tiles().pat, n), C.nvals(),
                                                       sizeof(double)));
  }
  Vector<double> u(n), w(n), wt(n);
  for (index_t i = 0; i < n; i += 401) u.set(i, double(i % 5 + 1));
  mxv(w, no_mask, no_accum, plus_times, A, u);
  mxv(wt, no_mask, no_accum, plus_times, At, u);
  CHECK(w == wt);
  CHECK(reduce(plus_monoid{}, A) == reduce(plus_monoid{}, At));
}

TEST_CASE("hypersparse rows: a 10^9-row graph in memory that follows its entries", "[storage][hyper][io]") {
  // The one-edge graph took 15.6 GB and 39 s to read: a row pointer
  // per row while sorting. Now construction, element access, triplets,
  // copies and the Matrix Market round trip stay within 1 MB.
  const index_t n = 1000000001;
  const oracle::host_budget budget(std::size_t(1) << 20);
  io::read_options ro;
  ro.max_memory = std::size_t(1) << 20;
  const auto A = io::parse_edge_list<double>("0 1000000000\n7 3\n", "one.txt", ro);
  REQUIRE(A.nrows() == n);
  CHECK(A.form() == storage_form::hyper);
  CHECK(A.nvals() == 2);
  CHECK(A.ntiles() == 2);
  CHECK(A.stored_bytes() < 256);
  CHECK(A.get(0, 1000000000) == 1.0);
  CHECK(A.get(7, 3) == 1.0);
  CHECK(!A.get(999999999, 0));
  const Matrix<double> B = A;
  const coo<double> t = B.to_coo();
  CHECK(t.rows == std::vector<index_t>{0, 7});
  CHECK(t.cols == std::vector<index_t>{1000000000, 3});
  std::ostringstream out;
  io::write_matrix_market(out, A);
  const auto C = io::parse_matrix_market<double>(out.str(), "back.mtx", ro);
  CHECK(C.form() == storage_form::hyper);
  CHECK(oracle::to_map(C) == oracle::to_map(A));
  // Its square, unmasked, runs over the listed rows: within the budget too.
  const auto G = io::parse_edge_list<double>("0 1000000000\n1000000000 5\n7 3\n3 7\n", "chain.txt", ro);
  Matrix<double> G2(n, n);
  mxm(G2, no_mask, no_accum, plus_times, G, G);
  CHECK(G2.form() == storage_form::hyper);
  CHECK(oracle::to_map(G2) == oracle::dmap<double>{{{0, 5}, 1.0}, {{3, 3}, 1.0}, {{7, 7}, 1.0}});
  // Under an accumulator, C and the product merge row by row.
  mxm(G2, no_mask, plus{}, plus_times, G, G);
  CHECK(G2.form() == storage_form::hyper);
  CHECK(oracle::to_map(G2) == oracle::dmap<double>{{{0, 5}, 2.0}, {{3, 3}, 2.0}, {{7, 7}, 2.0}});
  mxm(G2, no_mask, plus{}, plus_times, G, G2);
  CHECK(oracle::to_map(G2) == oracle::dmap<double>{{{0, 5}, 2.0}, {{3, 3}, 2.0}, {{3, 7}, 2.0}, {{7, 3}, 2.0}, {{7, 7}, 2.0}});
  // A + A' (the symmetrized graph), A .* A', A' and an accumulated A', under
  // the same budget: merged and transposed over the listed rows.
  const descriptor tb = descriptor{}.with_transpose_b();
  Matrix<double> S(n, n), P(n, n), T(n, n);
  ewise_add(S, no_mask, no_accum, plus{}, G, G, tb);
  CHECK(S.form() == storage_form::hyper);
  CHECK(oracle::to_map(S) == oracle::dmap<double>{{{0, 1000000000}, 1.0}, {{1000000000, 0}, 1.0},
                                                  {{1000000000, 5}, 1.0}, {{5, 1000000000}, 1.0},
                                                  {{3, 7}, 2.0}, {{7, 3}, 2.0}});
  // Row 10^9 is in both G and G' with no column in common: not listed.
  ewise_mult(P, no_mask, no_accum, times{}, G, G, tb);
  REQUIRE(P.hyper_form());
  CHECK(P.hyper_form()->p.nvec() == 2);
  CHECK(oracle::to_map(P) == oracle::dmap<double>{{{3, 7}, 1.0}, {{7, 3}, 1.0}});
  transpose(T, no_mask, no_accum, G);
  CHECK(T.form() == storage_form::hyper);
  CHECK(oracle::to_map(T) == oracle::transposed(oracle::to_map(G)));
  Matrix<std::int32_t> Ti(n, n);
  transpose(Ti, no_mask, no_accum, G);
  transpose(Ti, no_mask, plus{}, G);
  CHECK(Ti.form() == storage_form::hyper);
  oracle::dmap<std::int32_t> twice;
  for (const auto& [k, x] : oracle::to_map(T)) twice[k] = static_cast<std::int32_t>(2 * x);
  CHECK(oracle::to_map(Ti) == twice);
  ewise_add(S, no_mask, minus{}, plus{}, G, G, tb);  // S - (G + G') is zero where it is stored
  CHECK(S.form() == storage_form::hyper);
  CHECK(S.nvals() == 6);
  for (const auto& [k, x] : oracle::to_map(S)) CHECK(x == 0.0);
  // The largest dimension tgb takes, 2^36: an empty matrix costs nothing.
  Matrix<float> E(max_dimension, max_dimension);
  CHECK(E.nvals() == 0);
  CHECK(E.form() == storage_form::hyper);
}

TEST_CASE("rows have 32-bit columns: wider matrices take tiles or hypersparse rows in every operation",
          "[storage][hyper][wide]") {
  // Past kRowMaxCols columns no matrix or operation view is in rows: the rule
  // stores tiles (or hypersparse rows), mxm takes the tile methods, and the
  // hypersparse product renumbers B's columns to the ones it has.
  const index_t n = index_t(1) << 34, big = n - 1, mid = (index_t(1) << 31) + 17;
  REQUIRE_FALSE(detail::rows_fit(n));
  std::optional<oracle::host_budget> budget;
  budget.emplace(std::size_t(1) << 20);
  // A chain through ids past 2^31 and 2^33, squared: hypersparse in, out.
  const std::vector<index_t> r{0, big, 7, 3, mid}, c{big, mid, 3, 7, 5};
  const std::vector<double> v{2, 3, 5, 7, 11};
  const auto G = Matrix<double>::from_coo(n, n, r, c, v, plus{});
  CHECK(G.form() == storage_form::hyper);
  Matrix<double> G2(n, n);
  mxm(G2, no_mask, no_accum, plus_times, G, G);
  CHECK(G2.form() == storage_form::hyper);
  CHECK(oracle::to_map(G2) ==
        oracle::dmap<double>{{{0, mid}, 6.0}, {{big, 5}, 33.0}, {{3, 3}, 35.0}, {{7, 7}, 35.0}});
  mxm(G2, no_mask, plus{}, plus_times, G, G);
  CHECK(oracle::to_map(G2) ==
        oracle::dmap<double>{{{0, mid}, 12.0}, {{big, 5}, 66.0}, {{3, 3}, 70.0}, {{7, 7}, 70.0}});
  // A short wide matrix in tiles times G: read as listed rows for the call.
  const auto F = Matrix<double>::from_coo(64, n, std::vector<index_t>{1, 63}, std::vector<index_t>{big, 7},
                                          std::vector<double>{2, 3}, plus{});
  CHECK(F.form() == storage_form::tiles);
  Matrix<double> FG(64, n);
  mxm(FG, no_mask, no_accum, plus_times, F, G);
  CHECK(oracle::to_map(FG) == oracle::dmap<double>{{{1, mid}, 6.0}, {{63, 3}, 15.0}});
  budget.reset();  // the budget ends here

  // A short wide matrix: from_csr and from_coo store tiles, never rows.
  const std::vector<offset_t> rp{0, 2, 2, 3};
  const std::vector<index_t> ci{mid, 4, big};
  const std::vector<double> cv{1.5, 2.5, 4.0};
  auto W = Matrix<double>::from_csr(3, n, rp, ci, cv);
  CHECK(W.form() == storage_form::tiles);
  CHECK(W.get(0, 4) == 2.5);
  CHECK(W.get(0, mid) == 1.5);
  CHECK(W.get(2, big) == 4.0);
  const csr<double> back = W.to_csr();
  CHECK(back.rowptr == std::vector<offset_t>{0, 2, 2, 3});
  CHECK(back.colidx == std::vector<index_t>{4, mid, big});
  W.set_storage(storage_control::rows);  // no row form of this width: tiles
  CHECK(W.form() == storage_form::tiles);
  REQUIRE_THROWS_AS(Matrix<double>::from_csr(3, n, std::vector<offset_t>{0, 2, 2, 2}, std::vector<index_t>{mid, mid},
                                              std::vector<double>{1, 2}),
                    invalid_value);

  // K (3 x 3) times W: a product as wide as W, unmasked and masked (the
  // row methods would need 32-bit columns: the tile methods run).
  const auto K = Matrix<double>::from_coo(3, 3, std::vector<index_t>{0, 1, 2}, std::vector<index_t>{0, 0, 2},
                                          std::vector<double>{1, 10, 100}, plus{});
  Matrix<double> P(3, n);
  mxm(P, no_mask, no_accum, plus_times, K, W);
  const oracle::dmap<double> want{{{0, 4}, 2.5},   {{0, mid}, 1.5},  {{1, 4}, 25.0},
                                  {{1, mid}, 15.0}, {{2, big}, 400.0}};
  CHECK(oracle::to_map(P) == want);
  const auto M = Matrix<bool>::from_coo(3, n, std::vector<index_t>{1, 2, 2}, std::vector<index_t>{mid, big, 4},
                                        std::vector<bool>{true, true, true}, lor{});
  using detail::mxm_method;
  for (const auto method : {mxm_method::automatic, mxm_method::row_dot, mxm_method::row_saxpy}) {
    INFO(static_cast<int>(method));
    detail::mxm_policy pol;
    pol.method = method;
    Matrix<double> Q(3, n);
    detail::mxm_host(Q, structure(M), no_accum, plus_times, K, W, descriptor{}, pol);
    CHECK(oracle::to_map(Q) == oracle::dmap<double>{{{1, mid}, 15.0}, {{2, big}, 400.0}});
  }
}
