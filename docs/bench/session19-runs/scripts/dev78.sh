start=$(date +%s)
R=$OUT/r78; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda B=/tmp/n/tgb-bench
# The cover of r77 (kernel-coverage.py): every kernel some case launches, 12 cases.
CASES=$(paste -sd, .data/cover-cases.txt)
timeout 120 $B --no-host --reps 10 --ops tri_masked --data .data > $R/tri.log 2>&1
echo "tri bench rc=$? t=$(( $(date +%s) - start ))"; grep -E "tri_masked|geomean" $R/tri.log | cut -c1-120
for tool in memcheck synccheck initcheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 99 $T "$CASES" > $R/$tool.log 2>&1
  echo "$tool (cover, 12 cases) rc=$? $(grep -E 'ERROR SUMMARY|test cases' $R/$tool.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
done
timeout 200 compute-sanitizer --tool racecheck --error-exitcode 99 $T "$(paste -sd, .data/race-cases.txt)" > $R/racecheck.log 2>&1
echo "racecheck (cover less the two longest) rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY|test cases' $R/racecheck.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
