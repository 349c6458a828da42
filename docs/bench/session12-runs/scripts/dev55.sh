start=$(date +%s)
R=$OUT/r55; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
mkdir -p /work/dev && ln -sfn $PWD/tests /work/dev/tests
T=/tmp/n/tgb_tests_cuda
SPEC=$(paste -sd, .data/cover.txt)
timeout 40 $T "$SPEC" > $R/plain.log 2>&1; echo "cover plain rc=$? $(grep -E 'All tests passed|test cases' $R/plain.log | tail -1) t=$(( $(date +%s) - start ))"
for tool in memcheck synccheck initcheck racecheck; do
  lim=150; [ $tool = racecheck ] && lim=240
  timeout $lim compute-sanitizer --tool $tool --error-exitcode 99 $T "$SPEC" > $R/$tool.log 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/$tool.log | tail -1) $(grep -E 'All tests passed|test cases' $R/$tool.log | tail -1) t=$(( $(date +%s) - start ))"
  grep -B2 -A10 "Invalid\|Race\|Uninitialized\|Barrier" $R/$tool.log | head -16 | cut -c1-220
done
echo "t=$(( $(date +%s) - start ))"
