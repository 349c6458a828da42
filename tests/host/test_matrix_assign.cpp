// extract and assign on matrices (tgb/matrix_assign.hpp), on the host: cases
// checked by hand; randomized cases against a naive dense oracle written
// from the GraphBLAS C API 2.1 (and GxB_subassign) definitions, over every
// index form (all, ranges with strides up and down, lists, lists with
// repeats where allowed), every mask kind, accumulator, replace, transpose,
// and both storage forms of C, A and the mask; errors with the output
// unchanged; allocation failures with the output unchanged.
#include <algorithm>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "../failing_resource.hpp"
#include "../index_cases.hpp"
#include "../tgb_catch.hpp"
#include "../vector_oracle.hpp"

using namespace tgb;
using oracle::dmap;
using vector_oracle::vmap;

namespace {

using namespace index_cases;

// ------------------------------------------------------------ dense oracle
template <class T>
struct dense {
  index_t nrows = 0, ncols = 0;
  std::vector<std::optional<T>> x;
  dense(index_t m, index_t n) : nrows(m), ncols(n), x(static_cast<std::size_t>(m * n)) {}
  std::optional<T>& at(index_t i, index_t j) { return x[static_cast<std::size_t>(i * ncols + j)]; }
  const std::optional<T>& at(index_t i, index_t j) const { return x[static_cast<std::size_t>(i * ncols + j)]; }
};
template <class T>
dense<T> dense_of(const Matrix<T>& A, bool transpose = false) {
  dense<T> d(transpose ? A.ncols() : A.nrows(), transpose ? A.nrows() : A.ncols());
  for (const auto& [k, v] : oracle::to_map(A)) (transpose ? d.at(k.second, k.first) : d.at(k.first, k.second)) = v;
  return d;
}
template <class T>
dmap<T> map_of(const dense<T>& d) {
  dmap<T> out;
  for (index_t i = 0; i < d.nrows; ++i)
    for (index_t j = 0; j < d.ncols; ++j)
      if (d.at(i, j)) out[{i, j}] = *d.at(i, j);
  return out;
}

// The value a position of C(I,J) takes from the source a (GrB_assign's Z):
// a alone, accum(c, a), c kept with accum where a is absent, none without.
template <class T, class Accum>
std::optional<T> z_of(const std::optional<T>& c, const std::optional<T>& a, const Accum* accum) {
  if (!a) return accum ? c : std::nullopt;
  if (accum && c) return static_cast<T>((*accum)(*c, *a));
  return a;
}

// T(k,l) = A(I[k], J[l]).
template <class T>
dense<T> oracle_extract(const dense<T>& A, const std::vector<index_t>& I, const std::vector<index_t>& J) {
  dense<T> t(static_cast<index_t>(I.size()), static_cast<index_t>(J.size()));
  for (std::size_t k = 0; k < I.size(); ++k)
    for (std::size_t l = 0; l < J.size(); ++l) t.at(k, l) = A.at(I[k], J[l]);
  return t;
}

// GrB_assign: Z = C with Z(I[k], J[l]) from A(k,l), then C<M, replace> = Z.
template <class T, class Accum>
dmap<T> oracle_assign(const dense<T>& C, const dense<T>& A, const std::vector<index_t>& I,
                      const std::vector<index_t>& J, const oracle::mask_spec& M, const Accum* accum, bool replace) {
  dense<T> z = C;
  for (std::size_t k = 0; k < I.size(); ++k)
    for (std::size_t l = 0; l < J.size(); ++l) z.at(I[k], J[l]) = z_of(C.at(I[k], J[l]), A.at(k, l), accum);
  return oracle::writeback<T, tgb::plus>(map_of(C), map_of(z), M, std::nullopt, replace);
}

// GxB_subassign: only C(I,J) changes; M is |I| x |J|.
template <class T, class Accum>
dmap<T> oracle_subassign(const dense<T>& C, const dense<T>& A, const std::vector<index_t>& I,
                         const std::vector<index_t>& J, const oracle::mask_spec& M, const Accum* accum, bool replace) {
  dense<T> out = C;
  for (std::size_t k = 0; k < I.size(); ++k)
    for (std::size_t l = 0; l < J.size(); ++l) {
      auto& o = out.at(I[k], J[l]);
      if (M.allows(k, l)) o = z_of(C.at(I[k], J[l]), A.at(k, l), accum);
      else if (replace) o.reset();
    }
  return map_of(out);
}

// A |I| x |J| source holding x everywhere (a scalar assignment), with
// repeated indices dropped (a repeat writes the same value once).
template <class T>
dense<T> full(std::vector<index_t>& I, std::vector<index_t>& J, T x) {
  auto uniq = [](std::vector<index_t>& v) {
    std::vector<index_t> out;
    for (index_t i : v)
      if (std::find(out.begin(), out.end(), i) == out.end()) out.push_back(i);
    v = out;
  };
  uniq(I), uniq(J);
  dense<T> a(static_cast<index_t>(I.size()), static_cast<index_t>(J.size()));
  for (auto& v : a.x) v = x;
  return a;
}

// Row i (or column j) of C assigned as a vector: line(k) is C's element at
// position k of the line, u(k) goes to J[k], the mask is over the line.
template <class T, class Accum>
dmap<T> oracle_line(const dense<T>& C, bool row, index_t i, const vmap<T>& u, const std::vector<index_t>& J,
                    const vector_oracle::vmask_spec& m, const Accum* accum, bool replace) {
  const index_t n = row ? C.ncols : C.nrows;
  auto cell = [&](const dense<T>& d, index_t k) -> const std::optional<T>& { return row ? d.at(i, k) : d.at(k, i); };
  std::vector<std::optional<T>> z(static_cast<std::size_t>(n));
  for (index_t k = 0; k < n; ++k) z[k] = cell(C, k);
  for (std::size_t k = 0; k < J.size(); ++k) {
    auto it = u.find(static_cast<index_t>(k));
    z[J[k]] = z_of(cell(C, J[k]), it == u.end() ? std::nullopt : std::optional<T>(it->second), accum);
  }
  dense<T> out = C;
  for (index_t k = 0; k < n; ++k) {
    auto& o = row ? out.at(i, k) : out.at(k, i);
    if (m.allows(k)) o = z[k];
    else if (replace) o.reset();
  }
  return map_of(out);
}

const std::pair<index_t, index_t> shapes[] = {{1, 1}, {6, 9}, {16, 16}, {17, 33}, {40, 23}, {0, 4}, {5, 0}};

}  // namespace

