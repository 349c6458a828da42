// The host operations that read a matrix in rows or hypersparse rows as it is
// stored (mxv and vxm, reductions to a vector and a scalar, element-wise
// operations, transpose) against the map oracle, with every operand in every
// form (tiles, rows, hypersparse rows), transposed or not; the same answer in
// every form, bit for bit where the fold order is the contract (increasing
// k), whatever the thread count; and vector assign over all indices in place,
// with w as its own mask and source.
#include <omp.h>

#include <random>
#include <string>

#include "../oracle.hpp"
#include "../tgb_catch.hpp"
#include "../vector_oracle.hpp"

using namespace tgb;

namespace {

const storage_control kForms[] = {storage_control::tiles, storage_control::rows, storage_control::hyper};
const char* form_name(storage_control c) {
  return c == storage_control::tiles ? "tiles" : c == storage_control::rows ? "rows" : "hyper";
}

template <class T>
Matrix<T> in_form(Matrix<T> m, storage_control c) {
  m.set_storage(c);
  return m;
}

const std::pair<index_t, index_t> kShapes[] = {{0, 0}, {1, 1}, {5, 0}, {15, 17}, {16, 16}, {33, 17}, {17, 40}, {200, 150}};

}  // namespace

TEST_CASE("Reductions read every form: rows, columns and all entries", "[forms][reduce]") {
  std::mt19937_64 rng(11);
  for (const auto& [m, n] : kShapes)
    for (double density : {0.02, 0.3, 1.0}) {
      const Matrix<std::int64_t> A0 = oracle::random_matrix<std::int64_t>(rng, m, n, density);
      const auto a = oracle::to_map(A0);
      vector_oracle::vmap<std::int64_t> rows_sum, cols_max;
      std::int64_t total = 0;
      for (const auto& [k, x] : a) {
        rows_sum[k.first] += x;
        auto it = cols_max.find(k.second);
        if (it == cols_max.end()) cols_max[k.second] = x;
        else it->second = std::max(it->second, x);
        total += x;
      }
      for (storage_control f : kForms) {
        const Matrix<std::int64_t> A = in_form(A0, f);
        INFO(m << " x " << n << " density " << density << " in " << form_name(f) << " (stored as "
               << storage_form_name(A.form()) << ")");
        Vector<std::int64_t> w(m), v(n);
        reduce(w, no_mask, no_accum, plus_monoid{}, A);
        reduce(v, no_mask, no_accum, max_monoid{}, A, descriptor{}.with_transpose_a());
        CHECK(vector_oracle::show(vector_oracle::to_vmap(w)) == vector_oracle::show(rows_sum));
        CHECK(w.nvals() == static_cast<index_t>(rows_sum.size()));
        CHECK(vector_oracle::show(vector_oracle::to_vmap(v)) == vector_oracle::show(cols_max));
        CHECK(v.nvals() == static_cast<index_t>(cols_max.size()));
        CHECK(reduce(plus_monoid{}, A) == total);
        // With a mask and an accumulator on w (the fold is as above).
        Vector<std::int64_t> acc(m);
        if (m > 0) acc.set(0, 100);
        reduce(acc, no_mask, plus{}, plus_monoid{}, A);
        if (m > 0) CHECK(acc.get(0).value_or(0) == 100 + (rows_sum.count(0) ? rows_sum.at(0) : 0));
      }
    }
}

