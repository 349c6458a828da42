start=$(date +%s)
R=$OUT/r90; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n /tmp/o && tar -xJf .data/bins.tar.xz -C /tmp/n && tar -xJf .data/bins-base.tar.xz -C /tmp/o || exit 1
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda B=/tmp/n/tgb-bench O=/tmp/o/tgb-bench C=/tmp/n/tgb
M=lap2d_1024,stencil27_64,blocks6_120k,bcsstk33
for b in O B B96 O B B96; do
  case $b in O) cmd="$O";; B) cmd="$B";; B96) cmd="$B --gpu-dense-tile 96";; esac
  timeout 60 $cmd --no-host --reps 10 --ops plus_times_f64,min_plus_f64,lor_land_bool --only $M --data .data > $R/t.log 2>&1; cat $R/t.log >> $R/aa.log
  echo "A*A $b rc=$? t=$(( $(date +%s) - start ))"; grep -E "tgb-cuda" $R/t.log | awk '{printf "%s %s %s | ", $1, $2, $5} END {print ""}'
done
rm -f $R/t.log
timeout 250 $T > $R/tests.log 2>&1; echo "CUDA suite rc=$? t=$(( $(date +%s) - start ))"; grep -E "FAILED|with expansion" -A6 $R/tests.log | head -30 | cut -c1-300; grep -E "passed|failed" $R/tests.log | tail -2
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 99 $T "*small cases for the sanitizers" > $R/racecheck.log 2>&1
echo "racecheck small cases rc=$? $(grep -E 'RACECHECK SUMMARY|test cases|All tests' $R/racecheck.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 99 $T "*small cases for the sanitizers,device tile dot*" > $R/memcheck.log 2>&1
echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY|test cases|All tests' $R/memcheck.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
G=$PWD/tests/data
for g in karate jagmesh7; do
  left=$(( 560 - ($(date +%s) - start) )); [ $left -gt 70 ] || { echo "no time left for $g"; continue; }
  s0=$(date +%s)
  timeout $(( left - 15 < 50 ? left - 15 : 50 )) compute-sanitizer --tool racecheck --error-exitcode 99 $C bfs $G/$g.mtx --sources 3 --backend cuda > $R/rc.log 2>&1
  echo "racecheck tgb bfs $g: rc=$? $(grep -E 'RACECHECK SUMMARY' $R/rc.log | tail -1) took $(( $(date +%s) - s0 )) s"; grep -iE "error|segm|signal|level" $R/rc.log | head -3
  s0=$(date +%s); $C bfs $G/$g.mtx --sources 3 --backend cuda > $R/rc.log 2>&1; echo "  plain: rc=$? took $(( $(date +%s) - s0 )) s"; tail -2 $R/rc.log
done
rm -f $R/rc.log
