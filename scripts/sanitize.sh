#!/usr/bin/env bash
# The host test suite under AddressSanitizer (with LeakSanitizer) and
# UndefinedBehaviorSanitizer: a host-only build (CUDA off, which also shows
# the library builds without nvcc), optimized lightly to keep the
# instrumented build short. TGB_ASAN_ALL=1 adds the CLI and reference tests.
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
  (cd "$build" && ctest --output-on-failure -j "$jobs")
else
  cmake --build "$build" -j "$jobs" --target tgb_tests_host tgb_tests_oom
  (cd "$build" && ctest --output-on-failure -j "$jobs" -L host)
fi
echo "tgb: host tests clean under AddressSanitizer, LeakSanitizer and UndefinedBehaviorSanitizer"
