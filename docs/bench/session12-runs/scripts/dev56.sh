start=$(date +%s)
R=$OUT/r56; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
mkdir -p /work/dev && ln -sfn $PWD/tests /work/dev/tests
T=/tmp/n/tgb_tests_cuda
SPEC="device mxv/vxm with operands of other types: cast as on the host,device element-wise operations\, small cases for the sanitizers,device vector element-wise operations against the host"
timeout 420 compute-sanitizer --tool racecheck --error-exitcode 99 $T "$SPEC" > $R/racecheck.log 2>&1
echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck.log | tail -1) $(grep -E 'All tests passed|test cases' $R/racecheck.log | tail -1) t=$(( $(date +%s) - start ))"
grep -B2 -A10 "Race\|FAILED" $R/racecheck.log | head -20 | cut -c1-220
echo "t=$(( $(date +%s) - start ))"
