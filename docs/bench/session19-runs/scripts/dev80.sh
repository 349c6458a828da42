start=$(date +%s)
R=$OUT/r80; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda
timeout 560 compute-sanitizer --tool racecheck --error-exitcode 99 $T "algorithms on the GPU against the host*" > $R/racecheck-alg.log 2>&1
echo "racecheck (GPU algorithms case) rc=$? $(grep -E 'RACECHECK SUMMARY|test cases|All tests' $R/racecheck-alg.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
