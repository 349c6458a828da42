// Communities in an interaction log: the program builds a weighted graph
// from (user, user, count) records held in memory, as a service would after
// aggregating its events, clusters it with Markov clustering and reports each
// community with its internal share of the interaction weight.
//
//   tgb-example-communities [INFLATION]
#include <tgb/tgb.hpp>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

int main(int argc, char** argv) {
  const double inflation = argc > 1 ? std::atof(argv[1]) : 2.0;
  try {
    // 6 teams of 15 people; most messages stay inside a team.
    const tgb::index_t teams = 6, size = 15, n = teams * size;
    std::mt19937_64 rng(2026);
    std::uniform_int_distribution<tgb::index_t> person(0, n - 1), mate(0, size - 1);
    std::vector<tgb::index_t> from, to;
    std::vector<double> count;
    for (int msg = 0; msg < 4000; ++msg) {
      const tgb::index_t a = person(rng);
      const tgb::index_t b = msg % 10 == 0 ? person(rng) : (a / size) * size + mate(rng);
      if (a == b) continue;
      from.push_back(a), to.push_back(b), count.push_back(1.0);
      from.push_back(b), to.push_back(a), count.push_back(1.0);  // interactions are mutual
    }
    // Repeated pairs add up: the weight of an edge is its number of messages.
    tgb::Matrix<double> W = tgb::Matrix<double>::from_coo(n, n, from, to, count, tgb::plus{});
    W.to(tgb::preferred_backend());

    tgb::mcl_params p;
    p.inflation = inflation;
    const tgb::mcl_result r = tgb::markov_clustering(W, p);
    std::printf("%lld people, %lld weighted edges, MCL (inflation %.1f) on %s: %zu communities in %d iterations\n",
                static_cast<long long>(n), static_cast<long long>(W.nvals()), inflation, tgb::backend_name(W.location()),
                r.clusters.size(), r.iterations);

    W.to(tgb::backend::host);
    const tgb::coo<double> e = W.to_coo();
    std::vector<double> inside(r.clusters.size(), 0), touching(r.clusters.size(), 0);
    for (std::size_t k = 0; k < e.values.size(); ++k) {
      const auto ci = r.cluster_of[static_cast<std::size_t>(e.rows[k])];
      const auto cj = r.cluster_of[static_cast<std::size_t>(e.cols[k])];
      touching[static_cast<std::size_t>(ci)] += e.values[k];
      if (ci == cj) inside[static_cast<std::size_t>(ci)] += e.values[k];
    }
    int pure = 0;
    for (std::size_t c = 0; c < r.clusters.size(); ++c) {
      const auto& members = r.clusters[c];
      bool one_team = true;
      for (tgb::index_t v : members) one_team = one_team && v / size == members.front() / size;
      pure += one_team;
      std::printf("  community %zu: %zu people (team %lld%s), %.0f%% of their messages stay inside\n", c,
                  members.size(), static_cast<long long>(members.front() / size), one_team ? "" : " and others",
                  100.0 * inside[c] / touching[c]);
    }
    return pure == static_cast<int>(r.clusters.size()) ? 0 : 3;
  } catch (const tgb::error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}
