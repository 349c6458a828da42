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
# two calls on a machine that stays warm. TGB_BIN_DIR=DIR skips the build and
# runs the binaries in DIR instead (tgb_tests_cuda, tgb, tgb-bench, built for
# this GPU elsewhere: a fresh machine's build takes most of a device call);
# the test step then runs the CUDA suite only.
# The sanitizers run one process per (tool, case), TGB_SANITIZE_JOBS at a
# time (default 8) on the one GPU, each under its own time limit
# (TGB_SANITIZE_TIMEOUT seconds, default 300, racecheck 540): the four tools
# over the cover in one call, and one slow case cannot hide the others;
# initcheck last and alone on the GPU (TGB_INITCHECK_JOBS at a time, default 1).
# TGB_DEADLINE (seconds since the epoch) caps every sanitizer process's limit
# so that the step ends by then (a device call's own limit).
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

bin=${TGB_BIN_DIR:-}
if [ -n "$bin" ]; then
  bin=$(cd "$bin" && pwd) || { say "build:  TGB_BIN_DIR=${TGB_BIN_DIR} is not a folder"; exit 1; }
  tests_cuda=$bin/tgb_tests_cuda tgb_cli=$bin/tgb tgb_bench=$bin/tgb-bench examples=$bin/examples
  [ -x "$tests_cuda" ] || { say "build:  no tgb_tests_cuda in TGB_BIN_DIR=$bin"; exit 1; }
  say "build:  none (TGB_BIN_DIR=$bin)"
else
  tests_cuda=$build/tests/tgb_tests_cuda tgb_cli=$build/tgb tgb_bench=$build/tgb-bench examples=$build/examples
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
fi

rc_test=0
if want test; then
if [ -z "$bin" ]; then
  # The CUDA cases run once, directly below (one process instead of one per case).
  (cd "$build" && ctest -j "$jobs" -LE cuda --output-on-failure >"$out/ctest.log" 2>&1)
  rc_test=$?
  say "ctest:  rc=$rc_test: $(grep -E 'tests passed|tests failed' "$out/ctest.log" | tail -1)"
  grep -E "Skipped|Failed|\*\*\*" "$out/ctest.log" | head -20 | tee -a "$summary"
fi
if [ -x "$tests_cuda" ]; then
  "$tests_cuda" >"$out/cuda-tests.log" 2>&1
  rc=$?
  [ $rc -eq 0 ] || rc_test=1
  say "cuda tests: rc=$rc $(grep -E 'passed|failed' "$out/cuda-tests.log" | tail -1)"
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
  command -v g++ >/dev/null && [ -x "$tests_cuda" ]; then
  t_cov=$(date +%s)
  cuda_inc=$(dirname "$(dirname "$(command -v nvcc)")")/include
  if g++ -std=c++17 -O2 -shared -fPIC -I"$cuda_inc" scripts/kernel_log.cpp -o "$out/libtgb_kernel_log.so" -ldl &&
    scripts/kernel-launches.sh "$tests_cuda" "$out/libtgb_kernel_log.so" "$out/kernels" \
      >"$out/kernel-launches.log" 2>&1; then
    python3 scripts/kernel-coverage.py "$out/kernels" >"$out/kernel-coverage.txt" 2>&1
    [ -s "$out/kernels/cover.txt" ] && san_cases=$(cat "$out/kernels/cover.txt")
    say "kernel coverage: $(sed -n 2p "$out/kernel-coverage.txt" | sed 's/^ *//'); $(grep -E '^kernels \(templates' "$out/kernel-coverage.txt"); in $(( $(date +%s) - t_cov )) s"
    say "$(grep -E '^cover of every' "$out/kernel-coverage.txt")"
    # Every case ran alone there: that is also a run of the whole CUDA suite.
    ok=$(grep -c 'rc=0,ran=1' "$out/kernels/cases.tsv")
    say "cases run alone under the launch log: $(wc -l <"$out/kernels/cases.tsv"), passed: $ok"
    awk -F'\t' '$3 != "rc=0,ran=1"' "$out/kernels/cases.tsv" | head -20 | tee -a "$summary"
    [ "$ok" -eq "$(wc -l <"$out/kernels/cases.tsv")" ] || rc_test=1
  fi
fi
# One test spec a line: the cover's case names, or the fallback's tags.
san_cases=${san_cases:-$(printf '%s\n' '[tile]' '[sanitize]' '[residence]' '[memory]' '[cast]' '[rowpath]')}
if ! want sanitize; then
  :
