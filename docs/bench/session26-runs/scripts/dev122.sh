#!/bin/bash
# r122: scripts/gpu-check.sh's sanitize step on tgb_tests_cuda built on the CPU
# machine for sm_90 at eddbf86: every CUDA case alone under the launch log (the
# kernel count, and a run of the whole CUDA suite), then memcheck and synccheck
# over the cover it finds, initcheck last and alone, all within BUDGET seconds.
start=$(date +%s)
R=$OUT/${RUN:-r122}; mkdir -p $R
echo "tree: $(cat .dev/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p /tmp/n && tar -xJf .dev/bins.tar.xz -C /tmp/n || exit 1
[ "$PWD" = /work/gpu-tree ] || { mkdir -p /work/gpu-tree && ln -sfn $PWD/tests /work/gpu-tree/tests; }
TGB_COMMIT="$(cat .dev/tree.txt)" TGB_BIN_DIR=/tmp/n TGB_STEPS=sanitize TGB_DEADLINE=$(( start + ${BUDGET:-570} )) \
  TGB_SANITIZERS="${TOOLS:-memcheck synccheck initcheck}" \
  timeout $(( ${BUDGET:-570} + 15 )) bash scripts/gpu-check.sh $R/check > $R/gpu-check.log 2>&1
echo "gpu-check rc=$? t=$(( $(date +%s) - start ))"
cat $R/check/summary.txt
cp $R/check/summary.txt $OUT/${RUN:-r122}-summary.txt
tar -czf $OUT/${RUN:-r122}.tgz -C $OUT ${RUN:-r122} && rm -rf $R
