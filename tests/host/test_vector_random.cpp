// Randomized vector tests on the host: mxv and vxm against a naive dense
// oracle (sizes 0 to 1000, one entry to dense, several semirings, transposes,
// every mask kind, accumulator and replace); the element-wise operations,
// apply, select, assign and extract against the map oracle; a long BFS; and
// ewise_union on matrices.
#include <algorithm>
#include <random>

#include "../tgb_catch.hpp"
#include "../vector_oracle.hpp"

using namespace tgb;
using namespace vector_oracle;

// ------------------------------------------------------ randomized mxv / vxm
namespace {

// A naive dense oracle: w(i) = add over k of mul(A(i,k), u(k)) in increasing
// k, first write then add, a terminal sum stops changing (as tgb's host does).
template <class TW, class T, class SR>
vmap<TW> dense_mxv(const std::vector<std::vector<std::optional<T>>>& A, bool trans, const std::vector<std::optional<T>>& u,
                   const SR& s, bool matrix_first) {
  const index_t m = static_cast<index_t>(A.size());
  const index_t n = m ? static_cast<index_t>(A[0].size()) : 0;
  const index_t rows = trans ? n : m, inner = trans ? m : n;
  vmap<TW> w;
  for (index_t i = 0; i < rows; ++i) {
    std::optional<TW> acc;
    for (index_t k = 0; k < inner; ++k) {
      const auto& a = trans ? A[k][i] : A[i][k];
      if (!a || !u[k]) continue;
      const TW x = static_cast<TW>(*a), y = static_cast<TW>(*u[k]);
      const TW p = matrix_first ? s.mul(x, y) : s.mul(y, x);
      if (!acc) acc = p;
      else if (!s.add.is_terminal(*acc)) acc = static_cast<TW>(s.add(*acc, p));
    }
    if (acc) w[i] = *acc;
  }
  return w;
}

template <class T>
std::vector<std::vector<std::optional<T>>> dense_of(const Matrix<T>& A) {
  std::vector<std::vector<std::optional<T>>> d(A.nrows(), std::vector<std::optional<T>>(A.ncols()));
  const auto c = A.to_coo();
  for (std::size_t e = 0; e < c.values.size(); ++e) d[c.rows[e]][c.cols[e]] = c.values[e];
  return d;
}


template <class T, class SR>
void random_products(const char* name, const SR& sr, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::pair<index_t, index_t> shapes[] = {{0, 0}, {0, 5}, {5, 0}, {1, 1},   {15, 15}, {16, 16}, {17, 17},
                                                {16, 33}, {33, 17}, {1, 40}, {40, 1}, {1000, 17}, {17, 1000}, {1000, 1000}};
  for (const auto& [m, n] : shapes) {
    const bool big = m * n >= 17000;
    for (double ad : big ? std::vector<double>{0.01} : std::vector<double>{0.05, 0.3, 1.0}) {
      const auto A0 = oracle::random_matrix<T>(rng, m, n, ad);
      const auto D = dense_of(A0);
      // A as the rule stores it, in rows and in hypersparse rows, in turn
      // (the sparse push reads rows).
      Matrix<T> Ar = A0, Ah = A0;
      Ar.set_storage(storage_control::rows);
      Ah.set_storage(storage_control::hyper);
      const Matrix<T>* forms[] = {&A0, &Ar, &Ah};
      for (double ud : {0.0, 0.1, 0.5, 1.0})  // 0: exactly one entry
        for (int trans = 0; trans < 2; ++trans) {
          // mxv: u has A's (or A''s) columns; vxm: u has its rows.
          const index_t mx_in = trans ? m : n, mx_out = trans ? n : m;
          const index_t vx_in = trans ? n : m, vx_out = trans ? m : n;
          const auto u = random_vector<T>(rng, mx_in, ud), uv = random_vector<T>(rng, vx_in, ud);
          std::vector<std::optional<T>> ud_dense(mx_in), uv_dense(vx_in);
          for (const auto& [i, x] : to_vmap(u)) ud_dense[i] = x;
          for (const auto& [i, x] : to_vmap(uv)) uv_dense[i] = x;
          const auto t_mxv = dense_mxv<T>(D, trans, ud_dense, sr, true);
          const auto t_vxm = dense_mxv<T>(D, !trans, uv_dense, sr, false);
          const auto M_mx = random_vector<T>(rng, mx_out, 0.5), M_vx = random_vector<T>(rng, vx_out, 0.5);
          const auto W_mx = random_vector<T>(rng, mx_out, 0.3), W_vx = random_vector<T>(rng, vx_out, 0.3);
          // Every combination on small shapes; a rotating few on the big ones.
          for (int combo = 0; combo < 20; ++combo) {
            if (big && combo % 7 != int(seed % 7)) continue;
            const int mode = combo / 4, ac = (combo / 2) % 2, rep = combo % 2;
            const descriptor d =
                descriptor{}.with_replace(rep == 1).with_transpose_a(trans == 1).with_transpose_b(trans == 1);
            const Matrix<T>& A = *forms[combo % 3];
            Vector<T> w1 = W_mx, w2 = W_vx;
            const auto acc = typename SR::add_type{};
            const vmask_spec s1 = with_mask_mode(mode, M_mx, [&](const auto& mask) {
              if (ac) mxv(w1, mask, acc, sr, A, u, d);
              else mxv(w1, mask, no_accum, sr, A, u, d);
            });
            const vmask_spec s2 = with_mask_mode(mode, M_vx, [&](const auto& mask) {
              if (ac) vxm(w2, mask, acc, sr, uv, A, d);
              else vxm(w2, mask, no_accum, sr, uv, A, d);
            });
            INFO(name << " " << m << " x " << n << " stored " << combo % 3 << " density " << ad << ", u density " << ud << ", transposed "
                      << trans << ", mask " << mask_name(mode) << ", accum " << ac << ", replace " << rep);
            const auto want1 = oracle_writeback(to_vmap(W_mx), t_mxv, s1, ac ? &acc : nullptr, rep == 1);
            const auto want2 = oracle_writeback(to_vmap(W_vx), t_vxm, s2, ac ? &acc : nullptr, rep == 1);
            REQUIRE(show(to_vmap(w1)) == show(want1));
            REQUIRE(w1.nvals() == static_cast<index_t>(want1.size()));
            REQUIRE(show(to_vmap(w2)) == show(want2));
            REQUIRE(w2.nvals() == static_cast<index_t>(want2.size()));
          }
        }
    }
  }
}

}  // namespace

