start=$(date +%s)
R=$OUT/r72; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda
timeout 200 $T "[vector]" > $R/tests-vector.log 2>&1; echo "CUDA [vector] cases rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests-vector.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/tests-vector.log | tail -2
OMP_NUM_THREADS=16 timeout 120 /tmp/n/bfsprof .data/luxembourg.mtx > $R/bfsprof.log 2>&1; echo "bfsprof rc=$? t=$(( $(date +%s) - start ))"; cat $R/bfsprof.log
timeout 150 /tmp/n/tgb-bench --algorithms --vector-only --reps 5 --host-reps 3 .data/ca-GrQc.mtx .data/email-Eu-core.csv .data/luxembourg.mtx .data/hep-th.mtx .data/cond-mat-2003.mtx .data/4elt.mtx .data/bcsstk33.mtx .data/soc-Slashdot0902.txt.gz > $R/alg.log 2>&1
echo "algorithms rc=$? t=$(( $(date +%s) - start ))"; grep -E "x  |FAIL|CHECK|MISMATCH" $R/alg.log | head -60 | cut -c1-180
for tool in memcheck racecheck synccheck initcheck; do
  timeout 120 compute-sanitizer --tool $tool --error-exitcode 99 $T "algorithms on the GPU against the host*" > $R/$tool-alg.log 2>&1
  echo "$tool (GPU algorithms case) rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/$tool-alg.log | tail -1) t=$(( $(date +%s) - start ))"
done
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 99 $T "device vector operations with w as its own*" > $R/memcheck-alias.log 2>&1
echo "memcheck (aliasing case) rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck-alias.log | tail -1) t=$(( $(date +%s) - start ))"
timeout 330 $T --durations yes > $R/tests.log 2>&1; echo "whole CUDA suite rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/tests.log | tail -2
