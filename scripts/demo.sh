#!/usr/bin/env bash
# Builds the tgb command-line tool and runs `tgb demo` on the bundled graphs
# (on the GPU where the CUDA backend runs the operations, on the host otherwise).
# The CUDA code is built for this machine's GPU (README, "Building");
# TGB_CMAKE_ARGS adds CMake options, e.g. -DCMAKE_CUDA_ARCHITECTURES=86.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh build
. scripts/cmake-generator.sh
build=${TGB_BUILD_DIR:-build-demo}
# Without a GPU the demo runs on the host: no CUDA code to compile (unless asked for).
cuda_args=()
if ! nvidia-smi -L >/dev/null 2>&1 && [[ "${TGB_CMAKE_ARGS:-}" != *CUDA* ]] && [ ! -f "$build/CMakeCache.txt" ]; then
  echo "tgb: no GPU found (nvidia-smi): building the host backend only" >&2
  cuda_args=(-DTGB_ENABLE_CUDA=OFF)
fi
tgb_generator "$build"
mkdir -p "$build"
cmake -S . -B "$build" "${tgb_gen[@]}" -DCMAKE_BUILD_TYPE=Release -DTGB_BUILD_TESTS=OFF -DTGB_BUILD_EXAMPLES=OFF \
  -DTGB_BUILD_BENCH=OFF -DTGB_BUILD_CLI=ON "${cuda_args[@]}" ${TGB_CMAKE_ARGS:-} >"$build/configure.log" 2>&1 ||
  { cat "$build/configure.log" >&2; exit 1; }
grep "^-- tgb:" "$build/configure.log" >&2 || true
cmake --build "$build" -j "${TGB_JOBS:-$(nproc)}" --target tgb_cli >/dev/null
exec "$build/tgb" demo "$@"
