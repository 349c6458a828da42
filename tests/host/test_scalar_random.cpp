// Scalar<T> (tgb/scalar.hpp) on the host, randomized: reduce to a Scalar,
// assign and subassign of a Scalar (an empty one acting as an empty matrix)
// against a naive oracle written from the GraphBLAS C API 2.1 definitions,
// over every mask kind, accumulator, replace, index form (all, ranges with
// strides up and down, lists, lists with repeats) and storage form; apply and
// select with a Scalar against the same calls with its value. The cases by
// hand, errors and allocation failures are in test_scalar.cpp.
#include <algorithm>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "../index_cases.hpp"
#include "../tgb_catch.hpp"
#include "../vector_oracle.hpp"

using namespace tgb;
using oracle::dmap;
using vector_oracle::vmap;

namespace {

using namespace index_cases;

template <class T>
std::optional<T> opt(const Scalar<T>& s) {
  return s.empty() ? std::nullopt : std::optional<T>(s.get());
}
template <class T>
Scalar<T> scalar_of(const std::optional<T>& x) {
  return x ? Scalar<T>(*x) : Scalar<T>();
}

// ------------------------------------------------------------------ oracle
// The value a position of the region takes from the scalar x (GrB_assign's
// Z): x, or accum(c, x) where c is stored; an empty x is an empty matrix:
// c kept with accum, deleted without.
template <class T, class Accum>
std::optional<T> z_of(const std::optional<T>& c, const std::optional<T>& x, const Accum* accum) {
  if (!x) return accum ? c : std::nullopt;
  if (accum && c) return static_cast<T>((*accum)(*c, *x));
  return x;
}
template <class T>
std::optional<T> at(const dmap<T>& m, index_t i, index_t j) {
  auto it = m.find({i, j});
  return it == m.end() ? std::nullopt : std::optional<T>(it->second);
}
template <class T>
void put(dmap<T>& m, index_t i, index_t j, const std::optional<T>& z) {
  if (z) m[{i, j}] = *z;
  else m.erase({i, j});
}

// GrB_Matrix_assign_Scalar: Z = C with Z(i,j) = z_of(C(i,j), x) over I x J,
// then C<M, replace> = Z over all of C.
template <class T, class Accum>
dmap<T> oracle_assign(const dmap<T>& C, const std::optional<T>& x, const std::vector<index_t>& I,
                      const std::vector<index_t>& J, const oracle::mask_spec& M, const Accum* accum, bool replace) {
  dmap<T> Z = C;
  for (index_t i : I)
    for (index_t j : J) put(Z, i, j, z_of(at(C, i, j), x, accum));
  return oracle::writeback<T, tgb::plus>(C, Z, M, std::nullopt, replace);
}
// GxB_Matrix_subassign_Scalar: only C(I,J) changes; M(k,l) decides about C(I[k], J[l]).
template <class T, class Accum>
dmap<T> oracle_subassign(const dmap<T>& C, const std::optional<T>& x, const std::vector<index_t>& I,
                         const std::vector<index_t>& J, const oracle::mask_spec& M, const Accum* accum, bool replace) {
  dmap<T> out = C;
  for (std::size_t k = 0; k < I.size(); ++k)
    for (std::size_t l = 0; l < J.size(); ++l) {
      if (M.allows(index_t(k), index_t(l))) put(out, I[k], J[l], z_of(at(C, I[k], J[l]), x, accum));
      else if (replace) out.erase({I[k], J[l]});
    }
  return out;
}
// GrB_Vector_assign_Scalar.
template <class T, class Accum>
vmap<T> oracle_vassign(const vmap<T>& w, const std::optional<T>& x, const std::vector<index_t>& I,
                       const vector_oracle::vmask_spec& m, const Accum* accum, bool replace) {
  vmap<T> z = w;
  for (index_t i : I) {
    auto it = w.find(i);
    const auto v = z_of(it == w.end() ? std::nullopt : std::optional<T>(it->second), x, accum);
    if (v) z[i] = *v;
    else z.erase(i);
  }
  return vector_oracle::oracle_writeback<T, Accum>(w, z, m, nullptr, replace);
}
// GrB_reduce to a GrB_Scalar: t = the fold of the values (none if there are
// none); then s = accum(s, t) as for a 1 x 1 matrix.
template <class S, class Monoid, class Accum, class Values>
std::optional<S> oracle_reduce(const std::optional<S>& s, const Values& values, const Monoid& monoid,
                               const Accum* accum) {
  std::optional<S> t;
  for (const auto& kv : values) t = t ? monoid(*t, static_cast<S>(kv.second)) : static_cast<S>(kv.second);
  if (!t) return accum ? s : std::nullopt;
  if (accum && s) return static_cast<S>((*accum)(*s, *t));
  return t;
}

const std::pair<index_t, index_t> shapes[] = {{1, 1}, {6, 9}, {15, 17}, {16, 16}, {17, 33}, {33, 20}, {0, 4}};

}  // namespace

