#!/usr/bin/env bash
# Builds tgb with its tests (CUDA sources included when nvcc is present),
# runs the whole suite with CTest, installs the package and builds the
# consumer project and the examples against it, then fuzzes the readers and
# runs the host suite under the sanitizers. GPU tests report "skipped" where
# no GPU exists. TGB_QUICK=1 leaves out the fuzzing and sanitizer builds.
# Builds with Ninja, or Make where there is no Ninja.
# CUDA architectures: on a machine with a GPU, the library's default (that
# GPU); without one (CI), compute_90 PTX only (TGB_CUDA_ARCHITECTURES,
# default 90-virtual): the CUDA code is only compiled there, so one virtual
# architecture (no ptxas pass: the GPU machine's sm_90 builds run it), every
# CUDA source compiled without optimization (host and device side: no GPU
# code runs there; half the CPU time of -O3) and GPU tests compiled without
# optimization (TGB_CUDA_TESTS_COMPILE_ONLY; they report "skipped") keep CI
# short.
# The default architecture selection itself is tested by the "setup:" tests
# (tests/scripts/test-cuda-architectures.sh). TGB_CUDA12=1 also runs
# scripts/cuda12-check.sh (the CUDA 12 / CCCL 2 compile check).
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's time, so that CI's log shows where its budget goes.
t_step=$SECONDS
took() {
  echo "tgb: $1 took $((SECONDS - t_step)) s (total $SECONDS s)"
  t_step=$SECONDS
}
scripts/install-deps.sh test
took "installing what was missing"
. scripts/cmake-generator.sh
build=${TGB_BUILD_DIR:-build}
jobs=${TGB_JOBS:-$(nproc)}
arch_args=()
if ! nvidia-smi -L >/dev/null 2>&1 && [ -z "${CUDAARCHS:-}" ] &&
  [[ "${TGB_CMAKE_ARGS:-}" != *CMAKE_CUDA_ARCHITECTURES* ]]; then
  arch_args=(-DCMAKE_CUDA_ARCHITECTURES="${TGB_CUDA_ARCHITECTURES:-90-virtual}" -DTGB_CUDA_TESTS_COMPILE_ONLY=ON
             "-DCMAKE_CUDA_FLAGS_RELEASE=-O0 -Xcicc -O0 -DNDEBUG")
fi
tgb_generator "$build"
# The examples are built (and run) below against the installed package, not
# here a second time.
cmake -S . -B "$build" "${tgb_gen[@]}" -DCMAKE_BUILD_TYPE=Release -DTGB_BUILD_TESTS=ON -DTGB_BUILD_CLI=ON \
  -DTGB_BUILD_EXAMPLES=OFF -DCMAKE_INSTALL_PREFIX="$PWD/$build/_install" "${arch_args[@]}" ${TGB_CMAKE_ARGS:-}
cmake --build "$build" -j "$jobs"
took "the build"
(cd "$build" && ctest --output-on-failure --no-tests=error -j "$jobs")
took "the test suite"
# The installed package must work for a project that only knows find_package(tgb).
cmake --install "$build" >/dev/null
consumer="$build/_consumer"
tgb_generator "$consumer"
cmake -S tests/consumer -B "$consumer" "${tgb_gen[@]}" -DCMAKE_PREFIX_PATH="$PWD/$build/_install" >/dev/null
cmake --build "$consumer" -j "$jobs" >/dev/null
"$consumer/tgb_consumer" "$PWD/tests/data/karate.mtx"
# The examples, built on their own against the installed package, and run.
examples="$build/_examples"
tgb_generator "$examples"
cmake -S examples -B "$examples" "${tgb_gen[@]}" -DCMAKE_PREFIX_PATH="$PWD/$build/_install" >/dev/null
cmake --build "$examples" -j "$jobs" >/dev/null
"$examples/tgb-example-triangles_by_vertex" "$PWD/tests/data/polbooks.mtx"
"$examples/tgb-example-reachability" "$PWD/tests/data/jagmesh7.mtx" 5
"$examples/tgb-example-communities"
"$examples/tgb-example-pagerank" "$PWD/tests/data/ca-GrQc.mtx" 5
"$examples/tgb-example-shortest_paths" "$PWD/tests/data/cage8.mtx" 3
took "the installed package, consumer and examples"
echo "tgb: tests, installed-package consumer and examples all passed"
# Hostile input and memory errors: the fuzzers for a bounded time, then the
# host suite under ASan/LSan/UBSan. TGB_QUICK=1 skips both.
if [ "${TGB_QUICK:-0}" != 1 ]; then
  # Fuzzing needs clang-14 with libFuzzer: skipped, saying so, where it is
  # missing and cannot be installed (no apt, no root).
  if scripts/install-deps.sh fuzz; then
    # 10 s a target (a smoke run over the seeds and recent finds) keeps CI
    # under its 30 minutes; a real run: scripts/fuzz.sh 600.
    scripts/fuzz.sh "${TGB_FUZZ_SECONDS:-10}"
    took "fuzzing"
  else
    echo "tgb: fuzzing skipped: clang-14 with libFuzzer is missing" >&2
  fi
  scripts/sanitize.sh
  took "the sanitizer run"
fi
if [ "${TGB_CUDA12:-0}" = 1 ]; then
  scripts/cuda12-check.sh
fi
