#!/usr/bin/env bash
# Finds the tools tgb needs and installs only what is really missing.
# Usage: scripts/install-deps.sh [build|test|fuzz]
#   build: a C++17 compiler, CMake >= 3.24, Ninja or Make; zlib headers
#          (optional: without them gzip input is off)
#   test:  also Catch2 (v2 or v3); optional: SuiteSparse:GraphBLAS, mcl and networkx
#          (the reference tests), clang-14 with libFuzzer (scripts/fuzz.sh)
#   fuzz:  clang-14 and its libFuzzer runtime only; exits 1 if they are
#          missing and cannot be installed (scripts/test.sh then skips fuzzing)
# It looks for the tools themselves (on the PATH, through the compiler), not
# for Debian package names. What is missing is installed with apt-get where
# apt-get works (as root, or with sudo that asks no password); elsewhere it
# says what is missing and how to get it, and fails only if something
# required is missing. Ninja is optional where Make exists: the scripts
# build with Make when there is no Ninja.
set -uo pipefail
what=${1:-test}
cmake_min=3.24

cxx=${CXX:-}
if [ -z "$cxx" ]; then
  for c in c++ g++ clang++; do
    if command -v "$c" >/dev/null 2>&1; then cxx=$c; break; fi
  done
fi
# True when the compiler finds the header: `has_header zlib.h`.
has_header() {
  [ -n "$cxx" ] && printf '#include <%s>\n' "$1" | "$cxx" -x c++ -E - >/dev/null 2>&1
}
version_ge() {  # version_ge 3.25.1 3.24
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -1)" = "$2" ]
}

missing_req=()    # "debian-package|what|how to get it without apt"
missing_opt=()
need() { missing_req+=("$1"); }
want() { missing_opt+=("$1"); }

check_build() {
  if [ -z "$cxx" ] || ! printf 'int main(){}\n' | "$cxx" -std=c++17 -x c++ -fsyntax-only - >/dev/null 2>&1; then
    need "g++|a C++17 compiler (c++, g++ or clang++; or set CXX)|your system's package manager, e.g. apt-get install g++"
  fi
  if ! command -v cmake >/dev/null 2>&1; then
    need "cmake|cmake (>= $cmake_min)|pip install cmake"
  else
    v=$(cmake --version 2>/dev/null | sed -n 's/^cmake version \([0-9.]*\).*/\1/p' | head -1)
    if [ -z "$v" ] || ! version_ge "$v" "$cmake_min"; then
      need "cmake|cmake >= $cmake_min (found ${v:-an unreadable version} at $(command -v cmake))|pip install cmake"
    fi
  fi
  if ! command -v ninja >/dev/null 2>&1; then
    if command -v make >/dev/null 2>&1; then
      want "ninja-build|ninja (builds use Make instead)|pip install ninja"
    else
      need "ninja-build|ninja or make|pip install ninja"
    fi
  fi
  has_header zlib.h || want "zlib1g-dev|the zlib headers (without them gzip input is off)|your system's package manager, e.g. apt-get install zlib1g-dev"
}

have_fuzz() {
  command -v clang++-14 >/dev/null 2>&1 &&
    ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1
}