// Each product test runs with the vectors in each form (vector_oracle's
// for_each_vector_form): sparse operands take the sparse push where the
// matrix is in rows.
TEST_CASE("mxv and vxm against a dense oracle: plus_times fp64", "[vector][mxv][vxm][random]") {
  for_each_vector_form([](vector_form f) {
    INFO("vectors " << form_name(f));
    random_products<double>("plus_times", plus_times, 1);
  });
}
TEST_CASE("mxv and vxm against a dense oracle: min_plus fp64", "[vector][mxv][vxm][random]") {
  for_each_vector_form([](vector_form f) {
    INFO("vectors " << form_name(f));
    random_products<double>("min_plus", min_plus, 2);
  });
}
TEST_CASE("mxv and vxm against a dense oracle: lor_land bool", "[vector][mxv][vxm][random]") {
  for_each_vector_form([](vector_form f) {
    INFO("vectors " << form_name(f));
    random_products<bool>("lor_land", lor_land, 3);
  });
}
TEST_CASE("mxv and vxm against a dense oracle: any_pair int64", "[vector][mxv][vxm][random]") {
  for_each_vector_form([](vector_form f) {
    INFO("vectors " << form_name(f));
    random_products<std::int64_t>("any_pair", any_pair, 4);
  });
}
TEST_CASE("mxv and vxm against a dense oracle: plus_first and min_second int32", "[vector][mxv][vxm][random]") {
  for_each_vector_form([](vector_form f) {
    INFO("vectors " << form_name(f));
    random_products<std::int32_t>("plus_first", plus_first, 5);
    random_products<std::int32_t>("min_second", min_second, 6);
  });
}

