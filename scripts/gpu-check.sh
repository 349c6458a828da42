#!/usr/bin/env bash
# On a GPU machine (H100/H200, CUDA 13): configure for sm_90, build with all
# cores, run the test suite (CUDA tests included), run the CUDA tests again
# under compute-sanitizer (memcheck, racecheck, synccheck, initcheck), run
# the demo and the benchmarks, and write logs and a summary to OUTDIR.
# Usage: scripts/gpu-check.sh OUTDIR    (TGB_COMMIT names the commit in the summary)
# TGB_STEPS picks steps (default "build test sanitize demo bench algorithms") and
# TGB_SANITIZERS the compute-sanitizer tools (default all four, over test
# cases that launch every kernel the suite launches; TGB_COVERAGE=0 uses small
# tagged cases instead of finding them); the build
# step is always run (it is incremental), so a long check can be split over
# two calls on a machine that stays warm.
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: scripts/gpu-check.sh OUTDIR" >&2; exit 1; }
mkdir -p "$1"
out=$(cd "$1" && pwd)
build=${TGB_BUILD_DIR:-build-gpu}
jobs=${TGB_JOBS:-$(nproc)}
summary="$out/summary.txt"
: >"$summary"
say() { echo "$*" | tee -a "$summary"; }
steps=" ${TGB_STEPS:-build test sanitize demo bench algorithms} "
want() { [[ "$steps" == *" $1 "* ]]; }

say "commit: ${TGB_COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}"
say "date:   $(date -u +%Y-%m-%dT%H:%M:%SZ)"
say "gpu:    $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -1)"
say "nvcc:   $(nvcc --version | tail -1)"

gen=""
command -v ninja >/dev/null && gen="-G Ninja"
t0=$(date +%s)
{
  cmake -S . -B "$build" $gen -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DTGB_BUILD_TESTS=ON \
    -DTGB_BUILD_CLI=ON -DTGB_BUILD_EXAMPLES=ON && cmake --build "$build" -j "$jobs"
} >"$out/build.log" 2>&1
rc_build=$?
say "build:  rc=$rc_build in $(( $(date +%s) - t0 )) s"
[ $rc_build -eq 0 ] || { tail -30 "$out/build.log"; exit 1; }

rc_test=0
if want test; then
# The CUDA cases run once, directly below (one process instead of one per case).
(cd "$build" && ctest -j "$jobs" -LE cuda --output-on-failure >"$out/ctest.log" 2>&1)
rc_test=$?
say "ctest:  rc=$rc_test: $(grep -E 'tests passed|tests failed' "$out/ctest.log" | tail -1)"
grep -E "Skipped|Failed|\*\*\*" "$out/ctest.log" | head -20 | tee -a "$summary"
if [ -x "$build/tests/tgb_tests_cuda" ]; then
  "$build/tests/tgb_tests_cuda" >"$out/cuda-tests.log" 2>&1
  say "cuda tests: rc=$? $(grep -E 'passed|failed' "$out/cuda-tests.log" | tail -1)"
fi
fi

