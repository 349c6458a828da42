#!/usr/bin/env bash
# The side-by-side SpGEMM benchmark on the GPU machine, in one command under 9 minutes (H100):
#   1. spECK's build (about 2 minutes) in the background, while tgb-bench is built (Release, sm_90);
#   2. the suite's matrices (generated and the real graphs of the data folder) written as Matrix
#      Market (tgb-bench --write-mtx) for CuPy and the peers;
#   3. tgb-bench on the GPU (tgb and cuSPARSE; plus_times, min_plus, lor_land, masked triangles);
#   4. scripts/cupy-check.py: the same cuSPARSE SpGEMM through CuPy, joined with tgb-bench's;
#   5. scripts/bench-peers.sh: OpSparse and spECK;
#   6. scripts/bench-report.py: report.md.
# Usage: scripts/gpu-bench.sh OUTDIR
# OUTDIR gets 8 files: summary.txt report.md bench.log bench.jsonl cupy.log cupy.jsonl peers.jsonl
# logs.tar.gz (build logs, the matrix writing log, the peers' output).
# Inputs (ignored folders of the checkout, carried to the GPU machine):
#   TGB_PEERS (default .peers, else ../shared/peers)   a copy of ../shared/peers
#   TGB_DATA  (default .data,  else ../shared/data)    a copy of ../shared/data (the 8 real graphs)
# Knobs: TGB_BENCH_BUDGET (seconds for everything, default 520), TGB_BENCH_REPS (10),
#   TGB_BENCH_OPS (plus_times_f64,min_plus_f64,lor_land_bool,tri_masked), TGB_HOST_CHECK_MAX (5e7
#   products: above it min_plus/lor_land are checked by pattern against cuSPARSE, the triangle
#   product unchecked), TGB_BENCH_ARGS (more tgb-bench options), TGB_BUILD_DIR (build-gpu-bench),
#   TGB_JOBS (nproc), TGB_BENCH_BIN (a tgb-bench already built for this GPU: no build), TGB_DRY_RUN=1 (build and write the matrices, print the GPU steps, run none).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
[ $# -ge 1 ] || { echo "usage: scripts/gpu-bench.sh OUTDIR" >&2; exit 2; }
mkdir -p "$1" && out=$(cd "$1" && pwd)
start=$(date +%s)
deadline=$((start + ${TGB_BENCH_BUDGET:-520}))
build=$root/${TGB_BUILD_DIR:-build-gpu-bench}
work=$build/bench-work
logs=$work/logs
jobs=${TGB_JOBS:-$(nproc)}
reps=${TGB_BENCH_REPS:-10}
ops=${TGB_BENCH_OPS:-plus_times_f64,min_plus_f64,lor_land_bool,tri_masked}
cap=${TGB_HOST_CHECK_MAX:-5e7}
dry=${TGB_DRY_RUN:-0}
rm -rf "$work" && mkdir -p "$logs" "$work/mtx" "$work/data"
summary=$out/summary.txt
: >"$summary"
say() { echo "[gpu-bench +$(($(date +%s) - start))s] $*" | tee -a "$summary"; }
left() { echo $((deadline - $(date +%s))); }
pick() { for d in "$@"; do [ -d "$d" ] && { (cd "$d" && pwd); return; }; done; }
peers=$(pick "${TGB_PEERS:-.peers}" ../shared/peers)
data=$(pick "${TGB_DATA:-.data}" ../shared/data)
finish() {  # the logs into one archive, the report, the exit status
  cp "$out/summary.txt" "$logs/" 2>/dev/null
  tar -czf "$out/logs.tar.gz" -C "$work" logs 2>/dev/null
  say "done in $(($(date +%s) - start)) s; files in $out: $(ls "$out" | tr '\n' ' ')"
  exit "$1"
}

say "commit: ${TGB_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}$(git diff --quiet 2>/dev/null || echo ' (+ local changes)')"
say "gpu:    $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -1)"
say "nvcc:   $(nvcc --version 2>/dev/null | tail -1)"
say "cupy:   $(python3 -c 'import cupy; print(cupy.__version__)' 2>&1 | tail -1)"
say "peers:  ${peers:-NONE (no .peers nor ../shared/peers: OpSparse and spECK skipped)}"
say "data:   ${data:-NONE (no .data nor ../shared/data: real graphs skipped)}"

# 1. spECK in the background (its build.sh starts from scratch), tgb-bench in the foreground.
# The peers are copied into the build folder (ignored, kept on a warm machine between calls, where
# carried folders are replaced), so that a second run reuses spECK's build.
speck_pid=""
sid=""
if [ -n "$peers" ] && [ "$dry" != 1 ]; then
  if [ -x "$build/peers/speck/build/runspECK" ] && diff -rq -x build -x mtxnorm "$peers" "$build/peers" >/dev/null 2>&1; then
    say "spECK: already built in $build/peers"
  else
    rm -rf "$build/peers" && mkdir -p "$build" && cp -r "$peers" "$build/peers" && rm -rf "$build/peers/speck/build"
    # its own process group (setsid), so that stopping it stops its compilers too
    sid=$(command -v setsid || true)
    JOBS=$jobs $sid bash "$build/peers/speck/build.sh" >"$logs/speck-build.log" 2>&1 &
    speck_pid=$!
    say "spECK build started in the background (pid $speck_pid)"
  fi
  peers=$build/peers
fi
t0=$(date +%s)
if [ -n "${TGB_BENCH_BIN:-}" ]; then  # a tgb-bench built elsewhere for this GPU (no build here)
  mkdir -p "$build" && cp "$TGB_BENCH_BIN" "$build/tgb-bench" && echo "prebuilt: $TGB_BENCH_BIN" >"$logs/build.log"
else
{
  if [ ! -f "$build/CMakeCache.txt" ]; then
    cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
      -DTGB_BUILD_TESTS=OFF -DTGB_BUILD_CLI=OFF -DTGB_BUILD_EXAMPLES=OFF -DTGB_BUILD_BENCH=ON
  fi && cmake --build "$build" -j "$jobs" --target tgb_bench
} >"$logs/build.log" 2>&1
fi
rc=$?
say "tgb-bench build: rc=$rc in $(($(date +%s) - t0)) s"
if [ $rc -ne 0 ] || [ ! -x "$build/tgb-bench" ]; then
  tail -30 "$logs/build.log" | tee -a "$summary"
  [ -n "$speck_pid" ] && kill -- -"$speck_pid" 2>/dev/null
  finish 1
fi
bench=$build/tgb-bench

# 2. The real graphs (Slashdot unzipped here: tgb reads .gz only when built with zlib), then
#    every suite matrix as .mtx (and .csr.bin for CuPy).
data_args=()
if [ -n "$data" ]; then
  for f in "$data"/*; do ln -sf "$f" "$work/data/"; done
  if [ -f "$data/soc-Slashdot0902.txt.gz" ] && [ ! -f "$data/soc-Slashdot0902.txt" ]; then
    rm -f "$work/data/soc-Slashdot0902.txt.gz"
    gzip -dc "$data/soc-Slashdot0902.txt.gz" >"$work/data/soc-Slashdot0902.txt" || say "ERROR: cannot unzip Slashdot"
  fi
  data_args=(--data "$work/data")
fi
t0=$(date +%s)
"$bench" --write-mtx "$work/mtx" "${data_args[@]}" >"$logs/write-mtx.log" 2>&1
rc=$?
say "suite written: rc=$rc, $(ls "$work/mtx"/*.mtx 2>/dev/null | wc -l) .mtx files, $(du -sh "$work/mtx" | cut -f1), $(($(date +%s) - t0)) s"
grep -E "FAILED|MISSING|WARNING" "$logs/write-mtx.log" | tee -a "$summary"

# Nothing is timed while spECK compiles (it would load the host): wait for it, or stop it when
# waiting would leave too little time for the rest.
if [ -n "$speck_pid" ]; then
  while kill -0 "$speck_pid" 2>/dev/null && [ "$(left)" -gt 290 ]; do sleep 2; done
  if kill -0 "$speck_pid" 2>/dev/null; then
    if [ -n "$sid" ]; then kill -- -"$speck_pid" 2>/dev/null; else kill "$speck_pid" 2>/dev/null; fi
    wait "$speck_pid" 2>/dev/null
    say "spECK build STOPPED (too slow for the budget): spECK skipped"
  else
    wait "$speck_pid"; rc=$?
    say "spECK build: rc=$rc $(tail -1 "$logs/speck-build.log")"
  fi
fi

if [ "$dry" = 1 ]; then
  say "dry run: would run: timeout \$(left - 150) $bench --no-host --reps $reps --ops $ops --host-check-max $cap ${data_args[*]} --json $out/bench.jsonl ${TGB_BENCH_ARGS:-}"
  say "dry run: would run: python3 scripts/cupy-check.py $work/mtx --reps $reps --out $out/cupy.jsonl --bench $out/bench.jsonl"
  PEERS_DRY_RUN=1 scripts/bench-peers.sh "$work/mtx" "${peers:-/nonexistent}" "$out/peers.jsonl" >"$logs/peers.log" 2>&1
  say "dry run: bench-peers: $(tail -1 "$logs/peers.log")"
  finish 0
fi

# 3. tgb-bench on the GPU: leave at least 150 s for CuPy, the peers and the report.
t=$(($(left) - 150)); [ $t -lt 60 ] && t=60
t0=$(date +%s)
# shellcheck disable=SC2086
timeout "$t" "$bench" --no-host --reps "$reps" --ops "$ops" --host-check-max "$cap" "${data_args[@]}" \
  --json "$out/bench.jsonl" ${TGB_BENCH_ARGS:-} >"$out/bench.log" 2>&1
rc=$?
say "tgb-bench: rc=$rc in $(($(date +%s) - t0)) s (limit $t s$([ $rc -eq 124 ] && echo ': TIMED OUT, rows so far kept'))"
grep -E "^# (tgb-bench|pool|summary)|geomean|CHECK FAILED|MISSING" "$out/bench.log" | tee -a "$summary"

# 4. CuPy.
t=$(($(left) - 100)); [ $t -gt 120 ] && t=120; [ $t -lt 30 ] && t=30
t0=$(date +%s)
timeout "$t" python3 scripts/cupy-check.py "$work/mtx" --reps "$reps" --out "$out/cupy.jsonl" \
  --bench "$out/bench.jsonl" >"$out/cupy.log" 2>&1
rc=$?
say "cupy-check: rc=$rc in $(($(date +%s) - t0)) s (0 all within 10%, 3 some flagged, 124 timed out)"
grep -E "CUPY-CHECK|FLAG|FAILED|Error" "$out/cupy.log" | head -20 | tee -a "$summary"

# 4b. The cause of the old gap, on the same binary: the old pool policy (release threshold 0) on two
#     matrices, plus_times only (TGB_POOL_AB=0 skips it; run only with time to spare).
if [ "${TGB_POOL_AB:-1}" = 1 ] && [ "$(left)" -gt 150 ]; then
  timeout 60 "$bench" --no-host --reps "$reps" --ops plus_times_f64 --only lap2d_1024,blocks6_120k --pool release \
    --json "$logs/pool-release.jsonl" >"$logs/pool-release.log" 2>&1
  say "pool A/B: rc=$?; median ms with --pool release (old) against keep (bench.jsonl):"
  python3 - "$logs/pool-release.jsonl" "$out/bench.jsonl" <<'PY' 2>&1 | tee -a "$summary"
import json, sys
rel = {(r["matrix"], r["impl"]): r for r in map(json.loads, open(sys.argv[1])) if r["op"] == "plus_times_f64"}
keep = {(r["matrix"], r["impl"]): r for r in map(json.loads, open(sys.argv[2])) if r["op"] == "plus_times_f64"}
for k, r in sorted(rel.items()):
    kp = keep.get(k)
    print(f"  {k[0]:<14} {k[1]:<9} release {r['median_ms']:9.3f}  keep {kp['median_ms'] if kp else float('nan'):9.3f}"
          f"  pool peak {r['pool_peak_mb']:9.1f} MB")
PY
fi

# 5. The peers, until 15 s before the deadline (smallest matrices first).
if [ -n "$peers" ]; then
  t0=$(date +%s)
  PEERS_DEADLINE=$((deadline - 15)) PEERS_SKIP_SPECK_BUILD=1 OPSPARSE_BUILD="$build/opsparse" \
    scripts/bench-peers.sh "$work/mtx" "$peers" "$out/peers.jsonl" >"$logs/peers.log" 2>&1
  say "peers: rc=$? in $(($(date +%s) - t0)) s: $(grep -c '"ms":[0-9]' "$out/peers.jsonl") times, $(grep -c '"ms":null' "$out/peers.jsonl") without"
  cp "$work/mtx/opsparse-build.log" "$logs/" 2>/dev/null
else
  : >"$out/peers.jsonl"
fi

# 6. The report (a missing input is a warning in logs/report.err and an empty column).
touch "$out/bench.jsonl" "$out/cupy.jsonl" "$out/peers.jsonl"
python3 scripts/bench-report.py --bench "$out/bench.jsonl" --cupy "$out/cupy.jsonl" --peers "$out/peers.jsonl" \
  --log "$out/bench.log" --out "$out/report.md" >/dev/null 2>"$logs/report.err"
say "report: rc=$? ($out/report.md)"
sed -n '/^Geometric means/,/^$/p' "$out/report.md" 2>/dev/null | tee -a "$summary"
finish 0
