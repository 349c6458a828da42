start=$(date +%s)
R=$OUT/r81; mkdir -p $R
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda
for c in "bfs on the GPU: fused push levels*" "connected components on the GPU against the host and a union-find" "device build from vectors*"; do
  timeout 200 compute-sanitizer --tool racecheck --error-exitcode 99 $T "$c" > $R/rc.log 2>&1
  echo "racecheck [$c] rc=$? $(grep -E 'RACECHECK SUMMARY|test cases|All tests|SIGSEGV' $R/rc.log | tail -3 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
  grep -B2 -A6 "FAILED" $R/rc.log | head -12
done
