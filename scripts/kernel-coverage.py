#!/usr/bin/env python3
"""Kernel coverage of the GPU test cases, for scripts/gpu-check.sh.

Reads scripts/kernel-launches.sh's OUTDIR and prints what the GPU test cases
cover: kernel entry points (each template instantiation) and
kernels (templates, by name) in the binary, launched by some case, and a
small set of cases that launches every kernel some case launches (greedy, by
new kernels per second). Writes OUTDIR/cover.txt: one Catch2 test spec per line
(commas and brackets escaped), for the sanitizer runs.
  scripts/kernel-coverage.py OUTDIR"""
import glob
import os
import re
import subprocess
import sys

out = sys.argv[1]


def demangle(names):
    if not names:
        return {}
    r = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True, check=True)
    return dict(zip(names, r.stdout.splitlines()))


def template_of(pretty):
    # "void tgb::detail::cuda::k_pull_rows<true, double, ...>(...)" -> "tgb::detail::cuda::k_pull_rows"
    s = re.sub(r"^void ", "", pretty).replace("(anonymous namespace)::", "")
    depth, cut = 0, len(s)
    for i, ch in enumerate(s):
        if ch in "<(" and depth == 0:
            cut = i
            break
    return s[:cut]


all_k = [l.strip() for l in open(os.path.join(out, "all.txt")) if l.strip()]
cases = []
for line in open(os.path.join(out, "cases.tsv")):
    n, ms, status, name = line.rstrip("\n").split("\t", 3)
    path = os.path.join(out, f"case-{n}.txt")
    ks = {l.strip() for l in open(path) if l.strip()} if os.path.exists(path) else set()
    cases.append((int(n), int(ms), status, name, ks))
launched = set().union(*(c[4] for c in cases)) if cases else set()
names = demangle(sorted(set(all_k) | launched))
tmpl_all = {template_of(names.get(k, k)) for k in all_k}
tmpl_launched = {template_of(names.get(k, k)) for k in launched}
print(f"kernel instantiations in the binary (sm_90 entry points): {len(set(all_k))}")
print(f"  launched by some test case: {len(launched & set(all_k))} "
      f"({100.0 * len(launched & set(all_k)) / max(1, len(set(all_k))):.0f}%)")
print(f"kernels (templates by name) in the binary: {len(tmpl_all)}; launched: {len(tmpl_launched & tmpl_all)}")
never = sorted(tmpl_all - tmpl_launched)
if never:
    print("kernels no test case launches:")
    for t in never:
        print("  " + t)
bad = [c for c in cases if not c[2].startswith("rc=0,") or c[2].endswith("ran=0")]
for c in bad:
    print(f"case {c[0]} did not pass alone ({c[2]}): {c[3]}")

# Greedy cover of every launched kernel (template), cheapest new kernels
# first: the sanitizers' runs take these cases.
tmpl_of_case = {c[0]: {template_of(names.get(k, k)) for k in c[4]} for c in cases}
left, cover = set(tmpl_launched), []
while left:
    best = max(cases, key=lambda c: len(tmpl_of_case[c[0]] & left) / (c[1] / 1000.0 + 0.5))
    if not tmpl_of_case[best[0]] & left:
        break
    cover.append(best)
    left -= tmpl_of_case[best[0]]
covered_inst = set().union(*(c[4] for c in cover)) if cover else set()
total_ms = sum(c[1] for c in cover)
print(f"cover of every launched kernel: {len(cover)} of {len(cases)} cases, {total_ms / 1000.0:.1f} s unsanitized "
      f"(all cases: {sum(c[1] for c in cases) / 1000.0:.1f} s); they launch {len(covered_inst)} of the "
      f"{len(launched)} instantiations")
with open(os.path.join(out, "cover.txt"), "w") as f:
    for c in cover:
        print(f"  {c[1] / 1000.0:7.2f} s  {len(tmpl_of_case[c[0]]):3d} kernels {len(c[4]):4d} instantiations  {c[3]}")
        f.write(re.sub(r"([\[\],\\])", r"\\\1", c[3]) + "\n")
