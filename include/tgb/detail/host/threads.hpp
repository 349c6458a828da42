// tgb host backend: the OpenMP thread queries, also in builds compiled
// without OpenMP (the fuzzers' clang build), where there is one thread.
#pragma once

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

}  // namespace tgb::detail::host
