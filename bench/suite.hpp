// tgb-bench: the generated matrices of the benchmark suite (fixed seeds).
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "tgb/tgb.hpp"

namespace bench {

using tgb::index_t;

struct triplets {
  index_t n = 0;
  std::vector<index_t> r, c;
  std::vector<double> v;
  void add(index_t i, index_t j, double x) {
    r.push_back(i);
    c.push_back(j);
    v.push_back(x);
  }
  tgb::Matrix<double> build() const { return tgb::Matrix<double>::from_coo(n, n, r, c, v, tgb::first{}); }
};

// 2-D 5-point Laplacian on a g x g grid.
inline triplets laplacian_2d(index_t g) {
  triplets t;
  t.n = g * g;
  for (index_t y = 0; y < g; ++y)
    for (index_t x = 0; x < g; ++x) {
      const index_t i = y * g + x;
      t.add(i, i, 4.0);
      if (x > 0) t.add(i, i - 1, -1.0);
      if (x + 1 < g) t.add(i, i + 1, -1.0);
      if (y > 0) t.add(i, i - g, -1.0);
      if (y + 1 < g) t.add(i, i + g, -1.0);
    }
  return t;
}

// 3-D 27-point stencil on a g^3 grid.
inline triplets stencil_27(index_t g) {
  triplets t;
  t.n = g * g * g;
  for (index_t z = 0; z < g; ++z)
    for (index_t y = 0; y < g; ++y)
      for (index_t x = 0; x < g; ++x) {
        const index_t i = (z * g + y) * g + x;
        for (int dz = -1; dz <= 1; ++dz)
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
              const index_t X = x + dx, Y = y + dy, Z = z + dz;
              if (X < 0 || Y < 0 || Z < 0 || X >= g || Y >= g || Z >= g) continue;
              t.add(i, (Z * g + Y) * g + X, (dx || dy || dz) ? -1.0 : 26.0);
            }
      }
  return t;
}

// Dense b x b blocks on `diagonals` block diagonals (centred), n rows.
inline triplets banded_blocks(index_t n, int b, int diagonals) {
  triplets t;
  t.n = n;
  const index_t nb = n / b;
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  for (index_t I = 0; I < nb; ++I)
    for (int d = -diagonals / 2; d <= diagonals / 2; ++d) {
      const index_t J = I + d;
      if (J < 0 || J >= nb) continue;
      for (int i = 0; i < b; ++i)
        for (int j = 0; j < b; ++j) t.add(I * b + i, J * b + j, u(rng));
    }
  return t;
}

// R-MAT (a, b, c, d) with 2^scale vertices and edge_factor * 2^scale edges,
// symmetrized, duplicates dropped.
inline triplets rmat(int scale, int edge_factor, double a = 0.57, double b = 0.19, double c = 0.19) {
  triplets t;
  t.n = index_t(1) << scale;
  std::mt19937_64 rng(16);
  std::uniform_real_distribution<double> u(0, 1);
  const index_t m = index_t(edge_factor) << scale;
  for (index_t e = 0; e < m; ++e) {
    index_t i = 0, j = 0;
    for (int level = 0; level < scale; ++level) {
      const double p = u(rng);
      const int bi = p >= a + b ? 1 : 0;
      const int bj = (p >= a && p < a + b) || p >= a + b + c ? 1 : 0;
      i = (i << 1) | bi;
      j = (j << 1) | bj;
    }
    t.add(i, j, 1.0);
    t.add(j, i, 1.0);
  }
  return t;
}

// n rows with k uniformly random columns each.
inline triplets uniform_random(index_t n, int k) {
  triplets t;
  t.n = n;
  std::mt19937_64 rng(20);
  std::uniform_int_distribution<index_t> col(0, n - 1);
  for (index_t i = 0; i < n; ++i)
    for (int q = 0; q < k; ++q) t.add(i, col(rng), 1.0);
  return t;
}

}  // namespace bench
