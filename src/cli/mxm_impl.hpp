// tgb command line: `tgb mxm` for one value type.
#pragma once

#include <omp.h>

#include <chrono>
#include <iostream>
#include <sstream>

#include "cli.hpp"
#include "tgb/tgb.hpp"

namespace tgb::cli {

template <class F>
void with_semiring(const std::string& name, F&& f) {
#define TGB_CLI_SEMIRING(name_, add, mul, unused) \
  if (name == #name_) {                           \
    f(name_);                                     \
    return;                                       \
  }
  TGB_SEMIRINGS(TGB_CLI_SEMIRING, ~)
#undef TGB_CLI_SEMIRING
  {
    std::string all;
    for (const auto& s : semiring_names()) all += (all.empty() ? "" : ", ") + s;
    throw usage_error("unknown semiring '" + name + "' (one of: " + all + ")");
  }
}

template <class T>
int run_mxm(const mxm_options& o) {
  backend where = o.backend == "auto" ? preferred_backend() : backend::host;
  if (o.backend == "cuda") {
    if (cuda_device_count() == 0) throw not_implemented("--backend cuda: " + cuda_device_description());
    where = backend::cuda;
  }
  io::read_options ro;
  ro.max_memory = o.max_memory;
  Matrix<T> A = io::read_graph<T>(o.a, ro);
  Matrix<T> B = io::read_graph<T>(o.b, ro);
  const index_t m = o.transpose_a ? A.ncols() : A.nrows();
  const index_t n = o.transpose_b ? B.nrows() : B.ncols();
  Matrix<T> C0 = o.init.empty() ? Matrix<T>(m, n) : io::read_graph<T>(o.init, ro);
  // No mask is the complement of an empty structural mask: it admits every
  // position, so one instantiation covers both.
  Matrix<double> M = o.mask.empty() ? Matrix<double>(C0.nrows(), C0.ncols()) : io::read_graph<double>(o.mask, ro);
  // Inputs move to the GPU once, before timing; C comes back after.
  A.to(where), B.to(where), C0.to(where), M.to(where);
  mask_view<Matrix<double>> view{&M, o.mask.empty() || o.structure, o.mask.empty() || o.complement};
  descriptor d;
  d.replace = o.replace;
  d.transpose_a = o.transpose_a;
  d.transpose_b = o.transpose_b;
  int accum_op = -1;
  if (!o.accum.empty()) {
    const auto& names = operator_names();
    for (std::size_t k = 0; k < names.size(); ++k)
      if (names[k] == o.accum) accum_op = static_cast<int>(k);
  }

  Matrix<T> C = C0;
  std::vector<double> times_ms;
  in_context("tgb mxm: computing C = A*B (" + o.a + " times " + o.b + ", " + o.semiring + ", " + o.type + ")",
             [&] { with_semiring(o.semiring, [&](const auto& sr) {
    for (int rep = 0; rep < o.repeat; ++rep) {
      C = C0;
      if (where == backend::cuda) cuda_synchronize();
      const auto t0 = std::chrono::steady_clock::now();
      if (accum_op >= 0) mxm(C, view, detail::coded_op{accum_op}, sr, A, B, d);
      else mxm(C, view, no_accum, sr, A, B, d);
      if (where == backend::cuda) cuda_synchronize();
      const auto t1 = std::chrono::steady_clock::now();
      times_ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
  }); });

  C.to(backend::host);
  // To a file: written aside and renamed, so that a killed or failed run
  // leaves no partial C under its name.
  if (o.out.empty()) {
    io::write_matrix_market(std::cout, C);
    finish_stdout();
  } else {
    io::write_matrix_market(o.out, C);
  }
  const double med = median(times_ms);
  std::ostringstream stats;
  if (o.json) {
    stats << "{\"command\":\"mxm\",\"backend\":\"" << backend_name(where) << "\",\"threads\":" << omp_get_max_threads() << ",\"semiring\":\""
          << json_escape(o.semiring) << "\",\"type\":\"" << o.type << "\",\"nrows\":" << C.nrows()
          << ",\"ncols\":" << C.ncols() << ",\"nvals\":" << C.nvals() << ",\"ntiles\":" << C.ntiles()
          << ",\"repeat\":" << o.repeat << ",\"median_ms\":" << med << ",\"times_ms\":[";
    for (std::size_t k = 0; k < times_ms.size(); ++k) stats << (k ? "," : "") << times_ms[k];
    stats << "]}\n";
    (o.out.empty() ? std::cerr : std::cout) << stats.str();
  } else {
    std::cerr << "tgb mxm: " << o.semiring << " " << o.type << " on "
              << (where == backend::cuda ? cuda_device_description()
                                         : "host (" + std::to_string(omp_get_max_threads()) + " threads)")
              << ": C is " << C.nrows() << " x " << C.ncols() << ", " << C.nvals() << " entries in "
              << C.ntiles() << " tiles; median " << med << " ms of " << o.repeat << "\n";
  }
  finish_stdout();
  return 0;
}

}  // namespace tgb::cli
