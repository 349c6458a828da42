#!/usr/bin/env bash
# On a GPU machine (H100/H200, CUDA 13): configure for sm_90, build with all
# cores, run the test suite (CUDA tests included), run the CUDA tests again
# under compute-sanitizer (memcheck, racecheck, synccheck, initcheck), run
# the demo and the benchmarks, and write logs and a summary to OUTDIR.
# Usage: scripts/gpu-check.sh OUTDIR    (TGB_COMMIT names the commit in the summary)
# TGB_STEPS picks steps (default "build test sanitize demo bench algorithms") and
# TGB_SANITIZERS the compute-sanitizer tools (default all four; TGB_COVERAGE=0
# skips the ncu kernel-coverage pass after them); the build
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
# The cases the sanitizers run: small inputs that reach every path (the
# tile routines, residence and memory, and the [sanitize] cases of mxm, the
# row path, element-wise operations, conversion). TGB_SANITIZE_CASES overrides.
san_cases=${TGB_SANITIZE_CASES:-[tile],[sanitize],[residence],[memory],[cast],[rowpath]}
if ! want sanitize; then
  :
elif command -v compute-sanitizer >/dev/null; then
  for tool in ${TGB_SANITIZERS:-memcheck racecheck synccheck initcheck}; do
    echo "=== compute-sanitizer --tool $tool" >>"$out/sanitizer.log"
    # The sanitizers slow kernels down by orders of magnitude: they run the
    # tile-routine, residence, memory and small mxm cases.
    t_san=$(date +%s)
    timeout 300 compute-sanitizer --tool "$tool" --error-exitcode 99 "$build/tests/tgb_tests_cuda" \
      "$san_cases" >"$out/san.tmp" 2>&1
    rc=$?
    cat "$out/san.tmp" >>"$out/sanitizer.log"
    [ $rc -eq 0 ] || rc_san=1
    say "compute-sanitizer $tool: rc=$rc in $(( $(date +%s) - t_san )) s, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/san.tmp" | tail -1)"
    rm -f "$out/san.tmp"
  done
  # Which kernels the sanitizer cases reach: the kernels built into the test
  # binary against the first launch of each that ncu sees in the same cases.
  # After the sanitizers and bounded: ncu intercepts every launch (on the
  # H100 at 45f2a6c the call ran out of time inside it, before any sanitizer).
  if [ "${TGB_COVERAGE:-1}" = 1 ] && command -v ncu >/dev/null && command -v cuobjdump >/dev/null; then
    cuobjdump -symbols "$build/tests/tgb_tests_cuda" 2>/dev/null | awk '/STO_ENTRY/{print $NF}' | sort -u \
      >"$out/kernels-built.txt"
    timeout 150 ncu --kernel-id ::regex:.:1 --print-kernel-base mangled --metrics gpu__time_duration.sum --csv \
      --log-file "$out/kernels-launched.csv" "$build/tests/tgb_tests_cuda" "$san_cases" >/dev/null 2>&1
    say "$(python3 scripts/kernel-coverage.py "$out/kernels-built.txt" "$out/kernels-launched.csv" 2>&1 | tee "$out/kernel-coverage.txt" | head -1)"
  fi
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
