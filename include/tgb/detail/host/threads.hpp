// tgb host backend: the OpenMP thread queries, also in builds compiled
// without OpenMP (the fuzzers' clang build), where there is one thread.
#pragma once

#include <cstdint>

#include "tgb/config.hpp"
#include "tgb/error.hpp"

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace tgb::detail::host {

inline int max_threads() noexcept {
#if defined(_OPENMP)
  return omp_get_max_threads();
#else
  return 1;
#endif
}

inline int thread_num() noexcept {
#if defined(_OPENMP)
  return omp_get_thread_num();
#else
  return 0;
#endif
}

// Runs body(ws, k) for k in [0, n), split over the threads (dynamic
// schedule, `chunk` at a time) when `parallel`, each thread with its own
// workspace ws = make_ws() made once. Exceptions cannot leave an OpenMP
// region: one thrown by a task raises a flag, the tasks not yet started are
// skipped, and out_of_memory(what) is thrown after the region (the tasks'
// allocations are the only throwing calls).
template <class MakeWs, class Body>
void parallel_tasks(std::int64_t n, int chunk, bool parallel, const char* what, MakeWs&& make_ws, Body&& body) {
  bool failed = false;
#pragma omp parallel if (parallel)
  {
    auto ws = make_ws();
#pragma omp for schedule(dynamic, chunk)
    for (std::int64_t k = 0; k < n; ++k) {
      bool stop;
#pragma omp atomic read
      stop = failed;
      if (stop) continue;
      try {
        body(ws, k);
      } catch (...) {
#pragma omp atomic write
        failed = true;
      }
    }
  }
  if (failed) throw out_of_memory(what);
}

}  // namespace tgb::detail::host
