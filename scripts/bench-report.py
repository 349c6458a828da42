#!/usr/bin/env python3
"""One markdown report from tgb-bench JSONL, scripts/cupy-check.py JSONL and scripts/bench-peers.sh JSONL.

Usage:
  scripts/bench-report.py --bench bench.jsonl [--bench host.jsonl ...] [--cupy cupy.jsonl]
                          [--peers peers.jsonl] [--log bench.log ...] [--out report.md]

Tables (times are medians in ms; "x" ratios above 1 mean tgb is faster):
  1. C = A*A fp64 on the GPU: cuSPARSE from C++ (tgb-bench), cuSPARSE through CuPy, OpSparse, spECK,
     tgb; tgb against each and against the fastest of the others; geometric means over the matrices
     each pair has in common.
  2. Per matrix and GPU operation (plus_times, min_plus, lor_land, masked triangle product):
     time, GFLOPS, pool peak, stored bytes of C in tgb's stored form (tiles or rows) against 32-bit CSR, check.
  3. Stored bytes of A: tgb tiles against 32-bit CSR fp64 (4*(n+1) + 12*nnz).
  4. Host: tgb host against SuiteSparse:GraphBLAS, where the JSONL has both.
Every row whose check is not ok/reference/pattern-ok is listed at the end.
Standard library only (runs without numpy).
"""
import argparse
import json
import math
import sys

GOOD = ("n/a", "ok", "reference", "pattern-ok")


def med(r):
    return r["median_ms"] if r and r.get("runs", 0) > 0 and r.get("median_ms", 0) > 0 else None


def geomean(xs):
    xs = [x for x in xs if x and x > 0 and math.isfinite(x)]
    return (math.exp(sum(math.log(x) for x in xs) / len(xs)), len(xs)) if xs else (None, 0)


def f(x, d=3):
    return "-" if x is None else f"{x:,.{d}f}"


def fx(x):
    return "-" if x is None else f"**{x:.2f}x**"


def mb(b):
    return "-" if not b else f"{b / 2**20:,.1f}"