// --------------------------------------------------------------------- by hand
TEST_CASE("Matrix extract and assign by hand", "[matrix_assign][hand]") {
  // A (4 x 5):  .  1  2  .  4 / 10 11  . 13 14 / 20  . 22 23  . / .  31 32  . 34
  std::vector<index_t> r, c;
  std::vector<int> v;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 5; ++j)
      if ((i + j) % 3) r.push_back(i), c.push_back(j), v.push_back(10 * i + j);
  const auto A = Matrix<int>::from_coo(4, 5, r, c, v, no_duplicates);
  Matrix<int> E(2, 3);
  extract(E, no_mask, no_accum, A, {3, 1}, {4, 0, 2});
  CHECK(oracle::to_map(E) == dmap<int>{{{0, 0}, 34}, {{0, 2}, 32}, {{1, 0}, 14}, {{1, 1}, 10}});
  Matrix<int> Et(3, 2);
  extract(Et, no_mask, no_accum, A, index_list::range(4, -1, -2), {3, 1}, descriptor{}.with_transpose_a());
  CHECK(oracle::to_map(Et) == dmap<int>{{{0, 0}, 34}, {{0, 1}, 14}, {{1, 0}, 32}, {{2, 1}, 10}});
  Matrix<double> Ed(2, 2);  // repeats are fine in extract; values cast to C's type
  extract(Ed, no_mask, no_accum, A, {1, 1}, {0, 0});
  CHECK(oracle::to_map(Ed) == dmap<double>{{{0, 0}, 10}, {{0, 1}, 10}, {{1, 0}, 10}, {{1, 1}, 10}});

  Vector<int> w(3);  // GrB_Col_extract, and a row with transpose_a
  extract(w, no_mask, no_accum, A, {0, 2, 1}, 1);
  CHECK(vector_oracle::to_vmap(w) == vmap<int>{{0, 1}, {2, 11}});
  extract(w, no_mask, no_accum, A, {4, 3, 2}, 2, descriptor{}.with_transpose_a());
  CHECK(vector_oracle::to_vmap(w) == vmap<int>{{1, 23}, {2, 22}});

  Matrix<int> C = A;  // C(I,J) = E: entries of C(I,J) that E lacks are deleted
  assign(C, no_mask, no_accum, E, {0, 2}, {1, 3, 4});
  CHECK(oracle::to_map(C) == dmap<int>{{{0, 1}, 34}, {{0, 2}, 2}, {{0, 4}, 32}, {{1, 0}, 10}, {{1, 1}, 11},
                                       {{1, 3}, 13}, {{1, 4}, 14}, {{2, 0}, 20}, {{2, 1}, 14}, {{2, 2}, 22},
                                       {{2, 3}, 10}, {{3, 1}, 31}, {{3, 2}, 32}, {{3, 4}, 34}});
  Matrix<int> D = A;  // a scalar (cast) into rows 3 and 1, every column, with accum
  assign(D, no_mask, plus{}, 100.7, index_list::range(3, -1, -2), all);
  CHECK(oracle::to_map(D) == dmap<int>{{{0, 1}, 1},   {{0, 2}, 2},   {{0, 4}, 4},   {{1, 0}, 110}, {{1, 1}, 111},
                                       {{1, 2}, 100}, {{1, 3}, 113}, {{1, 4}, 114}, {{2, 0}, 20},  {{2, 2}, 22},
                                       {{2, 3}, 23},  {{3, 0}, 100}, {{3, 1}, 131}, {{3, 2}, 132}, {{3, 3}, 100},
                                       {{3, 4}, 134}});
  Matrix<int> F = A;  // Row_assign then Col_assign
  const auto u = vector_oracle::from_vmap<int>(3, {{0, 7}, {2, 9}});
  assign_row(F, no_mask, no_accum, u, 2, {4, 3, 0});
  assign_col(F, no_mask, no_accum, u, {3, 0, 1}, 2);
  CHECK(oracle::to_map(F) == dmap<int>{{{0, 1}, 1},  {{0, 4}, 4},  {{1, 0}, 10}, {{1, 1}, 11}, {{1, 2}, 9},
                                       {{1, 3}, 13}, {{1, 4}, 14}, {{2, 0}, 9},  {{2, 2}, 22}, {{2, 4}, 7},
                                       {{3, 1}, 31}, {{3, 2}, 7},  {{3, 4}, 34}});
}