TEST_CASE("Element-wise operations and transpose read every form", "[forms][ewise]") {
  std::mt19937_64 rng(12);
  for (const auto& [m, n] : kShapes)
    for (double density : {0.05, 0.4}) {
      // A is m x n; B is n x m, used transposed.
      const Matrix<double> A0 = oracle::random_matrix<double>(rng, m, n, density);
      const Matrix<double> B0 = oracle::random_matrix<double>(rng, n, m, density);
      const auto a = oracle::to_map(A0), bt = oracle::transposed(oracle::to_map(B0));
      // add: a - b where both, the value as it is elsewhere; mult: a - b where both;
      // eq into bool: the operands compared as doubles (2.0 and 7.0 differ).
      oracle::dmap<double> add = a, mult;
      oracle::dmap<bool> same;
      for (const auto& [k, y] : bt) {
        auto it = a.find(k);
        if (it == a.end()) {
          add[k] = y;
        } else {
          add[k] = it->second - y;
          mult[k] = it->second - y;
          same[k] = it->second == y;
        }
      }
      oracle::dmap<std::int32_t> at;
      for (const auto& [k, x] : a) at[{k.second, k.first}] = static_cast<std::int32_t>(x);
      // Accumulated into C = A: A + (A - B') where both, 2A where A alone, B' where B' alone; and
      // A' accumulated into A': 2 A'.
      oracle::dmap<double> acc = add;
      for (const auto& [k, x] : a) acc[k] += x;
      oracle::dmap<double> tacc = oracle::transposed(a);
      for (auto& [k, x] : tacc) x *= 2;
      for (storage_control fa : kForms)
        for (storage_control fb : kForms) {
          const Matrix<double> A = in_form(A0, fa), B = in_form(B0, fb);
          INFO(m << " x " << n << " density " << density << ", A in " << form_name(fa) << ", B' in " << form_name(fb));
          const descriptor tb = descriptor{}.with_transpose_b();
          Matrix<double> C(m, n), D(m, n);
          ewise_add(C, no_mask, no_accum, minus{}, A, B, tb);
          ewise_mult(D, no_mask, no_accum, minus{}, A, B, tb);
          CHECK(oracle::diff(oracle::to_map(C), add) == "");
          CHECK(oracle::diff(oracle::to_map(D), mult) == "");
          Matrix<bool> E(m, n);
          ewise_mult(E, no_mask, no_accum, eq{}, A, B, tb);
          CHECK(oracle::diff(oracle::to_map(E), same) == "");
          // C = A' cast to int32; and A transposed twice is A.
          Matrix<std::int32_t> T(n, m);
          transpose(T, no_mask, no_accum, A);
          CHECK(oracle::diff(oracle::to_map(T), at) == "");
          Matrix<double> U(m, n);
          transpose(U, no_mask, no_accum, A, descriptor{}.with_transpose_a());
          CHECK(oracle::diff(oracle::to_map(U), a) == "");
          // The result in place of an operand (C is A).
          Matrix<double> X = A;
          ewise_add(X, no_mask, no_accum, minus{}, X, B, tb);
          CHECK(oracle::diff(oracle::to_map(X), add) == "");
          // Under an accumulator, into C in each form: C + (A - B') where both.
          for (storage_control fc : kForms) {
            Matrix<double> Y = in_form(A0, fc);
            ewise_add(Y, no_mask, plus{}, minus{}, A, B, tb);
            CHECK(oracle::diff(oracle::to_map(Y), acc) == "");
            Matrix<double> Z(n, m);
            transpose(Z, no_mask, no_accum, A0);
            Z.set_storage(fc);
            transpose(Z, no_mask, plus{}, A);
            CHECK(oracle::diff(oracle::to_map(Z), tacc) == "");
          }
        }
    }
}

