start=$(date +%s)
R=$OUT/r82; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda B=/tmp/n/tgb-bench
timeout 200 $T "[dot]" > $R/tests.log 2>&1; echo "CUDA [dot] rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests.log | head -20 | cut -c1-300; grep -E "passed|failed" $R/tests.log | tail -2
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 99 $T "device CSR views and the dot over short and long tile rows,device mxm: the dot method is the host's bit for bit" > $R/memcheck.log 2>&1
echo "memcheck (dot cases) rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck.log | tail -1) t=$(( $(date +%s) - start ))"
timeout 120 $B --no-host --reps 10 --ops tri_masked --data .data > $R/tri.log 2>&1
echo "tri bench rc=$? t=$(( $(date +%s) - start ))"; grep -E "tri_masked|geomean" $R/tri.log | cut -c1-120
