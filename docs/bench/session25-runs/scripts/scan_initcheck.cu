// Does compute-sanitizer's initcheck report cub::DeviceScan::ExclusiveSum
// reading memory no one wrote, when its input is written whole first, and
// which buffer do the reported addresses fall in? A diagnostic for the one
// initcheck report of the twenty-fourth session (r115): four host threads,
// each on its own stream, scan long arrays while a fifth keeps the GPU busy
// with spinning blocks, so that a scan's blocks start out of order. Every
// array comes from the default stream-ordered pool and each temp storage from
// a pool of its own (fresh, so unwritten, at each call), every address printed
// once as "buf KIND ADDRESS BYTES"; classify.py maps the log's addresses onto them.
//   scan_initcheck [plain|zero-temp|no-reuse] [SECONDS]   (zero-temp: memset the temp
//   storage first; no-reuse: the pools never hand a block to another stream early)
#include <cub/device/device_scan.cuh>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#define CHECK(x)                                                                              \
  do {                                                                                        \
    cudaError_t e_ = (x);                                                                     \
    if (e_ != cudaSuccess) {                                                                  \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(2);                                                                           \
    }                                                                                         \
  } while (0)

__global__ void fill(long n, long* a) {
  for (long i = blockIdx.x * long(blockDim.x) + threadIdx.x; i < n; i += long(gridDim.x) * blockDim.x) a[i] = i & 1;
}
__global__ void spin(long long cycles) {
  const long long t0 = clock64();
  while (clock64() - t0 < cycles) {
  }
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "plain";
  const bool zero_temp = std::strcmp(mode, "zero-temp") == 0;
  const bool no_reuse = std::strcmp(mode, "no-reuse") == 0;
  const double seconds = argc > 2 ? std::atof(argv[2]) : 10.0;
  const int threads = 4;
  const long sizes[] = {3001, 9001, 40001, 200001};
  std::mutex print;
  std::set<std::pair<void*, std::string>> seen;
  std::atomic<bool> done{false};
  std::atomic<long> scans{0}, bad{0};
  // Temp storage from a pool of its own: its addresses never meet the arrays'.
  cudaMemPool_t temp_pool;
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  CHECK(cudaMemPoolCreate(&temp_pool, &props));
  if (no_reuse) {
    // A block freed on one stream is handed to another only once the free has
    // run on the GPU and the other stream waits for it (no reuse before that).
    cudaMemPool_t def;
    CHECK(cudaDeviceGetDefaultMemPool(&def, 0));
    int off = 0;
    for (cudaMemPool_t p : {def, temp_pool}) {
      CHECK(cudaMemPoolSetAttribute(p, cudaMemPoolReuseAllowInternalDependencies, &off));
      CHECK(cudaMemPoolSetAttribute(p, cudaMemPoolReuseAllowOpportunistic, &off));
    }
  }
  auto note = [&](const char* kind, void* p, size_t bytes) {
    std::lock_guard<std::mutex> g(print);
    if (seen.insert({p, kind}).second) std::printf("buf %s %p %zu\n", kind, p, bytes);
  };
  std::thread hog([&] {
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    while (!done) {
      spin<<<132 * 6, 128, 0, s>>>(20000);
      CHECK(cudaStreamSynchronize(s));
    }
    CHECK(cudaStreamDestroy(s));
  });
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&, t] {
      cudaStream_t s;
      CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      long* last = nullptr;
      CHECK(cudaMallocHost(&last, sizeof(long)));
      for (int r = 0; std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < seconds; ++r) {
        const long n = sizes[(r + t) % 4];
        long *in = nullptr, *out = nullptr;
        void* temp = nullptr;
        size_t bytes = 0;
        CHECK(cudaMallocAsync(&in, n * sizeof(long), s));
        CHECK(cudaMallocAsync(&out, n * sizeof(long), s));
        CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, n, s));
        CHECK(cudaMallocFromPoolAsync(&temp, bytes, temp_pool, s));
        note("input", in, n * 8);
        note("output", out, n * 8);
        note("temp", temp, bytes);
        if (zero_temp) CHECK(cudaMemsetAsync(temp, 0, bytes, s));
        fill<<<(n + 255) / 256, 256, 0, s>>>(n, in);
        CHECK(cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n, s));
        CHECK(cudaMemcpyAsync(last, out + n - 1, sizeof(long), cudaMemcpyDeviceToHost, s));
        CHECK(cudaFreeAsync(temp, s));
        CHECK(cudaFreeAsync(in, s));
        CHECK(cudaFreeAsync(out, s));
        CHECK(cudaStreamSynchronize(s));
        ++scans;
        if (*last != (n - 1) / 2) ++bad;
      }
      CHECK(cudaFreeHost(last));
      CHECK(cudaStreamDestroy(s));
    });
  for (auto& w : workers) w.join();
  done = true;
  hog.join();
  std::printf("scans %ld wrong %ld mode %s\n", scans.load(), bad.load(), mode);
  return bad ? 1 : 0;
}
