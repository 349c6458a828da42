#!/usr/bin/env bash
# Installs what tgb needs on a fresh Debian/Ubuntu machine, and nothing when
# it is all there. Usage: scripts/install-deps.sh [build|test]
#   build: compiler, CMake, Ninja, zlib
#   test:  also Catch2, SuiteSparse:GraphBLAS and mcl (the test references),
#          clang-14 and its libFuzzer runtime (scripts/fuzz.sh)
set -euo pipefail
what=${1:-test}
pkgs=(g++ cmake ninja-build zlib1g-dev)
if [ "$what" = test ]; then pkgs+=(catch2 libgraphblas-dev mcl clang-14 libclang-rt-14-dev); fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null; then
  echo "tgb: missing packages (${missing[*]}) and no apt-get to install them" >&2
  exit 1
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "tgb: installing ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
