#!/usr/bin/env bash
# Which CUDA kernels each GPU test case launches (issue 15, item 9: every
# kernel under every compute-sanitizer tool, and the count covered).
#   scripts/kernel-launches.sh TGB_TESTS_CUDA SHIM.so OUTDIR [NAMES]
# On a GPU machine: lists every kernel entry point in the binary's sm_90
# cubins (cuobjdump), then runs each test case alone with the launch-logging
# shim preloaded (scripts/kernel_log.cpp, built as SHIM.so), writing
# OUTDIR/all.txt, OUTDIR/cases.tsv (number, milliseconds, exit code, name) and OUTDIR/case-N.txt (the
# mangled names each case launched). scripts/kernel-coverage.py then picks
# a set of cases that launches every kernel any case launches. NAMES, a file
# of test names (one a line, as --list-test-names-only prints them), runs
# those cases only: a known covering set and new cases, where the whole
# suite would not fit a device call.
set -uo pipefail
T=$1 SHIM=$2 OUT=$3
mkdir -p "$OUT"
cuobjdump -symbols "$T" 2>/dev/null | awk '/STO_ENTRY/ {print $NF}' | sort -u > "$OUT/all.txt"
if [ -n "${4:-}" ]; then sed '/^$/d' "$4" > "$OUT/names.txt"
else "$T" --list-test-names-only 2>/dev/null | sed '/^$/d' > "$OUT/names.txt"; fi
: > "$OUT/cases.tsv"
n=0
while IFS= read -r name; do
  n=$((n + 1))
  # Catch2's test specs: a backslash escapes commas and brackets in a name.
  spec=$(printf '%s' "$name" | sed 's/[][,\\]/\\&/g')
  t0=$(date +%s%N)
  TGB_KERNEL_LOG="$OUT/case-$n.txt" LD_PRELOAD="$SHIM" "$T" "$spec" > "$OUT/case-$n.log" 2>&1
  rc=$?
  t1=$(date +%s%N)
  ran=$(grep -cE "All tests passed|test cases: +1 " "$OUT/case-$n.log")
  printf '%s\t%s\t%s\t%s\n' "$n" "$(( (t1 - t0) / 1000000 ))" "rc=$rc,ran=$ran" "$name" >> "$OUT/cases.tsv"
  touch "$OUT/case-$n.txt"
done < "$OUT/names.txt"
echo "kernel entry points in the binary: $(wc -l < "$OUT/all.txt"); launched by some case: $(cat "$OUT"/case-*.txt | sort -u | wc -l); cases: $n"
