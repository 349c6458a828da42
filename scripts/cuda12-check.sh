#!/usr/bin/env bash
# The CUDA 12 check: builds the library, the tgb tool and the CUDA tests with
# the CUDA 12.4 compiler and CCCL 2.3 (the oldest toolkit tgb supports), so
# that code which only CUDA 13 / CCCL 3 accepts is caught without a GPU.
# Run it whenever the CUDA code changes (scripts/test.sh runs it with
# TGB_CUDA12=1). It compiles and links only; nothing runs on a GPU.
#
# The toolkit is assembled once under TGB_CUDA12_CACHE (default
# ~/.cache/tgb-cuda12), without root and without installing anything on the
# system, from:
#   PyPI: nvidia-cuda-runtime-cu12, nvidia-cuda-cccl-cu12 and
#         nvidia-cuda-nvcc-cu12 12.4 (runtime headers and libcudart, CCCL,
#         nvcc's crt headers and libnvvm; these wheels carry no nvcc driver)
#   Debian (trixie, non-free): nvidia-cuda-toolkit 12.4.1 (nvcc, cicc,
#         cudafe++, ptxas, fatbinary, nvlink), fetched with apt-get download
#         through a private apt configuration in the cache and unpacked with
#         dpkg-deb -x.
# Usage: scripts/cuda12-check.sh   (TGB_CUDA12_DIR: build folder, default
# build-cuda12; TGB_CUDA12_ARCHS: architectures, default 80-real;
# TGB_CUDA12_TARGETS: what to build, default "tgb tgb_cli tgb_tests_cuda")
set -euo pipefail
cd "$(dirname "$0")/.."
cache=${TGB_CUDA12_CACHE:-$HOME/.cache/tgb-cuda12}
root="$cache/cuda-12.4"
ver=12.4