TEST_CASE("assign's mask covers C, subassign's covers C(I,J)", "[matrix_assign][hand]") {
  // C(i,j) = 10 i + j + 1 (3 x 3, full); A = {(0,0): 100, (1,1): 200} into I = {0,1}, J = {1,2}.
  std::vector<index_t> r, c;
  std::vector<int> v;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.push_back(i), c.push_back(j), v.push_back(10 * i + j + 1);
  const auto C0 = Matrix<int>::from_coo(3, 3, r, c, v, no_duplicates);
  const auto A = Matrix<int>::from_coo(2, 2, std::vector<int>{0, 1}, std::vector<int>{0, 1}, std::vector<int>{100, 200},
                                       no_duplicates);
  const auto M = Matrix<bool>::from_coo(3, 3, std::vector<int>{0, 1, 2}, std::vector<int>{1, 1, 2},
                                        std::vector<bool>{true, true, true}, no_duplicates);
  const auto Ms = Matrix<bool>::from_coo(2, 2, std::vector<int>{0, 1}, std::vector<int>{0, 1},
                                         std::vector<bool>{true, true}, no_duplicates);
  const dmap<int> c0 = oracle::to_map(C0);
  auto with = [&](std::initializer_list<std::pair<const oracle::key, int>> set, std::initializer_list<oracle::key> del) {
    dmap<int> m = c0;
    for (const auto& [k, x] : set) m[k] = x;
    for (const auto& k : del) m.erase(k);
    return m;
  };
  for (int form = 0; form < 2; ++form) {
    INFO("C in " << form_name(form));
    Matrix<int> C = stored(C0, form);
    assign(C, no_mask, no_accum, A, {0, 1}, {1, 2});
    CHECK(oracle::to_map(C) == with({{{0, 1}, 100}, {{1, 2}, 200}}, {{0, 2}, {1, 1}}));
    CHECK(C.form() == (form ? storage_form::rows : storage_form::tiles));
    C = stored(C0, form);
    assign(C, no_mask, plus{}, A, {0, 1}, {1, 2});
    CHECK(oracle::to_map(C) == with({{{0, 1}, 102}, {{1, 2}, 213}}, {}));
    C = stored(C0, form);
    assign(C, structure(M), no_accum, A, {0, 1}, {1, 2});
    CHECK(oracle::to_map(C) == with({{{0, 1}, 100}}, {{1, 1}}));
    C = stored(C0, form);
    assign(C, structure(M), no_accum, A, {0, 1}, {1, 2}, descriptor{}.with_replace());
    CHECK(oracle::to_map(C) == dmap<int>{{{0, 1}, 100}, {{2, 2}, 23}});
    C = stored(C0, form);
    subassign(C, Ms, no_accum, A, {0, 1}, {1, 2});
    CHECK(oracle::to_map(C) == with({{{0, 1}, 100}, {{1, 2}, 200}}, {}));
    C = stored(C0, form);
    subassign(C, Ms, no_accum, A, {0, 1}, {1, 2}, descriptor{}.with_replace());
    CHECK(oracle::to_map(C) == with({{{0, 1}, 100}, {{1, 2}, 200}}, {{0, 2}, {1, 1}}));
    C = stored(C0, form);
    subassign(C, complement(Ms), minus{}, 5, {0, 1}, {1, 2}, descriptor{}.with_replace());
    CHECK(oracle::to_map(C) == with({{{0, 2}, -2}, {{1, 1}, 7}}, {{0, 1}, {1, 2}}));
    // Row_assign: the mask is over row 1 only; replace clears row 1 outside it.
    C = stored(C0, form);
    assign_row(C, vector_oracle::from_vmap<int>(3, {{0, 1}, {1, 0}, {2, 1}}), no_accum,
               vector_oracle::from_vmap<int>(3, {{0, 7}, {2, 9}}), 1, {2, 1, 0}, descriptor{}.with_replace());
    CHECK(oracle::to_map(C) == with({{{1, 0}, 9}, {{1, 2}, 7}}, {{1, 1}}));
    C = stored(C0, form);
    assign_col(C, no_mask, plus{}, vector_oracle::from_vmap<int>(2, {{0, 5}}), {2, 0}, 0);
    CHECK(oracle::to_map(C) == with({{{2, 0}, 26}}, {}));
    C = stored(C0, form);
    assign_col(C, no_mask, no_accum, vector_oracle::from_vmap<int>(2, {{0, 5}}), {2, 0}, 0);
    CHECK(oracle::to_map(C) == with({{{2, 0}, 5}}, {{0, 0}}));
  }
  // A value mask whose entries are all zero admits nothing (its pattern is empty once the zeros go).
  const auto Z0 = Matrix<int>::from_coo(2, 2, std::vector<int>{0, 1}, std::vector<int>{1, 0}, std::vector<int>{0, 0},
                                        no_duplicates);
  for (int form = 0; form < 2; ++form) {
    Matrix<int> C = C0;
    subassign(C, stored(Z0, form), no_accum, A, {0, 1}, {1, 2});
    subassign(C, stored(Z0, form), no_accum, 9, {0, 1}, {1, 2});
    CHECK(oracle::to_map(C) == c0);
    subassign(C, stored(Z0, form), no_accum, 9, {0, 1}, {1, 2}, descriptor{}.with_replace());
    CHECK(oracle::to_map(C) == with({}, {{0, 1}, {0, 2}, {1, 1}, {1, 2}}));
    C = C0;
    subassign(C, complement(stored(Z0, form)), no_accum, 9, {0, 1}, {1, 2});
    CHECK(oracle::to_map(C) == with({{{0, 1}, 9}, {{0, 2}, 9}, {{1, 1}, 9}, {{1, 2}, 9}}, {}));
  }
  // C as its own source and mask: C(I,J) = C(perm) in place.
  Matrix<int> C = C0;
  extract(C, C, no_accum, C, {2, 0, 1}, {1, 2, 0});
  CHECK(oracle::to_map(C) == map_of(oracle_extract(dense_of(C0), {2, 0, 1}, {1, 2, 0})));
  C = C0;
  assign(C, structure(C), minus{}, C, all, all, descriptor{}.with_transpose_a());
  CHECK(oracle::to_map(C) == dmap<int>{{{0, 0}, 0},  {{0, 1}, -9}, {{0, 2}, -18}, {{1, 0}, 9}, {{1, 1}, 0},
                                       {{1, 2}, -9}, {{2, 0}, 18}, {{2, 1}, 9},   {{2, 2}, 0}});
}

// ---------------------------------------------------------------- randomized
TEST_CASE("Matrix extract against the dense oracle", "[matrix_assign][extract][random]") {
  std::mt19937_64 rng(101);
  for (const auto& [m, n] : shapes)
    for (int trial = 0; trial < 30; ++trial) {
      const bool tr = trial % 2 == 1;
      const auto A0 = oracle::random_matrix<int>(rng, tr ? n : m, tr ? m : n, trial % 3 == 0 ? 0.6 : 0.2);
      const dense<int> a = dense_of(A0, tr);
      const list_case I = random_list(rng, trial % 6, m, true), J = random_list(rng, (trial / 2 + 3 * trial) % 6, n, true);
      const index_t cm = static_cast<index_t>(I.v.size()), cn = static_cast<index_t>(J.v.size());
      const auto C0 = oracle::random_matrix<int>(rng, cm, cn, 0.3), M = oracle::random_matrix<int>(rng, cm, cn, 0.5);
      const dmap<int> t = map_of(oracle_extract(a, I.v, J.v));
      // GrB_Col_extract over the same lists: a column of A' (of A with tr).
      const auto W0 = vector_oracle::random_vector<int>(rng, cm, 0.3), Mw = vector_oracle::random_vector<int>(rng, cm, 0.5);
      const index_t j = n ? std::uniform_int_distribution<index_t>(0, n - 1)(rng) : 0;
      vmap<int> tw;
      for (index_t k = 0; n && k < cm; ++k)
        if (a.at(I.v[k], j)) tw[k] = *a.at(I.v[k], j);
      for (int combo = 0; combo < 20; ++combo) {
        const int mode = combo / 4, ac = (combo / 2) % 2, rep = combo % 2, forms = (combo + trial) % 8;
        const descriptor d = descriptor{}.with_replace(rep == 1).with_transpose_a(tr);
        Matrix<int> C = stored(C0, forms & 1);
        const Matrix<int> A = stored(A0, (forms >> 1) & 1), Mf = stored(M, (forms >> 2) & 1);
        const auto spec = oracle::with_mask_mode(mode, Mf, [&](const auto& mask) {
          if (ac) extract(C, mask, minus{}, A, I.L, J.L, d);
          else extract(C, mask, no_accum, A, I.L, J.L, d);
        });
        const minus acc;
        const auto want = oracle::writeback<int>(oracle::to_map(C0), t, spec,
                                                 ac ? std::optional<minus>(acc) : std::optional<minus>(), rep == 1);
        INFO("extract " << m << " x " << n << " I " << I.name << " J " << J.name << " transposed " << tr << " mask "
                        << mode << " accum " << ac << " replace " << rep << " forms " << forms);
        REQUIRE(oracle::diff(oracle::to_map(C), want) == "");
        REQUIRE(C.form() == ((forms & 1) ? storage_form::rows : storage_form::tiles));
        if (n == 0) continue;
        Vector<int> w = W0;
        const auto s = vector_oracle::with_mask_mode(mode, Mw, [&](const auto& mask) {
          if (ac) extract(w, mask, minus{}, A, I.L, j, d);
          else extract(w, mask, no_accum, A, I.L, j, d);
        });
        INFO("column " << j);
        REQUIRE(vector_oracle::to_vmap(w) ==
                vector_oracle::oracle_writeback(vector_oracle::to_vmap(W0), tw, s, ac ? &acc : nullptr, rep == 1));
      }
    }
}