TEST_CASE("reduce to a Scalar against the oracle", "[scalar][reduce][random]") {
  std::mt19937_64 rng(71);
  const minus acc;
  for (const auto& [m, n] : shapes)
    for (int trial = 0; trial < 24; ++trial) {
      const double density = trial % 4 == 0 ? 0.0 : trial % 4 == 1 ? 0.02 : 0.4;
      const Matrix<std::int64_t> A = stored(oracle::random_matrix<std::int64_t>(rng, m, n, density), trial % 2);
      const Vector<std::int64_t> u = density > 0 ? vector_oracle::random_vector<std::int64_t>(rng, m * n, density)
                                                 : Vector<std::int64_t>(m * n);
      const auto amap = oracle::to_map(A);
      const auto umap = vector_oracle::to_vmap(u);
      const std::optional<std::int64_t> s0 = trial % 3 ? std::optional<std::int64_t>(trial - 11) : std::nullopt;
      for (int ac = 0; ac < 2; ++ac) {
        const minus* accp = ac ? &acc : nullptr;
        INFO(m << " x " << n << " density " << density << " s " << (s0 ? std::to_string(*s0) : "empty") << " accum "
               << ac << " nvals " << A.nvals() << ", " << u.nvals());
        Scalar<std::int64_t> s = scalar_of(s0), t = scalar_of(s0), x = scalar_of(s0);
        if (ac) {
          reduce(s, minus{}, plus_monoid{}, A);
          reduce(t, minus{}, min_monoid{}, u);
          reduce(x, minus{}, max_monoid{}, A);
        } else {
          reduce(s, no_accum, plus_monoid{}, A);
          reduce(t, no_accum, min_monoid{}, u);
          reduce(x, no_accum, max_monoid{}, A);
        }
        REQUIRE(opt(s) == oracle_reduce(s0, amap, plus_monoid{}, accp));
        REQUIRE(opt(t) == oracle_reduce(s0, umap, min_monoid{}, accp));
        REQUIRE(opt(x) == oracle_reduce(s0, amap, max_monoid{}, accp));
      }
    }
  // Past one fold chunk (2^16 entries), as the plain-scalar reduce.
  const auto big = oracle::random_matrix<std::int64_t>(rng, 600, 500, 0.3);
  Scalar<std::int64_t> s(1);
  reduce(s, plus{}, plus_monoid{}, big);
  const plus p;
  CHECK(opt(s) == oracle_reduce<std::int64_t>(std::int64_t(1), oracle::to_map(big), plus_monoid{}, &p));
}

