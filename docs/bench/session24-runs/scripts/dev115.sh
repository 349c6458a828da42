# r115: the sanitize step of scripts/gpu-check.sh over r114's cover (no coverage
# run: the same binaries), racecheck's three cases that ran past their limit first.
start=$(date +%s)
R=$OUT/r115; mkdir -p $R
echo "tree: $(cat .dev/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda/bin:$PATH
[ -x /tmp/n/tgb_tests_cuda ] || { mkdir -p /tmp/n && tar -xJf .dev/bins.tar.xz -C /tmp/n || exit 1; }
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
TGB_COMMIT=$(cat .dev/tree.txt) TGB_BIN_DIR=/tmp/n TGB_STEPS=sanitize TGB_DEADLINE=$(( start + 580 )) \
  TGB_SANITIZE_CASES="$(cat .dev/cover.txt)" TGB_SANITIZERS="${TOOLS:-racecheck memcheck synccheck initcheck}" \
  TGB_SANITIZE_JOBS=${JOBS:-10} timeout 590 bash scripts/gpu-check.sh $R/check > $R/gpu-check.log 2>&1
echo "gpu-check rc=$? t=$(( $(date +%s) - start ))"
cat $R/check/summary.txt
cp $R/check/summary.txt $OUT/r115-summary.txt
tar -czf $OUT/r115.tar.gz -C $OUT r115
rm -rf $R
