#!/usr/bin/env bash
# Builds tgb with its tests (CUDA sources included when nvcc is present),
# runs the whole suite with CTest, installs the package and builds the
# consumer project and the examples against it, then fuzzes the readers and
# runs the host suite under the sanitizers. GPU tests report "skipped" where
# no GPU exists. TGB_QUICK=1 leaves out the fuzzing and sanitizer builds.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh test
build=${TGB_BUILD_DIR:-build}
jobs=${TGB_JOBS:-$(nproc)}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTGB_BUILD_TESTS=ON -DTGB_BUILD_CLI=ON \
  -DTGB_BUILD_EXAMPLES=ON -DCMAKE_INSTALL_PREFIX="$PWD/$build/_install" ${TGB_CMAKE_ARGS:-}
cmake --build "$build" -j "$jobs"
(cd "$build" && ctest --output-on-failure -j "$jobs")
# The installed package must work for a project that only knows find_package(tgb).
cmake --install "$build" >/dev/null
consumer="$build/_consumer"
cmake -S tests/consumer -B "$consumer" -G Ninja -DCMAKE_PREFIX_PATH="$PWD/$build/_install" >/dev/null
cmake --build "$consumer" -j "$jobs" >/dev/null
"$consumer/tgb_consumer" "$PWD/tests/data/karate.mtx"
# The examples, built on their own against the installed package, and run.
examples="$build/_examples"
cmake -S examples -B "$examples" -G Ninja -DCMAKE_PREFIX_PATH="$PWD/$build/_install" >/dev/null
cmake --build "$examples" -j "$jobs" >/dev/null
"$examples/tgb-example-triangles_by_vertex" "$PWD/tests/data/polbooks.mtx"
"$examples/tgb-example-reachability" "$PWD/tests/data/jagmesh7.mtx" 5
"$examples/tgb-example-communities"
echo "tgb: tests, installed-package consumer and examples all passed"
# Hostile input and memory errors: the fuzzers for a bounded time, then the
# host suite under ASan/LSan/UBSan. TGB_QUICK=1 skips both.
if [ "${TGB_QUICK:-0}" != 1 ]; then
  scripts/fuzz.sh "${TGB_FUZZ_SECONDS:-60}"
  scripts/sanitize.sh
fi
