// Device operations against the host backend: one operation run on copies of
// C0 on both, in a mask mode, with or without replace and an accumulator,
// the results compared exactly (shared by the device operation tests); the
// same for vector outputs and for matrix outputs under a vector mask.
#pragma once

#include <random>
#include <string>

#include "../oracle.hpp"
#include "../tgb_catch.hpp"
#include "../vector_oracle.hpp"

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

// ---- vector outputs ----------------------------------------------------------
// A copy of v moved to `where`.
template <class T>
tgb::Vector<T> von(tgb::Vector<T> v, tgb::backend where) {
  v.to(where);
  return v;
}

// The five mask modes of a vector mask wherever it lives.
template <class U, class F>
void with_mode(int mode, const tgb::Vector<U>& M, F&& f) {
  vector_oracle::in_mask_mode(mode, M, f);
}

// "" where got equals want, else the first difference.
template <class T>
std::string vdiff(const vector_oracle::vmap<T>& got, const vector_oracle::vmap<T>& want) {
  if (got.size() != want.size())
    return "sizes " + std::to_string(got.size()) + " and " + std::to_string(want.size()) + ": got " +
           vector_oracle::show(got) + " want " + vector_oracle::show(want);
  for (const auto& [i, x] : want) {
    auto it = got.find(i);
    if (it == got.end()) return "missing " + std::to_string(i);
    if (!(it->second == x)) return "at " + std::to_string(i) + ": " + std::to_string(+it->second) + " vs " +
                                   std::to_string(+x);
  }
  return "";
}

// Runs op(w, mask, accum, desc, where) on copies of w0 on both backends over
// every mask mode, replace and accumulator, and compares exactly.
template <class TW, class Op>
void both_vec(std::mt19937_64& rng, const tgb::Vector<TW>& w0, const Op& op, const char* what) {
  using namespace tgb;
  const auto M = vector_oracle::random_vector<int>(rng, w0.size(), 0.5);
  for (int mode = 0; mode < 5; ++mode)
    for (int flags = 0; flags < 4; ++flags) {
      descriptor d;
      d.replace = flags & 1;
      auto run = [&](backend where) {
        Vector<TW> w = von(w0, where);
        const Vector<int> mm = von(M, where);
        with_mode(mode, mm, [&](const auto& mk) {
          if (flags & 2) op(w, mk, plus{}, d, where);
          else op(w, mk, no_accum, d, where);
        });
        REQUIRE(w.location() == where);
        const index_t nv = w.nvals();
        w.to(backend::host);
        REQUIRE(nv == w.nvals());
        return vector_oracle::to_vmap(w);
      };
      const auto h = run(backend::host), g = run(backend::cuda);
      INFO(what << ": size " << w0.size() << ", mask " << vector_oracle::mask_name(mode) << ", replace "
                << (flags & 1) << ", accum " << (flags >> 1));
      REQUIRE(vdiff(g, h) == "");
    }
}

// ---- matrix outputs under a vector mask ----------------------------------------
// `one` and `both` for the line forms (assign_row and its kin), whose mask is
// a Vector of mask_len entries: op(C, mask, accum, desc, where) on copies of
// C0 on both backends in every mask mode, with and without replace and an
// accumulator, compared exactly.
template <class TC, class Op>
void both_line(std::mt19937_64& rng, const tgb::Matrix<TC>& C0, tgb::index_t mask_len, const Op& op,
               const char* what) {
  using namespace tgb;
  const auto M = vector_oracle::random_vector<int>(rng, mask_len, 0.5);
  for (int mode = 0; mode < 5; ++mode)
    for (int flags = 0; flags < 4; ++flags) {
      descriptor d;
      d.replace = flags & 1;
      auto run = [&](backend where) {
        Matrix<TC> C = oracle::on(C0, where);
        const Vector<int> mm = von(M, where);
        with_mode(mode, mm, [&](const auto& mk) {
          if (flags & 2) op(C, mk, plus{}, d, where);
          else op(C, mk, no_accum, d, where);
        });
        REQUIRE(C.location() == where);
        return oracle::on(C, backend::host);
      };
      const Matrix<TC> h = run(backend::host), g = run(backend::cuda);
      INFO(what << ": mask " << vector_oracle::mask_name(mode) << ", replace " << (flags & 1) << ", accum "
                << (flags >> 1) << ", C " << C0.nrows() << " x " << C0.ncols());
      REQUIRE(g.nvals() == h.nvals());
      REQUIRE(oracle::diff(oracle::to_map(g), oracle::to_map(h)) == "");
    }
}

}  // namespace device_test
