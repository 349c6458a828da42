start=$(date +%s)
R=$OUT/r79; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda B=/tmp/n/tgb-bench
timeout 200 $T "[dot],[convert],[index_list],[rowpath],[algorithms]" > $R/tests.log 2>&1; echo "CUDA [dot],[convert],[index_list],[rowpath],[algorithms] rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/tests.log | tail -2
CASES=$(paste -sd, .data/cover-cases.txt)
timeout 200 compute-sanitizer --tool initcheck --error-exitcode 99 $T "$CASES" > $R/initcheck.log 2>&1
echo "initcheck (cover, 12 cases) rc=$? $(grep -E 'ERROR SUMMARY|test cases' $R/initcheck.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
grep -m2 -A3 "Uninitialized" $R/initcheck.log | cut -c1-250
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 99 $T "device CSR views and the dot over short and long tile rows,device build from vectors*" > $R/memcheck.log 2>&1
echo "memcheck (csr, build cases) rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck.log | tail -1) t=$(( $(date +%s) - start ))"
g++ -std=c++17 -O2 -shared -fPIC -I/usr/local/cuda/include scripts/kernel_log.cpp -o /tmp/n/libklog.so -ldl
TGB_KERNEL_LOG=$R/bfs-kernels.txt LD_PRELOAD=/tmp/n/libklog.so timeout 60 $T "bfs on the GPU: fused push levels*" > $R/bfs-case.log 2>&1
echo "bfs case under the shim rc=$?: $(grep -c . $R/bfs-kernels.txt) kernels, fused: $(grep -c k_bfs_push_fused $R/bfs-kernels.txt)"
timeout 120 $B --no-host --reps 10 --ops tri_masked --data .data > $R/tri.log 2>&1
echo "tri bench rc=$? t=$(( $(date +%s) - start ))"; grep -E "tri_masked|geomean" $R/tri.log | cut -c1-120