TEST_CASE("Matrix assign and subassign against the dense oracle", "[matrix_assign][assign][random]") {
  std::mt19937_64 rng(202);
  for (const auto& [m, n] : shapes)
    for (int trial = 0; trial < 30; ++trial) {
      const bool tr = trial % 2 == 1;
      const list_case I = random_list(rng, trial % 5, m, false), J = random_list(rng, (trial / 2 + 2 * trial) % 5, n, false);
      const index_t am = static_cast<index_t>(I.v.size()), an = static_cast<index_t>(J.v.size());
      const auto A0 = oracle::random_matrix<int>(rng, tr ? an : am, tr ? am : an, trial % 3 == 0 ? 0.7 : 0.3);
      const dense<int> a = dense_of(A0, tr);
      const auto C0 = oracle::random_matrix<int>(rng, m, n, 0.4);
      const dense<int> c = dense_of(C0);
      const auto M = oracle::random_matrix<int>(rng, m, n, 0.5), Ms = oracle::random_matrix<int>(rng, am, an, 0.5);
      // The scalar form, with repeats in its lists.
      list_case Ir = random_list(rng, (trial + 1) % 6, m, true), Jr = random_list(rng, (trial + 4) % 6, n, true);
      std::vector<index_t> iu = Ir.v, ju = Jr.v;
      const dense<int> full7 = full(iu, ju, 7);
      for (int combo = 0; combo < 20; ++combo) {
        const int mode = combo / 4, ac = (combo / 2) % 2, rep = combo % 2, forms = (combo + trial) % 8;
        const descriptor d = descriptor{}.with_replace(rep == 1).with_transpose_a(tr);
        const Matrix<int> A = stored(A0, (forms >> 1) & 1);
        const minus acc;
        const minus* accp = ac ? &acc : nullptr;
        INFO(m << " x " << n << " I " << I.name << " J " << J.name << " transposed " << tr << " mask " << mode
               << " accum " << ac << " replace " << rep << " forms " << forms);
        Matrix<int> C = stored(C0, forms & 1);
        const auto spec = oracle::with_mask_mode(mode, stored(M, (forms >> 2) & 1), [&](const auto& mask) {
          if (ac) assign(C, mask, minus{}, A, I.L, J.L, d);
          else assign(C, mask, no_accum, A, I.L, J.L, d);
        });
        REQUIRE(oracle::diff(oracle::to_map(C), oracle_assign(c, a, I.v, J.v, spec, accp, rep == 1)) == "");
        REQUIRE(C.form() == ((forms & 1) ? storage_form::rows : storage_form::tiles));

        Matrix<int> S = stored(C0, forms & 1);
        const auto sspec = oracle::with_mask_mode(mode, stored(Ms, (forms >> 2) & 1), [&](const auto& mask) {
          if (ac) subassign(S, mask, minus{}, A, I.L, J.L, d);
          else subassign(S, mask, no_accum, A, I.L, J.L, d);
        });
        REQUIRE(oracle::diff(oracle::to_map(S), oracle_subassign(c, a, I.v, J.v, sspec, accp, rep == 1)) == "");

        INFO("scalar: I " << Ir.name << " J " << Jr.name);
        Matrix<int> X = stored(C0, forms & 1);
        const auto xspec = oracle::with_mask_mode(mode, M, [&](const auto& mask) {
          if (ac) assign(X, mask, minus{}, 7.5, Ir.L, Jr.L, d);
          else assign(X, mask, no_accum, 7.5, Ir.L, Jr.L, d);
        });
        REQUIRE(oracle::diff(oracle::to_map(X), oracle_assign(c, full7, iu, ju, xspec, accp, rep == 1)) == "");
        // subassign of a scalar: repeats only without a mask.
        Matrix<int> Y = stored(C0, forms & 1);
        if (mode == 0) {
          if (ac) subassign(Y, no_mask, minus{}, 7, Ir.L, Jr.L, d);
          else subassign(Y, no_mask, no_accum, 7, Ir.L, Jr.L, d);
          REQUIRE(oracle::diff(oracle::to_map(Y), oracle_subassign(c, full7, iu, ju, oracle::mask_spec{}, accp,
                                                                   rep == 1)) == "");
        } else {
          std::vector<index_t> i2 = I.v, j2 = J.v;
          const dense<int> f = full(i2, j2, 7);
          const auto yspec = oracle::with_mask_mode(mode, Ms, [&](const auto& mask) {
            if (ac) subassign(Y, mask, minus{}, 7, I.L, J.L, d);
            else subassign(Y, mask, no_accum, 7, I.L, J.L, d);
          });
          REQUIRE(oracle::diff(oracle::to_map(Y), oracle_subassign(c, f, I.v, J.v, yspec, accp, rep == 1)) == "");
        }
      }
    }
}

TEST_CASE("Row_assign and Col_assign against the dense oracle", "[matrix_assign][assign][random]") {
  std::mt19937_64 rng(303);
  for (const auto& [m, n] : shapes) {
    if (m == 0 || n == 0) continue;
    for (int trial = 0; trial < 20; ++trial) {
      const bool row = trial % 2 == 0;
      const index_t lines = row ? m : n, len = row ? n : m;  // the line's index and its length
      const index_t at = std::uniform_int_distribution<index_t>(0, lines - 1)(rng);
      const list_case J = random_list(rng, trial % 5, len, false);
      const auto u = vector_oracle::random_vector<int>(rng, static_cast<index_t>(J.v.size()), 0.6);
      const auto C0 = oracle::random_matrix<int>(rng, m, n, 0.4);
      const auto mk = vector_oracle::random_vector<int>(rng, len, 0.5);
      for (int combo = 0; combo < 20; ++combo) {
        const int mode = combo / 4, ac = (combo / 2) % 2, rep = combo % 2, form = (combo + trial) % 2;
        const descriptor d = descriptor{}.with_replace(rep == 1);
        Matrix<int> C = stored(C0, form);
        const auto s = vector_oracle::with_mask_mode(mode, mk, [&](const auto& mask) {
          if (row && ac) assign_row(C, mask, minus{}, u, at, J.L, d);
          if (row && !ac) assign_row(C, mask, no_accum, u, at, J.L, d);
          if (!row && ac) assign_col(C, mask, minus{}, u, J.L, at, d);
          if (!row && !ac) assign_col(C, mask, no_accum, u, J.L, at, d);
        });
        const minus acc;
        INFO((row ? "assign_row " : "assign_col ") << at << " of " << m << " x " << n << " list " << J.name << " mask "
                                                   << mode << " accum " << ac << " replace " << rep << " form " << form);
        REQUIRE(oracle::diff(oracle::to_map(C), oracle_line(dense_of(C0), row, at, vector_oracle::to_vmap(u), J.v, s,
                                                            ac ? &acc : nullptr, rep == 1)) == "");
        REQUIRE(C.form() == (form ? storage_form::rows : storage_form::tiles));
      }
    }
  }
}

