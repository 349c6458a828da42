// Hypersparse rows under masks and accumulators (include/tgb/detail/host/
// hyper_ops.hpp, hyper_masked_writeback; mxm_hyper): element-wise
// operations, the union, apply, apply_index, select, transpose and mxm with every operand, mask and output in
// hypersparse rows must equal the same operations on tiles in every mask
// mode, with and without replace and an accumulator; and on a graph of 10^9
// vertices they must run in memory that follows the entries.
#include <memory_resource>
#include <random>
#include <string>
#include <vector>

#include "tgb/io/edge_list.hpp"

#include "../failing_resource.hpp"
#include "../oracle.hpp"
#include "../tgb_catch.hpp"

using namespace tgb;

namespace {

template <class T>
Matrix<T> as_tiles(Matrix<T> m) {
  m.set_storage(storage_control::tiles);
  return m;
}

// n x n with `entries` entries in a few hundred rows and columns (so the rule
// keeps it in hypersparse rows), values 1..7 (or, for a mask, 0..2).
template <class T>
Matrix<T> sparse(std::mt19937_64& rng, index_t n, int entries, int values) {
  std::vector<index_t> r, c;
  std::vector<T> v;
  for (int k = 0; k < entries; ++k) {
    r.push_back(index_t(rng() % 200) * 600 + index_t(rng() % 3));
    c.push_back(index_t(rng() % 200) * 600 + index_t(rng() % 3));
    v.push_back(T(values == 3 ? k % 3 : k % 7 + 1));
  }
  return Matrix<T>::from_coo(n, n, r, c, v, first{});
}

// op(C, mask, accum, desc) on C0's copy with hypersparse operands (hyper) and
// on tile copies of everything (tiles), in every mask mode, with replace and
// an accumulator or not: the same entries, and hypersparse rows out of the
// hypersparse run.
template <class Op>
void same_as_tiles(const Matrix<double>& C0, const Matrix<int>& M, const Op& op, const char* what) {
  REQUIRE(C0.form() == storage_form::hyper);
  REQUIRE(M.form() == storage_form::hyper);
  const Matrix<int> Mt = as_tiles(M);
  for (int mode = 0; mode < 5; ++mode)
    for (int flags = 0; flags < 4; ++flags) {
      descriptor d;
      d.replace = flags & 1;
      auto run = [&](bool tiles) {
        Matrix<double> C = tiles ? as_tiles(C0) : C0;
        oracle::with_mask_mode(mode, tiles ? Mt : M, [&](const auto& mk) {
          if (flags & 2) op(C, mk, plus{}, d, tiles);
          else op(C, mk, no_accum, d, tiles);
        });
        return C;
      };
      const Matrix<double> h = run(false), t = run(true);
      INFO(what << ": mask mode " << mode << ", replace " << (flags & 1) << ", accum " << (flags >> 1));
      CHECK(oracle::diff(oracle::to_map(h), oracle::to_map(t)) == "");
      CHECK(h.form() == storage_form::hyper);
    }
}

}  // namespace

