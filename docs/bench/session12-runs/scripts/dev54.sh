start=$(date +%s)
R=$OUT/r54; mkdir -p $R
echo "tree: $(cat .data/tree.txt)"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:/usr/local/cuda/targets/x86_64-linux/lib:$LD_LIBRARY_PATH
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p /tmp/n && tar -xJf .data/bins.tar.xz -C /tmp/n || exit 1
mkdir -p /work/dev && ln -sfn $PWD/tests /work/dev/tests
which cuobjdump c++filt
timeout 520 bash .data/kernel-coverage.sh /tmp/n/tgb_tests_cuda $PWD/.data/libtgb_kernel_log.so $R/cov; echo "coverage rc=$? t=$(( $(date +%s) - start ))"
python3 .data/kernel-cover.py $R/cov | head -60
tar -czf $R/cov.tgz -C $R cov && rm -rf $R/cov
echo "t=$(( $(date +%s) - start ))"