TEST_CASE("Matrix extract and assign on a larger matrix (parallel rows)", "[matrix_assign][random]") {
  std::mt19937_64 rng(404);
  const index_t m = 6000, n = 300;
  const auto A = oracle::random_matrix<double>(rng, m, n, 0.01), C0 = oracle::random_matrix<double>(rng, m, n, 0.01);
  const auto M = oracle::random_matrix<bool>(rng, m, n, 0.1);
  // Every row, shuffled (more rows than one thread takes), and the columns
  // backwards (each row of E is sorted again).
  list_case I, J;
  I.v.resize(static_cast<std::size_t>(m));
  std::iota(I.v.begin(), I.v.end(), index_t(0));
  std::shuffle(I.v.begin(), I.v.end(), rng);
  I.L = index_list(I.v);
  J.L = index_list::range(n - 1, -1, -1);
  for (index_t k = 0; k < n; ++k) J.v.push_back(n - 1 - k);
  Matrix<double> E(static_cast<index_t>(I.v.size()), static_cast<index_t>(J.v.size()));
  extract(E, no_mask, no_accum, A, I.L, J.L);
  CHECK(oracle::diff(oracle::to_map(E), map_of(oracle_extract(dense_of(A), I.v, J.v))) == "");
  Matrix<double> C = C0;
  assign(C, M, plus{}, E, I.L, J.L, descriptor{}.with_replace());
  const plus acc;
  CHECK(oracle::diff(oracle::to_map(C), oracle_assign(dense_of(C0), dense_of(E), I.v, J.v,
                                                      oracle::make_mask_spec(M, false, false), &acc, true)) == "");
  Matrix<double> S = C0;
  const minus sub;
  subassign(S, complement(M), minus{}, E, I.L, J.L);
  CHECK(oracle::diff(oracle::to_map(S), oracle_subassign(dense_of(C0), dense_of(E), I.v, J.v,
                                                         oracle::make_mask_spec(M, false, true), &sub, false)) == "");
}

// ------------------------------------------------------------------- errors
TEST_CASE("Row_assign costs nothing in proportion to C's width", "[matrix_assign][assign][hand]") {
  // C is 4 x 2^31 - 2 (the widest a row form takes) with a few entries: a
  // dense line of C's width would take about 2^31 * 9 bytes, so building one
  // throws out_of_memory (or takes far too long). Row_assign must work
  // through the entries and J alone, and equal the 1 x |J| assign it stands
  // for. Wider matrices are refused with a clear error, C unchanged.
  {
    const dmap<int> w0{{{1, 5}, 10}, {{2, max_dimension - 1}, 40}};
    Matrix<int> W = oracle::from_map<int>(4, max_dimension, w0);
    const auto u = vector_oracle::from_vmap<int>(1, {{0, 1}});
    REQUIRE_THROWS_AS(assign_row(W, no_mask, no_accum, u, 2, index_list{3}), invalid_value);
    CHECK(oracle::to_map(W) == w0);
  }
  const index_t n = detail::kRowMaxCols, last = n - 1;
  const dmap<int> c0{{{1, 5}, 10}, {{2, 3}, 20}, {{2, 7}, 30}, {{2, last}, 40}, {{3, last - 1}, 50}};
  const auto u = vector_oracle::from_vmap<int>(3, {{0, 1}, {2, 3}});  // u(1) absent
  const Matrix<int> U = oracle::from_map<int>(1, 3, {{{0, 0}, 1}, {{0, 2}, 3}});
  const index_list J{last, 3, 123456789};  // decreasing then increasing: a list, not a progression
  for (int form = 0; form < 2; ++form) {
    for (int ac = 0; ac < 2; ++ac) {
      INFO("form " << form_name(form) << " accum " << ac);
      Matrix<int> C = oracle::from_map<int>(4, n, c0), E = C;
      C.set_storage(form ? storage_control::rows : storage_control::tiles);
      if (ac) {
        assign_row(C, no_mask, plus{}, u, 2, J);
        assign(E, no_mask, plus{}, U, {2}, J);
      } else {
        assign_row(C, no_mask, no_accum, u, 2, J, descriptor{}.with_replace());
        assign(E, no_mask, no_accum, U, {2}, J);
      }
      const dmap<int> want =
          ac ? dmap<int>{{{1, 5}, 10}, {{2, 3}, 20}, {{2, 7}, 30}, {{2, last}, 41}, {{2, 123456789}, 3}, {{3, last - 1}, 50}}
             : dmap<int>{{{1, 5}, 10}, {{2, 7}, 30}, {{2, last}, 1}, {{2, 123456789}, 3}, {{3, last - 1}, 50}};
      CHECK(oracle::to_map(C) == want);
      CHECK(oracle::to_map(E) == want);
    }
  }
}

TEST_CASE("Row_assign's mask covers all of row i; replace clears it outside J", "[matrix_assign][assign][hand]") {
  // Row 1 of C: {0:1, 2:2, 4:4, 5:5}; J = {2, 3}, u = {7, 8}.
  const dmap<int> c0{{{0, 0}, 9}, {{1, 0}, 1}, {{1, 2}, 2}, {{1, 4}, 4}, {{1, 5}, 5}, {{2, 4}, 6}};
  const auto u = vector_oracle::from_vmap<int>(2, {{0, 7}, {1, 8}});
  const auto m = vector_oracle::from_vmap<int>(6, {{0, 1}, {3, 1}, {4, 0}});  // admits 0 and 3 (4 holds a zero)
  for (int form = 0; form < 2; ++form) {
    INFO("form " << form_name(form));
    Matrix<int> C = stored(oracle::from_map<int>(3, 6, c0), form);
    assign_row(C, m, no_accum, u, 1, {2, 3});
    CHECK(oracle::to_map(C) ==
          dmap<int>{{{0, 0}, 9}, {{1, 0}, 1}, {{1, 2}, 2}, {{1, 3}, 8}, {{1, 4}, 4}, {{1, 5}, 5}, {{2, 4}, 6}});
    C = stored(oracle::from_map<int>(3, 6, c0), form);
    assign_row(C, m, no_accum, u, 1, {2, 3}, descriptor{}.with_replace());
    CHECK(oracle::to_map(C) == dmap<int>{{{0, 0}, 9}, {{1, 0}, 1}, {{1, 3}, 8}, {{2, 4}, 6}});
    C = stored(oracle::from_map<int>(3, 6, c0), form);
    assign_row(C, mask_view<Vector<int>>{&m, true, true}, no_accum, u, 1, {2, 3}, descriptor{}.with_replace());
    CHECK(oracle::to_map(C) == dmap<int>{{{0, 0}, 9}, {{1, 2}, 7}, {{1, 5}, 5}, {{2, 4}, 6}});
  }
}

