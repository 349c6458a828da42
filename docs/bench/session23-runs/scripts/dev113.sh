start=$(date +%s)
R=$OUT/r113; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda
timeout 90 $T "[assign]" > $R/tests-assign.log 2>&1; echo "CUDA [assign] rc=$? t=$(( $(date +%s) - start )) $(grep -E 'passed|failed' $R/tests-assign.log | tail -1)"
grep -E "FAILED|with expansion" -A6 $R/tests-assign.log | head -16 | cut -c1-300
timeout 30 $T "device kronecker and diagonals equal host" > $R/tests-kron.log 2>&1; echo "CUDA kron rc=$? t=$(( $(date +%s) - start )) $(grep -E 'passed|failed' $R/tests-kron.log | tail -1)"
grep -E "FAILED|with expansion" -A6 $R/tests-kron.log | head -16 | cut -c1-300
n=0
while IFS= read -r c; do
  n=$((n+1)); left=$(( 200 - ($(date +%s) - start) )); [ $left -lt 15 ] && { echo "racecheck: no time for: $c"; continue; }
  timeout $left compute-sanitizer --tool racecheck --error-exitcode 99 $T "$c" > $R/racecheck-$n.log 2>&1
  echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|test cases|All tests' $R/racecheck-$n.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start )): $c"
done <<'LIST'
device extract\, assign\, subassign\, kronecker and diagonals: one small call each
tile routines on the GPU equal the host's: min_plus\, any_second\, max_min int64
row saxpy: transposes\, sizes around one tile\, empty rows and products
device element-wise operations\, small cases for the sanitizers
row saxpy: rows past 4\,096 entries take the hub bins
device algorithms equal host: Markov clusters
LIST
