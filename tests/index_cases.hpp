// Test helpers for the operations over index lists (assign, extract, the
// Scalar forms): random index lists of every form, and a matrix put in a
// chosen storage form.
#pragma once

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "tgb/tgb.hpp"

namespace index_cases {

using tgb::index_list;
using tgb::index_t;

// Kinds: 0 all, 1 a range, 2 a range with stride 2 or 3, 3 a descending
// range, 4 a shuffled subset (a list), 5 a list with repeats (or kind 4
// where repeats are not allowed).
struct list_case {
  index_list L = tgb::all;
  std::vector<index_t> v;  // its indices, in order
  std::string name;
};
inline list_case random_list(std::mt19937_64& rng, int kind, index_t n, bool repeats_ok) {
  auto pick = [&](index_t lo, index_t hi) { return std::uniform_int_distribution<index_t>(lo, hi)(rng); };
  list_case c;
  if (kind == 5 && !repeats_ok) kind = 4;
  if (n == 0 && kind != 0) kind = 4;
  switch (kind) {
    case 0: c.name = "all"; break;
    case 1: case 2: {
      const index_t b = pick(0, n - 1), e = pick(b, n), s = kind == 1 ? 1 : pick(2, 3);
      c.L = index_list::range(b, e, s);
      c.name = "range(" + std::to_string(b) + ", " + std::to_string(e) + ", " + std::to_string(s) + ")";
      break;
    }
    case 3: {
      const index_t b = pick(0, n - 1), e = pick(-1, b), s = -pick(1, 2);
      c.L = index_list::range(b, e, s);
      c.name = "range(" + std::to_string(b) + ", " + std::to_string(e) + ", " + std::to_string(s) + ")";
      break;
    }
    case 4: {
      std::vector<index_t> p(static_cast<std::size_t>(n));
      std::iota(p.begin(), p.end(), index_t(0));
      std::shuffle(p.begin(), p.end(), rng);
      p.resize(static_cast<std::size_t>(n ? pick(0, n) : 0));
      c.L = index_list(p);
      c.name = "list of " + std::to_string(p.size());
      break;
    }
    default: {
      std::vector<index_t> p(static_cast<std::size_t>(pick(1, 2 * n)));
      for (auto& i : p) i = pick(0, n - 1);
      c.L = index_list(p);
      c.name = "list with repeats of " + std::to_string(p.size());
    }
  }
  for (index_t k = 0, len = c.L.count(n); k < len; ++k) c.v.push_back(c.L[k]);
  return c;
}

// m stored in rows (which != 0) or tiles.
template <class T>
tgb::Matrix<T> stored(tgb::Matrix<T> m, int which) {
  m.set_storage(which ? tgb::storage_control::rows : tgb::storage_control::tiles);
  return m;
}
inline const char* form_name(int which) { return which ? "rows" : "tiles"; }

}  // namespace index_cases