elif command -v compute-sanitizer >/dev/null; then
  # The sanitizers slow kernels down by orders of magnitude (racecheck most:
  # on the H100 one process over the cover ran past a device call), so each
  # (tool, case) is its own process, several at a time on the one GPU.
  san_jobs=${TGB_SANITIZE_JOBS:-8}
  sdir="$out/sanitizers"
  rm -rf "$sdir" && mkdir -p "$sdir"  # no results of an earlier run in the same OUTDIR
  printf '%s\n' "$san_cases" | sed '/^$/d' >"$sdir/cases.txt"
  ncases=$(wc -l <"$sdir/cases.txt")
  t_san=$(date +%s)
  tools=${TGB_SANITIZERS:-memcheck racecheck synccheck initcheck}
  # One (tool, case) process, under its limit; "$1" tool, "$2" case number, "$3" spec.
  sanitize_case() {
    local t1 lim
    t1=$(date +%s)
    lim=${TGB_SANITIZE_TIMEOUT:-300}
    [ "$1" = racecheck ] && lim=${TGB_SANITIZE_TIMEOUT:-540}
    [ -n "${TGB_DEADLINE:-}" ] && [ $(( TGB_DEADLINE - t1 )) -lt "$lim" ] && lim=$(( TGB_DEADLINE - t1 ))
    if [ "$lim" -le 0 ]; then  # past the deadline: not started, counted as past its limit
      printf '124\t0\tnot started: past TGB_DEADLINE\t%s\n' "$3" >"$sdir/$1-$2.rc"
      : >"$sdir/$1-$2.log"
      return
    fi
    timeout -k 10 "$lim" compute-sanitizer --tool "$1" --error-exitcode 99 "$tests_cuda" "$3" \
      >"$sdir/$1-$2.log" 2>&1
    printf '%s\t%s\t%s\t%s\n' "$?" "$(( $(date +%s) - t1 ))" \
      "$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$sdir/$1-$2.log" | tail -1 | sed 's/^=* *//')" "$3" \
      >"$sdir/$1-$2.rc"
  }
  # Each tool's cases, "$2" processes at a time ("$1" the tools).
  sanitize_cases() {
    local tool n spec running=0 at_once=$2
    [ "$at_once" -ge 1 ] 2>/dev/null || at_once=1
    for tool in $1; do
      n=0
      while IFS= read -r spec; do
        n=$((n + 1))
        if [ "$running" -ge "$at_once" ]; then wait -n; running=$((running - 1)); fi
        sanitize_case "$tool" "$n" "$spec" &
        running=$((running + 1))
      done <"$sdir/cases.txt"
    done
    wait
  }
  # initcheck runs alone on the GPU, one case at a time, after the others:
  # eight initcheck processes at once reported tens of thousands of reads of
  # memory written whole before them (a plain CUB scan of an array a kernel
  # had just filled on the same stream) and failed kernels that never fail
  # unsanitized; one process alone, one report in 59,321 scans (r117-r118,
  # H200, docs/testing.md).
  others=$(printf '%s\n' $tools | grep -vx initcheck | tr '\n' ' ')
  [ -n "${others// /}" ] && sanitize_cases "$others" "$san_jobs"
  [[ " $tools " == *" initcheck "* ]] && sanitize_cases initcheck "${TGB_INITCHECK_JOBS:-1}"
  for tool in $tools; do
    clean=0 bad=0 late=0
    for f in "$sdir/$tool"-*.rc; do
      [ -e "$f" ] || continue
      case $(cut -f1 "$f") in
        0) clean=$((clean + 1)) ;;
        124|137) late=$((late + 1)) ;;
        *) bad=$((bad + 1)) ;;
      esac
      { echo "=== compute-sanitizer --tool $tool: $(cut -f4 "$f")"; cat "${f%.rc}.log"; } >>"$out/sanitizer.log"
    done
    [ $((bad + late)) -eq 0 ] && [ $clean -eq "$ncases" ] || rc_san=1
    say "compute-sanitizer $tool: $ncases cases, $clean clean, $bad with errors or failures, $late past their time limit"
    for f in "$sdir/$tool"-*.rc; do
      [ -e "$f" ] && [ "$(cut -f1 "$f")" != 0 ] && say "  rc=$(cut -f1 "$f") after $(cut -f2 "$f") s: $(cut -f4 "$f") ($(cut -f3 "$f"))"
    done
  done
  say "sanitizers: $tools over $ncases cases, $san_jobs at a time (initcheck ${TGB_INITCHECK_JOBS:-1}), in $(( $(date +%s) - t_san )) s"
else
  say "compute-sanitizer: not found"
  rc_san=1
fi

if want demo; then
"$tgb_cli" demo >"$out/demo.log" 2>&1
say "demo:   rc=$? $(tail -1 "$out/demo.log")"
[ -d "$examples" ] && {
  "$examples/tgb-example-triangles_by_vertex" tests/data/polbooks.mtx &&
    "$examples/tgb-example-reachability" tests/data/jagmesh7.mtx 5 &&
    "$examples/tgb-example-communities"
} >"$out/examples.log" 2>&1
say "examples: rc=$?"
fi
if want bench && [ -x "$tgb_bench" ]; then
  # The generated suite plus the larger real matrices that travel with the repo.
  "$tgb_bench" --json "$out/bench.jsonl" --host-reps 3 ${TGB_BENCH_ARGS:-} \
    tests/data/bcsstk13.mtx tests/data/ca-GrQc.mtx tests/data/crack.mtx tests/data/cage8.mtx \
    tests/data/fidapex6.mtx tests/data/luxembourg.mtx tests/data/jagmesh7.mtx tests/data/add32.mtx \
    >"$out/bench.log" 2>&1
  say "bench:  rc=$?"
  tail -40 "$out/bench.log"
fi
if want algorithms && [ -x "$tgb_bench" ]; then
  # The graph algorithms on both backends (host with one timed run).
  "$tgb_bench" --algorithms --json "$out/bench-algorithms.jsonl" --host-reps 1 ${TGB_BENCH_ARGS:-} \
    tests/data/ca-GrQc.mtx tests/data/netscience.mtx >"$out/bench-algorithms.log" 2>&1
  say "bench algorithms: rc=$?"
  tail -40 "$out/bench-algorithms.log"
fi
[ $rc_test -eq 0 ] && [ $rc_san -eq 0 ]