TEST_CASE("mxv and vxm read every form and fold in increasing k whatever the thread count", "[forms][mxv]") {
  std::mt19937_64 rng(13);
  // Long rows (about 100 entries a row, 10^5 in all) so that the push splits
  // its columns over the threads (row kernels go parallel past 2^16 entries).
  const index_t n = 1000;
  Matrix<double> A0(n, n);
  {
    std::vector<index_t> r, c;
    std::vector<double> v;
    std::uniform_real_distribution<double> val(-1, 1);
    std::bernoulli_distribution keep(0.1);
    for (index_t i = 0; i < n; ++i)
      for (index_t j = 0; j < n; ++j)
        if (keep(rng)) r.push_back(i), c.push_back(j), v.push_back(val(rng));
    A0 = Matrix<double>::from_coo(n, n, r, c, v, no_duplicates);
  }
  Vector<double> u(n);
  std::uniform_real_distribution<double> val(-1, 1);
  for (index_t i = 0; i < n; ++i)
    if (i % 3) u.set(i, val(rng));
  const int threads = omp_get_max_threads();
  auto run = [&](storage_control f, int nthreads, bool push, bool trans) {
    omp_set_num_threads(nthreads);
    const Matrix<double> A = in_form(A0, f);
    Vector<double> w(n);
    const descriptor d = descriptor{}.with_transpose_a(trans).with_transpose_b(trans);
    if (push) vxm(w, no_mask, no_accum, plus_times, u, A, d);
    else mxv(w, no_mask, no_accum, plus_times, A, u, d);
    omp_set_num_threads(threads);
    return w;
  };
  for (int push = 0; push < 2; ++push)
    for (int trans = 0; trans < 2; ++trans) {
      const Vector<double> want = run(storage_control::tiles, 1, push, trans);
      CHECK(want.nvals() > 0);
      for (storage_control f : kForms)
        for (int t : {1, 2, 3}) {
          INFO((push ? "vxm" : "mxv") << (trans ? " transposed" : "") << " in " << form_name(f) << " on " << t
                                      << " threads");
          const Vector<double> got = run(f, t, push, trans);
          REQUIRE(got.nvals() == want.nvals());
          for (index_t i = 0; i < n; ++i) {
            REQUIRE(got.present()[i] == want.present()[i]);
            if (want.present()[i]) REQUIRE(got.values()[i] == want.values()[i]);  // bit for bit
          }
        }
    }
}

TEST_CASE("mxv and vxm with masks in every form against the dense oracle", "[forms][mxv]") {
  std::mt19937_64 rng(14);
  for (const auto& [m, n] : kShapes)
    for (double density : {0.05, 0.5}) {
      const Matrix<std::int64_t> A0 = oracle::random_matrix<std::int64_t>(rng, m, n, density);
      const auto a = oracle::to_map(A0);
      const auto u = vector_oracle::random_vector<std::int64_t>(rng, n, 0.6);
      const auto uv = vector_oracle::random_vector<std::int64_t>(rng, m, 0.6);
      const auto um = vector_oracle::to_vmap(u), uvm = vector_oracle::to_vmap(uv);
      // t = A u (min.plus), s = uv' A (plus.times: an entry wherever a product
      // exists, zero sums included).
      vector_oracle::vmap<std::int64_t> t, s;
      for (const auto& [k, x] : a) {
        if (um.count(k.second)) {
          const std::int64_t p = x + um.at(k.second);
          auto it = t.find(k.first);
          if (it == t.end()) t[k.first] = p;
          else it->second = std::min(it->second, p);
        }
        if (uvm.count(k.first)) s[k.second] += uvm.at(k.first) * x;
      }
      const auto M = vector_oracle::random_vector<std::int64_t>(rng, m, 0.5);
      const auto N = vector_oracle::random_vector<std::int64_t>(rng, n, 0.5);
      for (storage_control f : kForms) {
        const Matrix<std::int64_t> A = in_form(A0, f);
        for (int mode = 0; mode < 5; ++mode) {
          INFO(m << " x " << n << " density " << density << " in " << form_name(f) << ", mask "
                 << vector_oracle::mask_name(mode));
          Vector<std::int64_t> w(m), x(n);
          const auto sw = vector_oracle::with_mask_mode(mode, M, [&](const auto& mask) {
            mxv(w, mask, no_accum, min_plus, A, u, descriptor{}.with_replace());
          });
          const auto sx = vector_oracle::with_mask_mode(mode, N, [&](const auto& mask) {
            vxm(x, mask, no_accum, plus_times, uv, A, descriptor{}.with_replace());
          });
          const auto want_w = vector_oracle::oracle_writeback<std::int64_t, plus>({}, t, sw, nullptr, true);
          const auto want_x = vector_oracle::oracle_writeback<std::int64_t, plus>({}, s, sx, nullptr, true);
          CHECK(vector_oracle::show(vector_oracle::to_vmap(w)) == vector_oracle::show(want_w));
          CHECK(vector_oracle::show(vector_oracle::to_vmap(x)) == vector_oracle::show(want_x));
        }
      }
    }
}

