// tgb-bench: the GPU side (tgb CUDA and cuSPARSE), timed with CUDA events.
#pragma once

#include <string>
#include <vector>

#include "tgb/tgb.hpp"

namespace bench {

enum class op { plus_times_fp64, plus_times_fp32, min_plus_fp64, lor_land_bool, triangles, aat_fp64, msbfs_step };
const char* op_name(op o);

struct timing {
  bool ran = false;
  std::string note;            // why it did not run, or what happened
  std::vector<double> ms;      // one per timed repetition
  std::size_t peak_bytes = 0;  // device bytes allocated at the high-water mark
  long long nvals = 0;         // entries of the result
  // cudaMemGetInfo: device memory taken between before the call and its end
  // (result still held; a stream-ordered pool keeps what it reserved), max
  // over the runs. A cross-check of peak_bytes, not a substitute.
  long long meminfo_bytes = 0;
  // High-water mark of the device's default memory pool (cudaMemPoolAttrUsedMemHigh)
  // above what it held before the call, max over the runs: measured the same
  // way for tgb and cuSPARSE, since both allocate from that pool.
  std::size_t pool_peak_bytes = 0;
  // Stored bytes of the result C in tgb's tile layout (pattern + values of
  // C's own type); 0 where not known (cuSPARSE rows).
  std::size_t c_tile_bytes = 0;
};

// Bytes tgb stores a matrix in: its stored form's arrays (the two tile
// levels and the values, or the row form where the storage rule keeps rows),
// wherever it lives (Matrix::stored_bytes).
template <class T>
std::size_t stored_bytes(const tgb::Matrix<T>& M) {
  return static_cast<std::size_t>(M.stored_bytes());
}
// Stored bytes of the same matrix as 32-bit-index CSR:
// 4 * (nrows + 1) row pointers + nnz * (4 column index + value bytes);
// for fp64, 12 bytes per entry + 4 per row (+4).
inline std::size_t csr32_bytes(long long nrows, long long nnz, std::size_t value_bytes) {
  return 4 * std::size_t(nrows + 1) + std::size_t(nnz) * (4 + value_bytes);
}

// The pool policy, the same for tgb and cuSPARSE (both allocate with
// cudaMallocAsync from the device's default pool). keep = true sets the
// pool's release threshold to UINT64_MAX, so memory freed by one call stays
// mapped in the pool for the next one (what CuPy's memory pool does, and what
// a caller that multiplies in a loop sees); keep = false sets it to 0 (the
// CUDA default: everything free is unmapped at each synchronization, so every
// call pays for mapping its memory again). Returns a description.
std::string set_pool_policy(bool keep);
// Hands the pool's free memory back (after a device synchronization): called
// between operations, outside every timed region, so that each operation's
// warm-up starts from the same empty pool on both sides.
void trim_pool();

// The device's mxm method for every tgb row: "auto" (the rule), "tile" (the
// planner), "rows" (row saxpy where it can run), "dot"; returns false for
// another name.
bool set_gpu_method(const std::string& name);
// Device row saxpy's symbolic bins as one kernel below this many products (mxm_policy).
void set_gpu_fused_max(double products);
void set_gpu_warp_pair(double products);
void set_gpu_dense_tile(int entries);
// The planner's routing to its row path (mxm_policy::device_routing): tile
// rows with at most ratio products a tile pair; 0 or less: none.
void set_gpu_row_ratio(double ratio);

bool gpu_available();
std::string gpu_description();
// Copy bandwidth in GB/s (bytes read + written per second), for the bytes floor.
double gpu_copy_bandwidth();

// C = A*A (or the masked triangle product) with tgb on the GPU; `result`
// receives C on the host for checking.
timing tgb_cuda(op o, const tgb::Matrix<double>& A, const tgb::Matrix<bool>& L, int reps, tgb::csr<double>* result);
// One multi-source BFS step on the GPU, F2<!structure(V), replace> = F any_pair P.
timing tgb_cuda_msbfs_step(const tgb::Matrix<bool>& F, const tgb::Matrix<bool>& V, const tgb::Matrix<bool>& P,
                           int reps, tgb::csr<double>* result);
// CSR arrays already in device memory to a device tile matrix
// (Matrix::from_device_csr), timed alone; `check` says whether the result is
// the host conversion's `want`, array for array.
timing tgb_cuda_convert(const tgb::csr<double>& A, tgb::index_t n, const tgb::Matrix<double>& want, int reps,
                        std::string* check);
// The large option's product past 2^31 entries: C = A*A' for an n x n A
// whose first 16 columns are dense (n = 47,000: 2,209,000,000 entries, each
// 16). tgb's result is checked on the device (entry count, min and max);
// cuSPARSE is tried on the same input and its failure reported.
struct big_product {
  long long n = 0, nnz_a = 0, products = 0;
  timing tgb, cusparse;
  std::string check;
};
big_product past_2_31(int reps);
// C = A*A (or A*A') with cusparseSpGEMM (plus_times only); on
// CUSPARSE_STATUS_INSUFFICIENT_RESOURCES it retries with CUSPARSE_SPGEMM_ALG3
// and says so in the note.
timing cusparse(op o, const tgb::csr<double>& A, int reps, tgb::csr<double>* result);

// --spmv: w = A u (plus_times, fp64), tgb's device mxv against cuSPARSE
// SpMV. Both sides multiply the same dense u: every element stored, values
// that change from one index to the next, so that a product taken from the
// wrong column changes the sum.
inline double spmv_u(long long i) { return 1.0 + double(i % 7) * 0.25; }
// tgb on the GPU, A stored as rows (rows_form) or tiles; push: w = u' A by
// vxm (w of A.ncols(), u of A.nrows(); the caller passes A' to get A u),
// else w = A u by mxv (the pull over A's rows). A and u are on the device
// before the timed region, a fresh w each run; `y` receives w dense (0 where
// not stored). Failures come back as the note, ran = false.
timing tgb_cuda_mxv(const tgb::Matrix<double>& A, bool rows_form, bool push, int reps, std::vector<double>* y);
// cusparseSpMV on 32-bit CSR, y = A u, CUSPARSE_SPMV_ALG_DEFAULT or
// CUSPARSE_SPMV_CSR_ALG2; handle, buffer and preprocessing (CUDA 12.4+)
// outside the timed region. A's columns are taken as the larger of its row
// count and its largest column + 1 (csr does not carry them; y does not
// depend on empty trailing columns).
timing cusparse_spmv(const tgb::csr<double>& A, int reps, std::vector<double>* y, bool alg2);

// Time of work issued on tgb's current stream, by CUDA events, or of host
// work by the steady clock.
class stopwatch {
 public:
  explicit stopwatch(bool gpu);  // gpu: events on tgb's stream; else the steady clock
  ~stopwatch();
  stopwatch(const stopwatch&) = delete;
  stopwatch& operator=(const stopwatch&) = delete;
  void start();
  double stop_ms();  // waits for the work to finish

 private:
  void* a_ = nullptr;
  void* b_ = nullptr;
  double t0_ = 0;
};

}  // namespace bench