TEST_CASE("Element-wise, apply, select, assign and extract against the oracle", "[vector][random]") {
  for_each_vector_form([](vector_form f) {
  INFO("vectors " << form_name(f));
  std::mt19937_64 rng(77);
  for (index_t n : {0, 1, 15, 16, 17, 1000})
    for (double du : {0.0, 0.2, 1.0})
      for (double dv : {0.0, 0.5, 1.0}) {
        const auto u = random_vector<int>(rng, n, du), v = random_vector<int>(rng, n, dv);
        const auto um = to_vmap(u), vm = to_vmap(v);
        vmap<int> add = um, mult, uni, neg, big;
        for (const auto& [i, x] : vm) {
          auto it = um.find(i);
          add[i] = it == um.end() ? x : it->second - x;
          if (it != um.end()) mult[i] = it->second - x;
          uni[i] = it == um.end() ? 3 - x : it->second - x;
        }
        for (const auto& [i, x] : um) {
          if (!vm.count(i)) uni[i] = x - 5;
          neg[i] = -x;
          if (x > 1 || i % 3 == 0) big[i] = x;
        }
        // W full where u and v are, for odd n (the in-place path of full
        // operands with an accumulator into a full w, PageRank's pr += d t);
        // even n keeps full operands into a sparse w.
        const auto M = random_vector<int>(rng, n, 0.5),
                   W = random_vector<int>(rng, n, du == 1.0 && dv == 1.0 && n % 2 == 1 ? 1.0 : 0.4);
        auto run = [&](const char* name, const vmap<int>& t, auto op) {
          for (int combo = 0; combo < 20; ++combo) {
            const int mode = combo / 4, ac = (combo / 2) % 2, rep = combo % 2;
            Vector<int> w = W;
            const descriptor d = descriptor{}.with_replace(rep == 1);
            const vmask_spec s = with_mask_mode(mode, M, [&](const auto& mask) {
              if (ac) op(w, mask, times{}, d);
              else op(w, mask, no_accum, d);
            });
            const times acc;
            const auto want = oracle_writeback(to_vmap(W), t, s, ac ? &acc : nullptr, rep == 1);
            INFO(name << " n " << n << " mask " << mask_name(mode) << " accum " << ac << " replace " << rep);
            REQUIRE(show(to_vmap(w)) == show(want));
            REQUIRE(w.nvals() == static_cast<index_t>(want.size()));
          }
        };
        run("ewise_add", add, [&](auto& w, const auto& m, const auto& a, const descriptor& d) {
          ewise_add(w, m, a, minus{}, u, v, d);
        });
        run("ewise_mult", mult, [&](auto& w, const auto& m, const auto& a, const descriptor& d) {
          ewise_mult(w, m, a, minus{}, u, v, d);
        });
        run("ewise_union", uni, [&](auto& w, const auto& m, const auto& a, const descriptor& d) {
          ewise_union(w, m, a, minus{}, u, 3, v, 5, d);
        });
        run("apply", neg, [&](auto& w, const auto& m, const auto& a, const descriptor& d) {
          apply(w, m, a, ainv{}, u, d);
        });
        run("select", big, [&](auto& w, const auto& m, const auto& a, const descriptor& d) {
          // keeps x > 1, or i % 3 == 0 through a user selector
          select(w, m, a, [](int x, index_t i, index_t, int y) { return x > y || i % 3 == 0; }, u, 1, d);
        });
        // extract a random list (repeats allowed) of n indices of u.
        std::vector<index_t> I(static_cast<std::size_t>(n));
        vmap<int> ext;
        for (index_t k = 0; k < n; ++k) {
          I[k] = std::uniform_int_distribution<index_t>(0, n - 1)(rng);
          if (um.count(I[k])) ext[k] = um.at(I[k]);
        }
        run("extract", ext, [&](auto& w, const auto& m, const auto& a, const descriptor& d) {
          extract(w, m, a, u, index_list(I), d);
        });
        // assign u through a permutation: Z = w with Z(p[k]) = u(k).
        std::vector<index_t> p(static_cast<std::size_t>(n));
        for (index_t k = 0; k < n; ++k) p[k] = k;
        std::shuffle(p.begin(), p.end(), rng);
        for (int ac = 0; ac < 2; ++ac)
          for (int mode = 0; mode < 5; ++mode)
            for (int rep = 0; rep < 2; ++rep) {
              Vector<int> w = W;
              const auto wm = to_vmap(W);
              const vmask_spec s = with_mask_mode(mode, M, [&](const auto& mask) {
                if (ac) assign(w, mask, times{}, u, index_list(p), descriptor{}.with_replace(rep == 1));
                else assign(w, mask, no_accum, u, index_list(p), descriptor{}.with_replace(rep == 1));
              });
              vmap<int> z = wm;
              for (index_t k = 0; k < n; ++k) {
                auto it = um.find(k);
                if (it == um.end()) {
                  if (!ac) z.erase(p[k]);
                } else if (ac && wm.count(p[k])) {
                  z[p[k]] = wm.at(p[k]) * it->second;
                } else {
                  z[p[k]] = it->second;
                }
              }
              vmap<int> want;
              for (index_t i = 0; i < n; ++i) {
                const vmap<int>& from = s.allows(i) ? z : wm;
                if (from.count(i) && (s.allows(i) || !rep)) want[i] = from.at(i);
              }
              INFO("assign n " << n << " mask " << mask_name(mode) << " accum " << ac << " replace " << rep);
              REQUIRE(show(to_vmap(w)) == show(want));
              REQUIRE(w.nvals() == static_cast<index_t>(want.size()));
            }
        int total = 0;
        for (const auto& [i, x] : um) total += x;
        REQUIRE(reduce(plus_monoid{}, u) == total);
      }
  });
}