TEST_CASE("Vector assign over all indices, in place: w as its own mask and source", "[forms][assign]") {
  std::mt19937_64 rng(15);
  for (index_t n : {0, 1, 17, 300}) {
    const auto W = vector_oracle::random_vector<int>(rng, n, 0.5);
    const auto U = vector_oracle::random_vector<int>(rng, n, 0.5);
    const auto wm = vector_oracle::to_vmap(W), um = vector_oracle::to_vmap(U);
    for (int rep = 0; rep < 2; ++rep)
      for (int ac = 0; ac < 2; ++ac) {
        INFO("n " << n << " replace " << rep << " accum " << ac);
        const descriptor d = descriptor{}.with_replace(rep == 1);
        // w<w> = u (value mask: w's nonzero entries), or with plus.
        Vector<int> w = W;
        if (ac) assign(w, w, plus{}, U, all, d);
        else assign(w, w, no_accum, U, all, d);
        vector_oracle::vmap<int> want;
        for (index_t i = 0; i < n; ++i) {
          const bool hw = wm.count(i), hu = um.count(i);
          const bool admit = hw && wm.at(i) != 0;
          if (admit) {
            if (ac) {
              if (hw || hu) want[i] = (hw ? wm.at(i) : 0) + (hu ? um.at(i) : 0);
            } else if (hu) {
              want[i] = um.at(i);
            }
          } else if (!rep && hw) {
            want[i] = wm.at(i);
          }
        }
        CHECK(vector_oracle::show(vector_oracle::to_vmap(w)) == vector_oracle::show(want));
        CHECK(w.nvals() == static_cast<index_t>(want.size()));
        // w<!struct(u)> = 7 (a scalar), and w = w (its own source: unchanged).
        Vector<int> v = W;
        assign(v, complement(structure(U)), no_accum, 7, all, d);
        vector_oracle::vmap<int> want_v;
        for (index_t i = 0; i < n; ++i) {
          if (!um.count(i)) want_v[i] = 7;
          else if (!rep && wm.count(i)) want_v[i] = wm.at(i);
        }
        CHECK(vector_oracle::show(vector_oracle::to_vmap(v)) == vector_oracle::show(want_v));
        CHECK(v.nvals() == static_cast<index_t>(want_v.size()));
        Vector<int> z = W;
        assign(z, no_mask, no_accum, z, all, d);
        CHECK(vector_oracle::show(vector_oracle::to_vmap(z)) == vector_oracle::show(wm));
      }
  }
}

TEST_CASE("Vector assign over all indices with a bool value mask holding false entries", "[forms][assign]") {
  // Bellman-Ford's `better`: stored false admits nothing; a word of eight
  // stored falses is skipped whole.
  for (index_t n : {0, 7, 8, 9, 64, 301}) {
    Vector<bool> m(n);
    Vector<double> w(n), u(n);
    for (index_t i = 0; i < n; ++i) {
      if (i % 3 == 0 || (i >= 16 && i < 24)) m.set(i, i % 2 == 0 && !(i >= 16 && i < 24));
      if (i % 2) w.set(i, double(i));
      if (i % 5) u.set(i, 10.0 * double(i));
    }
    for (int rep = 0; rep < 2; ++rep) {
      Vector<double> x = w;
      assign(x, m, no_accum, u, all, descriptor{}.with_replace(rep == 1));
      vector_oracle::vmap<double> want;
      for (index_t i = 0; i < n; ++i) {
        const bool admit = m.get(i).value_or(false);
        if (admit) {
          if (u.get(i)) want[i] = *u.get(i);
        } else if (!rep && w.get(i)) {
          want[i] = *w.get(i);
        }
      }
      INFO("n " << n << " replace " << rep);
      CHECK(vector_oracle::show(vector_oracle::to_vmap(x)) == vector_oracle::show(want));
      CHECK(x.nvals() == static_cast<index_t>(want.size()));
    }
  }
}

