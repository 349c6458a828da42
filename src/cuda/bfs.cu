// tgb CUDA backend: BFS push levels fused into one cooperative kernel.
//
// On a graph of high diameter (a road network: about a thousand levels of a
// hundred vertices each) a level of the GraphBLAS formulation costs a dozen
// launches and two read-backs, about 100 microseconds, for a few microseconds
// of work. This kernel runs the push levels themselves on the device, one
// grid-wide barrier a level: the frontier as a list, each vertex's row of A
// scanned, a vertex claimed by one atomic on a per-vertex word the first time
// it is reached (parent = the frontier vertex that claimed it, level = d),
// and the new frontier appended by an atomic count. It stops where the
// frontier empties or where Beamer's rule asks for the pull (the frontier's
// out-edges above the unexplored edges / alpha), with the same arithmetic as
// tgb::bfs, which then carries on with the vector operations.
#include <cooperative_groups.h>

#include <algorithm>

#include "tgb/detail/cuda/common.cuh"

namespace tgb::detail::cuda {

namespace {

struct fused_args {
  index_t n;
  const offset_t* rp;
  const std::int32_t* col;
  std::int64_t* q_val;
  std::uint8_t* q_pres;
  std::int64_t* par_val;
  std::uint8_t* par_pres;
  std::int64_t* lev_val;
  std::uint8_t* lev_pres;
  unsigned* claim;
  index_t* front[2];
  unsigned long long* count;  // [3]: frontier sizes, slot = level % 3
  unsigned long long* edges;  // [3]: their out-edges
  std::int64_t level0;        // the level the first expansion writes
  double alpha;
  bool automatic;
  long long unexplored;
  long long* out;  // levels run, last frontier's size and edges, unexplored, stopped for the pull
};

__global__ void k_bfs_push_fused(fused_args a) {
  namespace cg = cooperative_groups;
  cg::grid_group grid = cg::this_grid();
  const index_t tid = blockIdx.x * index_t(blockDim.x) + threadIdx.x;
  const index_t nthreads = index_t(gridDim.x) * blockDim.x;
  // The frontier as a list (q's stored positions), q emptied; the claims
  // from parent's stored positions.
  for (index_t i = tid; i < a.n; i += nthreads) {
    a.claim[i] = a.par_pres[i] ? 1u : 0u;
    if (a.q_pres[i]) {
      a.q_pres[i] = 0;
      const unsigned long long p = atomicAdd(&a.count[0], 1ull);
      a.front[0][p] = i;
    }
  }
  if (tid == 0) a.count[1] = a.count[2] = a.edges[1] = a.edges[2] = 0;
  grid.sync();
  long long unexplored = a.unexplored;
  long long levels = 0;
  bool pull = false;
  for (int L = 0;; ++L) {
    const int cur = L % 3, nxt = (L + 1) % 3;
    const index_t* f = a.front[L & 1];
    index_t* g = a.front[(L + 1) & 1];
    const index_t cn = static_cast<index_t>(a.count[cur]);
    const std::int64_t d = a.level0 + L;
    // One warp per frontier vertex, its lanes over the row.
    const index_t lane = threadIdx.x & 31, warp = tid >> 5, nwarps = nthreads >> 5;
    for (index_t w = warp; w < cn; w += nwarps) {
      const index_t k = f[w];
      for (offset_t e = a.rp[k] + lane; e < a.rp[k + 1]; e += 32) {
        const index_t j = a.col[e];
        if (a.claim[j] || atomicCAS(&a.claim[j], 0u, 1u) != 0u) continue;
        a.par_val[j] = k;
        a.par_pres[j] = 1;
        a.lev_val[j] = d;
        a.lev_pres[j] = 1;
        g[atomicAdd(&a.count[nxt], 1ull)] = j;
        atomicAdd(&a.edges[nxt], static_cast<unsigned long long>(a.rp[j + 1] - a.rp[j]));
      }
    }
    // The slot the level after next writes, cleared while nobody reads it.
    if (tid == 0) a.count[(L + 2) % 3] = a.edges[(L + 2) % 3] = 0;
    grid.sync();
    ++levels;
    // Every thread takes the same decision from the same counts.
    const long long c = static_cast<long long>(a.count[nxt]), fe = static_cast<long long>(a.edges[nxt]);
    if (c == 0) break;
    unexplored -= fe;
    if (a.automatic && static_cast<double>(fe) > static_cast<double>(unexplored) / a.alpha) {
      pull = true;
      break;
    }
  }
  // The last frontier back into q, as tgb::bfs holds it: q(j) = j.
  const int last = static_cast<int>(levels % 3);
  const index_t* f = a.front[levels & 1];
  const index_t cn = static_cast<index_t>(a.count[last]);
  for (index_t w = tid; w < cn; w += nthreads) {
    a.q_val[f[w]] = f[w];
    a.q_pres[f[w]] = 1;
  }
  if (tid == 0) {
    a.out[0] = levels;
    a.out[1] = static_cast<long long>(a.count[last]);
    a.out[2] = static_cast<long long>(a.edges[last]);
    a.out[3] = unexplored;
    a.out[4] = pull ? 1 : 0;
  }
}

}  // namespace

template <class T>
bool bfs_push_fused(const device_row_matrix<bool>& A, device_vector<T>& q, device_vector<T>& parent,
                    device_vector<T>& level, std::int64_t level0, double alpha, bool automatic, bfs_fused_state& st,
                    stream_t s) {
  static_assert(std::is_same_v<T, std::int64_t>, "the fused BFS writes int64 levels and parents");
  const index_t n = A.nrows;
  if (n == 0 || n > index_t(1) << 40) return false;
  int dev = 0, sms = 0, coop = 0, per_sm = 0;
  check(cudaGetDevice(&dev), "bfs");
  check(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev), "bfs");
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), "bfs");
  if (!coop) return false;
  constexpr int threads = 256;
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_bfs_push_fused, threads, 0), "bfs");
  if (per_sm < 1) return false;
  // Two blocks an SM: enough warps for a frontier of a few thousand, and a
  // grid barrier that stays cheap.
  const int blocks = sms * std::min(per_sm, 2);
  device_buffer<unsigned> claim(static_cast<std::size_t>(n), s);
  device_buffer<index_t> front0(static_cast<std::size_t>(n), s), front1(static_cast<std::size_t>(n), s);
  device_buffer<unsigned long long> counts(6, s);
  device_buffer<long long> out(5, s);
  device_zero(counts.data(), 6 * sizeof(unsigned long long), s);
  fused_args a{};
  a.n = n;
  a.rp = A.row_ptr.data();
  a.col = A.col.data();
  a.q_val = q.values.data();
  a.q_pres = q.present.data();
  a.par_val = parent.values.data();
  a.par_pres = parent.present.data();
  a.lev_val = level.values.data();
  a.lev_pres = level.present.data();
  a.claim = claim.data();
  a.front[0] = front0.data();
  a.front[1] = front1.data();
  a.count = counts.data();
  a.edges = counts.data() + 3;
  a.level0 = level0;
  a.alpha = alpha;
  a.automatic = automatic;
  a.unexplored = st.unexplored;
  a.out = out.data();
  void* args[] = {&a};
  check(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(k_bfs_push_fused), dim3(blocks), dim3(threads), args, 0,
                                    native(s)),
        "bfs (fused push levels)");
  q.nvals = -1;
  parent.nvals = -1;
  level.nvals = -1;
  const auto r = out.to_host();  // waits for the kernel
  st.levels = r[0];
  st.frontier = r[1];
  st.frontier_edges = r[2];
  st.unexplored = r[3];
  st.stopped_for_pull = r[4] != 0;
  q.nvals = r[1];
  return true;
}

template bool bfs_push_fused(const device_row_matrix<bool>&, device_vector<std::int64_t>&,
                             device_vector<std::int64_t>&, device_vector<std::int64_t>&, std::int64_t, double, bool,
                             bfs_fused_state&, stream_t);

}  // namespace tgb::detail::cuda
