start=$(date +%s)
R=$OUT/r71; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda
OMP_NUM_THREADS=16 timeout 120 /tmp/n/bfsprof .data/luxembourg.mtx > $R/bfsprof.log 2>&1; echo "bfsprof rc=$? t=$(( $(date +%s) - start ))"; cat $R/bfsprof.log
timeout 150 /tmp/n/tgb-bench --algorithms --vector-only --reps 5 --host-reps 3 --only rmat16_ef8,soc-Slashdot0902,cond-mat-2003,luxembourg .data/soc-Slashdot0902.txt.gz .data/cond-mat-2003.mtx .data/luxembourg.mtx > $R/alg.log 2>&1
echo "algorithms rc=$? t=$(( $(date +%s) - start ))"; grep -E "x  |FAIL|CHECK|MISMATCH" $R/alg.log | head -20 | cut -c1-180
timeout 330 $T --durations yes "[vector]" > $R/tests-vector.log 2>&1; echo "CUDA [vector] cases rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests-vector.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/tests-vector.log | tail -2
