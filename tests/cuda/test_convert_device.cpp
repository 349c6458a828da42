// Building matrices from COO/CSR arrays already in device memory, and
// exporting them back to device arrays: the tile layout the GPU builds must be
// the host's, array for array (sizes 0 to 300, 32- and 64-bit and unsigned
// indices, unsorted rows, duplicates under each policy, hypersparse and full
// tiles), and bad input must throw the host's errors.
#include <cuda_runtime.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <random>
#include <vector>

#include "../oracle.hpp"
#include "../tgb_catch.hpp"

using namespace tgb;

namespace {

// A device copy of a host vector (freed at scope exit). Staged through a
// plain array so that std::vector<bool> works too.
template <class T>
struct dvec {
  T* p = nullptr;
  std::size_t n = 0;
  explicit dvec(const std::vector<T>& h) : n(h.size()) {
    REQUIRE(cudaMalloc(&p, std::max<std::size_t>(n, 1) * sizeof(T)) == cudaSuccess);
    std::unique_ptr<T[]> stage(new T[std::max<std::size_t>(n, 1)]);
    std::copy(h.begin(), h.end(), stage.get());
    if (n) REQUIRE(cudaMemcpy(p, stage.get(), n * sizeof(T), cudaMemcpyHostToDevice) == cudaSuccess);
  }
  explicit dvec(std::size_t count) : dvec(std::vector<T>(count, T{})) {}
  ~dvec() { cudaFree(p); }
  dvec(const dvec&) = delete;
  dvec& operator=(const dvec&) = delete;
  std::vector<T> host() const {
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    std::unique_ptr<T[]> stage(new T[std::max<std::size_t>(n, 1)]);
    if (n) REQUIRE(cudaMemcpy(stage.get(), p, n * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
    return std::vector<T>(stage.get(), stage.get() + n);
  }
};

template <class B>
std::vector<typename std::decay_t<decltype(*std::declval<B>().data())>> vec(const B& b) {
  using V = typename std::decay_t<decltype(*std::declval<B>().data())>;
  return std::vector<V>(b.data(), b.data() + b.size());
}

// The device-built matrix must be the host-built one, array for array.
template <class T>
void same_layout(Matrix<T> got, const Matrix<T>& want) {
  REQUIRE(got.location() == backend::cuda);
  got.to(backend::host);
  const auto& g = got.tiles();
  const auto& w = want.tiles();
  REQUIRE(got.nrows() == want.nrows());
  REQUIRE(got.ncols() == want.ncols());
  REQUIRE(vec(g.pat.tile_ptr) == vec(w.pat.tile_ptr));
  REQUIRE(vec(g.pat.tile_col) == vec(w.pat.tile_col));
  REQUIRE(vec(g.pat.tile_offset) == vec(w.pat.tile_offset));
  REQUIRE(vec(g.pat.row_ptr) == vec(w.pat.row_ptr));
  REQUIRE(vec(g.pat.row_mask) == vec(w.pat.row_mask));
  REQUIRE(vec(g.pat.col_idx) == vec(w.pat.col_idx));
  REQUIRE(vec(g.values) == vec(w.values));
}

template <class I, class T>
void coo_round(std::mt19937_64& rng, index_t m, index_t n, double density) {
  const Matrix<T> ref = oracle::random_matrix<T>(rng, m, n, density);
  coo<T> c = ref.to_coo();
  // Shuffled, as graph code hands edges over.
  std::vector<std::size_t> perm(c.rows.size());
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  std::vector<I> r(perm.size()), cc(perm.size());
  std::vector<T> v(perm.size());
  for (std::size_t k = 0; k < perm.size(); ++k) {
    r[k] = static_cast<I>(c.rows[perm[k]]);
    cc[k] = static_cast<I>(c.cols[perm[k]]);
    v[k] = c.values[perm[k]];
  }
  const dvec<I> dr(r), dc(cc);
  const dvec<T> dv(v);
  INFO(m << " x " << n << " density " << density << ", index bytes " << sizeof(I));
  same_layout(Matrix<T>::from_device_coo(m, n, dr.p, dc.p, dv.p, offset_t(v.size())), ref);

  // Export both ways and compare with the host's arrays.
  Matrix<T> D = ref;
  D.to(backend::cuda);
  const csr<T> h = ref.to_csr();
  dvec<I> rp(std::size_t(m) + 1), ci(h.colidx.size()), ri(h.colidx.size());
  dvec<T> vv(h.colidx.size());
  D.to_device_csr(rp.p, ci.p, vv.p);
  std::vector<I> want_rp(h.rowptr.begin(), h.rowptr.end()), want_ci(h.colidx.begin(), h.colidx.end());
  REQUIRE(rp.host() == want_rp);
  REQUIRE(ci.host() == want_ci);
  REQUIRE(vv.host() == h.values);
  D.to_device_coo(ri.p, ci.p, static_cast<T*>(nullptr));
  std::vector<I> want_ri(c.rows.begin(), c.rows.end());
  REQUIRE(ri.host() == want_ri);
  REQUIRE(ci.host() == want_ci);
}

template <class P, class I, class T>
void csr_round(std::mt19937_64& rng, index_t m, index_t n, double density) {
  const Matrix<T> ref = oracle::random_matrix<T>(rng, m, n, density);
  csr<T> c = ref.to_csr();
  // Rows in random order within each row.
  for (index_t i = 0; i < m; ++i) {
    std::vector<std::pair<index_t, T>> row;
    for (offset_t p = c.rowptr[i]; p < c.rowptr[i + 1]; ++p) row.emplace_back(c.colidx[p], c.values[p]);
    std::shuffle(row.begin(), row.end(), rng);
    for (std::size_t k = 0; k < row.size(); ++k) {
      c.colidx[c.rowptr[i] + k] = row[k].first;
      c.values[c.rowptr[i] + k] = row[k].second;
    }
  }
  const dvec<P> rp(std::vector<P>(c.rowptr.begin(), c.rowptr.end()));
  const dvec<I> ci(std::vector<I>(c.colidx.begin(), c.colidx.end()));
  const dvec<T> v(c.values);
  INFO(m << " x " << n << " density " << density << ", CSR");
  same_layout(Matrix<T>::from_device_csr(m, n, rp.p, ci.p, v.p, offset_t(c.values.size())), ref);
}

template <class E, class F>
void throws_with(F&& f, const std::string& fragment) {
  try {
    f();
    FAIL("no exception; expected one saying: " << fragment);
  } catch (const E& e) {
    INFO(e.what());
    REQUIRE(std::string(e.what()).find(fragment) != std::string::npos);
  }
}

}  // namespace

TEST_CASE("device COO and CSR arrays build the host's tile layout", "[cuda][convert]") {
  std::mt19937_64 rng(2026);
  for (index_t m : {0, 1, 15, 16, 17, 33, 300})
    for (index_t n : {1, 16, 17, 300})
      for (double density : {0.01, 0.3, 1.0}) {
        coo_round<std::int64_t, double>(rng, m, n, density);
        coo_round<std::int32_t, float>(rng, m, n, density);
        coo_round<std::uint32_t, std::int64_t>(rng, m, n, density);
        coo_round<std::uint64_t, bool>(rng, m, n, density);
        csr_round<std::int64_t, std::int64_t, double>(rng, m, n, density);
        csr_round<std::int32_t, std::int32_t, std::int32_t>(rng, m, n, density);
      }
}

TEST_CASE("device conversion of a large hypersparse matrix", "[cuda][convert]") {
  std::mt19937_64 rng(7);
  const index_t n = index_t(1) << 18;
  coo_round<std::int32_t, double>(rng, n, n, 8.0 / double(n));
  csr_round<std::int64_t, std::int32_t, double>(rng, n, n, 8.0 / double(n));
}

TEST_CASE("hypersparse rows move to the device as tiles, and come back by the rule", "[cuda][convert][hyper][sanitize]") {
  const index_t n = index_t(1) << 17;
  std::vector<index_t> r, c;
  std::vector<double> v;
  for (int k = 0; k < 400; ++k) {
    r.push_back(index_t(k % 97) * 1021 + 5);
    c.push_back(index_t(k) * 7919 % 131071);
    v.push_back(double(k % 5 + 1));
  }
  const auto A = Matrix<double>::from_coo(n, n, r, c, v, plus{});
  REQUIRE(A.form() == storage_form::hyper);
  const auto dA = oracle::on_device(A);
  CHECK(dA.form() == storage_form::tiles);
  CHECK(dA.nvals() == A.nvals());
  Matrix<double> host(n, n);
  Matrix<double> dev = oracle::on_device(Matrix<double>(n, n));
  mxm(host, no_mask, no_accum, plus_times, A, A, descriptor{}.with_transpose_b());
  mxm(dev, no_mask, no_accum, plus_times, dA, dA, descriptor{}.with_transpose_b());
  REQUIRE(host.nvals() > 0);
  const auto back = oracle::on_host(dev);
  CHECK(back.form() == storage_form::hyper);
  CHECK(oracle::diff(oracle::to_map(back), oracle::to_map(host), 1e-12) == "");
  // The owner's control: hypersparse rows mean tiles on the device.
  Matrix<double> H = A;
  H.set_storage(storage_control::hyper);
  H.to(backend::cuda);
  CHECK(H.form() == storage_form::tiles);
  H.clear();
  CHECK(H.location() == backend::cuda);
  CHECK(H.nvals() == 0);
  H.to(backend::host);
  CHECK(H.form() == storage_form::hyper);
}

TEST_CASE("device COO duplicates fold in input order as the host's do", "[cuda][convert]") {
  std::mt19937_64 rng(11);
  for (index_t m : {1, 17, 200}) {
    std::uniform_int_distribution<index_t> ri(0, m - 1), ci(0, 40);
    std::vector<std::int64_t> r, c;
    std::vector<double> v;
    for (int k = 0; k < 6 * m; ++k) {
      r.push_back(ri(rng));
      c.push_back(ci(rng));
      v.push_back(oracle::random_value<double>(rng, false) / 7.0);
    }
    // At least one duplicate, whatever the draw.
    r.push_back(r[0]);
    c.push_back(c[0]);
    v.push_back(0.5);
    const dvec<std::int64_t> dr(r), dc(c);
    const dvec<double> dv(v);
    const offset_t n = offset_t(v.size());
    same_layout(Matrix<double>::from_device_coo(m, 41, dr.p, dc.p, dv.p, n, plus{}),
                Matrix<double>::from_coo(m, 41, r, c, v, plus{}));
    same_layout(Matrix<double>::from_device_coo(m, 41, dr.p, dc.p, dv.p, n, first{}),
                Matrix<double>::from_coo(m, 41, r, c, v, first{}));
    same_layout(Matrix<double>::from_device_coo(m, 41, dr.p, dc.p, dv.p, n, second{}),
                Matrix<double>::from_coo(m, 41, r, c, v, second{}));
    same_layout(Matrix<double>::from_device_coo(m, 41, dr.p, dc.p, dv.p, n, min{}),
                Matrix<double>::from_coo(m, 41, r, c, v, min{}));
    throws_with<invalid_value>([&] { Matrix<double>::from_device_coo(m, 41, dr.p, dc.p, dv.p, n); },
                               "duplicate entry");
  }
}

TEST_CASE("device arrays: bad input throws the host's errors", "[cuda][convert][errors][sanitize]") {
  const std::vector<std::int64_t> r = {0, 2, 1}, c = {1, 0, 5};
  const std::vector<double> v = {1, 2, 3};
  const dvec<std::int64_t> dr(r), dc(c);
  const dvec<double> dv(v);
  // Column 5 in a 3 x 5 matrix; row 2 in a 2 x 6 one; negative indices.
  throws_with<index_out_of_bounds>([&] { Matrix<double>::from_device_coo(3, 5, dr.p, dc.p, dv.p, 3); },
                                   "column index 5 at position 2");
  throws_with<index_out_of_bounds>([&] { Matrix<double>::from_device_coo(2, 6, dr.p, dc.p, dv.p, 3); },
                                   "row index 2 at position 1");
  const dvec<std::int32_t> neg(std::vector<std::int32_t>{0, -4, 1});
  throws_with<index_out_of_bounds>([&] { Matrix<double>::from_device_coo(3, 6, neg.p, neg.p, dv.p, 3); },
                                   "index -4");
  // Row pointers that do not start at 0, decrease, or miss nnz.
  const dvec<std::int64_t> cols(std::vector<std::int64_t>{0, 1, 2});
  for (const std::vector<std::int64_t>& bad :
       {std::vector<std::int64_t>{1, 1, 3}, std::vector<std::int64_t>{0, 2, 1}, std::vector<std::int64_t>{0, 1, 2}}) {
    const dvec<std::int64_t> rp(bad);
    throws_with<invalid_value>([&] { Matrix<double>::from_device_csr(2, 3, rp.p, cols.p, dv.p, 3); },
                               "row pointers");
  }
  // Host arrays are refused, not read.
  throws_with<invalid_value>([&] { Matrix<double>::from_device_coo(3, 6, r.data(), dc.p, dv.p, 3); },
                             "not in device memory");
  throws_with<invalid_value>([&] { Matrix<double>::from_device_coo(3, 6, dr.p, dc.p, v.data(), 3); },
                             "not in device memory");
  throws_with<invalid_value>(
      [&] { Matrix<double>::from_device_coo(3, 6, static_cast<const std::int64_t*>(nullptr), dc.p, dv.p, 3); },
      "rows is null");
  throws_with<invalid_value>([&] { Matrix<double>::from_device_coo(3, 6, dr.p, dc.p, dv.p, -1); }, "negative");
  // Export: a host matrix, and index types too narrow for the matrix.
  const Matrix<double> H = Matrix<double>::from_coo(3, 6, r, c, v, no_duplicates);
  dvec<std::int64_t> out(8);
  throws_with<invalid_value>([&] { H.to_device_coo(out.p, out.p, static_cast<double*>(nullptr)); }, "lives on the host");
  const index_t wide = index_t(1) << 33;
  const std::vector<std::int64_t> wr = {3}, wc = {wide - 7};
  const dvec<std::int64_t> dwr(wr), dwc(wc);
  const dvec<double> dwv(std::vector<double>{4.5});
  const Matrix<double> W = Matrix<double>::from_device_coo(5, wide, dwr.p, dwc.p, dwv.p, 1);
  dvec<std::int32_t> narrow(8);
  throws_with<invalid_value>([&] { W.to_device_coo(narrow.p, narrow.p, static_cast<double*>(nullptr)); },
                             "too narrow");
  dvec<std::int64_t> rows(1), colsw(1), rp(6);
  W.to_device_coo(rows.p, colsw.p, static_cast<double*>(nullptr));
  W.to_device_csr(rp.p, static_cast<std::int64_t*>(nullptr), static_cast<double*>(nullptr));
  REQUIRE(rows.host() == wr);
  REQUIRE(colsw.host() == wc);
  REQUIRE(rp.host() == std::vector<std::int64_t>{0, 0, 0, 0, 1, 1});
  REQUIRE(W.ntiles() == 1);
}

TEST_CASE("device conversion on a caller's stream, and export of a product", "[cuda][convert][streams][sanitize]") {
  std::mt19937_64 rng(5);
  cudaStream_t st;
  REQUIRE(cudaStreamCreate(&st) == cudaSuccess);
  {
    const Matrix<double> A = oracle::random_matrix<double>(rng, 70, 70, 0.1);
    const coo<double> c = A.to_coo();
    const dvec<std::int64_t> dr(c.rows), dc(c.cols);
    const dvec<double> dv(c.values);
    stream_scope on(reinterpret_cast<stream_t>(st));
    Matrix<double> D = Matrix<double>::from_device_coo(70, 70, dr.p, dc.p, dv.p, offset_t(c.values.size()));
    // C = D*D on the device, exported on the stream, against the host's C.
    Matrix<double> C(70, 70);
    C.to(backend::cuda);
    mxm(C, no_mask, no_accum, plus_times, D, D);
    Matrix<double> Ch(70, 70);
    mxm(Ch, no_mask, no_accum, plus_times, A, A);
    const csr<double> want = Ch.to_csr();
    dvec<std::int64_t> rp(71), ci(want.colidx.size());
    dvec<double> vv(want.colidx.size());
    C.to_device_csr(rp.p, ci.p, vv.p);
    REQUIRE(cudaStreamSynchronize(st) == cudaSuccess);
    REQUIRE(rp.host() == want.rowptr);
    REQUIRE(ci.host() == want.colidx);
    REQUIRE(vv.host() == want.values);  // small integers: exact
  }
  REQUIRE(cudaStreamDestroy(st) == cudaSuccess);
}

TEST_CASE("device conversion, small cases for the sanitizers", "[cuda][convert][sanitize]") {
  std::mt19937_64 rng(3);
  coo_round<std::int32_t, double>(rng, 33, 40, 0.3);
  coo_round<std::uint64_t, bool>(rng, 17, 16, 1.0);
  csr_round<std::int64_t, std::int32_t, float>(rng, 33, 17, 0.3);
  const std::vector<std::int64_t> r = {4, 0, 4, 4}, c = {3, 1, 3, 3};
  const std::vector<std::int32_t> v = {5, 6, 7, 8};
  const dvec<std::int64_t> dr(r), dc(c);
  const dvec<std::int32_t> dv(v);
  same_layout(Matrix<std::int32_t>::from_device_coo(5, 5, dr.p, dc.p, dv.p, 4, plus{}),
              Matrix<std::int32_t>::from_coo(5, 5, r, c, v, plus{}));
}

// ---- import_device_csr, export_device_csr, view_device_csr ---------------------
namespace {

// A device_array holding a copy of h (staged, so that std::vector<bool> works).
template <class T>
device_array<T> darray(const std::vector<T>& h) {
  device_array<T> a(h.size());
  std::unique_ptr<T[]> stage(new T[std::max<std::size_t>(h.size(), 1)]);
  std::copy(h.begin(), h.end(), stage.get());
  if (!h.empty()) REQUIRE(cudaMemcpy(a.data(), stage.get(), h.size() * sizeof(T), cudaMemcpyHostToDevice) == cudaSuccess);
  return a;
}
template <class T>
std::vector<T> hostvec(const T* p, std::size_t n) {
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  std::unique_ptr<T[]> stage(new T[std::max<std::size_t>(n, 1)]);
  if (n) REQUIRE(cudaMemcpy(stage.get(), p, n * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
  return std::vector<T>(stage.get(), stage.get() + n);
}

// The three arrays of a CSR in import_device_csr's types.
template <class T>
struct dcsr {
  device_array<offset_t> rp;
  device_array<std::int32_t> ci;
  device_array<T> v;
};
template <class T>
dcsr<T> dcsr_of(const std::vector<offset_t>& rp, const std::vector<std::int32_t>& ci, const std::vector<T>& v) {
  return dcsr<T>{darray(rp), darray(ci), darray(v)};
}
template <class T>
dcsr<T> dcsr_of(const Matrix<T>& m) {
  const csr<T> c = m.to_csr();
  return dcsr_of<T>(c.rowptr, std::vector<std::int32_t>(c.colidx.begin(), c.colidx.end()), c.values);
}

// A resource that frees nothing (for arrays adopted twice or misaligned ones
// in the error cases; the test frees the memory itself).
struct keep_resource final : device_memory_resource {
  void* allocate(std::size_t, stream_t) override { throw out_of_memory("keep_resource allocates nothing"); }
  void deallocate(void*, std::size_t, stream_t) noexcept override {}
};

template <class T>
void import_round(std::mt19937_64& rng, index_t n, double density) {
  const Matrix<T> ref = oracle::random_matrix<T>(rng, n, n, density);
  const csr<T> c = ref.to_csr();
  dcsr<T> a = dcsr_of(ref);
  const offset_t* prp = a.rp.data();
  const std::int32_t* pci = a.ci.data();
  const T* pv = a.v.data();
  const std::size_t held = device_bytes_in_use();
  INFO(n << " x " << n << ", " << c.values.size() << " entries");
  Matrix<T> M = import_device_csr<T>(n, n, std::move(a.rp), std::move(a.ci), std::move(a.v));
  REQUIRE(M.location() == backend::cuda);
  REQUIRE(device_bytes_in_use() == held);  // nothing allocated, nothing freed
  REQUIRE(a.rp.data() == nullptr);
  REQUIRE(a.v.size() == 0);
  const auto view = view_device_csr(M);
  REQUIRE(view);
  REQUIRE(view->rowptr == prp);  // the very arrays
  REQUIRE(view->colidx == pci);
  REQUIRE(view->nnz == offset_t(c.values.size()));
  if (!c.values.empty()) REQUIRE(view->values == pv);
  REQUIRE(M.nvals() == ref.nvals());
  REQUIRE(oracle::diff(oracle::to_map(oracle::on(M, backend::host)), oracle::to_map(ref)) == "");
  // Operations read the adopted rows as any device matrix.
  Matrix<T> G(n, n), H(n, n);
  G.to(backend::cuda);
  mxm(G, no_mask, no_accum, plus_times, M, M);
  mxm(H, no_mask, no_accum, plus_times, ref, ref);
  REQUIRE(oracle::diff(oracle::to_map(oracle::on(G, backend::host)), oracle::to_map(H)) == "");
  // Back out: the same pointers, M left 0 x 0.
  device_csr_export<T> out = export_device_csr(std::move(M));
  REQUIRE(M.nrows() == 0);
  REQUIRE(M.ncols() == 0);
  REQUIRE(out.nrows == n);
  REQUIRE(out.rowptr.data() == prp);
  REQUIRE(out.colidx.data() == pci);
  REQUIRE(hostvec(out.rowptr.data(), out.rowptr.size()) == c.rowptr);
  REQUIRE(hostvec(out.colidx.data(), out.colidx.size()) ==
          std::vector<std::int32_t>(c.colidx.begin(), c.colidx.end()));
  REQUIRE(hostvec(out.values.data(), out.values.size()) == c.values);
  // And in again.
  Matrix<T> again = import_device_csr<T>(n, n, std::move(out.rowptr), std::move(out.colidx), std::move(out.values));
  REQUIRE(oracle::diff(oracle::to_map(oracle::on(again, backend::host)), oracle::to_map(ref)) == "");
  // A device matrix in tiles is converted on the way out.
  Matrix<T> D = ref;
  D.set_storage(storage_control::tiles);
  D.to(backend::cuda);
  REQUIRE(!view_device_csr(D));
  device_csr_export<T> t = export_device_csr(std::move(D));
  REQUIRE(D.nrows() == 0);
  REQUIRE(hostvec(t.rowptr.data(), t.rowptr.size()) == c.rowptr);
  REQUIRE(hostvec(t.colidx.data(), t.colidx.size()) == std::vector<std::int32_t>(c.colidx.begin(), c.colidx.end()));
  REQUIRE(hostvec(t.values.data(), t.values.size()) == c.values);
}

}  // namespace

TEST_CASE("import_device_csr adopts device arrays, export_device_csr hands them back", "[cuda][convert][import]") {
  std::mt19937_64 rng(81);
  for (index_t n : {index_t(0), index_t(1), index_t(17), index_t(300)}) {
    import_round<double>(rng, n, 0.05);
    import_round<std::int32_t>(rng, n, 0.3);
    import_round<bool>(rng, n, 0.1);
  }
  // Memory the caller allocated with cudaMalloc, adopted with the default
  // resource as its owner (cudaFreeAsync frees it with the matrix).
  const std::vector<offset_t> rp = {0, 2, 2, 4, 5};  // 4 x 5: rows {3,4}, {}, {0,1}, {2}
  const std::vector<std::int32_t> ci = {3, 4, 0, 1, 2};
  const std::vector<float> v = {1, 2, 3, 4, 5};
  offset_t* prp = nullptr;
  std::int32_t* pci = nullptr;
  float* pv = nullptr;
  REQUIRE(cudaMalloc(&prp, rp.size() * sizeof(offset_t)) == cudaSuccess);
  REQUIRE(cudaMalloc(&pci, ci.size() * sizeof(std::int32_t)) == cudaSuccess);
  REQUIRE(cudaMalloc(&pv, v.size() * sizeof(float)) == cudaSuccess);
  REQUIRE(cudaMemcpy(prp, rp.data(), rp.size() * sizeof(offset_t), cudaMemcpyHostToDevice) == cudaSuccess);
  REQUIRE(cudaMemcpy(pci, ci.data(), ci.size() * sizeof(std::int32_t), cudaMemcpyHostToDevice) == cudaSuccess);
  REQUIRE(cudaMemcpy(pv, v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
  const std::size_t held = device_bytes_in_use();
  const std::size_t bytes = rp.size() * sizeof(offset_t) + ci.size() * sizeof(std::int32_t) + v.size() * sizeof(float);
  {
    device_memory_resource* owner = default_device_memory_resource();
    Matrix<float> M = import_device_csr<float>(4, 5, device_array<offset_t>::adopt(prp, rp.size(), owner, nullptr),
                                               device_array<std::int32_t>::adopt(pci, ci.size(), owner, nullptr),
                                               device_array<float>::adopt(pv, v.size(), owner, nullptr));
    REQUIRE(device_bytes_in_use() == held + bytes);  // counted as tgb's while the matrix holds it
    REQUIRE(view_device_csr(M)->colidx == pci);
    const Matrix<float> h = oracle::on(M, backend::host);
    REQUIRE(h.get(0, 3) == 1.0f);
    REQUIRE(h.get(0, 4) == 2.0f);
    REQUIRE(h.get(2, 0) == 3.0f);
    REQUIRE(h.get(2, 1) == 4.0f);
    REQUIRE(h.get(3, 2) == 5.0f);
    REQUIRE(h.nvals() == 5);
  }
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  REQUIRE(device_bytes_in_use() == held);
  // release() gives the pointer up; the caller frees it as its resource would.
  device_array<double> a(10);
  device_memory_resource* from = a.resource();
  REQUIRE(from != nullptr);
  double* p = a.release();
  REQUIRE(a.data() == nullptr);
  REQUIRE(device_bytes_in_use() == held);
  from->deallocate(p, 10 * sizeof(double), nullptr);
}

TEST_CASE("import_device_csr errors leave the caller's arrays as they were", "[cuda][convert][import][errors][sanitize]") {
  // 4 x 5 with rows {3,4}, {}, {0,1}, {2}: valid, a row ending past the next one's start.
  const std::vector<offset_t> rp = {0, 2, 2, 4, 5};
  const std::vector<std::int32_t> ci = {3, 4, 0, 1, 2};
  const std::vector<double> v = {1, 2, 3, 4, 5};
  auto fails = [](auto&& f, dcsr<double>& a, const char* fragment, auto tag) {
    using E = decltype(tag);
    const offset_t* prp = a.rp.data();
    const std::int32_t* pci = a.ci.data();
    const double* pv = a.v.data();
    const std::size_t nrp = a.rp.size(), nci = a.ci.size(), nv = a.v.size();
    throws_with<E>([&] { f(a); }, fragment);
    REQUIRE(a.rp.data() == prp);
    REQUIRE(a.ci.data() == pci);
    REQUIRE(a.v.data() == pv);
    REQUIRE(a.rp.size() == nrp);
    REQUIRE(a.ci.size() == nci);
    REQUIRE(a.v.size() == nv);
  };
  auto import45 = [](dcsr<double>& a) {
    (void)import_device_csr<double>(4, 5, std::move(a.rp), std::move(a.ci), std::move(a.v));
  };
  {
    dcsr<double> a = dcsr_of<double>(rp, ci, v);
    Matrix<double> ok = import_device_csr<double>(4, 5, std::move(a.rp), std::move(a.ci), std::move(a.v));
    REQUIRE(ok.nvals() == 5);
  }
  {
    dcsr<double> a = dcsr_of<double>(rp, ci, v);
    fails([](dcsr<double>& b) { (void)import_device_csr<double>(5, 5, std::move(b.rp), std::move(b.ci), std::move(b.v)); },
          a, "rowptr has 5 entries", invalid_value{""});
    fails([](dcsr<double>& b) { (void)import_device_csr<double>(4, 3, std::move(b.rp), std::move(b.ci), std::move(b.v)); },
          a, "column index 3 at position 0", index_out_of_bounds{""});
  }
  {
    dcsr<double> a = dcsr_of<double>({1, 2, 2, 4, 5}, ci, v);
    fails(import45, a, "row pointers must start at 0", invalid_value{""});
  }
  {
    dcsr<double> a = dcsr_of<double>({0, 3, 2, 4, 5}, ci, v);
    fails(import45, a, "(row 2)", invalid_value{""});
  }
  {
    dcsr<double> a = dcsr_of<double>({0, 2, 2, 4, 4}, ci, v);  // ends before nnz
    fails(import45, a, "end at nnz = 5", invalid_value{""});
  }
  {
    dcsr<double> a = dcsr_of<double>(rp, {3, 4, 1, 0, 2}, v);  // row 2 unsorted
    fails(import45, a, "position 3", invalid_value{""});
  }
  {
    dcsr<double> a = dcsr_of<double>(rp, {3, 3, 0, 1, 2}, v);  // a repeat in row 0
    fails(import45, a, "position 1", invalid_value{""});
  }
  {
    dcsr<double> a = dcsr_of<double>(rp, {3, 4, 0, 1, -1}, v);
    fails(import45, a, "column index -1", index_out_of_bounds{""});
  }
  {
    dcsr<double> a = dcsr_of<double>(rp, ci, {1, 2, 3, 4});
    fails(import45, a, "colidx has 5 entries but values has 4", invalid_value{""});
  }
  {
    // The same memory as two arrays, and a misaligned one: adopted with a
    // resource that frees nothing.
    keep_resource keep;
    double* raw = nullptr;
    REQUIRE(cudaMalloc(&raw, 1024) == cudaSuccess);
    dcsr<double> a = dcsr_of<double>(rp, ci, v);
    device_array<double> other = device_array<double>::adopt(raw, 5, &keep, nullptr);
    device_array<std::int32_t> same = device_array<std::int32_t>::adopt(reinterpret_cast<std::int32_t*>(raw), 5, &keep, nullptr);
    REQUIRE_THROWS_AS(import_device_csr<double>(4, 5, std::move(a.rp), std::move(same), std::move(other)), invalid_value);
    REQUIRE(same.data() == reinterpret_cast<std::int32_t*>(raw));
    device_array<double> off = device_array<double>::adopt(raw + 1, 5, &keep, nullptr);
    fails([&](dcsr<double>& b) { (void)import_device_csr<double>(4, 5, std::move(b.rp), std::move(b.ci), std::move(off)); },
          a, "aligned to 256 bytes", invalid_value{""});
    REQUIRE(off.data() == raw + 1);
    REQUIRE(cudaFree(raw) == cudaSuccess);
  }
  // A host matrix has no device arrays to hand over.
  Matrix<double> h = Matrix<double>::from_coo(2, 2, std::vector<index_t>{0}, std::vector<index_t>{1}, std::vector<double>{3.0}, first{});
  REQUIRE_THROWS_AS(export_device_csr(std::move(h)), invalid_value);
  REQUIRE(h.nvals() == 1);
}
