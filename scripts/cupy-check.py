#!/usr/bin/env python3
"""Cross-check tgb-bench's cuSPARSE baseline against the same library called through CuPy.

For every suite matrix written by `tgb-bench --write-mtx DIR` (DIR/NAME.csr.bin, or DIR/NAME.mtx
where no .csr.bin is), times C = A @ A with cupyx.scipy.sparse (CSR, fp64, 32-bit indices; CuPy
calls cusparseSpGEMM with CUSPARSE_SPGEMM_DEFAULT and takes every buffer from its memory pool,
which keeps what it allocated across calls): CUDA events around the call, median of --reps runs
after --warmup runs. Also times cupyx.cusparse.spgemm(A, A) directly (no format checks).
Writes one JSON line per matrix (--out) and, given tgb-bench's JSONL (--bench), joins on the
matrix name with its `cusparse` plus_times_f64 rows and flags a difference over --tol (10%).

Usage:
  scripts/cupy-check.py DIR [--reps 10] [--warmup 2] [--out cupy.jsonl] [--bench bench.jsonl] [--only a,b]
  scripts/cupy-check.py --compare-only cupy.jsonl --bench bench.jsonl     (no GPU needed)
Exit status: 0 all within tolerance, 3 some flagged, 1 an error (a matrix failed, or nothing joined).
"""
import argparse
import glob
import json
import os
import statistics
import sys
import time


def log(*a):
    print(*a, flush=True)


def load_csr(path_stem):
    """(n, indptr, indices, data) as numpy arrays, from NAME.csr.bin or NAME.mtx."""
    import numpy as np

    b = path_stem + ".csr.bin"
    if os.path.exists(b):
        with open(b, "rb") as f:
            magic = f.read(8)
            if magic != b"TGBCSR01":
                raise ValueError(f"{b}: not a tgb-bench CSR file (magic {magic!r})")
            n, nnz = np.fromfile(f, dtype="<i8", count=2)
            indptr = np.fromfile(f, dtype="<i4", count=n + 1)
            indices = np.fromfile(f, dtype="<i4", count=nnz)
            data = np.fromfile(f, dtype="<f8", count=nnz)
        if len(data) != nnz or indptr[-1] != nnz:
            raise ValueError(f"{b}: truncated")
        return int(n), indptr, indices, data
    m = path_stem + ".mtx"
    try:
        import scipy.io
        import scipy.sparse

        A = scipy.sparse.csr_matrix(scipy.io.mmread(m))
        A.sum_duplicates()
        A.sort_indices()
        if A.shape[0] != A.shape[1]:
            raise ValueError(f"{m}: not square")
        return A.shape[0], A.indptr.astype(np.int32), A.indices.astype(np.int32), A.data.astype(np.float64)
    except ImportError:
        pass
    # Fallback: the coordinate real general files tgb-bench writes (sorted, no duplicates).
    with open(m) as f:
        header = f.readline()
        if "coordinate" not in header or "general" not in header:
            raise ValueError(f"{m}: only coordinate general files without scipy")
        line = f.readline()
        while line.startswith("%"):
            line = f.readline()
        nr, nc, nnz = (int(x) for x in line.split())
        body = np.array(f.read().split(), dtype=np.float64).reshape(-1, 3) if nnz else np.zeros((0, 3))
    r = body[:, 0].astype(np.int64) - 1
    c = body[:, 1].astype(np.int32) - 1
    order = np.lexsort((c, r))
    r, c, v = r[order], c[order], body[order, 2]
    indptr = np.zeros(nr + 1, dtype=np.int32)
    np.add.at(indptr, r + 1, 1)
    return nr, np.cumsum(indptr).astype(np.int32), c, v


def time_cupy(stem, reps, warmup):
    import cupy as cp
    import cupyx.scipy.sparse as sp
    from cupyx import cusparse

    n, indptr, indices, data = load_csr(stem)
    A = sp.csr_matrix((cp.asarray(data), cp.asarray(indices), cp.asarray(indptr)), shape=(n, n))
    assert A.dtype == cp.float64 and A.indices.dtype == cp.int32
    start, end = cp.cuda.Event(), cp.cuda.Event()
    pool = cp.get_default_memory_pool()

    def run(f):
        ms, nnz = [], -1
        for r in range(warmup + reps):
            start.record()
            C = f()
            end.record()
            end.synchronize()
            if r >= warmup:
                ms.append(cp.cuda.get_elapsed_time(start, end))
            nnz = int(C.nnz)
            del C
        return ms, nnz

    try:
        ms, nnz = run(lambda: A @ A)
    except TypeError:  # a CuPy without sparse @: * is the matrix product for spmatrix
        ms, nnz = run(lambda: A * A)
    pool_mb = pool.total_bytes() / 2**20  # what the pool holds after the runs (high-water of a caching pool)
    try:
        ms2, nnz2 = run(lambda: cusparse.spgemm(A, A))
    except Exception as e:  # the direct call is a second opinion only
        log(f"  {os.path.basename(stem)}: cupyx.cusparse.spgemm failed: {type(e).__name__}: {e}")
        ms2, nnz2 = [float("nan")], -1
    del A
    pool.free_all_blocks()
    return {
        "matrix": os.path.basename(stem), "op": "plus_times_f64", "impl": "cupy", "n": n, "nnz_a": int(len(data)),
        "nnz_c": nnz, "median_ms": statistics.median(ms), "min_ms": min(ms), "max_ms": max(ms), "runs": len(ms),
        "spgemm_median_ms": statistics.median(ms2), "spgemm_nnz_c": nnz2, "pool_mb": pool_mb,
        "cupy": cp.__version__, "device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode(),
    }