TEST_CASE("Row_subassign's and Col_subassign's masks cover C(i,J) and C(I,j) alone", "[matrix_assign][assign][hand]") {
  // Row 1 of C: {0:1, 2:2, 4:4, 5:5}; column 4: {1:4, 2:6}.
  const dmap<int> c0{{{0, 0}, 9}, {{1, 0}, 1}, {{1, 2}, 2}, {{1, 4}, 4}, {{1, 5}, 5}, {{2, 4}, 6}};
  const auto u = vector_oracle::from_vmap<int>(2, {{0, 7}, {1, 8}});
  const auto m = vector_oracle::from_vmap<int>(2, {{0, 0}, {1, 1}});  // over J = {2, 3}: admits 3 only
  const auto half = vector_oracle::from_vmap<int>(2, {{1, 8}});       // nothing for column 2
  for (int form = 0; form < 2; ++form) {
    INFO("form " << form_name(form));
    auto fresh = [&] { return stored(oracle::from_map<int>(3, 6, c0), form); };
    Matrix<int> C = fresh();
    subassign_row(C, m, no_accum, u, 1, {2, 3});
    CHECK(oracle::to_map(C) ==
          dmap<int>{{{0, 0}, 9}, {{1, 0}, 1}, {{1, 2}, 2}, {{1, 3}, 8}, {{1, 4}, 4}, {{1, 5}, 5}, {{2, 4}, 6}});
    C = fresh();  // replace clears C(1, {2, 3}) outside the mask, not the rest of row 1
    subassign_row(C, m, no_accum, u, 1, {2, 3}, descriptor{}.with_replace());
    CHECK(oracle::to_map(C) == dmap<int>{{{0, 0}, 9}, {{1, 0}, 1}, {{1, 3}, 8}, {{1, 4}, 4}, {{1, 5}, 5}, {{2, 4}, 6}});
    C = fresh();  // the complement of m's structure admits nothing
    subassign_row(C, complement(structure(m)), no_accum, u, 1, {2, 3}, descriptor{}.with_replace());
    CHECK(oracle::to_map(C) == dmap<int>{{{0, 0}, 9}, {{1, 0}, 1}, {{1, 4}, 4}, {{1, 5}, 5}, {{2, 4}, 6}});
    C = fresh();  // no mask: u's missing entry deletes C(1,2) without accum, keeps it with one
    subassign_row(C, no_mask, no_accum, half, 1, {2, 3});
    CHECK(oracle::to_map(C) == dmap<int>{{{0, 0}, 9}, {{1, 0}, 1}, {{1, 3}, 8}, {{1, 4}, 4}, {{1, 5}, 5}, {{2, 4}, 6}});
    C = fresh();
    subassign_row(C, no_mask, plus{}, half, 1, {2, 3});
    CHECK(oracle::to_map(C) ==
          dmap<int>{{{0, 0}, 9}, {{1, 0}, 1}, {{1, 2}, 2}, {{1, 3}, 8}, {{1, 4}, 4}, {{1, 5}, 5}, {{2, 4}, 6}});
    C = fresh();  // column 4 at rows {2, 0}: the mask (over I) admits row 2 only
    const auto mc = vector_oracle::from_vmap<int>(2, {{0, 1}});
    subassign_col(C, mc, plus{}, u, {2, 0}, 4, descriptor{}.with_replace());
    CHECK(oracle::to_map(C) == dmap<int>{{{0, 0}, 9}, {{1, 0}, 1}, {{1, 2}, 2}, {{1, 4}, 4}, {{1, 5}, 5}, {{2, 4}, 13}});
    C = fresh();
    subassign_col(C, no_mask, no_accum, u, {2, 0}, 4);
    CHECK(oracle::to_map(C) ==
          dmap<int>{{{0, 0}, 9}, {{0, 4}, 8}, {{1, 0}, 1}, {{1, 2}, 2}, {{1, 4}, 4}, {{1, 5}, 5}, {{2, 4}, 7}});
    C = fresh();  // transpose_a has nothing to transpose; an empty list changes nothing
    subassign_row(C, m, no_accum, u, 1, {2, 3}, descriptor{}.with_transpose_a());
    CHECK(oracle::to_map(C) ==
          dmap<int>{{{0, 0}, 9}, {{1, 0}, 1}, {{1, 2}, 2}, {{1, 3}, 8}, {{1, 4}, 4}, {{1, 5}, 5}, {{2, 4}, 6}});
    C = fresh();
    subassign_row(C, no_mask, no_accum, Vector<int>(0), 1, std::vector<index_t>{}, descriptor{}.with_replace());
    subassign_col(C, Vector<bool>(0), plus{}, Vector<int>(0), std::vector<index_t>{}, 4);
    CHECK(oracle::to_map(C) == c0);
    // Errors leave C as it was.
    C = fresh();
    CHECK_THROWS_AS(subassign_row(C, no_mask, no_accum, u, 1, {2, 3, 4}), dimension_mismatch);
    CHECK_THROWS_AS(subassign_row(C, Vector<bool>(6), no_accum, u, 1, {2, 3}), dimension_mismatch);
    CHECK_THROWS_AS(subassign_row(C, no_mask, no_accum, u, 3, {2, 3}), invalid_index);
    CHECK_THROWS_AS(subassign_row(C, no_mask, no_accum, u, 1, {2, 6}), index_out_of_bounds);
    CHECK_THROWS_AS(subassign_row(C, no_mask, no_accum, u, 1, {3, 3}), invalid_value);
    CHECK_THROWS_AS(subassign_col(C, Vector<bool>(3), no_accum, u, {2, 0}, 4), dimension_mismatch);
    CHECK_THROWS_AS(subassign_col(C, no_mask, no_accum, u, {2, 0}, 6), invalid_index);
    CHECK(oracle::to_map(C) == c0);
  }
}

