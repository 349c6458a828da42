// A naive implementation of the GraphBLAS specification, used as the test
// oracle: matrices are ordered maps, products are created on first write
// and accumulated in increasing k, and the mask/accum/replace write-back is
// written straight from the C API's definition.
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tgb/tgb.hpp"

namespace oracle {

using tgb::index_t;
using key = std::pair<index_t, index_t>;
template <class T>
using dmap = std::map<key, T>;

template <class T>
struct dense_dims {
  index_t nrows, ncols;
  dmap<T> e;
};

template <class T>
dmap<T> to_map(const tgb::Matrix<T>& m) {
  dmap<T> out;
  const auto c = m.to_coo();
  for (std::size_t k = 0; k < c.rows.size(); ++k) out[{c.rows[k], c.cols[k]}] = c.values[k];
  return out;
}

template <class T>
tgb::Matrix<T> from_map(index_t nrows, index_t ncols, const dmap<T>& m) {
  std::vector<index_t> r, c;
  std::vector<T> v;
  for (const auto& [k, x] : m) {
    r.push_back(k.first);
    c.push_back(k.second);
    v.push_back(x);
  }
  return tgb::Matrix<T>::from_coo(nrows, ncols, r, c, v, tgb::no_duplicates);
}

template <class T>
dmap<T> transposed(const dmap<T>& m) {
  dmap<T> out;
  for (const auto& [k, x] : m) out[{k.second, k.first}] = x;
  return out;
}

// T = A (+.*) B in TC, first write then add in increasing k; a slot that
// reached the monoid's terminal value stops changing (as tgb does).
template <class TC, class TA, class TB, class SR>
dmap<TC> product(const dmap<TA>& A, const dmap<TB>& B, const SR& s) {
  std::map<index_t, std::vector<std::pair<index_t, TB>>> brows;
  for (const auto& [k, x] : B) brows[k.first].push_back({k.second, x});
  dmap<TC> T;
  for (const auto& [ik, a] : A) {
    auto it = brows.find(ik.second);
    if (it == brows.end()) continue;
    for (const auto& [j, b] : it->second) {
      const TC p = s.mul(static_cast<TC>(a), static_cast<TC>(b));
      auto pos = T.find({ik.first, j});
      if (pos == T.end()) T[{ik.first, j}] = p;
      else if (!s.add.is_terminal(pos->second)) pos->second = s.add(pos->second, p);
    }
  }
  return T;
}

// A mask as a predicate: stored and (structural or nonzero), xor complement.
struct mask_spec {
  bool active = false;
  bool structural = false;
  bool complement = false;
  std::map<key, bool> stored_true;  // position -> value is nonzero
  bool allows(index_t i, index_t j) const {
    if (!active) return true;
    auto it = stored_true.find({i, j});
    const bool m = it != stored_true.end() && (structural || it->second);
    return m != complement;
  }
};

template <class T>
mask_spec make_mask_spec(const tgb::Matrix<T>& M, bool structural, bool complement) {
  mask_spec s;
  s.active = true;
  s.structural = structural;
  s.complement = complement;
  for (const auto& [k, v] : to_map(M)) s.stored_true[k] = v != T(0);
  return s;
}

// Calls f with the mask argument of mode 0..4 (none, M's values, its
// structure, the complement of either) and returns the oracle's view of it.
template <class U, class F>
mask_spec with_mask_mode(int mode, const tgb::Matrix<U>& M, F&& f) {
  switch (mode) {
    case 0: f(tgb::no_mask); return mask_spec{};
    case 1: f(M); return make_mask_spec(M, false, false);
    case 2: f(tgb::structure(M)); return make_mask_spec(M, true, false);
    case 3: f(tgb::complement(M)); return make_mask_spec(M, false, true);
    default: f(tgb::complement(tgb::structure(M))); return make_mask_spec(M, true, true);
  }
}

// C<M, replace> = accum(C, T).
template <class TC, class Accum>
dmap<TC> writeback(const dmap<TC>& C, const dmap<TC>& T, const mask_spec& M, const std::optional<Accum>& accum,
                   bool replace) {
  dmap<TC> Z;
  if (accum) {
    Z = C;
    for (const auto& [k, t] : T) {
      auto it = Z.find(k);
      if (it == Z.end()) Z[k] = t;
      else it->second = static_cast<TC>((*accum)(it->second, t));
    }
  } else {
    Z = T;
  }
  dmap<TC> out;
  for (const auto& [k, z] : Z)
    if (M.allows(k.first, k.second)) out[k] = z;
  for (const auto& [k, c] : C)
    if (!M.allows(k.first, k.second) && !replace) out[k] = c;
  return out;
}

// ------------------------------------------------------------- generators
template <class T>
T random_value(std::mt19937_64& rng, bool allow_zero = true) {
  if constexpr (std::is_same_v<T, bool>) {
    return allow_zero ? (rng() & 1) != 0 : true;
  } else {
    std::uniform_int_distribution<int> d(-4, 4);
    int v = d(rng);
    if (!allow_zero && v == 0) v = 1;
    return static_cast<T>(v);
  }
}

// nrows x ncols with each position present with probability `density`.
// Small integer values (zeros included) keep floating-point sums exact.
template <class T>
tgb::Matrix<T> random_matrix(std::mt19937_64& rng, index_t nrows, index_t ncols, double density,
                             bool allow_zero = true) {
  std::vector<index_t> r, c;
  std::vector<T> v;
  const double cells = double(nrows) * double(ncols);
  if (cells > 0 && density > 0) {
    if (density >= 0.05 || cells < 4096) {
      std::bernoulli_distribution keep(density);
      for (index_t i = 0; i < nrows; ++i)
        for (index_t j = 0; j < ncols; ++j)
          if (keep(rng)) {
            r.push_back(i);
            c.push_back(j);
            v.push_back(random_value<T>(rng, allow_zero));
          }
    } else {
      const std::size_t n = static_cast<std::size_t>(cells * density) + 1;
      std::uniform_int_distribution<index_t> ri(0, nrows - 1), ci(0, ncols - 1);
      for (std::size_t k = 0; k < n; ++k) {
        r.push_back(ri(rng));
        c.push_back(ci(rng));
        v.push_back(random_value<T>(rng, allow_zero));
      }
      return tgb::Matrix<T>::from_coo(nrows, ncols, r, c, v, tgb::first{});
    }
  }
  return tgb::Matrix<T>::from_coo(nrows, ncols, r, c, v, tgb::no_duplicates);
}

// Exact comparison (floating point within a relative tolerance); returns a
// description of the first difference, or an empty string.
template <class T>
std::string diff(const dmap<T>& got, const dmap<T>& want, double rel_tol = 0.0) {
  std::ostringstream os;
  for (const auto& [k, w] : want) {
    auto it = got.find(k);
    if (it == got.end()) {
      os << "missing (" << k.first << ", " << k.second << ") = " << +w;
      return os.str();
    }
    const T g = it->second;
    bool same;
    if constexpr (std::is_floating_point_v<T>) {
      same = (std::isnan(g) && std::isnan(w)) || g == w ||
             std::fabs(double(g) - double(w)) <= rel_tol * std::max(std::fabs(double(w)), 1.0);
    } else {
      same = g == w;
    }
    if (!same) {
      os << "value at (" << k.first << ", " << k.second << "): got " << +g << ", want " << +w;
      return os.str();
    }
  }
  for (const auto& [k, g] : got)
    if (!want.count(k)) {
      os << "extra (" << k.first << ", " << k.second << ") = " << +g;
      return os.str();
    }
  return {};
}

// A copy of m moved to `where`: how the device tests place their operands.
template <class T>
tgb::Matrix<T> on(tgb::Matrix<T> m, tgb::backend where) {
  m.to(where);
  return m;
}
template <class T>
tgb::Matrix<T> on_device(tgb::Matrix<T> m) {
  return on(std::move(m), tgb::backend::cuda);
}
template <class T>
tgb::Matrix<T> on_host(tgb::Matrix<T> m) {
  return on(std::move(m), tgb::backend::host);
}

// An n x n matrix of values that differ as doubles and agree once cast to
// bool or an integer (2.0 and 7.0, 0.5 and 0.25), both signs, zeros: for
// the tests of operator domains and casts.
template <class T>
tgb::Matrix<T> cast_operand(std::mt19937_64& rng, index_t n) {
  const double pool[] = {2.0, 7.0, 0.5, 0.25, -3.0, 0.0, 1.0, -0.5, 3.0};
  std::vector<index_t> r, c;
  std::vector<T> v;
  std::uniform_int_distribution<int> pick(0, 8);
  std::bernoulli_distribution keep(0.6);
  for (index_t i = 0; i < n; ++i)
    for (index_t j = 0; j < n; ++j)
      if (keep(rng)) {
        r.push_back(i);
        c.push_back(j);
        v.push_back(static_cast<T>(pool[pick(rng)]));
      }
  return tgb::Matrix<T>::from_coo(n, n, r, c, v, tgb::no_duplicates);
}

}  // namespace oracle