assemble() {
  mkdir -p "$cache"
  local tmp="$cache/tmp"
  rm -rf "$tmp" "$root"
  mkdir -p "$tmp/wheels" "$tmp/whl" "$tmp/deb"
  echo "tgb: fetching CUDA $ver (PyPI wheels, Debian nvidia-cuda-toolkit) into $cache" >&2
  python3 -m pip download -q --no-deps -d "$tmp/wheels" "nvidia-cuda-runtime-cu12==$ver.*" \
    "nvidia-cuda-cccl-cu12==$ver.*" "nvidia-cuda-nvcc-cu12==$ver.*"
  for w in "$tmp"/wheels/*.whl; do python3 -m zipfile -e "$w" "$tmp/whl/"; done
  # A private apt configuration: the system's sources and state are untouched.
  local apt="$cache/apt"
  mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
  echo "deb http://deb.debian.org/debian trixie non-free" >"$apt/sources.list"
  local aptopts=(-o Dir::Etc::SourceList="$apt/sources.list" -o Dir::Etc::SourceParts=/nonexistent
                 -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" -o APT::Sandbox::User=root)
  apt-get "${aptopts[@]}" update -qq
  (cd "$tmp" && apt-get "${aptopts[@]}" download -qq nvidia-cuda-toolkit)
  ls "$tmp"/nvidia-cuda-toolkit_$ver.*.deb >/dev/null  # trixie has 12.4.1
  dpkg-deb -x "$tmp"/nvidia-cuda-toolkit_*.deb "$tmp/deb"

  # The layout of a toolkit from NVIDIA's installer, which CMake expects.
  local w="$tmp/whl/nvidia" d="$tmp/deb/usr" t="$root/targets/x86_64-linux"
  mkdir -p "$root/bin/crt" "$root/nvvm/bin" "$root/nvvm/lib64" "$root/nvvm/libdevice" "$t/include" "$t/lib"
  ln -s targets/x86_64-linux/include "$root/include"
  ln -s targets/x86_64-linux/lib "$root/lib64"
  cp "$d/lib/nvidia-cuda-toolkit/bin/nvcc" "$root/bin/"
  cp "$d/lib/nvidia-cuda-toolkit/bin/crt/"*.stub "$root/bin/crt/"
  for b in cudafe++ ptxas fatbinary nvlink bin2c nvprune cuobjdump; do cp "$d/bin/$b" "$root/bin/"; done
  cp "$d/lib/nvidia-cuda-toolkit/bin/cicc" "$root/nvvm/bin/"
  cp "$d/lib/nvidia-cuda-toolkit/libdevice/libdevice.10.bc" "$root/nvvm/libdevice/"
  cp "$w/cuda_nvcc/nvvm/lib64/libnvvm.so" "$root/nvvm/lib64/"
  cp -r "$w/cuda_runtime/include/." "$w/cuda_nvcc/include/." "$w/cuda_cccl/include/." "$t/include/"
  rm -f "$t/include/__init__.py" "$t/include/crt/__init__.py"
  cp "$w/cuda_runtime/lib/libcudart.so.12" "$t/lib/"
  ln -s libcudart.so.12 "$t/lib/libcudart.so"
  # The wheel has no static runtime, which CMake's compiler check links by
  # default: a linker script in its place links the shared one.
  echo "INPUT(libcudart.so.12)" >"$t/lib/libcudart_static.a"
  cat >"$root/bin/nvcc.profile" <<'EOF'
TOP              = $(_HERE_)/..
NVVMIR_LIBRARY_DIR = $(TOP)/nvvm/libdevice
LD_LIBRARY_PATH += $(TOP)/lib:
PATH            += $(TOP)/nvvm/bin:$(_HERE_):
INCLUDES        +=  "-I$(TOP)/$(_TARGET_DIR_)/include" $(_SPACE_)
LIBRARIES        =+ $(_SPACE_) "-L$(TOP)/$(_TARGET_DIR_)/lib$(_TARGET_SIZE_)"
CUDAFE_FLAGS    +=
PTXAS_FLAGS     +=
EOF
  rm -rf "$tmp"
  "$root/bin/nvcc" --version | tail -2 >&2
}

[ -x "$root/bin/nvcc" ] || assemble
# Nothing of another toolkit (CUDA 13 at /usr/local/cuda) may leak in.
unset CUDA_HOME CUDA_PATH CUDAToolkit_ROOT LIBRARY_PATH CPATH CUDAARCHS

. scripts/cmake-generator.sh
build=${TGB_CUDA12_DIR:-build-cuda12}
jobs=${TGB_JOBS:-$(nproc)}
tgb_generator "$build"
mkdir -p "$build"
log="$build/cuda12-check.log"
t0=$(date +%s)
cmake -S . -B "$build" "${tgb_gen[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_COMPILER="$root/bin/nvcc" \
  -DCUDAToolkit_ROOT="$root" -DCMAKE_CUDA_ARCHITECTURES="${TGB_CUDA12_ARCHS:-80-real}" \
  -DTGB_BUILD_TESTS=ON -DTGB_BUILD_CLI=ON -DTGB_BUILD_EXAMPLES=OFF -DTGB_BUILD_BENCH=OFF >"$log" 2>&1 ||
  { tail -30 "$log" >&2; exit 1; }
grep "^-- tgb: CUDA" "$log" >&2
grep -q "^-- tgb: CUDA 12\.4" "$log" || { echo "tgb: the CUDA 12 build did not pick up CUDA 12.4" >&2; exit 1; }
read -r -a targets <<<"${TGB_CUDA12_TARGETS:-tgb tgb_cli tgb_tests_cuda}"
cmake --build "$build" -j "$jobs" --target "${targets[@]}" >>"$log" 2>&1 ||
  { grep -E "error|Error" "$log" | head -30 >&2; echo "tgb: CUDA 12 build failed (log: $log)" >&2; exit 1; }
if [ -x "$build/tgb" ]; then "$build/tgb" --version | sed 's/^/  /' >&2; fi
echo "tgb: CUDA 12.4 / CCCL 2 build passed in $(( $(date +%s) - t0 )) s (${targets[*]})" >&2