TEST_CASE("Matrix extract and assign errors leave the output unchanged", "[matrix_assign][errors]") {
  std::mt19937_64 rng(5);
  const auto A = oracle::random_matrix<int>(rng, 4, 5, 0.5);
  const auto C0 = oracle::random_matrix<int>(rng, 4, 5, 0.5);
  const auto c0 = oracle::to_map(C0);
  Matrix<int> C = C0, E(2, 3);
  const auto e0 = oracle::to_map(E);
  const Vector<int> u2 = vector_oracle::from_vmap<int>(2, {{0, 1}, {1, 2}});
  auto message = [](auto f) {
    try {
      f();
    } catch (const dimension_mismatch& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  // extract: C must be |I| x |J|.
  CHECK(message([&] { extract(E, no_mask, no_accum, A, {0, 1, 2}, {0, 1, 2}); }).find("C is 2 x 3") != std::string::npos);
  CHECK_THROWS_AS(extract(E, no_mask, no_accum, A, {0, 1}, {0, 1, 4}, descriptor{}.with_transpose_a()), index_out_of_bounds);
  CHECK_THROWS_AS(extract(E, no_mask, no_accum, A, {0, 4}, {0, 1, 2}), index_out_of_bounds);
  CHECK_THROWS_AS(extract(E, no_mask, no_accum, A, {0, 1}, index_list::range(3, 6)), index_out_of_bounds);
  CHECK_THROWS_AS(extract(E, no_mask, no_accum, A, {0, -1}, {0, 1, 2}), index_out_of_bounds);
  CHECK_THROWS_AS(extract(E, Matrix<bool>(3, 2), no_accum, A, {0, 1}, {0, 1, 2}), dimension_mismatch);
  CHECK(oracle::to_map(E) == e0);
  Vector<int> w(2);
  CHECK_THROWS_AS(extract(w, no_mask, no_accum, A, {0, 1, 2}, 0), dimension_mismatch);
  CHECK_THROWS_AS(extract(w, no_mask, no_accum, A, {0, 1}, 5), invalid_index);
  CHECK_THROWS_AS(extract(w, no_mask, no_accum, A, {0, 1}, 4, descriptor{}.with_transpose_a()), invalid_index);
  CHECK_THROWS_AS(extract(w, no_mask, no_accum, A, {0, 9}, 0), index_out_of_bounds);
  CHECK_THROWS_AS(extract(w, Vector<bool>(3), no_accum, A, {0, 1}, 0), dimension_mismatch);
  CHECK(w.nvals() == 0);
  // assign: A must be |I| x |J|; indices in C; no repeats; the mask C's shape.
  CHECK(message([&] { assign(C, no_mask, no_accum, E, {0, 1}, {0, 1}); }).find("A is 2 x 3") != std::string::npos);
  CHECK_THROWS_AS(assign(C, no_mask, no_accum, E, {0, 1}, {0, 1, 2}, descriptor{}.with_transpose_a()), dimension_mismatch);
  CHECK_THROWS_AS(assign(C, no_mask, no_accum, E, {0, 4}, {0, 1, 2}), index_out_of_bounds);
  CHECK_THROWS_AS(assign(C, no_mask, no_accum, E, {0, 1}, index_list::range(3, 6)), index_out_of_bounds);
  CHECK_THROWS_AS(assign(C, no_mask, no_accum, E, {1, 1}, {0, 1, 2}), invalid_value);
  CHECK_THROWS_AS(assign(C, no_mask, no_accum, E, {0, 1}, {2, 0, 2}), invalid_value);
  CHECK_THROWS_AS(assign(C, Matrix<bool>(2, 3), no_accum, E, {0, 1}, {0, 1, 2}), dimension_mismatch);
  CHECK_THROWS_AS(assign(C, no_mask, no_accum, 1, {0, 4}, all), index_out_of_bounds);
  CHECK_THROWS_AS(assign(C, Matrix<bool>(5, 4), no_accum, 1, all, all), dimension_mismatch);
  // subassign: the mask is |I| x |J|; a masked scalar subassign takes no repeats.
  CHECK(message([&] { subassign(C, Matrix<bool>(4, 5), no_accum, E, {0, 1}, {0, 1, 2}); }).find("C(I,J) is 2 x 3") !=
        std::string::npos);
  CHECK_THROWS_AS(subassign(C, no_mask, no_accum, E, {1, 1}, {0, 1, 2}), invalid_value);
  CHECK_THROWS_AS(subassign(C, Matrix<bool>(2, 2), no_accum, 1, {1, 1}, {0, 1}), invalid_value);
  // Row_assign / Col_assign.
  CHECK_THROWS_AS(assign_row(C, no_mask, no_accum, u2, 0, {0, 1, 2}), dimension_mismatch);
  CHECK_THROWS_AS(assign_row(C, no_mask, no_accum, u2, 4, {0, 1}), invalid_index);
  CHECK_THROWS_AS(assign_row(C, no_mask, no_accum, u2, 0, {0, 5}), index_out_of_bounds);
  CHECK_THROWS_AS(assign_row(C, no_mask, no_accum, u2, 0, {3, 3}), invalid_value);
  CHECK_THROWS_AS(assign_row(C, Vector<bool>(4), no_accum, u2, 0, {0, 1}), dimension_mismatch);
  CHECK_THROWS_AS(assign_col(C, no_mask, no_accum, u2, all, 0), dimension_mismatch);
  CHECK_THROWS_AS(assign_col(C, no_mask, no_accum, u2, {0, 1}, -1), invalid_index);
  CHECK_THROWS_AS(assign_col(C, no_mask, no_accum, u2, {0, 4}, 0), index_out_of_bounds);
  CHECK_THROWS_AS(assign_col(C, no_mask, no_accum, u2, {2, 2}, 0), invalid_value);
  CHECK_THROWS_AS(assign_col(C, Vector<bool>(5), no_accum, u2, {0, 1}, 0), dimension_mismatch);
  // Shapes first: a wrong-size mask is reported before a bad index.
  CHECK_THROWS_AS(extract(E, Matrix<bool>(3, 2), no_accum, A, {0, 9}, {0, 1, 9}), dimension_mismatch);
  CHECK_THROWS_AS(extract(w, Vector<bool>(3), no_accum, A, {0, 9}, 0), dimension_mismatch);
  CHECK_THROWS_AS(extract(w, Vector<bool>(3), no_accum, A, {0, 1}, 7), dimension_mismatch);
  CHECK_THROWS_AS(assign(C, Matrix<bool>(2, 3), no_accum, E, {0, 9}, {0, 1, 2}), dimension_mismatch);
  CHECK_THROWS_AS(assign(C, Matrix<bool>(2, 3), no_accum, E, {1, 1}, {0, 1, 2}), dimension_mismatch);
  CHECK_THROWS_AS(assign(C, Matrix<bool>(5, 4), no_accum, 1, {0, 9}, all), dimension_mismatch);
  CHECK_THROWS_AS(subassign(C, Matrix<bool>(4, 5), no_accum, E, {0, 9}, {0, 1, 2}), dimension_mismatch);
  CHECK_THROWS_AS(subassign(C, Matrix<bool>(3, 2), no_accum, 1, {1, 1}, {0, 9}), dimension_mismatch);
  CHECK_THROWS_AS(assign_row(C, Vector<bool>(4), no_accum, u2, 9, {0, 1}), dimension_mismatch);
  CHECK_THROWS_AS(assign_row(C, Vector<bool>(4), no_accum, u2, 0, {0, 9}), dimension_mismatch);
  CHECK_THROWS_AS(assign_col(C, Vector<bool>(5), no_accum, u2, {0, 1}, 9), dimension_mismatch);
  CHECK_THROWS_AS(assign_col(C, Vector<bool>(5), no_accum, u2, {0, 9}, 0), dimension_mismatch);
  // The column extract's j is a row of A under transpose_a, and says so.
  auto invalid = [](auto f) {
    try {
      f();
    } catch (const invalid_index& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string tr_msg = invalid([&] { extract(w, no_mask, no_accum, A, {0, 1}, 4, descriptor{}.with_transpose_a()); });
  CHECK(tr_msg.find("row index 4") != std::string::npos);
  CHECK(tr_msg.find("column") == std::string::npos);
  CHECK(invalid([&] { extract(w, no_mask, no_accum, A, {0, 1}, 5); }).find("column index 5") != std::string::npos);
  CHECK(oracle::to_map(C) == c0);
  CHECK(oracle::to_map(E) == e0);
  CHECK(w.nvals() == 0);
  // Harmless: repeats in a scalar assign, empty lists, an unmasked scalar subassign.
  assign(C, no_mask, no_accum, 3, index_list::range(2, 2), all);
  subassign(C, no_mask, no_accum, 3, std::vector<index_t>{}, all);
  CHECK(oracle::to_map(C) == c0);
  assign(C, no_mask, no_accum, 3, {1, 1}, {2, 2});
  CHECK(C.nvals() == static_cast<offset_t>(c0.size() + (c0.count({1, 2}) ? 0 : 1)));
  CHECK(*C.get(1, 2) == 3);
  // Without a GPU no matrix can move there; where one can, these refuse it.
  if (cuda_device_count() > 0) {
    Matrix<int> G = A;
    G.to(backend::cuda);
    Matrix<int> Cd = C0;
    CHECK_THROWS_AS(extract(E, no_mask, no_accum, G, {0, 1}, {0, 1, 2}), not_implemented);
    CHECK_THROWS_AS(assign(Cd, no_mask, no_accum, G, all, all), not_implemented);
    CHECK_THROWS_AS(extract(w, no_mask, no_accum, G, {0, 1}, 0), not_implemented);
    // The GPU check comes first: before shapes, indices and repeats.
    CHECK_THROWS_AS(extract(E, Matrix<bool>(3, 2), no_accum, G, {0, 9}, {0, 1, 2, 3}), not_implemented);
    CHECK_THROWS_AS(extract(w, no_mask, no_accum, G, {0, 1, 2}, 9), not_implemented);
    CHECK_THROWS_AS(assign(Cd, Matrix<bool>(2, 3), no_accum, G, {0, 9}, {1, 1}), not_implemented);
    CHECK_THROWS_AS(assign(C, no_mask, no_accum, G, {1, 1, 9}, all), not_implemented);
    Matrix<int> Cg = C0;
    Cg.to(backend::cuda);
    CHECK_THROWS_AS(assign(Cg, Matrix<bool>(5, 4), no_accum, 1, {0, 9}, all), not_implemented);
    CHECK_THROWS_AS(subassign(Cg, Matrix<bool>(2, 2), no_accum, 1, {1, 1}, {0, 1}), not_implemented);
    CHECK_THROWS_AS(assign_row(Cg, Vector<bool>(4), no_accum, u2, 9, {3, 3, 3}), not_implemented);
    CHECK_THROWS_AS(assign_col(Cg, Vector<bool>(5), no_accum, u2, {2, 2, 2}, 9), not_implemented);
    CHECK_THROWS_AS(subassign_row(Cg, Vector<bool>(4), no_accum, u2, 9, {3, 3, 3}), not_implemented);
    CHECK_THROWS_AS(subassign_col(Cg, Vector<bool>(5), no_accum, u2, {2, 2, 2}, 9), not_implemented);
    CHECK(oracle::to_map(C) == c0);
    CHECK(oracle::to_map(E) == e0);
    CHECK(oracle::to_map(Cd) == c0);
  }
}

TEST_CASE("Matrix extract and assign leave C unchanged when an allocation fails", "[matrix_assign][oom]") {
  std::mt19937_64 rng(6);
  const auto A = oracle::random_matrix<double>(rng, 200, 150, 0.05), C0 = oracle::random_matrix<double>(rng, 200, 150, 0.05);
  const auto M = oracle::random_matrix<bool>(rng, 200, 150, 0.3), Ms = oracle::random_matrix<bool>(rng, 100, 150, 0.3);
  const auto E = oracle::random_matrix<double>(rng, 100, 150, 0.05);
  const Vector<double> u = vector_oracle::random_vector<double>(rng, 150, 0.3);
  const Vector<bool> m = vector_oracle::random_vector<bool>(rng, 150, 0.5);
  const index_list I = index_list::range(199, -1, -2);
  for (int form = 0; form < 2; ++form) {
    auto sweep = [&](const char* name, const Matrix<double>& C0_, auto op) {
      const Matrix<double> start = stored(C0_, form);
      const auto before = oracle::to_map(start);
      for (long long k = 0;; ++k) {
        oracle::failing_resource r(k);
        bool ok = false;
        {
          Matrix<double> C = start;
          ok = oracle::run_with(r, [&] { op(C); });
          INFO(name << " (" << form_name(form) << "): allocation " << k);
          if (!ok) REQUIRE(oracle::to_map(C) == before);
        }
        REQUIRE(r.live() == 0);
        if (ok) {
          CHECK(k > 0);  // it did allocate, and each point was failed once
          return;
        }
      }
    };
    sweep("extract", E, [&](Matrix<double>& C) { extract(C, no_mask, plus{}, A, I, all); });
    sweep("extract, reordered", E, [&](Matrix<double>& C) {
      extract(C, no_mask, no_accum, A, I, index_list::range(149, -1, -1));
    });
    sweep("assign", C0, [&](Matrix<double>& C) { assign(C, M, plus{}, E, I, all, descriptor{}.with_replace()); });
    sweep("assign scalar", C0, [&](Matrix<double>& C) { assign(C, complement(M), no_accum, 2.0, I, {3, 1, 3}); });
    sweep("subassign", C0, [&](Matrix<double>& C) {
      subassign(C, Ms, no_accum, E, I, all, descriptor{}.with_replace());
    });
    sweep("assign_row", C0, [&](Matrix<double>& C) { assign_row(C, m, plus{}, u, 7, all); });
    sweep("assign_col", C0, [&](Matrix<double>& C) {
      assign_col(C, no_mask, no_accum, u, index_list::range(0, 150), 9);
    });
    sweep("subassign_row", C0, [&](Matrix<double>& C) {
      subassign_row(C, m, plus{}, u, 7, all, descriptor{}.with_replace());
    });
    sweep("subassign_col", C0, [&](Matrix<double>& C) {
      subassign_col(C, structure(m), no_accum, u, index_list::range(0, 150), 9);
    });
  }
}
