#!/usr/bin/env bash
# The default CUDA architectures (cmake/tgbCudaArchitectures.cmake), by
# configuring tgb (library only) into scratch folders with the nvcc given:
#  1. no GPU (nvidia-smi absent): the portable list, one real architecture
#     per family from sm_75 on plus PTX of the newest; then runtime.cu is
#     compiled for that whole list (with Ninja), so the default is built.
#  2. an sm_86 GPU (a stub nvidia-smi): 86-real only ("native").
#  3. a GPU newer than the toolkit (sm_190): the portable list and a warning.
#  4. -DCMAKE_CUDA_ARCHITECTURES=80 named: kept as is.
#  5. an nvcc older than 12.4 (a stub): configuring fails naming 12.4.
# Usage: test-cuda-architectures.sh NVCC   (prints "N passed, N failed")
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
nvcc=${1:-${CMAKE_CUDA_COMPILER:-/usr/local/cuda/bin/nvcc}}
tmp=$(mktemp -d)
trap '[ -n "${TGB_KEEP:-}" ] || rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok: $1"; }
bad() { failed=$((failed + 1)); echo "FAILED: $1"; tail -20 "$tmp/out" | sed 's/^/    /'; }
gen=()
command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)

# configure NAME PATH-PREFIX CMAKE-ARGS...: output in $tmp/out
configure() {
  local name=$1 prefix=$2
  shift 2
  env -u CUDAARCHS PATH="$prefix$PATH" cmake -S "$repo" -B "$tmp/$name" "${gen[@]}" \
    -DCMAKE_CUDA_COMPILER="$nvcc" -DTGB_BUILD_TESTS=OFF -DTGB_BUILD_CLI=OFF -DTGB_BUILD_EXAMPLES=OFF \
    -DTGB_BUILD_BENCH=OFF "$@" >"$tmp/out" 2>&1
}
chosen() { sed -n 's/^-- tgb: CUDA .*(CMAKE_CUDA_ARCHITECTURES=\(.*\))$/\1/p' "$tmp/out"; }

# What this nvcc offers: the expected portable list.
expected=""
newest=""
majors=" "
for a in $("$nvcc" --list-gpu-code | sed -n 's/^sm_\([0-9]*\)$/\1/p' | sort -n); do
  [ "$a" -ge 75 ] || continue
  m=$((a / 10))
  case "$majors" in *" $m "*) continue ;; esac
  majors="$majors$m "
  expected="$expected${expected:+;}$a-real"
  newest=$a
done
expected="$expected;$newest-virtual"

# A bin folder with an nvidia-smi stub reporting the compute capability given.
fake_smi() {
  mkdir -p "$tmp/smi-$1"
  printf '#!/bin/sh\necho "%s"\n' "$1" >"$tmp/smi-$1/nvidia-smi"
  chmod +x "$tmp/smi-$1/nvidia-smi"
  echo "$tmp/smi-$1:"
}
# A bin folder whose nvidia-smi fails, as on a machine with no driver.
mkdir -p "$tmp/nosmi"
printf '#!/bin/sh\necho "NVIDIA-SMI has failed" >&2\nexit 9\n' >"$tmp/nosmi/nvidia-smi"
chmod +x "$tmp/nosmi/nvidia-smi"

# 1
if configure portable "$tmp/nosmi:" && [ "$(chosen)" = "$expected, portable" ]; then
  ok "no GPU: $expected"
  if [ ${#gen[@]} -gt 0 ]; then
    if cmake --build "$tmp/portable" --target CMakeFiles/tgb.dir/src/cuda/runtime.cu.o >"$tmp/out" 2>&1; then
      ok "runtime.cu compiles for the portable list"
    else
      bad "runtime.cu does not compile for the portable list"
    fi
  fi
else
  bad "no GPU: got '$(chosen)', want '$expected, portable'"
fi
# Configuring again keeps the default and its origin.
if configure portable "$tmp/nosmi:" && [ "$(chosen)" = "$expected, portable" ]; then
  ok "configuring again: still the portable default"
else
  bad "configuring again: got '$(chosen)'"
fi
# 2
if configure native "$(fake_smi 8.6)" && [ "$(chosen)" = "86-real, native" ]; then
  ok "an sm_86 GPU: 86-real"
else
  bad "an sm_86 GPU: got '$(chosen)'"
fi
# 3
if configure future "$(fake_smi 19.0)" && [ "$(chosen)" = "$expected, portable" ] &&
  grep -q "sm_190" "$tmp/out"; then
  ok "a GPU newer than the toolkit: the portable list and a warning"
else
  bad "a GPU newer than the toolkit: got '$(chosen)'"
fi
# 4
if configure user "$(fake_smi 8.6)" -DCMAKE_CUDA_ARCHITECTURES=80 && [ "$(chosen)" = "80, user" ] &&
  grep -q "architectures sm_80;compute_80 " "$tmp/out"; then
  ok "named: 80 kept (sm_80 and compute_80)"
else
  bad "named 80: got '$(chosen)'"
fi
# 5
mkdir -p "$tmp/old"
printf '#!/bin/sh\necho "Cuda compilation tools, release 12.2, V12.2.140"\n' >"$tmp/old/nvcc"
chmod +x "$tmp/old/nvcc"
if nvcc="$tmp/old/nvcc" configure old "" 2>/dev/null; then
  bad "CUDA 12.2: configured"
elif grep -q "needs CUDA 12.4 or newer" "$tmp/out" && grep -q "CUDA 12.2" "$tmp/out"; then
  ok "CUDA 12.2: configure fails naming 12.4"
else
  bad "CUDA 12.2: message lacks the minimum"
fi

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
