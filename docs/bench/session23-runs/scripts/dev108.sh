start=$(date +%s)
R=$OUT/r108; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda
run() {  # name, timeout, spec
  timeout $2 $T "$3" > $R/tests-$1.log 2>&1; echo "CUDA $3 rc=$? t=$(( $(date +%s) - start ))"
  grep -E "FAILED|with expansion" -A6 $R/tests-$1.log | head -16 | cut -c1-300; grep -E "passed|failed" $R/tests-$1.log | tail -1
}
run assign 150 "[assign]"
run kron 60 "device kronecker and diagonals equal host"
run mxm 200 "[mxm]"
run rest 200 "~[mxm]~[assign]"
NEW="device extract and assign\, small cases for the sanitizers,device kronecker and diagonals equal host,device extract and assign: errors leave C unchanged"
for tool in memcheck racecheck synccheck initcheck; do
  left=$(( 585 - ($(date +%s) - start) )); [ $left -lt 40 ] && { echo "no time for $tool"; continue; }
  timeout $(( left < 90 ? left - 5 : 90 )) compute-sanitizer --tool $tool --error-exitcode 99 $T "$NEW" > $R/$tool-new.log 2>&1
  echo "$tool (new cases) rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|test cases|All tests' $R/$tool-new.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
done
CASES=$(paste -sd, .data/cover15.txt)
for tool in synccheck initcheck; do
  left=$(( 585 - ($(date +%s) - start) )); [ $left -lt 50 ] && { echo "no time for $tool over the cover"; continue; }
  timeout $(( left - 5 )) compute-sanitizer --tool $tool --error-exitcode 99 $T "$CASES" > $R/$tool-cover.log 2>&1
  echo "$tool (cover, 15 cases) rc=$? $(grep -E 'ERROR SUMMARY|test cases|All tests' $R/$tool-cover.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
done
