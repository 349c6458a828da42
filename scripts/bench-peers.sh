#!/usr/bin/env bash
# The peer SpGEMM codes (OpSparse, spECK; ../shared/peers/README.md) on every .mtx of a folder,
# C = A*A fp64, on the GPU machine. Writes one JSON line per (matrix, peer):
#   {"matrix": NAME, "peer": "OpSparse"|"spECK"|"cuSPARSE-OpSparse-driver", "ms": MS or null,
#    "nnz_c": NNZ or null, "error": "" or why, "raw": the peer's line}
# Usage: scripts/bench-peers.sh MTXDIR [PEERS [OUT.jsonl]]
#   PEERS defaults to ../shared/peers (on the GPU machine: a carried copy such as .peers);
#   OUT defaults to MTXDIR/peers.jsonl. The peers' own output goes to stdout.
# Environment:
#   PEER_TIMEOUT=S        seconds per matrix and peer (default 90)
#   PEERS_DEADLINE=EPOCH  start nothing after this time (date +%s); the rest is recorded as skipped
#   PEERS_ONLY=a,b        only matrices whose name contains one of these
#   PEERS_SKIP_SPECK_BUILD=1   never build spECK here (the caller built it, or it is to be skipped)
#   PEERS_WITH_CUSPARSE=1 also OpSparse's own cuSPARSE driver (it creates its handle inside the
#                         timed call: CuPy, scripts/cupy-check.py, is the cuSPARSE reference)
# Matrices run smallest file first, so a deadline cuts the largest. Exit status: 0, or 1 when no
# peer result at all was obtained.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: scripts/bench-peers.sh MTXDIR [PEERS [OUT.jsonl]]" >&2; exit 2; }
mtxdir=$(cd "$1" && pwd) || { echo "bench-peers: no folder $1" >&2; exit 2; }
peers=${2:-$root/../shared/peers}
[ -d "$peers" ] || { echo "bench-peers: ERROR: no peers folder $peers" >&2; exit 2; }
peers=$(cd "$peers" && pwd)
out=${3:-$mtxdir/peers.jsonl}
: >"$out"
T=${PEER_TIMEOUT:-90}
deadline=${PEERS_DEADLINE:-0}
only=${PEERS_ONLY:-}
dry=${PEERS_DRY_RUN:-0}   # 1: print what would run, run nothing (for checking the script without a GPU)
log() { echo "[bench-peers $(date -u +%H:%M:%S)] $*"; }

# JSON string escape (quotes, backslashes, control characters dropped).
js() { printf '%s' "$1" | tr -d '\000-\037' | sed 's/\\/\\\\/g; s/"/\\"/g'; }
record() {  # matrix peer ms nnz error raw
  local ms=${3:-} nnz=${4:-}
  [[ "$ms" =~ ^[0-9.eE+-]+$ ]] || ms=null
  [[ "$nnz" =~ ^[0-9]+$ ]] || nnz=null
  printf '{"matrix":"%s","peer":"%s","ms":%s,"nnz_c":%s,"error":"%s","raw":"%s"}\n' \
    "$(js "$1")" "$2" "$ms" "$nnz" "$(js "$5")" "$(js "$6")" >>"$out"
}
# Seconds this run may take: PEER_TIMEOUT, or less before the deadline (0: skip it).
budget() {
  local t=$T
  if [ "$deadline" -gt 0 ]; then
    local left=$((deadline - $(date +%s)))
    [ $left -lt $t ] && t=$left
  fi
  [ $t -lt 5 ] && t=0
  echo $t
}

