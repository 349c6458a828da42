#!/usr/bin/env bash
# Builds the tgb command-line tool and runs `tgb demo` on the bundled graphs
# (on the GPU where the CUDA backend runs the operations, on the host otherwise).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh build
build=${TGB_BUILD_DIR:-build-demo}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTGB_BUILD_TESTS=OFF -DTGB_BUILD_EXAMPLES=OFF \
  -DTGB_BUILD_CLI=ON ${TGB_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j "${TGB_JOBS:-$(nproc)}" --target tgb_cli >/dev/null
exec "$build/tgb" demo "$@"
