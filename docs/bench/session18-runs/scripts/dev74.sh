start=$(date +%s)
R=$OUT/r74; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda
timeout 200 $T "[vector]" > $R/tests-vector.log 2>&1; echo "CUDA [vector] cases rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests-vector.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/tests-vector.log | tail -2
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 99 $T "device assign over all indices from another stream" > $R/memcheck-stream.log 2>&1
echo "memcheck (stream case) rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck-stream.log | tail -1) t=$(( $(date +%s) - start ))"
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 99 $T "algorithms on the GPU against the host*" > $R/memcheck-alg.log 2>&1
echo "memcheck (GPU algorithms case) rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck-alg.log | tail -1) t=$(( $(date +%s) - start ))"
timeout 150 /tmp/n/tgb-bench --algorithms --vector-only --reps 5 --host-reps 3 --only luxembourg .data/luxembourg.mtx > $R/alg.log 2>&1
echo "algorithms rc=$? t=$(( $(date +%s) - start ))"; grep -E "x  ok|FAIL|MISMATCH" $R/alg.log | head -8 | cut -c1-180
