start=$(date +%s)
R=$OUT/r49; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
T=/tmp/n/tgb_tests_cuda
timeout 110 compute-sanitizer --tool initcheck --error-exitcode 99 $T "[vector]" > $R/san.log 2>&1; echo "initcheck [vector] rc=$? $(grep -E 'ERROR SUMMARY|test cases|All tests' $R/san.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
grep -B2 -A10 "Uninitialized" $R/san.log | head -14 | cut -c1-200
timeout 70 compute-sanitizer --tool racecheck --error-exitcode 99 $T "algorithms on the GPU*" >> $R/san.log 2>&1; echo "racecheck algorithms rc=$? $(grep -E 'RACECHECK SUMMARY|test cases|All tests' $R/san.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
echo "t=$(( $(date +%s) - start ))"