TEST_CASE("assign and subassign of a Scalar against the oracle", "[scalar][assign][random]") {
  std::mt19937_64 rng(72);
  const minus acc;
  for (const auto& [m, n] : shapes)
    for (int trial = 0; trial < 16; ++trial) {
      const auto C0 = oracle::random_matrix<int>(rng, m, n, 0.4);
      const auto c0 = oracle::to_map(C0);
      const auto M = oracle::random_matrix<int>(rng, m, n, 0.5);
      const list_case I = random_list(rng, trial % 6, m, true), J = random_list(rng, (trial / 2 + 3) % 6, n, true);
      // subassign with a mask: lists without repeats, and a |I| x |J| mask.
      const list_case Is = random_list(rng, (trial + 2) % 5, m, false), Js = random_list(rng, (trial + 1) % 5, n, false);
      const auto Ms = oracle::random_matrix<int>(rng, index_t(Is.v.size()), index_t(Js.v.size()), 0.5);
      const std::optional<int> x = trial % 2 ? std::optional<int>(trial - 7) : std::nullopt;
      const Scalar<int> s = scalar_of(x);
      for (int combo = 0; combo < 20; ++combo) {
        const int mode = combo / 4, ac = (combo / 2) % 2, rep = combo % 2, forms = (combo + trial) % 4;
        const descriptor d = descriptor{}.with_replace(rep == 1);
        const minus* accp = ac ? &acc : nullptr;
        INFO(m << " x " << n << " I " << I.name << " J " << J.name << " scalar " << (x ? std::to_string(*x) : "empty")
               << " mask " << mode << " accum " << ac << " replace " << rep << " forms " << forms);
        Matrix<int> C = stored(C0, forms & 1);
        const auto spec = oracle::with_mask_mode(mode, stored(M, forms >> 1), [&](const auto& mask) {
          if (ac) assign(C, mask, minus{}, s, I.L, J.L, d);
          else assign(C, mask, no_accum, s, I.L, J.L, d);
        });
        REQUIRE(oracle::diff(oracle::to_map(C), oracle_assign(c0, x, I.v, J.v, spec, accp, rep == 1)) == "");
        REQUIRE(C.form() == ((forms & 1) ? storage_form::rows : storage_form::tiles));
        Matrix<int> S = stored(C0, forms & 1);
        const auto sspec = oracle::with_mask_mode(mode, stored(Ms, forms >> 1), [&](const auto& mask) {
          if (ac) subassign(S, mask, minus{}, s, Is.L, Js.L, d);
          else subassign(S, mask, no_accum, s, Is.L, Js.L, d);
        });
        REQUIRE(oracle::diff(oracle::to_map(S), oracle_subassign(c0, x, Is.v, Js.v, sspec, accp, rep == 1)) == "");
        // Vectors: w of C's first dimension times its second, so sizes 0 and 1 come too.
        const index_t len = m * n;
        const auto W0 = vector_oracle::random_vector<int>(rng, len, 0.4);
        const auto Mw = vector_oracle::random_vector<int>(rng, len, 0.5);
        const list_case L = random_list(rng, (combo + trial) % 6, len, true);
        Vector<int> w = W0;
        const auto ws = vector_oracle::with_mask_mode(mode, Mw, [&](const auto& mask) {
          if (ac) assign(w, mask, minus{}, s, L.L, d);
          else assign(w, mask, no_accum, s, L.L, d);
        });
        INFO("vector list " << L.name);
        REQUIRE(vector_oracle::to_vmap(w) == oracle_vassign(vector_oracle::to_vmap(W0), x, L.v, ws, accp, rep == 1));
        REQUIRE(w.nvals() == static_cast<index_t>(vector_oracle::to_vmap(w).size()));
      }
    }
  // Larger: parallel rows, and a vector past the parallel threshold with
  // repeated indices (each position deleted once).
  const auto C0 = oracle::random_matrix<double>(rng, 6000, 300, 0.01);
  const auto M = oracle::random_matrix<bool>(rng, 6000, 300, 0.1);
  Matrix<double> C = C0;
  assign(C, complement(M), no_accum, Scalar<double>(), index_list::range(5999, -1, -2), all);
  const auto spec = oracle::make_mask_spec(M, false, true);
  std::vector<index_t> I, J(300);
  for (index_t i = 5999; i >= 0; i -= 2) I.push_back(i);
  std::iota(J.begin(), J.end(), index_t(0));
  CHECK(oracle::diff(oracle::to_map(C), oracle_assign<double, minus>(oracle::to_map(C0), std::nullopt, I, J, spec,
                                                                      nullptr, false)) == "");
  const index_t big = 100000;
  const auto W0 = vector_oracle::random_vector<int>(rng, big, 0.5);
  std::vector<index_t> rep;
  for (index_t i = 0; i < big; i += 3) rep.push_back(i), rep.push_back(i);
  Vector<int> w = W0;
  assign(w, no_mask, no_accum, Scalar<int>(), index_list(rep));
  const vector_oracle::vmask_spec none;
  CHECK(vector_oracle::to_vmap(w) == oracle_vassign<int, minus>(vector_oracle::to_vmap(W0), std::nullopt, rep, none,
                                                                nullptr, false));
  CHECK(w.nvals() == static_cast<index_t>(vector_oracle::to_vmap(w).size()));
}

