#!/usr/bin/env python3
"""Turns tgb-bench JSON lines into PNG plots:
  speedup.png  tgb-cuda over cuSPARSE (and tgb-host over SuiteSparse) per matrix and operation
  memory.png   peak device memory per matrix, tgb-cuda against cuSPARSE (plus_times fp64)
  gflops.png   GFLOPS against compression ratio (products / result entries)
Usage: scripts/plot-bench.py OUTDIR FILE.jsonl [FILE.jsonl ...]   (installs matplotlib if missing)
"""
import json
import os
import subprocess
import sys

try:
    import matplotlib
except ImportError:
    subprocess.check_call([sys.executable, "-m", "pip", "install", "-q", "matplotlib"])
    import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out, files = sys.argv[1], sys.argv[2:]
    os.makedirs(out, exist_ok=True)
    rows = [json.loads(line) for f in files for line in open(f) if line.strip()]
    rows = [r for r in rows if r["runs"] > 0 and r["check"] in ("ok", "reference", "pattern-ok")]
    by = {(r["matrix"], r["op"], r["impl"]): r for r in rows}
    matrices = list(dict.fromkeys(r["matrix"] for r in rows))

    # Speed-up over the baseline of the same device.
    fig, ax = plt.subplots(figsize=(11, 4.5))
    ops = [("plus_times_f64", "tgb-cuda", "cusparse"), ("plus_times_f32", "tgb-cuda", "cusparse"),
           ("plus_times_f64", "tgb-host", "suitesparse"), ("tri_masked", "tgb-host", "suitesparse")]
    width = 0.8 / len(ops)
    for k, (op, impl, base) in enumerate(ops):
        xs, ys = [], []
        for i, m in enumerate(matrices):
            a, b = by.get((m, op, impl)), by.get((m, op, base))
            if a and b:
                xs.append(i + k * width)
                ys.append(b["median_ms"] / a["median_ms"])
        if xs:
            ax.bar(xs, ys, width, label=f"{impl} / {base}, {op}")
    ax.axhline(1.0, color="black", lw=0.8)
    ax.set_yscale("log")
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(matrices))])
    ax.set_xticklabels(matrices, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("speed-up (baseline time / tgb time)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(f"{out}/speedup.png", dpi=110)

    fig, ax = plt.subplots(figsize=(11, 4.5))
    for k, impl in enumerate(["cusparse", "tgb-cuda"]):
        xs = [i + k * 0.4 for i, m in enumerate(matrices) if (m, "plus_times_f64", impl) in by]
        ys = [by[(m, "plus_times_f64", impl)]["peak_mb"] for m in matrices if (m, "plus_times_f64", impl) in by]
        ax.bar(xs, ys, 0.4, label=impl)
    ax.set_yscale("log")
    ax.set_xticks([i + 0.2 for i in range(len(matrices))])
    ax.set_xticklabels(matrices, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel("peak device memory of C = A*A (MB)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(f"{out}/memory.png", dpi=110)

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for impl, marker in [("cusparse", "o"), ("tgb-cuda", "s")]:
        pts = [(r["products"] / max(1, r["nnz_c"]), r["gflops"]) for r in rows
               if r["impl"] == impl and r["op"] == "plus_times_f64"]
        if pts:
            ax.scatter(*zip(*pts), marker=marker, label=impl)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("compression ratio (products / entries of C)")
    ax.set_ylabel("GFLOPS (2 x products / time)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(f"{out}/gflops.png", dpi=110)


if __name__ == "__main__":
    main()
