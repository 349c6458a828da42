#!/usr/bin/env python3
"""Kernel coverage of a CUDA test run, for scripts/gpu-check.sh.

Usage: kernel-coverage.py BUILT LAUNCHED
  BUILT     the kernels compiled into the test binary: mangled entry symbols, one a line
            (cuobjdump -symbols ... | awk '/STO_ENTRY/{print $NF}')
  LAUNCHED  ncu's CSV (--csv --print-kernel-base mangled) of the run: one row per profiled launch

Both sides are demangled and reduced to the kernel's name without template arguments, so a
kernel template counts once however many types it is instantiated for. Prints the counts and the
kernels never launched; exits 0 (coverage is reported, not enforced here).
"""
import csv
import subprocess
import sys


def base(demangled):
    s = demangled.strip().replace("(anonymous namespace)", "{anon}")
    if s.startswith("void "):
        s = s[5:]
    depth = 0
    for i, ch in enumerate(s):  # cut at the first '<' or '(' outside brackets
        if ch in "<(" and depth == 0:
            return s[:i]
    return s


def demangle(names):
    if not names:
        return []
    out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True, check=True).stdout
    return out.splitlines()


def main():
    built_mangled = [l.strip() for l in open(sys.argv[1]) if l.strip()]
    launched_mangled = []
    with open(sys.argv[2], newline="") as f:
        rows = [r for r in csv.reader(f) if r]
    header = next((i for i, r in enumerate(rows) if "Kernel Name" in r), None)
    if header is not None:
        col = rows[header].index("Kernel Name")
        launched_mangled = sorted({r[col] for r in rows[header + 1:] if len(r) > col and r[col].startswith("_Z")})
    built = {base(d) for d in demangle(built_mangled)}
    launched = {base(d) for d in demangle(launched_mangled)}
    # Kernels of the test files themselves (tile-routine harnesses) count too: they are in both.
    missed = sorted(built - launched)
    print(f"kernel coverage: {len(built & launched)} of {len(built)} kernel templates launched "
          f"({len(launched_mangled)} distinct instantiations)")
    for k in missed:
        print(f"  not launched: {k}")


if __name__ == "__main__":
    main()
