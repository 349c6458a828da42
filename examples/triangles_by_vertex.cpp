// Local clustering coefficients of a graph: how many of a vertex's neighbour
// pairs are themselves connected. The per-vertex triangle counts are the row
// sums of C<S> = S plus_pair S over the undirected pattern S; the total is
// tgb::triangle_count. Runs on the GPU when there is one.
//
//   tgb-example-triangles_by_vertex GRAPH [TOP]
#include <tgb/tgb.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s GRAPH [TOP]\n", argv[0]);
    return 1;
  }
  const int top = argc > 2 ? std::atoi(argv[2]) : 5;
  try {
    tgb::Matrix<bool> A = tgb::io::read_graph<bool>(argv[1], tgb::io::duplicates::keep_first);
    A.to(tgb::preferred_backend());
    const tgb::Matrix<bool> S = tgb::undirected_pattern(A);
    const tgb::index_t n = S.nrows();

    // tri(i) = (1/2) sum_j C(i, j) with C<S> = S plus_pair S; deg(i) = row count of S.
    tgb::Matrix<std::int64_t> C(n, n), ones(n, n);
    C.to(S.location());
    ones.to(S.location());
    tgb::mxm(C, tgb::structure(S), tgb::no_accum, tgb::plus_pair, S, S);
    tgb::apply(ones, tgb::no_mask, tgb::no_accum, tgb::one{}, S);
    tgb::Vector<std::int64_t> tri(n), deg(n);
    tgb::reduce(tri, tgb::no_mask, tgb::no_accum, tgb::plus_monoid{}, C);
    tgb::reduce(deg, tgb::no_mask, tgb::no_accum, tgb::plus_monoid{}, ones);

    std::vector<std::pair<double, tgb::index_t>> cc;
    std::int64_t total = 0;
    for (tgb::index_t i = 0; i < n; ++i) {
      const std::int64_t t = tri.get(i).value_or(0) / 2, d = deg.get(i).value_or(0);
      total += t;
      if (d >= 2) cc.push_back({double(t) / (double(d) * double(d - 1) / 2), i});
    }
    std::sort(cc.begin(), cc.end(), [](auto a, auto b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
    std::printf("%s: %lld vertices, %lld edges, %lld triangles (tgb::triangle_count says %lld), on %s\n", argv[1],
                static_cast<long long>(n), static_cast<long long>(S.nvals() / 2), static_cast<long long>(total / 3),
                static_cast<long long>(tgb::triangle_count(A)), tgb::backend_name(S.location()));
    double mean = 0;
    for (const auto& c : cc) mean += c.first;
    std::printf("mean local clustering coefficient over %zu vertices of degree >= 2: %.4f\n", cc.size(),
                cc.empty() ? 0.0 : mean / double(cc.size()));
    for (int k = 0; k < top && k < static_cast<int>(cc.size()); ++k)
      std::printf("  vertex %lld: %.4f\n", static_cast<long long>(cc[static_cast<std::size_t>(k)].second),
                  cc[static_cast<std::size_t>(k)].first);
    return total % 3 == 0 && total / 3 == tgb::triangle_count(A) ? 0 : 3;
  } catch (const tgb::error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}
