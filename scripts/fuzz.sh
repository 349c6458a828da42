#!/usr/bin/env bash
# Builds the libFuzzer targets in fuzz/ with clang-14 (AddressSanitizer and
# UndefinedBehaviorSanitizer on) and runs each for a bounded time on its
# committed seed corpus and past findings (fuzz/regressions/, also replayed by
# tests/host/test_regressions.cpp). A crash leaves its input in fuzz/crashes/
# and fails.
# Usage: scripts/fuzz.sh [SECONDS_PER_TARGET]   (default 60)
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
if ! command -v clang++-14 >/dev/null || ! ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  pkgs=(clang-14 libclang-rt-14-dev zlib1g-dev)
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "tgb: installing ${pkgs[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${pkgs[@]}" >/dev/null
fi
out=${TGB_FUZZ_DIR:-build-fuzz}
mkdir -p "$out" fuzz/crashes
flags=(-std=c++17 -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
       -Iinclude -DTGB_HAVE_ZLIB=1 -Wno-unknown-pragmas)
# The library's host sources, as CMakeLists.txt lists them (one list), and
# the stand-ins a build without CUDA links.
mapfile -t lib_src < <(sed -n '/^add_library(tgb$/,/)/p' CMakeLists.txt | grep -o 'src/[a-z_/]*\.cpp')
[ "${#lib_src[@]}" -gt 0 ] || { echo "fuzz.sh: no sources found in CMakeLists.txt's add_library(tgb ...)" >&2; exit 1; }
lib_src+=(src/host/no_cuda.cpp src/host/no_cuda_device.cpp)
objs=()
for s in "${lib_src[@]}"; do
  o="$out/$(basename "$s" .cpp).o"
  if [ ! -f "$o" ] || [ "$s" -nt "$o" ] || [ -n "$(find include -newer "$o" -name '*.hpp' -print -quit)" ]; then
    clang++-14 "${flags[@]}" -c "$s" -o "$o"
  fi
  objs+=("$o")
done
status=0
for t in fuzz/fuzz_*.cpp; do
  name=$(basename "$t" .cpp)
  clang++-14 "${flags[@]}" -fsanitize=fuzzer "$t" "${objs[@]}" -lz -o "$out/$name"
  corpus="$out/corpus-$name"
  mkdir -p "$corpus"
  seeds="fuzz/corpus/${name#fuzz_}"
  regressions="fuzz/regressions/${name#fuzz_}"
  mkdir -p "$regressions"
  echo "== $name: ${secs}s from $(ls "$seeds" | wc -l) seeds" >&2
  if ! "$out/$name" -max_total_time="$secs" -rss_limit_mb=2048 -max_len=65536 -timeout=10 \
      -artifact_prefix=fuzz/crashes/"$name"- "$corpus" "$seeds" "$regressions" 2>"$out/$name.log"; then
    status=1
    tail -40 "$out/$name.log" >&2
  fi
  grep -E "^#[0-9]+.*DONE|Done [0-9]+ runs" "$out/$name.log" | tail -1 >&2 || true
done
exit $status
