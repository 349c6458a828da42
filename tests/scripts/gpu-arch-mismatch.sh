#!/usr/bin/env bash
# On a GPU machine: a tgb built for another architecture only (real code, no
# PTX) must refuse this GPU with a clear message naming the GPU's
# architecture and the ones built, never crash or report "invalid device
# function"; `auto` falls back to the host and still computes.
# Builds the library and the tgb tool once more into BUILD (default
# build-arch-mismatch) for sm_80 (sm_90 where the GPU is an 8.x one).
# Usage: tests/scripts/gpu-arch-mismatch.sh   (exit 77 where there is no GPU;
# prints "N passed, N failed")
set -uo pipefail
cd "$(dirname "$0")/../.."
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' ')
if [ -z "$cap" ]; then
  echo "SKIPPED: no GPU (nvidia-smi)"
  exit 77
fi
sm=${cap/./}
other=80
[ "${sm:0:1}" = 8 ] && [ ${#sm} -eq 2 ] && other=90
build=${TGB_BUILD_DIR:-build-arch-mismatch}
gen=()
[ -f "$build/CMakeCache.txt" ] || { command -v ninja >/dev/null 2>&1 && gen=(-G Ninja); }
echo "GPU sm_$sm; building for sm_$other only into $build"
cmake -S . -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$other-real" \
  -DTGB_BUILD_TESTS=OFF -DTGB_BUILD_CLI=ON -DTGB_BUILD_EXAMPLES=OFF -DTGB_BUILD_BENCH=OFF >"$build.log" 2>&1 &&
  cmake --build "$build" -j "${TGB_JOBS:-$(nproc)}" --target tgb_cli >>"$build.log" 2>&1 ||
  { tail -30 "$build.log"; echo "0 passed, 1 failed"; exit 1; }

passed=0 failed=0
check() {  # check NAME WANT-STATUS COMMAND...: output must name both architectures
  local name=$1 want=$2
  shift 2
  "$@" >"$build/out" 2>&1
  local rc=$?
  if [ $rc -ne "$want" ]; then
    failed=$((failed + 1)); echo "FAILED: $name: exit $rc, want $want"; sed 's/^/    /' "$build/out"; return
  fi
  if grep -qi "invalid device function\|no kernel image is available" "$build/out" ||
    ! grep -q "sm_$sm" "$build/out" || ! grep -q "sm_$other" "$build/out"; then
    failed=$((failed + 1)); echo "FAILED: $name: message"; sed 's/^/    /' "$build/out"; return
  fi
  passed=$((passed + 1)); echo "ok: $name: $(grep -m1 "sm_$sm" "$build/out")"
}
check "tgb --version" 0 "$build/tgb" --version
check "tc --backend cuda" 2 "$build/tgb" tc tests/data/karate.mtx --backend cuda
check "mxm --backend cuda" 2 "$build/tgb" mxm tests/data/karate.mtx tests/data/karate.mtx --backend cuda
# auto: falls back to the host and computes the right answer (karate: 45 triangles).
"$build/tgb" tc tests/data/karate.mtx >"$build/out" 2>&1
if [ $? -eq 0 ] && grep -q "triangles: 45" "$build/out"; then
  passed=$((passed + 1)); echo "ok: tc --backend auto: falls back to the host"
else
  failed=$((failed + 1)); echo "FAILED: tc --backend auto"; sed 's/^/    /' "$build/out"
fi
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
