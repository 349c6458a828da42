// Device operations against the host backend: one operation run on copies of
// C0 on both, in a mask mode, with or without replace and an accumulator,
// the results compared exactly (shared by the device operation tests).
#pragma once

#include <random>

#include "../oracle.hpp"
#include "../tgb_catch.hpp"

namespace device_test {

// Runs op(C, mask, accum, desc, where) on copies of C0 on both backends, with
// the mask M in mode `mask` (oracle::with_mask_mode), and compares the
// results exactly.
template <class TC, class Op>
void one(const tgb::Matrix<TC>& C0, const tgb::Matrix<int>& M, const Op& op, const char* what, int mask,
         bool replace, bool accum) {
  using namespace tgb;
  descriptor d;
  d.replace = replace;
  auto run = [&](backend where) {
    Matrix<TC> C = oracle::on(C0, where);
    const Matrix<int> m = oracle::on(M, where);
    oracle::with_mask_mode(mask, m, [&](const auto& mk) {
      if (accum) op(C, mk, plus{}, d, where);
      else op(C, mk, no_accum, d, where);
    });
    REQUIRE(C.location() == where);
    return oracle::on(C, backend::host);
  };
  const Matrix<TC> h = run(backend::host), g = run(backend::cuda);
  INFO(what << ": mask " << mask << " replace " << replace << " accum " << accum << " shape " << C0.nrows() << " x "
            << C0.ncols());
  REQUIRE(g.nvals() == h.nvals());
  REQUIRE(oracle::diff(oracle::to_map(g), oracle::to_map(h)) == "");
}

// `one` in every mask mode, with and without replace and an accumulator. The
// mask is C0's shape unless mask_rows and mask_cols are given (subassign's
// covers C(I,J)).
template <class TC, class Op>
void both(std::mt19937_64& rng, const tgb::Matrix<TC>& C0, const Op& op, const char* what,
          tgb::index_t mask_rows = -1, tgb::index_t mask_cols = -1) {
  const auto M = oracle::random_matrix<int>(rng, mask_rows < 0 ? C0.nrows() : mask_rows,
                                            mask_cols < 0 ? C0.ncols() : mask_cols, 0.5);
  for (int mask = 0; mask < 5; ++mask)
    for (int flags = 0; flags < 4; ++flags) one(C0, M, op, what, mask, flags & 1, flags & 2);
}

}  // namespace device_test