def compare(cupy_rows, bench_file, tol):
    bench = {}
    for line in open(bench_file):
        if not line.strip():
            continue
        r = json.loads(line)
        if r.get("impl") == "cusparse" and r.get("op") == "plus_times_f64" and r.get("runs", 0) > 0:
            bench[r["matrix"]] = r
    log(f"\n# cuSPARSE SpGEMM A*A fp64: tgb-bench (C++) against CuPy; flagged beyond {tol:.0%}")
    log(f"{'matrix':<20} {'C++ ms':>10} {'CuPy ms':>10} {'spgemm ms':>10} {'C++/CuPy':>9} {'nnz(C)':>12}  verdict")
    flagged, joined = 0, 0
    for c in cupy_rows:
        b = bench.get(c["matrix"])
        if b is None:
            log(f"{c['matrix']:<20} {'-':>10} {c['median_ms']:>10.3f} {c.get('spgemm_median_ms', float('nan')):>10.3f}"
                f" {'-':>9} {c['nnz_c']:>12}  NO C++ ROW")
            continue
        joined += 1
        ratio = b["median_ms"] / c["median_ms"]
        verdict = "ok"
        if ratio > 1 + tol:
            verdict, flagged = f"FLAG: C++ {ratio - 1:.0%} slower than CuPy", flagged + 1
        elif ratio < 1 - tol:
            verdict, flagged = f"FLAG: C++ {1 - ratio:.0%} faster than CuPy", flagged + 1
        if b["nnz_c"] != c["nnz_c"]:
            verdict += f"; NNZ DIFFERS (C++ {b['nnz_c']})"
            flagged += 1
        log(f"{c['matrix']:<20} {b['median_ms']:>10.3f} {c['median_ms']:>10.3f} "
            f"{c.get('spgemm_median_ms', float('nan')):>10.3f} {ratio:>9.3f} {c['nnz_c']:>12}  {verdict}")
    missing = sorted(set(bench) - {c["matrix"] for c in cupy_rows})
    if missing:
        log(f"# in tgb-bench but not timed with CuPy: {', '.join(missing)}")
    log(f"# CUPY-CHECK: {joined - flagged} of {joined} joined matrices within {tol:.0%}"
        + ("" if flagged == 0 else f"; {flagged} FLAGGED"))
    if joined == 0:
        log("# CUPY-CHECK: NOTHING JOINED (names differ, or no cusparse plus_times_f64 rows)")
        return 1
    return 3 if flagged else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", nargs="?", help="folder of NAME.mtx / NAME.csr.bin (tgb-bench --write-mtx)")
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--out", help="JSONL to write, one line per matrix")
    ap.add_argument("--bench", help="tgb-bench --json output to compare with")
    ap.add_argument("--only", default="", help="comma-separated substrings of matrix names")
    ap.add_argument("--tol", type=float, default=0.10)
    ap.add_argument("--compare-only", help="a cupy-check JSONL from an earlier run: compare, time nothing")
    a = ap.parse_args()

    rows, errors = [], 0
    if a.compare_only:
        rows = [json.loads(l) for l in open(a.compare_only) if l.strip()]
    else:
        if not a.dir:
            ap.error("DIR is needed unless --compare-only")
        stems = sorted({p[: -len(".csr.bin")] for p in glob.glob(os.path.join(a.dir, "*.csr.bin"))}
                       | {p[: -len(".mtx")] for p in glob.glob(os.path.join(a.dir, "*.mtx"))})
        only = [s for s in a.only.split(",") if s]
        stems = [s for s in stems if not only or any(o in os.path.basename(s) for o in only)]
        if not stems:
            log(f"cupy-check: ERROR: no .mtx or .csr.bin files in {a.dir}")
            return 1
        import cupy as cp

        log(f"# cupy-check: CuPy {cp.__version__}, CUDA runtime {cp.cuda.runtime.runtimeGetVersion()}, "
            f"{cp.cuda.runtime.getDeviceProperties(0)['name'].decode()}; A @ A, CSR fp64, "
            f"median of {a.reps} after {a.warmup} warm-up")
        out = open(a.out, "w") if a.out else None
        for s in stems:
            t0 = time.time()
            try:
                r = time_cupy(s, a.reps, a.warmup)
            except Exception as e:  # report and go on: one matrix must not hide the others
                errors += 1
                log(f"{os.path.basename(s):<20} FAILED: {type(e).__name__}: {e}")
                try:
                    import cupy as cp

                    cp.get_default_memory_pool().free_all_blocks()
                except Exception:
                    pass
                continue
            rows.append(r)
            log(f"{r['matrix']:<20} A@A {r['median_ms']:9.3f} ms (min {r['min_ms']:.3f}, max {r['max_ms']:.3f}); "
                f"spgemm {r['spgemm_median_ms']:9.3f} ms; nnz(C) {r['nnz_c']}; pool {r['pool_mb']:.0f} MB "
                f"({time.time() - t0:.1f} s)")
            if out:
                out.write(json.dumps(r) + "\n")
                out.flush()
    rc = 1 if errors else 0
    if a.bench:
        c = compare(rows, a.bench, a.tol)
        rc = rc or c
    return rc


if __name__ == "__main__":
    sys.exit(main())
