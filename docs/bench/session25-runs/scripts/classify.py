#!/usr/bin/env python3
"""classify.py BUFFERS.txt SANITIZER.log: which printed buffer each reported address falls in."""
import re, sys, collections
bufs = []
for line in open(sys.argv[1]):
    p = line.split()
    if len(p) == 4 and p[0] == 'buf':
        bufs.append((int(p[2], 16), int(p[3]), p[1]))
bufs.sort()
count = collections.Counter()
kernels = collections.Counter()
offsets = collections.Counter()
span = [1 << 62, -1]
cur = None
for line in open(sys.argv[2], errors='replace'):
    m = re.search(r'Uninitialized __global__ memory read of size (\d+)', line)
    if m:
        cur = m.group(1)
    m = re.search(r'=========\s+at (.*?)\+0x', line)
    if m and cur:
        name = m.group(1)
        kernels['ScanKernel' if 'ScanKernel' in name else name[:60]] += 1
    m = re.search(r'Address (0x[0-9a-f]+)', line)
    if m and cur:
        a = int(m.group(1), 16)
        kind = 'none of them'
        for base, size, k in bufs:
            if base <= a < base + size:
                kind = k
                if k == 'temp':
                    offsets[(a - base) % 16] += 1
                    span[0] = min(span[0], a - base)
                    span[1] = max(span[1], a - base)
                break
        count[(cur, kind)] += 1
        cur = None
print('reports by (read size, buffer):')
for (sz, k), c in sorted(count.items()):
    if c:
        print('  size %s in %s: %d' % (sz, k, c))
print('kernels:', dict(kernels))
if offsets:
    print('temp: offset mod 16', dict(offsets), 'offsets from', span[0], 'to', span[1])