TEST_CASE("Breadth-first search with vxm: a frontier of one vertex on a long path", "[vector][vxm][bfs]") {
  // A path 0 -> 1 -> ... -> n-1: n levels, each frontier a single vertex; the
  // visited set grows by one each step (q<!visited, replace> = q any_pair A).
  const index_t n = 3000;
  std::vector<index_t> r, c;
  for (index_t i = 0; i + 1 < n; ++i) r.push_back(i), c.push_back(i + 1);
  const auto A = Matrix<bool>::from_coo(n, n, r, c, std::vector<bool>(r.size(), true), no_duplicates);
  Vector<bool> q(n), visited(n);
  Vector<std::int64_t> level(n);
  q.set(0, true);
  for (std::int64_t d = 0; q.nvals() > 0; ++d) {
    REQUIRE(q.nvals() == 1);
    assign(level, q, no_accum, d, all);
    assign(visited, q, no_accum, true, all);
    vxm(q, complement(structure(visited)), no_accum, any_pair, q, A, descriptor{}.with_replace());
  }
  CHECK(level.nvals() == n);
  CHECK(*level.get(n - 1) == n - 1);
  CHECK(reduce(plus_monoid{}, level) == n * (n - 1) / 2);
}

TEST_CASE("ewise_union on matrices: by hand and against the oracle", "[ewise_union][matrix]") {
  const auto A = Matrix<int>::from_coo(2, 3, std::vector<int>{0, 1}, std::vector<int>{0, 2}, std::vector<int>{5, 7},
                                       no_duplicates);
  const auto B = Matrix<int>::from_coo(2, 3, std::vector<int>{0, 0}, std::vector<int>{0, 1}, std::vector<int>{1, 2},
                                       no_duplicates);
  Matrix<int> C(2, 3);
  ewise_union(C, no_mask, no_accum, minus{}, A, 10, B, 100);
  CHECK(oracle::to_map(C) == oracle::dmap<int>{{{0, 0}, 4}, {{0, 1}, 8}, {{1, 2}, -93}});
  Matrix<bool> E(2, 3);  // gt on the ints, cast to bool
  ewise_union(E, no_mask, no_accum, gt{}, A, 0.5, B, 6.5);  // alpha 0.5 and beta 6.5 cast to int: 0 and 6
  CHECK(oracle::to_map(E) == oracle::dmap<bool>{{{0, 0}, true}, {{0, 1}, false}, {{1, 2}, true}});
  Matrix<int> wrong(3, 2);
  CHECK_THROWS_AS(ewise_union(wrong, no_mask, no_accum, plus{}, A, 0, B, 0), dimension_mismatch);
  ewise_union(wrong, no_mask, no_accum, minus{}, A, 10, B, 100, descriptor{}.with_transpose_a().with_transpose_b());
  CHECK(oracle::to_map(wrong) == oracle::dmap<int>{{{0, 0}, 4}, {{1, 0}, 8}, {{2, 1}, -93}});

  std::mt19937_64 rng(8);
  for (index_t m : {1, 16, 17, 40})
    for (index_t n : {1, 15, 33})
      for (double d : {0.05, 0.5}) {
        const auto X = oracle::random_matrix<int>(rng, m, n, d), Y = oracle::random_matrix<int>(rng, m, n, d);
        const auto M = oracle::random_matrix<int>(rng, m, n, 0.5), C0 = oracle::random_matrix<int>(rng, m, n, 0.3);
        const auto xm = oracle::to_map(X), ym = oracle::to_map(Y);
        oracle::dmap<int> t;
        for (const auto& [k, x] : xm) t[k] = x - (ym.count(k) ? ym.at(k) : -3);
        for (const auto& [k, y] : ym)
          if (!xm.count(k)) t[k] = 2 - y;
        for (int mode = 0; mode < 5; ++mode)
          for (int ac = 0; ac < 2; ++ac) {
            Matrix<int> Cm = C0;
            const auto spec = oracle::with_mask_mode(mode, M, [&](const auto& mask) {
              if (ac) ewise_union(Cm, mask, plus{}, minus{}, X, 2, Y, -3, descriptor{}.with_replace());
              else ewise_union(Cm, mask, no_accum, minus{}, X, 2, Y, -3, descriptor{}.with_replace());
            });
            const auto want = oracle::writeback<int>(oracle::to_map(C0), t, spec,
                                                     ac ? std::optional<plus>(plus{}) : std::optional<plus>(), true);
            INFO("ewise_union " << m << " x " << n << " mask " << mode << " accum " << ac);
            REQUIRE(oracle::diff(oracle::to_map(Cm), want) == "");
          }
      }
}
