start=$(date +%s)
R=$OUT/r93; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda
for tool in synccheck initcheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 99 $T "*small cases for the sanitizers,device tile dot*" > $R/$tool.log 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|test cases|All tests' $R/$tool.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
done
timeout 200 compute-sanitizer --tool racecheck --error-exitcode 99 $T "device tile dot*" > $R/racecheck-dot.log 2>&1
echo "racecheck tile dot rc=$? $(grep -E 'RACECHECK SUMMARY|test cases|All tests' $R/racecheck-dot.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
