#!/bin/bash
# A quick device run of tgb_tests_cuda built on the CPU machine for sm_90:
# the cases named by the Catch2 test spec CASES (default: the extract/assign
# and vector cases), each line of output kept under $OUT/$RUN.
start=$(date +%s)
R=$OUT/${RUN:-quick}; mkdir -p $R
echo "tree: $(cat .dev/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
mkdir -p /tmp/n && tar -xJf .dev/bins.tar.xz -C /tmp/n || exit 1
[ "$PWD" = /work/gpu-tree ] || { mkdir -p /work/gpu-tree && ln -sfn $PWD/tests /work/gpu-tree/tests; }
for spec in ${CASES:-"[assign]" "[vector]"}; do
  timeout ${LIMIT:-200} /tmp/n/tgb_tests_cuda "$spec" --durations yes > "$R/$(echo "$spec" | tr -c 'a-z0-9\n' _).log" 2>&1
  echo "$spec rc=$? t=$(( $(date +%s) - start ))"
  tail -3 "$R/$(echo "$spec" | tr -c 'a-z0-9\n' _).log"
done