TEST_CASE("apply and select with a Scalar equal the same calls with its value", "[scalar][apply][select][random]") {
  std::mt19937_64 rng(73);
  for (const auto& [m, n] : shapes)
    for (int trial = 0; trial < 6; ++trial) {
      const bool tr = trial % 2 == 1;
      const auto A = oracle::random_matrix<int>(rng, tr ? n : m, tr ? m : n, 0.4);
      const auto C0 = oracle::random_matrix<int>(rng, m, n, 0.3), M = oracle::random_matrix<int>(rng, m, n, 0.5);
      const auto u = vector_oracle::random_vector<int>(rng, n, 0.5), w0 = vector_oracle::random_vector<int>(rng, n, 0.3);
      const auto mw = vector_oracle::random_vector<int>(rng, n, 0.5);
      const int y = trial - 3;
      for (int combo = 0; combo < 20; ++combo) {
        const int mode = combo / 4, ac = (combo / 2) % 2, rep = combo % 2;
        const descriptor d = descriptor{}.with_replace(rep == 1).with_transpose_a(tr);
        INFO(m << " x " << n << " transposed " << tr << " mask " << mode << " accum " << ac << " replace " << rep);
        auto both = [&](auto&& op) {  // op(out, mask, accum) with every mask kind and accumulator
          oracle::with_mask_mode(mode, M, [&](const auto& mask) {
            if (ac) op(mask, minus{});
            else op(mask, no_accum);
          });
        };
        Matrix<int> C1 = C0, C2 = C0, C3 = C0, C4 = C0, C5 = C0;
        both([&](const auto& mask, const auto& a) {
          apply(C1, mask, a, bind1st(minus{}, Scalar<int>(y)), A, d);
          apply(C2, mask, a, bind1st(minus{}, y), A, d);
          apply(C3, mask, a, bind2nd(minus{}, Scalar<int>(y)), A, d);
          select(C4, mask, a, value_ge{}, A, Scalar<int>(y), d);
          select(C5, mask, a, value_ge{}, A, y, d);
          CHECK_THROWS_AS(select(C5, mask, a, triu{}, A, Scalar<int>(), d), empty_object);
        });
        REQUIRE(oracle::to_map(C1) == oracle::to_map(C2));
        REQUIRE(oracle::to_map(C4) == oracle::to_map(C5));
        Matrix<int> C7 = C0;
        both([&](const auto& mask, const auto& a) { apply(C7, mask, a, bind2nd(minus{}, y), A, d); });
        REQUIRE(oracle::to_map(C3) == oracle::to_map(C7));
        // Vectors.
        Vector<int> v1 = w0, v2 = w0, v3 = w0, v4 = w0;
        vector_oracle::with_mask_mode(mode, mw, [&](const auto& mask) {
          if (ac) {
            select(v1, mask, minus{}, value_lt{}, u, Scalar<int>(y), d);
            select(v2, mask, minus{}, value_lt{}, u, y, d);
            apply(v3, mask, minus{}, bind1st(times{}, Scalar<int>(y)), u, d);
            apply(v4, mask, minus{}, bind1st(times{}, y), u, d);
          } else {
            select(v1, mask, no_accum, value_lt{}, u, Scalar<int>(y), d);
            select(v2, mask, no_accum, value_lt{}, u, y, d);
            apply(v3, mask, no_accum, bind1st(times{}, Scalar<int>(y)), u, d);
            apply(v4, mask, no_accum, bind1st(times{}, y), u, d);
          }
        });
        REQUIRE(v1 == v2);
        REQUIRE(v3 == v4);
      }
    }
}
