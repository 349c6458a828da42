start=$(date +%s)
R=$OUT/r89; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n /tmp/o && tar -xJf .data/bins.tar.xz -C /tmp/n && tar -xJf .data/bins-base.tar.xz -C /tmp/o || exit 1
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda B=/tmp/n/tgb-bench O=/tmp/o/tgb-bench C=/tmp/n/tgb
echo "gdb: $(which gdb cuda-gdb /usr/local/cuda/bin/cuda-gdb 2>/dev/null | tr '\n' ' ') core_pattern: $(cat /proc/sys/kernel/core_pattern)"
timeout 280 $T > $R/tests.log 2>&1; echo "CUDA suite rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/tests.log | tail -2
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 99 $T "[dot]" > $R/memcheck.log 2>&1
echo "memcheck [dot] rc=$? $(grep -E 'ERROR SUMMARY|test cases' $R/memcheck.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
for b in O B O B; do
  eval bin=\$$b
  timeout 40 $bin --no-host --reps 10 --ops tri_masked --only lap2d_1024,stencil27_64,blocks6_120k,bcsstk33 --data .data > $R/t.log 2>&1; cat $R/t.log >> $R/tri.log
  echo "tri $b rc=$? t=$(( $(date +%s) - start ))"; grep -E "tri_masked" $R/t.log | awk '{printf "%s %s %s | ", $1, $3, $5} END {print ""}'
done
M=lap2d_1024,stencil27_64,blocks6_120k,bcsstk33
for d in 96 0 96 0; do
  timeout 60 $B --no-host --reps 10 --ops plus_times_f64,min_plus_f64,lor_land_bool --only $M --gpu-dense-tile $d --data .data > $R/t.log 2>&1; cat $R/t.log >> $R/aa.log
  echo "A*A dense-tile $d rc=$? t=$(( $(date +%s) - start ))"; grep -E "tgb-cuda" $R/t.log | awk '{printf "%s %s %s | ", $1, $2, $5} END {print ""}'
done
timeout 60 $B --no-host --reps 10 --ops plus_times_f64 --only lap2d_1024,stencil27_64 --gpu-method rows --data .data > $R/t.log 2>&1; cat $R/t.log >> $R/aa.log
echo "A*A rows rc=$? t=$(( $(date +%s) - start ))"; grep -E "tgb-cuda" $R/t.log | awk '{printf "%s %s %s | ", $1, $2, $5} END {print ""}'
rm -f $R/t.log
G=tests/data/jagmesh7.mtx
mkdir -p /tmp/core && cd /tmp/core && ulimit -c unlimited
for cmd in "bfs $G --sources 3 --parents" "sssp $G --source 1" "sssp $G --source 1 --delta 1" "pagerank $G" "bc $G --sources 0,3,5 --batch 2" "cc $G"; do
  timeout 60 compute-sanitizer --tool racecheck --error-exitcode 99 $C $cmd --backend cuda -o /tmp/core/out.txt > $R/rc.log 2>&1
  echo "racecheck tgb $cmd: rc=$? $(grep -E 'RACECHECK SUMMARY' $R/rc.log | tail -1) t=$(( $(date +%s) - start ))"; grep -iE "error|segm|signal" $R/rc.log | head -3
done
cd - > /dev/null
left=$(( 520 - ($(date +%s) - start) ))
if [ $left -gt 60 ]; then
  cd /tmp/core
  timeout $left compute-sanitizer --tool racecheck --error-exitcode 99 $T "algorithms on the GPU against the host*" > $R/racecheck-alg.log 2>&1
  echo "racecheck (GPU algorithms case) rc=$? $(grep -E 'RACECHECK SUMMARY|test cases|All tests' $R/racecheck-alg.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
  ls -la /tmp/core | head; tail -25 $R/racecheck-alg.log | cut -c1-200
  core=$(ls /tmp/core/core* 2>/dev/null | head -1)
  [ -n "$core" ] && { (gdb -batch -ex bt $T $core || /usr/local/cuda/bin/cuda-gdb -batch -ex bt $T $core) 2>&1 | tail -40; }
  cd - > /dev/null
fi
