#!/usr/bin/env bash
# The host side by side: tgb's host backend against SuiteSparse:GraphBLAS 10.5 (the PyPI wheel
# `suitesparse-graphblas`, the version issue 13's targets name) in one process, same threads.
# Usage: scripts/bench-host.sh OUTDIR [tgb-bench options...]
#   default options: --no-gpu --threads 2 --reps 7 --host-reps 7 --ops plus_times_f64,tri_masked
#   --data DATA (the eight real graphs) --only the eight real graphs.
# OUTDIR gets bench.log and bench.jsonl.
# How the wheel is used: tgb-bench is built against the GraphBLAS headers on this machine
# (Debian's libgraphblas-dev 7.4; install-deps.sh test installs it); the wheel's
# libgraphblas.so.10.5.1 is put first on the library path under that soname, so the same binary
# calls 10.5. The C API calls tgb-bench makes are the same in both; tgb-bench prints the file it
# resolved (a "# SuiteSparse:GraphBLAS:" line) so the log says which library ran. The wheel is
# downloaded once into .data/ss-wheel (pip download; no root, no install).
# Knobs: TGB_DATA (default .data, else ../shared/data), TGB_BUILD_DIR (build-host-bench),
#   TGB_SS_LIB (a folder already holding libgraphblas.so.7: no download), TGB_SS_SYSTEM=1 (time
#   the system's library instead of the wheel's).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
[ $# -ge 1 ] || { echo "usage: scripts/bench-host.sh OUTDIR [tgb-bench options...]" >&2; exit 2; }
mkdir -p "$1" && out=$(cd "$1" && pwd)
shift
build=$root/${TGB_BUILD_DIR:-build-host-bench}
data=${TGB_DATA:-}
if [ -z "$data" ]; then
  if [ -f .data/ca-GrQc.mtx ]; then data=$root/.data; else data=$root/../shared/data; fi
fi

scripts/install-deps.sh test >/dev/null || true
gen=(); command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
cmake -S . -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DTGB_ENABLE_CUDA=OFF -DTGB_BUILD_TESTS=OFF \
  -DTGB_BUILD_CLI=OFF -DTGB_BUILD_EXAMPLES=OFF -DTGB_BENCH_WITH_GRAPHBLAS=ON >"$out/configure.log"
cmake --build "$build" --target tgb-bench -j"$(nproc)" >"$out/build.log"

libdir=${TGB_SS_LIB:-}
if [ -z "$libdir" ] && [ "${TGB_SS_SYSTEM:-0}" != 1 ]; then
  libdir=$root/.data/ss-wheel/lib
  if [ ! -e "$libdir/libgraphblas.so.7" ]; then
    rm -rf "$root/.data/ss-wheel" && mkdir -p "$root/.data/ss-wheel/unpacked" "$libdir"
    python3 -m pip download --no-deps --only-binary=:all: -d "$root/.data/ss-wheel" 'suitesparse-graphblas==10.5.*'
    python3 -m zipfile -e "$root"/.data/ss-wheel/suitesparse_graphblas-*.whl "$root/.data/ss-wheel/unpacked"
    for f in "$root"/.data/ss-wheel/unpacked/suitesparse_graphblas.libs/*; do
      ln -sf "$f" "$libdir/$(basename "$f")"
      case $(basename "$f") in libgraphblas*) ln -sf "$f" "$libdir/libgraphblas.so.7" ;; esac
    done
  fi
fi

args=("$@")
if [ ${#args[@]} -eq 0 ]; then
  args=(--no-gpu --threads 2 --reps 7 --host-reps 7 --ops plus_times_f64,tri_masked --data "$data"
        --only ca-GrQc,email,luxembourg,hep-th,cond-mat,4elt,bcsstk33,Slashdot)
fi
echo "# scripts/bench-host.sh at $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (tree modified)'), $(date -u +%FT%TZ)" >"$out/bench.log"
LD_LIBRARY_PATH=${libdir:+$libdir:}${LD_LIBRARY_PATH:-} OMP_WAIT_POLICY=PASSIVE \
  "$build/tgb-bench" --json "$out/bench.jsonl" "${args[@]}" 2>&1 | tee -a "$out/bench.log"
grep -q '^# SuiteSparse:GraphBLAS: ' "$out/bench.log" || { echo "bench-host: tgb-bench was built without SuiteSparse:GraphBLAS" >&2; exit 1; }