TEST_CASE("hypersparse rows: masked and accumulated operations equal tiles' in every mask mode", "[storage][hyper]") {
  std::mt19937_64 rng(31);
  const index_t n = index_t(1) << 17;
  const Matrix<double> A = sparse<double>(rng, n, 700, 7), B = sparse<double>(rng, n, 700, 7);
  const Matrix<double> C0 = sparse<double>(rng, n, 500, 7);
  const Matrix<int> M = sparse<int>(rng, n, 900, 3);  // a third of its values 0
  REQUIRE(A.form() == storage_form::hyper);
  const Matrix<double> At = as_tiles(A), Bt = as_tiles(B);
  auto pick = [&](bool tiles, const Matrix<double>& h, const Matrix<double>& t) -> const Matrix<double>& {
    return tiles ? t : h;
  };
  same_as_tiles(C0, M, [&](Matrix<double>& C, const auto& mk, const auto& acc, descriptor d, bool t) {
    ewise_add(C, mk, acc, minus{}, pick(t, A, At), pick(t, B, Bt), d);
  }, "ewise_add");
  same_as_tiles(C0, M, [&](Matrix<double>& C, const auto& mk, const auto& acc, descriptor d, bool t) {
    ewise_add(C, mk, acc, minus{}, pick(t, A, At), pick(t, A, At), d.with_transpose_b());
  }, "ewise_add, B transposed");
  same_as_tiles(C0, M, [&](Matrix<double>& C, const auto& mk, const auto& acc, descriptor d, bool t) {
    ewise_mult(C, mk, acc, times{}, pick(t, A, At), pick(t, C0, as_tiles(C0)), d);
  }, "ewise_mult");
  same_as_tiles(C0, M, [&](Matrix<double>& C, const auto& mk, const auto& acc, descriptor d, bool t) {
    ewise_union(C, mk, acc, minus{}, pick(t, A, At), 10.0, pick(t, B, Bt), 20.0, d);
  }, "ewise_union");
  same_as_tiles(C0, M, [&](Matrix<double>& C, const auto& mk, const auto& acc, descriptor d, bool t) {
    ewise_union(C, mk, acc, minus{}, pick(t, A, At), 10.0, pick(t, B, Bt), 20.0, d.with_transpose_a());
  }, "ewise_union, A transposed");
  same_as_tiles(C0, M, [&](Matrix<double>& C, const auto& mk, const auto& acc, descriptor d, bool t) {
    apply(C, mk, acc, bind2nd(times{}, 3.0), pick(t, A, At), d);
  }, "apply");
  same_as_tiles(C0, M, [&](Matrix<double>& C, const auto& mk, const auto& acc, descriptor d, bool t) {
    apply(C, mk, acc, bind2nd(times{}, 3.0), pick(t, A, At), d.with_transpose_a());
  }, "apply, A transposed");
  same_as_tiles(C0, M, [&](Matrix<double>& C, const auto& mk, const auto& acc, descriptor d, bool t) {
    select(C, mk, acc, triu{}, pick(t, A, At), 1, d);
  }, "select triu");
  same_as_tiles(C0, M, [&](Matrix<double>& C, const auto& mk, const auto& acc, descriptor d, bool t) {
    apply_index(C, mk, acc, diagindex{}, pick(t, A, At), 2, d);
  }, "apply_index diagindex");
  same_as_tiles(C0, M, [&](Matrix<double>& C, const auto& mk, const auto& acc, descriptor d, bool t) {
    apply_index(C, mk, acc, rowindex{}, pick(t, A, At), -1, d.with_transpose_a());
  }, "apply_index rowindex, A transposed");
  same_as_tiles(C0, M, [&](Matrix<double>& C, const auto& mk, const auto& acc, descriptor d, bool t) {
    select(C, mk, acc, value_gt{}, pick(t, A, At), 3.0, d.with_transpose_a());
  }, "select value_gt, A transposed");
  same_as_tiles(C0, M, [&](Matrix<double>& C, const auto& mk, const auto& acc, descriptor d, bool t) {
    transpose(C, mk, acc, pick(t, A, At), d);
  }, "transpose");
  // mxm under the mask: the row saxpy over A's listed rows (A' made over
  // them), B or B' in hypersparse rows, two semirings.
  for (int t = 0; t < 4; ++t) {
    const bool ta = t & 1, tb = t & 2;
    const std::string what = std::string("mxm") + (ta ? ", A transposed" : "") + (tb ? ", B transposed" : "");
    same_as_tiles(C0, M, [&](Matrix<double>& C, const auto& mk, const auto& acc, descriptor d, bool tl) {
      if (ta) d = d.with_transpose_a();
      if (tb) d = d.with_transpose_b();
      mxm(C, mk, acc, plus_times, pick(tl, A, At), pick(tl, B, Bt), d);
    }, what.c_str());
    same_as_tiles(C0, M, [&](Matrix<double>& C, const auto& mk, const auto& acc, descriptor d, bool tl) {
      if (ta) d = d.with_transpose_a();
      if (tb) d = d.with_transpose_b();
      mxm(C, mk, acc, min_plus, pick(tl, A, At), pick(tl, A, At), d);
    }, (what + ", min_plus, A times A").c_str());
  }
  // C is its own mask and operand.
  for (int flags = 0; flags < 4; ++flags) {
    descriptor d;
    d.replace = flags & 1;
    Matrix<double> h = C0, t = as_tiles(C0);
    if (flags & 2) {
      ewise_add(h, structure(h), plus{}, plus{}, h, A, d);
      ewise_add(t, structure(t), plus{}, plus{}, t, At, d);
    } else {
      ewise_add(h, complement(h), no_accum, plus{}, h, B, d);
      ewise_add(t, complement(t), no_accum, plus{}, t, Bt, d);
    }
    INFO("C as mask and operand, flags " << flags);
    CHECK(oracle::diff(oracle::to_map(h), oracle::to_map(t)) == "");
  }
  // A mask of the wrong shape: an error, C unchanged.
  Matrix<double> C = C0;
  const Matrix<int> wrong(n, n + 1);
  REQUIRE_THROWS_AS(ewise_add(C, wrong, no_accum, plus{}, A, B), dimension_mismatch);
  CHECK(oracle::to_map(C) == oracle::to_map(C0));
}

