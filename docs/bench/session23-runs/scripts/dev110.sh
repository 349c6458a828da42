start=$(date +%s)
R=$OUT/r110; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda/bin:$PATH
[ -x /tmp/n/tgb_tests_cuda ] || { mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1; }
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
T=/tmp/n/tgb_tests_cuda
CASES=$(paste -sd, .data/cover17.txt)
for tool in memcheck synccheck initcheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 99 $T "$CASES" > $R/$tool-cover.log 2>&1
  echo "$tool (cover, 17 cases) rc=$? $(grep -E 'ERROR SUMMARY|test cases|All tests' $R/$tool-cover.log | tail -2 | tr '\n' ' ') t=$(( $(date +%s) - start ))"
done
