#!/usr/bin/env bash
# scripts/install-deps.sh looks for tools, not Debian package names, and
# says what is missing where apt-get cannot help:
#  1. dpkg and apt-get fail (a GPU machine without a package mirror) but the
#     tools are on the PATH: it succeeds and never calls apt-get or dpkg.
#  2. CMake is missing and apt-get is unusable: it fails, naming cmake and
#     "pip install cmake".
#  3. CMake is older than 3.24: the same, naming the version found.
#  4. Ninja is missing but Make is there: it succeeds (the scripts use Make).
#  5. Not root and no sudo: apt-get is not tried; CMake missing is reported.
# Prints "N passed, N failed".
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
script="$repo/scripts/install-deps.sh"
tmp=$(mktemp -d)
trap '[ -n "${TGB_KEEP:-}" ] || rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok: $1"; }
bad() { failed=$((failed + 1)); echo "FAILED: $1"; sed 's/^/    /' "$tmp/out" 2>/dev/null; }

# A PATH holding every command of this PATH but the names given, plus stubs
# for dpkg, dpkg-query and apt-get that log their calls and fail as they do
# on a machine without a mirror. make_path DIR EXCLUDED...
make_path() {
  local dir=$1
  shift
  mkdir -p "$dir"
  local IFS=:
  for d in $PATH; do
    [ -d "$d" ] || continue
    for f in "$d"/*; do
      local n=${f##*/}
      [ -x "$f" ] && [ ! -e "$dir/$n" ] || continue
      local skip=0
      for x in "$@" dpkg dpkg-query apt-get apt sudo id; do [ "$n" = "$x" ] && skip=1; done
      [ $skip = 1 ] || ln -s "$f" "$dir/$n"
    done
  done
  unset IFS
  for s in dpkg dpkg-query; do
    printf '#!/bin/sh\necho "%s $*" >>"%s/calls"\necho "%s: error: cannot access archive" >&2\nexit 2\n' \
      "$s" "$tmp" "$s" >"$dir/$s"
    chmod +x "$dir/$s"
  done
  printf '#!/bin/sh\necho "apt-get $*" >>"%s/calls"\necho "E: Unable to locate package $*" >&2\nexit 100\n' \
    "$tmp" >"$dir/apt-get"
  # id: the real one, or a non-root user where FAKE_UID is set.
  printf '#!/bin/sh\nif [ -n "${FAKE_UID:-}" ] && [ "$1" = "-u" ]; then echo "$FAKE_UID"; else exec %s "$@"; fi\n' \
    "$(command -v id)" >"$dir/id"
  chmod +x "$dir/apt-get" "$dir/id"
}
run() {  # run PATHDIR MODE: runs install-deps.sh with only PATHDIR, output in $tmp/out
  rm -f "$tmp/calls"
  PATH="$1" "$(command -v bash)" "$script" "$2" >"$tmp/out" 2>&1
}
# The zlib headers are optional; where this machine lacks them the script
# rightly tries apt-get for them, so "apt-get not called" is checked only
# where they are present.
zlib=0
printf '#include <zlib.h>\n' | c++ -x c++ -E - >/dev/null 2>&1 && zlib=1

# 1. dpkg and apt-get fail; the tools are there.
make_path "$tmp/p1"
if run "$tmp/p1" build; then
  if [ $zlib = 1 ] && [ -s "$tmp/calls" ]; then
    bad "tools present: called $(tr '\n' ';' <"$tmp/calls")"
  else
    ok "tools present, dpkg and apt-get failing: succeeds without apt-get"
  fi
else
  bad "tools present, dpkg and apt-get failing: exit status not 0"
fi

# 2. CMake missing, apt-get failing.
make_path "$tmp/p2" cmake
if run "$tmp/p2" build; then
  bad "cmake missing: succeeded"
elif grep -q "cmake" "$tmp/out" && grep -q "pip install cmake" "$tmp/out"; then
  ok "cmake missing, apt-get failing: fails naming cmake and 'pip install cmake'"
else
  bad "cmake missing: message lacks cmake / 'pip install cmake'"
fi

# 3. CMake too old.
make_path "$tmp/p3" cmake
printf '#!/bin/sh\necho "cmake version 3.16.3"\n' >"$tmp/p3/cmake"
chmod +x "$tmp/p3/cmake"
if run "$tmp/p3" build; then
  bad "cmake 3.16: succeeded"
elif grep -q "3.16.3" "$tmp/out" && grep -q "pip install cmake" "$tmp/out"; then
  ok "cmake 3.16: fails naming the version found and 'pip install cmake'"
else
  bad "cmake 3.16: message lacks the version or 'pip install cmake'"
fi

# 4. No Ninja, Make there.
if command -v make >/dev/null 2>&1; then
  make_path "$tmp/p4" ninja
  if run "$tmp/p4" build; then
    ok "ninja missing, make present: succeeds"
  else
    bad "ninja missing, make present: exit status not 0"
  fi
fi

# 5. Not root, no sudo: apt-get is not even tried.
make_path "$tmp/p5" cmake
if FAKE_UID=1000 run "$tmp/p5" build; then
  bad "not root, cmake missing: succeeded"
elif grep -q "apt-get" "$tmp/calls" 2>/dev/null; then
  bad "not root: apt-get was called"
elif grep -q "pip install cmake" "$tmp/out" && grep -q "root or sudo" "$tmp/out"; then
  ok "not root, no sudo, cmake missing: says why and how, without calling apt-get"
else
  bad "not root: message lacks 'pip install cmake' or the reason"
fi

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