# Catch2 as CMake finds it: its package file under CMAKE_PREFIX_PATH or a usual prefix.
has_catch2_package() {
  local d
  for d in ${CMAKE_PREFIX_PATH:+${CMAKE_PREFIX_PATH//:/ }} /usr /usr/local /opt/catch2 "$HOME/.local"; do
    ls "$d"/lib*/cmake/Catch2/Catch2Config.cmake "$d"/share/cmake/Catch2/Catch2Config.cmake \
      "$d"/lib/*/cmake/Catch2/Catch2Config.cmake >/dev/null 2>&1 && return 0
  done
  return 1
}

check_test() {
  if ! has_header catch2/catch.hpp && ! has_header catch2/catch_test_macros.hpp && ! has_catch2_package; then
    need "catch2|Catch2 (v2 or v3)|build Catch2 v3 from its sources (cmake -S Catch2 -B b && cmake --build b && cmake --install b --prefix ~/.local) and add that prefix to CMAKE_PREFIX_PATH and CPATH"
  fi
  if ! has_header suitesparse/GraphBLAS.h && ! has_header GraphBLAS.h; then
    want "libgraphblas-dev|SuiteSparse:GraphBLAS (the reference tests are not built)|apt-get install libgraphblas-dev"
  fi
  command -v mcl >/dev/null 2>&1 ||
    want "mcl|the mcl program (the MCL reference tests are not built)|apt-get install mcl"
  python3 -c 'import networkx' >/dev/null 2>&1 ||
    want "python3-networkx|networkx for Python 3 (the algorithms' networkx test is skipped)|pip install --user networkx"
  have_fuzz ||
    want "clang-14 libclang-rt-14-dev|clang-14 with libFuzzer (fuzzing is skipped)|apt-get install clang-14 libclang-rt-14-dev"
}

case "$what" in
  build) check_build ;;
  test) check_build; check_test ;;
  fuzz) have_fuzz || need "clang-14 libclang-rt-14-dev|clang-14 with libFuzzer|apt-get install clang-14 libclang-rt-14-dev" ;;
  *) echo "usage: scripts/install-deps.sh [build|test|fuzz]" >&2; exit 1 ;;
esac

[ ${#missing_req[@]} -eq 0 ] && [ ${#missing_opt[@]} -eq 0 ] && exit 0

# apt-get can be used: it exists, and we are root or have sudo without a password.
sudo=""
apt_ok=0
if command -v apt-get >/dev/null 2>&1; then
  if [ "$(id -u)" -eq 0 ]; then
    apt_ok=1
  elif command -v sudo >/dev/null 2>&1 && sudo -n true >/dev/null 2>&1; then
    sudo="sudo"
    apt_ok=1
  fi
fi
if [ $apt_ok = 1 ]; then
  pkgs=()
  for m in "${missing_req[@]}" "${missing_opt[@]}"; do
    [ -n "$m" ] || continue
    read -r -a p <<<"${m%%|*}"
    pkgs+=("${p[@]}")
  done
  echo "tgb: installing ${pkgs[*]}" >&2
  # Bounded: a machine without a reachable mirror must not hang here.
  to=""
  command -v timeout >/dev/null 2>&1 && to="timeout 300"
  if $sudo $to apt-get update -qq >/dev/null 2>&1 &&
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${pkgs[@]}" >/dev/null 2>&1; then
    exit 0
  fi
  # One package the mirror lacks fails the whole install: try them one by one.
  for p in "${pkgs[@]}"; do
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$p" >/dev/null 2>&1 ||
      echo "tgb: apt-get could not install $p" >&2
  done
  # Look again: whatever is still missing is reported below.
  missing_req=() missing_opt=()
  case "$what" in
    build) check_build ;;
    test) check_build; check_test ;;
    fuzz) have_fuzz || need "clang-14 libclang-rt-14-dev|clang-14 with libFuzzer|apt-get install clang-14 libclang-rt-14-dev" ;;
  esac
  [ ${#missing_req[@]} -eq 0 ] && [ ${#missing_opt[@]} -eq 0 ] && exit 0
else
  if command -v apt-get >/dev/null 2>&1; then
    why="apt-get needs root or sudo without a password"
  else
    why="there is no apt-get"
  fi
fi
why=${why:-apt-get could not install them}

report() {  # report LABEL ENTRY...
  local label=$1
  shift
  for m in "$@"; do
    [ -n "$m" ] || continue
    local rest=${m#*|}
    echo "tgb: $label: ${rest%%|*}; to get it: ${rest#*|}" >&2
  done
}
[ ${#missing_opt[@]} -gt 0 ] && report "optional, missing" "${missing_opt[@]}"
if [ ${#missing_req[@]} -gt 0 ]; then
  report "missing" "${missing_req[@]}"
  echo "tgb: cannot go on ($why); install the above (pip install --user puts cmake and ninja in ~/.local/bin: add it to PATH) and run again" >&2
  exit 1
fi
exit 0
