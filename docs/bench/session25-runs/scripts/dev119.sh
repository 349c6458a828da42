#!/bin/bash
# r119 (TOOLS unset: initcheck), r120 (TOOLS="memcheck synccheck"), r121 (racecheck): the sanitize step,
# a time (the step's new default), over r114's 18-case cover, on tgb_tests_cuda
# built on the CPU machine at a229f16 (CUDA sources as at 78820f8).
start=$(date +%s)
R=$OUT/${RUN:-r119}; mkdir -p $R
echo "tree: $(cat .dev/tree.txt)"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p /tmp/n && tar -xJf .dev/bins.tar.xz -C /tmp/n || exit 1
[ "$PWD" = /work/gpu-tree ] || { mkdir -p /work/gpu-tree && ln -sfn $PWD/tests /work/gpu-tree/tests; }
TGB_COMMIT="$(cat .dev/tree.txt)" TGB_BIN_DIR=/tmp/n TGB_STEPS=sanitize TGB_DEADLINE=$(( start + ${BUDGET:-500} )) \
  TGB_SANITIZE_CASES="$(cat .dev/cover.txt)" TGB_SANITIZERS="${TOOLS:-initcheck}" \
  timeout $(( ${BUDGET:-500} + 20 )) bash scripts/gpu-check.sh $R/check > $R/gpu-check.log 2>&1
echo "gpu-check rc=$? t=$(( $(date +%s) - start ))"
cat $R/check/summary.txt
for f in $R/check/sanitizers/*.rc; do cat $f; done > $R/initcheck-cases.tsv
cat $R/initcheck-cases.tsv | cut -f1-3
tar -czf $OUT/${RUN:-r119}.tgz -C $OUT ${RUN:-r119} && rm -rf $R