TEST_CASE("hypersparse rows: masked operations on a 10^9-vertex graph in memory that follows its entries",
          "[storage][hyper][io]") {
  const index_t n = 1000000001;
  const oracle::host_budget budget(std::size_t(1) << 20);
  io::read_options ro;
  ro.max_memory = std::size_t(1) << 20;
  // Edges 0 -> 10^9, 10^9 -> 5, 3 -> 7, 7 -> 3 (weight 1).
  const auto G = io::parse_edge_list<double>("0 1000000000\n1000000000 5\n7 3\n3 7\n", "chain.txt", ro);
  REQUIRE(G.form() == storage_form::hyper);
  const descriptor tb = descriptor{}.with_transpose_b();
  // The symmetrized graph, only where G has edges: G .+ G' under G's structure.
  Matrix<double> S(n, n);
  ewise_add(S, structure(G), no_accum, plus{}, G, G, tb);
  CHECK(S.form() == storage_form::hyper);
  CHECK(oracle::to_map(S) == oracle::dmap<double>{{{0, 1000000000}, 1.0}, {{1000000000, 5}, 1.0},
                                                  {{3, 7}, 2.0}, {{7, 3}, 2.0}});
  // The reverse edges G' has and G has not: under G's complement, with replace.
  Matrix<double> R = S;
  ewise_add(R, complement(structure(G)), no_accum, plus{}, G, G, tb.with_replace());
  CHECK(R.form() == storage_form::hyper);
  CHECK(oracle::to_map(R) == oracle::dmap<double>{{{1000000000, 0}, 1.0}, {{5, 1000000000}, 1.0}});
  // Accumulated through a value mask: S + (G .+ G', 10 for G's missing
  // entries, 100 for G''s) at (3,7) and (5,10^9) only.
  Matrix<bool> some(n, n);
  some.set(3, 7, true);
  some.set(7, 3, false);  // a value mask: false admits nothing
  some.set(5, 1000000000, true);
  REQUIRE(some.form() == storage_form::hyper);
  ewise_union(S, some, plus{}, plus{}, G, 10.0, G, 100.0, tb);
  CHECK(S.form() == storage_form::hyper);
  CHECK(oracle::to_map(S) == oracle::dmap<double>{{{0, 1000000000}, 1.0}, {{1000000000, 5}, 1.0},
                                                  {{3, 7}, 4.0}, {{7, 3}, 2.0}, {{5, 1000000000}, 11.0}});
  // G' under G's structure: the 3-7 pair only; apply and select under masks.
  Matrix<double> T(n, n);
  transpose(T, structure(G), no_accum, G);
  CHECK(oracle::to_map(T) == oracle::dmap<double>{{{3, 7}, 1.0}, {{7, 3}, 1.0}});
  apply(T, complement(structure(T)), plus{}, bind2nd(plus{}, 4.0), G);
  CHECK(oracle::to_map(T) == oracle::dmap<double>{{{0, 1000000000}, 5.0}, {{1000000000, 5}, 5.0},
                                                  {{3, 7}, 1.0}, {{7, 3}, 1.0}});
  select(T, structure(G), plus{}, triu{}, G, 1, descriptor{}.with_replace());
  CHECK(oracle::to_map(T) == oracle::dmap<double>{{{0, 1000000000}, 6.0}, {{1000000000, 5}, 5.0},
                                                  {{3, 7}, 2.0}, {{7, 3}, 1.0}});
  CHECK(T.form() == storage_form::hyper);
  // Index-unary values over the listed rows: colindex + 1 everywhere, then
  // rowindex of G' added under G's structure (the 3-7 pair).
  Matrix<std::int64_t> X(n, n);
  apply_index(X, no_mask, no_accum, colindex{}, G, 1);
  CHECK(X.form() == storage_form::hyper);
  CHECK(oracle::to_map(X) == oracle::dmap<std::int64_t>{{{0, 1000000000}, 1000000001}, {{1000000000, 5}, 6},
                                                        {{3, 7}, 8}, {{7, 3}, 4}});
  apply_index(X, structure(G), plus{}, rowindex{}, G, 0, descriptor{}.with_transpose_a());
  CHECK(oracle::to_map(X) == oracle::dmap<std::int64_t>{{{0, 1000000000}, 1000000001}, {{1000000000, 5}, 6},
                                                        {{3, 7}, 11}, {{7, 3}, 11}});
  // Products under masks in hypersparse rows: G G has (0,5), (3,3), (7,7);
  // G G' and G' G only their diagonals.
  Matrix<bool> D(n, n);
  D.set(0, 5, true);
  D.set(3, 3, true);
  D.set(5, 5, true);
  Matrix<double> P(n, n);
  mxm(P, D, no_accum, plus_times, G, G);
  CHECK(P.form() == storage_form::hyper);
  CHECK(oracle::to_map(P) == oracle::dmap<double>{{{0, 5}, 1.0}, {{3, 3}, 1.0}});
  Matrix<double> Q = P;
  mxm(Q, complement(structure(G)), no_accum, plus_times, G, G, descriptor{}.with_replace());
  CHECK(oracle::to_map(Q) == oracle::dmap<double>{{{0, 5}, 1.0}, {{3, 3}, 1.0}, {{7, 7}, 1.0}});
  mxm(P, D, plus{}, plus_times, G, G, descriptor{}.with_transpose_a());
  CHECK(oracle::to_map(P) == oracle::dmap<double>{{{0, 5}, 1.0}, {{3, 3}, 2.0}, {{5, 5}, 1.0}});
  Matrix<double> W(n, n);
  mxm(W, D, no_accum, plus_times, G, G, tb);
  CHECK(oracle::to_map(W) == oracle::dmap<double>{{{3, 3}, 1.0}});
  CHECK(W.form() == storage_form::hyper);
  // Unmasked with a transpose: over the listed rows too.
  mxm(W, no_mask, no_accum, plus_times, G, G, tb);
  CHECK(oracle::to_map(W) ==
        oracle::dmap<double>{{{0, 0}, 1.0}, {{1000000000, 1000000000}, 1.0}, {{3, 3}, 1.0}, {{7, 7}, 1.0}});
  mxm(W, no_mask, plus{}, plus_times, G, G, descriptor{}.with_transpose_a());
  CHECK(oracle::to_map(W) == oracle::dmap<double>{{{0, 0}, 1.0}, {{1000000000, 1000000000}, 2.0}, {{3, 3}, 2.0},
                                                  {{7, 7}, 2.0}, {{5, 5}, 1.0}});
  CHECK(W.form() == storage_form::hyper);
}