mapfile -t files < <(ls -1S -r "$mtxdir"/*.mtx 2>/dev/null)
sel=()
for f in "${files[@]}"; do
  n=$(basename "$f" .mtx)
  if [ -n "$only" ]; then
    keep=0; IFS=, read -ra parts <<<"$only"
    for p in "${parts[@]}"; do [ -n "$p" ] && [[ "$n" == *"$p"* ]] && keep=1; done
    [ $keep -eq 1 ] || continue
  fi
  sel+=("$f")
done
[ ${#sel[@]} -gt 0 ] || { echo "bench-peers: ERROR: no .mtx files in $mtxdir" >&2; exit 2; }
log "${#sel[@]} matrices from $mtxdir; peers $peers; $T s per run; output $out"

# --- OpSparse: build once through its run.sh (no files: it builds and runs nothing), then run its
# drivers the way run.sh does (the names are looked up under ../matrix/...), each under our timeout.
ops_build=${OPSPARSE_BUILD:-/tmp/opsparse-build-$$}
ops_ok=0
if [ "$dry" = 1 ]; then
  log "dry run: would build OpSparse with $peers/opsparse/run.sh into $ops_build"
elif OPSPARSE_BUILD="$ops_build" bash "$peers/opsparse/run.sh" >"$mtxdir/opsparse-build.log" 2>&1 &&
  [ -x "$ops_build/work/reg_opsparse" ]; then
  ops_ok=1
  log "OpSparse built in $ops_build/work"
else
  log "ERROR: OpSparse build failed:"; tail -20 "$mtxdir/opsparse-build.log" "$ops_build/build.log" 2>/dev/null
fi
progs=(reg_opsparse)
[ "${PEERS_WITH_CUSPARSE:-0}" = 1 ] && progs+=(reg_cusparse)

# --- spECK: built by its build.sh unless already built (about 2 minutes with 16 cores).
speck_ok=0
if [ -x "$peers/speck/build/runspECK" ]; then
  speck_ok=1
elif [ "$dry" = 1 ]; then
  log "dry run: would build spECK with $peers/speck/build.sh"
elif [ "${PEERS_SKIP_SPECK_BUILD:-0}" != 1 ]; then
  log "building spECK (about 2 minutes)"
  if bash "$peers/speck/build.sh" >"$mtxdir/speck-build.log" 2>&1; then speck_ok=1; else
    log "ERROR: spECK build failed:"; tail -20 "$mtxdir/speck-build.log"; fi
else
  log "spECK not built and PEERS_SKIP_SPECK_BUILD=1: skipped"
fi

got=0
for f in "${sel[@]}"; do
  n=$(basename "$f" .mtx)
  for p in "${progs[@]}"; do
    peer=OpSparse; [ "$p" = reg_cusparse ] && peer=cuSPARSE-OpSparse-driver
    if [ "$dry" = 1 ]; then log "dry run: $p $n"; continue; fi
    if [ $ops_ok -ne 1 ]; then record "$n" "$peer" "" "" "not built" ""; continue; fi
    t=$(budget)
    if [ "$t" -eq 0 ]; then record "$n" "$peer" "" "" "skipped: deadline" ""; continue; fi
    (cd "$ops_build/work" && mkdir -p "../matrix/suite_sparse/$n" ../matrix/ER ../matrix/G500 &&
      ln -sf "$f" "../matrix/suite_sparse/$n/$n.mtx" && ln -sf "$f" "../matrix/ER/$n.mtx" &&
      ln -sf "$f" "../matrix/G500/$n.mtx")
    line=$(cd "$ops_build/work" && timeout "$t" "./$p" "$n" 2>&1 | tail -1); rc=$?
    echo "peer=$p $line"
    ms=$(printf '%s\n' "$line" | sed -n 's/.*ms=\([0-9.eE+-]*\).*/\1/p')
    err=""
    [ -n "$ms" ] || err="no time (rc $rc; timeout ${t}s?)"
    [ -n "$ms" ] && got=$((got + 1))
    record "$n" "$peer" "$ms" "" "$err" "$line"
  done
  if [ "$dry" = 1 ]; then log "dry run: spECK $n"; continue; fi
  if [ $speck_ok -ne 1 ]; then record "$n" spECK "" "" "not built" ""; continue; fi
  t=$(budget)
  if [ "$t" -eq 0 ]; then record "$n" spECK "" "" "skipped: deadline" ""; continue; fi
  line=$(timeout "$t" bash "$peers/speck/run.sh" "$f" 2>&1 | grep '^peer=spECK' | tail -1); rc=$?
  [ -n "$line" ] || line="peer=spECK matrix=$n ms=NA nnzC=NA error=timeout-or-crash(${t}s)"
  echo "$line"
  ms=$(printf '%s\n' "$line" | sed -n 's/.* ms=\([0-9.eE+-]*\).*/\1/p')
  nnz=$(printf '%s\n' "$line" | sed -n 's/.* nnzC=\([0-9]*\).*/\1/p')
  err=$(printf '%s\n' "$line" | sed -n 's/.* error=\(.*\)/\1/p')
  [ -n "$ms" ] && got=$((got + 1))
  record "$n" spECK "$ms" "$nnz" "$err" "$line"
done
[ "$dry" = 1 ] || [ -n "${OPSPARSE_BUILD:-}" ] || rm -rf "$ops_build"
log "done: $got peer times in $out"
[ "$dry" = 1 ] || [ $got -gt 0 ]