def load(path):
    rows = []
    try:
        open(path).close()
    except OSError as e:
        print(f"bench-report: WARNING: {path}: {e.strerror}; left out", file=sys.stderr)
        return rows
    for i, line in enumerate(open(path), 1):
        line = line.strip()
        if not line:
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as e:
            print(f"bench-report: WARNING: {path}:{i}: bad JSON ({e}), line skipped", file=sys.stderr)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", action="append", default=[], help="tgb-bench --json output (repeatable)")
    ap.add_argument("--cupy", action="append", default=[])
    ap.add_argument("--peers", action="append", default=[])
    ap.add_argument("--log", action="append", default=[], help="tgb-bench logs: their '# tgb-bench'/'# pool' lines")
    ap.add_argument("--out")
    a = ap.parse_args()
    if not a.bench:
        ap.error("--bench is needed")

    bench = [r for p in a.bench for r in load(p)]
    by = {}
    order = []
    for r in bench:
        by[(r["matrix"], r["op"], r["impl"])] = r
        if r["matrix"] not in order:
            order.append(r["matrix"])
    cupy = {r["matrix"]: r for p in a.cupy for r in load(p)}
    peers = {}
    for p in a.peers:
        for r in load(p):
            if r.get("ms") is not None:
                peers[(r["matrix"], r["peer"])] = r["ms"]
            else:
                peers.setdefault((r["matrix"], r["peer"] + "#error"), r.get("error", "?"))

    out = []
    w = out.append
    w("# tgb benchmark report\n")
    for p in a.log:
        for line in open(p, errors="replace"):
            if line.startswith(("# tgb-bench:", "# pool:", "# stored bytes:")):
                w("    " + line.rstrip())
    if cupy:
        c0 = next(iter(cupy.values()))
        w(f"\nCuPy {c0.get('cupy', '?')} on {c0.get('device', '?')}: `A @ A` (cupyx.scipy.sparse CSR fp64), "
          "events, median after warm-up, CuPy's memory pool warm.")
    w("")

    # 1. A*A fp64 side by side
    w("## C = A*A, fp64, GPU (ms)\n")
    w("| matrix | n | nnz(A) | nnz(C) | cuSPARSE (C++) | cuSPARSE (CuPy) | C++/CuPy | OpSparse | spECK | tgb "
      "| tgb GFLOPS | tgb vs best cuSPARSE | tgb vs fastest | fastest other |")
    w("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|")
    ratios = {"cuSPARSE (C++)": [], "cuSPARSE (CuPy)": [], "OpSparse": [], "spECK": [], "fastest": []}
    cpp_vs_cupy = []
    for m in order:
        cs = by.get((m, "plus_times_f64", "cusparse"))
        tg = by.get((m, "plus_times_f64", "tgb-cuda"))
        if not cs and not tg:
            continue
        c_cpp, c_py = med(cs), (cupy[m]["median_ms"] if m in cupy else None)
        ops, spk = peers.get((m, "OpSparse")), peers.get((m, "spECK"))
        t = med(tg) if tg and tg.get("check") in GOOD else None
        others = {"cuSPARSE (C++)": c_cpp, "cuSPARSE (CuPy)": c_py, "OpSparse": ops, "spECK": spk}
        avail = {k: v for k, v in others.items() if v}
        fastest = min(avail.items(), key=lambda kv: kv[1]) if avail else None
        if t:
            for k, v in others.items():
                if v:
                    ratios[k].append(v / t)
            if fastest:
                ratios["fastest"].append(fastest[1] / t)
        if c_cpp and c_py:
            cpp_vs_cupy.append(c_cpp / c_py)
        ref = tg or cs
        nnzc = (tg or cs).get("nnz_c", 0)
        best_cs = min([x for x in (c_cpp, c_py) if x], default=None)
        note = "" if not tg or tg.get("check") in GOOD else f" ({tg.get('check')})"
        w(f"| {m} | {ref['n']:,} | {ref['nnz_a']:,} | {nnzc:,} | {f(c_cpp)} | {f(c_py)} | "
          f"{f(c_cpp / c_py, 2) if c_cpp and c_py else '-'} | {f(ops)} | {f(spk)} | {f(t)}{note} | "
          f"{f(tg.get('gflops'), 2) if tg else '-'} | {fx(best_cs / t) if best_cs and t else '-'} | "
          f"{fx(fastest[1] / t) if fastest and t else '-'} | {fastest[0] if fastest else '-'} |")
    gm = {k: geomean(v) for k, v in ratios.items()}
    w("")
    w("Geometric means of tgb's speed-up (other's time / tgb's; matrices where both ran and tgb's check passed):")
    for k, (g, n) in gm.items():
        w(f"- tgb vs {k}: {fx(g)} over {n} matrices")
    g, n = geomean(cpp_vs_cupy)
    w(f"- cuSPARSE from C++ / through CuPy: {f(g, 3)} over {n} matrices (1.0 = the C++ baseline is as fast as CuPy)")
    errs = sorted((k[0], k[1][:-6], v) for k, v in peers.items() if k[1].endswith("#error"))
    if errs:
        w("- peers without a time: " + "; ".join(f"{p} on {m}: {e}" for m, p, e in errs))

    # 2. per operation
    w("\n## Every GPU operation per matrix\n")
    w("Peak = the device pool's high-water mark above what it held before the call (same measure for both); "
      "C bytes: tgb's stored form (tiles, or rows where its storage rule keeps rows) / 32-bit CSR (4*(rows+1) + nnz*(4 + value bytes)).\n")
    w("| matrix | op | impl | ms | GFLOPS | vs plus_times | pool peak MB | nnz(C) | C tgb bytes | C CSR bytes | tgb/CSR | check |")
    w("|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|---|")
    gpu_ops = ["plus_times_f64", "plus_times_f32", "AAt_plus_times", "min_plus_f64", "lor_land_bool", "tri_masked",
               "msbfs_step256"]
    for m in order:
        pt = med(by.get((m, "plus_times_f64", "tgb-cuda")))
        for op in gpu_ops:
            for impl in ("cusparse", "cusparse-LLt", "tgb-cuda"):
                r = by.get((m, op, impl))
                if not r:
                    continue
                t = med(r)
                rel = f(t / pt, 2) if impl == "tgb-cuda" and t and pt and op != "plus_times_f64" else "-"
                ct, cc = r.get("c_tile_bytes", 0), r.get("c_csr_bytes", 0)
                w(f"| {m} | {op} | {impl} | {f(t)} | {f(r.get('gflops'), 2) if t else '-'} | {rel} | "
                  f"{f(r.get('pool_peak_mb') or None, 1)} | {r.get('nnz_c', 0):,} | {f'{ct:,}' if ct else '-'} | {cc:,} | "
                  f"{f(ct / cc, 2) if ct and cc else '-'} | {r.get('check', '')} |")

    # 2b. the masked triangle product against cuSPARSE's unmasked L*L' (issue 13's target: at most a third)
    tri = []
    for m in order:
        t = med(by.get((m, "tri_masked", "tgb-cuda")))
        u = med(by.get((m, "tri_masked", "cusparse-LLt")))
        if t and u:
            tri.append((m, t, u))
    if tri:
        w("\n## Masked triangle product C<L> = L plus_pair L' against cuSPARSE's unmasked L*L'\n")
        w("Target: tgb at most a third of cuSPARSE's time (ratio <= 0.333).\n")
        w("| matrix | cuSPARSE L*L' ms | tgb C<L> ms | tgb / cuSPARSE | target met |")
        w("|---|--:|--:|--:|---|")
        for m, t, u in tri:
            w(f"| {m} | {f(u)} | {f(t)} | {f(t / u, 3)} | {'yes' if t <= u / 3 else 'no'} |")
        g, n = geomean([u / t for _, t, u in tri])
        w(f"\nGeometric mean of cuSPARSE L*L' / tgb C<L>: {fx(g)} over {n} matrices")

    # 3. stored A
    w("\n## Stored bytes of A: tgb's stored form (tiles or rows) against 32-bit CSR fp64\n")
    w("| matrix | n | nnz(A) | tgb bytes | CSR bytes | tgb/CSR |")
    w("|---|--:|--:|--:|--:|--:|")
    for m in order:
        r = next((x for x in bench if x["matrix"] == m and x.get("a_tile_bytes")), None)
        if r:
            w(f"| {m} | {r['n']:,} | {r['nnz_a']:,} | {r['a_tile_bytes']:,} | {r['a_csr_bytes']:,} | "
              f"{r['a_tile_bytes'] / r['a_csr_bytes']:.2f} |")

    # 4. host
    host = [(m, op) for m in order for op in gpu_ops if by.get((m, op, "tgb-host"))]
    if host:
        w("\n## Host: tgb against SuiteSparse:GraphBLAS (ms)\n")
        w("| matrix | op | tgb host | SuiteSparse | speed-up |")
        w("|---|---|--:|--:|--:|")
        hr = {}
        for m, op in host:
            t, s = med(by.get((m, op, "tgb-host"))), med(by.get((m, op, "suitesparse")))
            if t and s:
                hr.setdefault(op, []).append(s / t)
            w(f"| {m} | {op} | {f(t)} | {f(s)} | {fx(s / t) if t and s else '-'} |")
        w("")
        for op, v in hr.items():
            g, n = geomean(v)
            w(f"- {op}: tgb host vs SuiteSparse {fx(g)} over {n} matrices")
    else:
        w("\n(no host rows: the GPU run uses --no-host; run tgb-bench without --no-gpu elsewhere for the host table)")

    bad = [r for r in bench if r.get("check") not in GOOD + ("", "unchecked") or
           (r.get("check") == "" and r.get("runs", 0) == 0 and r.get("note"))]
    unchecked = [r for r in bench if r.get("check") == "unchecked"]
    w("\n## Checks\n")
    w(f"- rows: {len(bench)}; not passing: {len(bad)}; unchecked: {len(unchecked)}")
    for r in bad:
        w(f"- **{r.get('check') or 'NOT RUN'}**: {r['matrix']} {r['op']} {r['impl']}: {r.get('note', '')}")
    for r in unchecked:
        w(f"- unchecked: {r['matrix']} {r['op']} {r['impl']}: {r.get('note', '')}")
    text = "\n".join(out) + "\n"
    if a.out:
        open(a.out, "w").write(text)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
