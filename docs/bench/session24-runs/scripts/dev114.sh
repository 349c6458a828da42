# r114: scripts/gpu-check.sh's own flow on binaries built on the CPU machine:
# every CUDA case alone under the launch log (the kernel count and a run of
# the whole suite), then the four sanitizers over the cover it picks, one
# process per (tool, case), 8 at a time.
start=$(date +%s)
R=$OUT/r114; mkdir -p $R
echo "tree: $(cat .dev/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p /tmp/n && tar -xJf .dev/bins.tar.xz -C /tmp/n || exit 1
[ "$PWD" = /work/main ] || { mkdir -p /work/main && ln -sfn $PWD/tests /work/main/tests; }
TGB_COMMIT=$(cat .dev/tree.txt) TGB_BIN_DIR=/tmp/n TGB_STEPS=sanitize TGB_DEADLINE=$(( start + 575 )) \
  TGB_SANITIZERS="racecheck memcheck synccheck initcheck" TGB_SANITIZE_JOBS=${JOBS:-8} \
  timeout 585 bash scripts/gpu-check.sh $R/check > $R/gpu-check.log 2>&1
echo "gpu-check rc=$? t=$(( $(date +%s) - start ))"
cat $R/check/summary.txt
cp $R/check/summary.txt $OUT/r114-summary.txt
tar -czf $OUT/r114.tar.gz -C $OUT r114
rm -rf $R