rc_san=0
# The cases the sanitizers run: a set of GPU test cases that together launch
# every kernel any case launches. Each case runs alone once with a shim that
# logs the kernels it launches (scripts/kernel_log.cpp, kernel-launches.sh;
# about the suite's own time), then scripts/kernel-coverage.py counts the
# kernels built and launched and picks the cases, fewest seconds per new
# kernel first (11 cases, 14 s unsanitized, at 5461446). TGB_COVERAGE=0, or
# no cuobjdump or g++, falls back to small tagged cases;
# TGB_SANITIZE_CASES overrides both.
san_cases=${TGB_SANITIZE_CASES:-}
if want sanitize && [ -z "$san_cases" ] && [ "${TGB_COVERAGE:-1}" = 1 ] && command -v cuobjdump >/dev/null &&
  command -v g++ >/dev/null && [ -x "$build/tests/tgb_tests_cuda" ]; then
  t_cov=$(date +%s)
  cuda_inc=$(dirname "$(dirname "$(command -v nvcc)")")/include
  if g++ -std=c++17 -O2 -shared -fPIC -I"$cuda_inc" scripts/kernel_log.cpp -o "$out/libtgb_kernel_log.so" -ldl &&
    scripts/kernel-launches.sh "$build/tests/tgb_tests_cuda" "$out/libtgb_kernel_log.so" "$out/kernels" \
      >"$out/kernel-launches.log" 2>&1; then
    python3 scripts/kernel-coverage.py "$out/kernels" >"$out/kernel-coverage.txt" 2>&1
    [ -s "$out/kernels/cover.txt" ] && san_cases=$(paste -sd, "$out/kernels/cover.txt")
    say "kernel coverage: $(sed -n 2p "$out/kernel-coverage.txt" | sed 's/^ *//'); $(grep -E '^kernels \(templates' "$out/kernel-coverage.txt"); in $(( $(date +%s) - t_cov )) s"
    say "$(grep -E '^cover of every' "$out/kernel-coverage.txt")"
  fi
fi
san_cases=${san_cases:-[tile],[sanitize],[residence],[memory],[cast],[rowpath]}
if ! want sanitize; then
  :
elif command -v compute-sanitizer >/dev/null; then
  for tool in ${TGB_SANITIZERS:-memcheck racecheck synccheck initcheck}; do
    echo "=== compute-sanitizer --tool $tool" >>"$out/sanitizer.log"
    # The sanitizers slow kernels down by orders of magnitude (racecheck
    # most: on the H100 it took 240 s for 10 of the 11 cases of the cover).
    t_san=$(date +%s)
    limit=300
    [ "$tool" = racecheck ] && limit=600
    timeout $limit compute-sanitizer --tool "$tool" --error-exitcode 99 "$build/tests/tgb_tests_cuda" \
      "$san_cases" >"$out/san.tmp" 2>&1
    rc=$?
    cat "$out/san.tmp" >>"$out/sanitizer.log"
    [ $rc -eq 0 ] || rc_san=1
    say "compute-sanitizer $tool: rc=$rc in $(( $(date +%s) - t_san )) s, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/san.tmp" | tail -1)"
    rm -f "$out/san.tmp"
  done
else
  say "compute-sanitizer: not found"
  rc_san=1
fi

if want demo; then
"$build/tgb" demo >"$out/demo.log" 2>&1
say "demo:   rc=$? $(tail -1 "$out/demo.log")"
{
  "$build/examples/tgb-example-triangles_by_vertex" tests/data/polbooks.mtx &&
    "$build/examples/tgb-example-reachability" tests/data/jagmesh7.mtx 5 &&
    "$build/examples/tgb-example-communities"
} >"$out/examples.log" 2>&1
say "examples: rc=$?"
fi
if want bench && [ -x "$build/tgb-bench" ]; then
  # The generated suite plus the larger real matrices that travel with the repo.
  "$build/tgb-bench" --json "$out/bench.jsonl" --host-reps 3 ${TGB_BENCH_ARGS:-} \
    tests/data/bcsstk13.mtx tests/data/ca-GrQc.mtx tests/data/crack.mtx tests/data/cage8.mtx \
    tests/data/fidapex6.mtx tests/data/luxembourg.mtx tests/data/jagmesh7.mtx tests/data/add32.mtx \
    >"$out/bench.log" 2>&1
  say "bench:  rc=$?"
  tail -40 "$out/bench.log"
fi
if want algorithms && [ -x "$build/tgb-bench" ]; then
  # The graph algorithms on both backends (host with one timed run).
  "$build/tgb-bench" --algorithms --json "$out/bench-algorithms.jsonl" --host-reps 1 ${TGB_BENCH_ARGS:-} \
    tests/data/ca-GrQc.mtx tests/data/netscience.mtx >"$out/bench-algorithms.log" 2>&1
  say "bench algorithms: rc=$?"
  tail -40 "$out/bench-algorithms.log"
fi
[ $rc_test -eq 0 ] && [ $rc_san -eq 0 ]
