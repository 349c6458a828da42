#!/usr/bin/env bash
# Host tests under AddressSanitizer (with LeakSanitizer) and
# UndefinedBehaviorSanitizer: a host-only build (CUDA off, which also shows
# the library builds without nvcc), optimized lightly to keep the
# instrumented build short. Scope (TGB_ASAN_SCOPE):
#   hostile (default; what CI runs): the failure injection at every
#     allocation (tgb_tests_oom) and the hostile-input, fuzzer-regression and
#     storage tests (tgb_tests_hostile). The instrumented build is 3-4 times
#     slower to compile than the plain one: the whole host suite under the
#     sanitizers took about 20 of CI's 42 minutes.
#   host: every host test program (run it before a change lands).
# TGB_ASAN_ALL=1 adds the CLI and reference tests to the host scope.
# Usage: scripts/sanitize.sh          (TGB_ASAN_DIR: build folder, default build-asan)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh test
. scripts/cmake-generator.sh
build=${TGB_ASAN_DIR:-build-asan}
jobs=${TGB_JOBS:-$(nproc)}
tgb_generator "$build"
cmake -S . -B "$build" "${tgb_gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1 -g" \
  -DTGB_ENABLE_CUDA=OFF -DTGB_SANITIZE=ON -DTGB_BUILD_TESTS=ON -DTGB_BUILD_CLI=ON -DTGB_BUILD_BENCH=OFF \
  -DTGB_BUILD_EXAMPLES=OFF >/dev/null
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
if [ "${TGB_ASAN_ALL:-0}" = 1 ]; then
  cmake --build "$build" -j "$jobs"
  (cd "$build" && ctest --output-on-failure --no-tests=error -j "$jobs")
else
  if [ "${TGB_ASAN_SCOPE:-hostile}" = host ]; then
    cmake --build "$build" -j "$jobs" --target tgb_tests_host tgb_tests_hostile tgb_tests_oom
    label=host
  else
    cmake --build "$build" -j "$jobs" --target tgb_tests_hostile tgb_tests_oom
    label=hostile
  fi
  echo "tgb: sanitizer build took $SECONDS s"
  # --no-tests=error: a scope that matches nothing fails instead of passing.
  (cd "$build" && ctest --output-on-failure --no-tests=error -j "$jobs" -L "$label")
fi
echo "tgb: ${label:-all} tests clean under AddressSanitizer, LeakSanitizer and UndefinedBehaviorSanitizer"
