#!/usr/bin/env python3
"""An independent oracle for the graph commands written on the Vector
operations: runs the built `tgb` CLI (bfs --parents, sssp with and without
--delta, pagerank, cc, lcc, ktruss, bc) on
graphs of tests/data and on random graphs written here, and compares with
networkx 3.x (and, for PageRank, with the LDBC Graphalytics formula written
out below in plain Python).

usage: networkx-check.py TGB_PROGRAM DATA_DIR
Exit status: 0 all agree, 1 a difference (each one printed), 77 networkx is
not importable (CTest's SKIP_RETURN_CODE)."""
import os
import random
import subprocess
import sys
import tempfile

try:
    import networkx as nx
except ImportError:
    print("skipped: networkx is not importable")
    sys.exit(77)

TGB, DATA = sys.argv[1], sys.argv[2]
failures = []
checks = 0


def fail(msg):
    failures.append(msg)
    print("FAILED: " + msg)


def read_mtx(path):
    """(n, [(u, v, w)], directed) of a coordinate Matrix Market file, 0-based;
    a symmetric file gives both directions, as tgb reads it."""
    with open(path) as f:
        header = f.readline().split()
        field, sym = header[3].lower(), header[4].lower()
        line = f.readline()
        while line.startswith("%"):
            line = f.readline()
        nr, nc, nnz = (int(x) for x in line.split())
        edges, seen = [], set()
        for _ in range(nnz):
            p = f.readline().split()
            u, v = int(p[0]) - 1, int(p[1]) - 1
            w = 1.0 if field == "pattern" else float(p[2])
            for a, b in ((u, v), (v, u)) if sym != "general" and u != v else ((u, v),):
                if (a, b) not in seen:  # keep the first of duplicates, as the CLI does
                    seen.add((a, b))
                    edges.append((a, b, w))
    assert nr == nc, path
    return nr, edges, sym == "general"


def write_mtx(path, n, edges, weighted):
    with open(path, "w") as f:
        f.write("%%%%MatrixMarket matrix coordinate %s general\n" % ("real" if weighted else "pattern"))
        f.write("%d %d %d\n" % (n, n, len(edges)))
        for u, v, w in edges:
            f.write("%d %d %s\n" % (u + 1, v + 1, repr(w)) if weighted else "%d %d\n" % (u + 1, v + 1))


def digraph(n, edges):
    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    for u, v, w in edges:
        G.add_edge(u, v, weight=w)
    return G


def run(args, expect_ok=True):
    r = subprocess.run([TGB] + args, capture_output=True, text=True)
    if expect_ok and r.returncode != 0:
        raise RuntimeError("tgb %s: exit %d: %s" % (" ".join(args), r.returncode, r.stderr.strip()))
    return r


def lines_of(args, tmp):
    out = os.path.join(tmp, "out.txt")
    run(args + ["-o", out])
    with open(out) as f:
        return [l.split() for l in f.read().splitlines()]


def graphalytics_pagerank(n, edges, d=0.85, iters=20):
    deg = [0] * n
    for u, _, _ in edges:
        deg[u] += 1
    pr = [1.0 / n] * n
    for _ in range(iters):
        dangling = sum(pr[v] for v in range(n) if deg[v] == 0)
        nxt = [(1 - d) / n + d * dangling / n] * n
        for u, v, _ in edges:
            nxt[v] += d * pr[u] / deg[u]
        pr = nxt
    return pr


def networkx_pagerank(G):
    """networkx's PageRank to convergence (its default dangling handling, the
    uniform personalization, is Graphalytics'); its public pagerank needs scipy,
    so without scipy its pure-Python version (private, but in networkx 3.x)."""
    try:
        return nx.pagerank(G, alpha=0.85, weight=None, tol=1e-13, max_iter=2000)
    except ImportError:
        pass
    try:
        from networkx.algorithms.link_analysis.pagerank_alg import _pagerank_python
    except ImportError:
        print("note: networkx's pagerank needs scipy here; compared with the Graphalytics formula only")
        return None
    return _pagerank_python(G, alpha=0.85, weight=None, tol=1e-13, max_iter=2000)


def close(a, b, tol):
    return abs(a - b) <= tol * max(1.0, abs(b))


def check_graph(name, path, n, edges, tmp, sources):
    global checks
    G = digraph(n, edges)
    # BFS levels and parents.
    for s in sources:
        got = lines_of(["bfs", path, "--sources", str(s), "--parents"], tmp)
        want = nx.single_source_shortest_path_length(G, s)
        checks += 1
        if len(got) != n:
            fail("%s bfs %d: %d lines for %d vertices" % (name, s, len(got), n))
            continue
        for v in range(n):
            lv, pa = int(got[v][0]), int(got[v][1])
            if lv != want.get(v, -1):
                fail("%s bfs %d: vertex %d at level %d, networkx says %d" % (name, s, v, lv, want.get(v, -1)))
                break
            if v == s and pa != s:
                fail("%s bfs %d: the source's parent is %d" % (name, s, pa))
                break
            if v != s and lv >= 0 and not (0 <= pa < n and want.get(pa) == lv - 1 and G.has_edge(pa, v)):
                fail("%s bfs %d: vertex %d at level %d has parent %d, which is not valid" % (name, s, v, lv, pa))
                break
            if lv < 0 and pa != -1:
                fail("%s bfs %d: unreached vertex %d has parent %d" % (name, s, v, pa))
                break
    # Shortest paths (Bellman-Ford) over the weights.
    for s in sources:
        got = lines_of(["sssp", path, "--source", str(s)], tmp)
        want = nx.single_source_bellman_ford_path_length(G, s, weight="weight")
        checks += 1
        for v in range(n):
            g = got[v][0]
            if v not in want:
                if g != "inf":
                    fail("%s sssp %d: vertex %d at %s, networkx says unreached" % (name, s, v, g))
                    break
            elif g == "inf" or not close(float(g), want[v], 1e-9):
                fail("%s sssp %d: vertex %d at %s, networkx says %r" % (name, s, v, g, want[v]))
                break
    # Delta-stepping, where the weights are nonnegative.
    if all(w >= 0 for _, _, w in edges):
        s = sources[-1]
        want = nx.single_source_dijkstra_path_length(G, s, weight="weight")
        got = lines_of(["sssp", path, "--source", str(s), "--delta", "0"], tmp)
        checks += 1
        bad = [v for v in range(n) if (got[v][0] == "inf") != (v not in want)
               or (v in want and not close(float(got[v][0]), want[v], 1e-9))]
        if bad:
            fail("%s sssp --delta %d: vertex %d at %s, networkx (Dijkstra) says %r"
                 % (name, s, bad[0], got[bad[0]][0], want.get(bad[0])))
    # PageRank: the Graphalytics formula at 20 iterations, and networkx's
    # (uniform dangling, as Graphalytics) against 200 iterations of tgb.
    got = [float(x[0]) for x in lines_of(["pagerank", path], tmp)]
    want = graphalytics_pagerank(n, edges)
    checks += 1
    bad = [v for v in range(n) if not close(got[v], want[v], 1e-9)]
    if bad:
        fail("%s pagerank: vertex %d is %r, the Graphalytics formula gives %r" % (name, bad[0], got[bad[0]], want[bad[0]]))
    ref = networkx_pagerank(G)
    if ref is not None:
        got = [float(x[0]) for x in lines_of(["pagerank", path, "--iterations", "200"], tmp)]
        checks += 1
        bad = [v for v in range(n) if abs(got[v] - ref[v]) > 1e-6]
        if bad:
            fail("%s pagerank: vertex %d is %r, networkx gives %r" % (name, bad[0], got[bad[0]], ref[bad[0]]))
    # Weakly connected components, labelled by their smallest vertex.
    got = [int(x[0]) for x in lines_of(["cc", path], tmp)]
    want = [0] * n
    for comp in nx.weakly_connected_components(G):
        m = min(comp)
        for v in comp:
            want[v] = m
    checks += 1
    if got != want:
        v = next(v for v in range(n) if got[v] != want[v])
        fail("%s cc: vertex %d in component %d, networkx says %d" % (name, v, got[v], want[v]))
    # Local clustering coefficients: undirected against networkx's
    # clustering() (self-loops dropped), directed against the Graphalytics
    # definition written out here.
    U = nx.Graph()
    U.add_nodes_from(range(n))
    U.add_edges_from((u, v) for u, v, _ in edges if u != v)
    want = nx.clustering(U)
    got = [float(x[0]) for x in lines_of(["lcc", path, "--undirected"], tmp)]
    checks += 1
    bad = [v for v in range(n) if not close(got[v], want[v], 1e-12)]
    if bad:
        fail("%s lcc --undirected: vertex %d is %r, networkx gives %r" % (name, bad[0], got[bad[0]], want[bad[0]]))
    succ = [set() for _ in range(n)]
    for u, v, _ in edges:
        if u != v:
            succ[u].add(v)
    nbr = [set() for _ in range(n)]
    for u in range(n):
        for v in succ[u]:
            nbr[u].add(v)
            nbr[v].add(u)
    got = [float(x[0]) for x in lines_of(["lcc", path], tmp)]
    checks += 1
    for v in range(n):
        d = len(nbr[v])
        e = sum(1 for u in nbr[v] for w in succ[u] if w in nbr[v])
        want_v = e / (d * (d - 1)) if d >= 2 else 0.0
        if not close(got[v], want_v, 1e-12):
            fail("%s lcc: vertex %d is %r, the Graphalytics definition gives %r" % (name, v, got[v], want_v))
            break
    # k-truss: the edge set against networkx's k_truss of the undirected graph.
    for k in (3, 4, 5):
        want = set((min(u, v), max(u, v)) for u, v in nx.k_truss(U, k).edges())
        out = os.path.join(tmp, "ktruss.txt")
        run(["ktruss", path, "-k", str(k), "-o", out])
        with open(out) as f:
            got = [tuple(int(x) for x in line.split()) for line in f if line.strip()]
        checks += 1
        if set((u, v) for u, v, _ in got) != want or len(got) != len(want):
            fail("%s ktruss -k %d: %d edges, networkx has %d" % (name, k, len(got), len(want)))
            continue
        # Each edge's support: its triangles within the truss.
        T = nx.Graph(list(want))
        bad = [(u, v, c) for u, v, c in got if c != len(set(T[u]) & set(T[v]))]
        if bad:
            fail("%s ktruss -k %d: edge %r has support %d, its triangles in the truss number %d"
                 % (name, k, bad[0][:2], bad[0][2], len(set(T[bad[0][0]]) & set(T[bad[0][1]]))))
    check_bc(name, path, n, edges, G, tmp, sources)
    print("ok: %s (%d vertices, %d edges)" % (name, n, len(edges)))


def check_bc(name, path, n, edges, G, tmp, sources):
    """Betweenness centrality: tgb's unnormalized sum over the sources of
    Brandes' dependencies (weights ignored) is networkx's value for the graph
    as a DiGraph (a symmetric file holds both directions), and twice
    networkx's for the same edges as an undirected nx.Graph, which networkx
    halves. Every vertex a source up to 2,000 vertices, else 30 sampled."""
    global checks
    U = nx.Graph()
    U.add_nodes_from(range(n))
    U.add_edges_from((u, v) for u, v, _ in edges)
    pairs = set((u, v) for u, v, _ in edges)
    symmetric = all((v, u) in pairs for u, v in pairs)

    def compare(what, got, want, factor):
        global checks
        checks += 1
        if len(got) != n:
            fail("%s bc %s: %d lines for %d vertices" % (name, what, len(got), n))
            return
        bad = [v for v in range(n) if not close(got[v], factor * want[v], 1e-9)]
        if bad:
            fail("%s bc %s: vertex %d is %r, networkx gives %r (x %g)"
                 % (name, what, bad[0], got[bad[0]], want[bad[0]], factor))

    if n <= 2000:
        got = [float(x[0]) for x in lines_of(["bc", path], tmp)]
        compare("(all sources)", got, nx.betweenness_centrality(G, normalized=False), 1.0)
        if symmetric:
            compare("(all sources, nx.Graph)", got, nx.betweenness_centrality(U, normalized=False), 2.0)
    some = sorted(set(sources) | set(random.Random(n).sample(range(n), min(n, 30))))
    arg = ",".join(str(s) for s in some)
    got = [float(x[0]) for x in lines_of(["bc", path, "--sources", arg, "--batch", "7"], tmp)]
    compare("--sources (%d)" % len(some), got, nx.betweenness_centrality_subset(G, some, list(G), normalized=False), 1.0)
    if symmetric:
        compare("--sources (%d, nx.Graph)" % len(some), got,
                nx.betweenness_centrality_subset(U, some, list(U), normalized=False), 2.0)
    else:
        got = [float(x[0]) for x in lines_of(["bc", path, "--sources", arg, "--undirected"], tmp)]
        compare("--sources --undirected (%d, nx.Graph)" % len(some), got,
                nx.betweenness_centrality_subset(U, some, list(U), normalized=False), 2.0)


def random_graph(rng, n, m, directed, weighted, dag=False, lo=0.5, hi=9.0):
    edges, seen = [], set()
    for _ in range(m):
        u, v = rng.randrange(n), rng.randrange(n)
        if dag:
            if u == v:
                continue
            u, v = min(u, v), max(u, v)
        if (u, v) in seen:
            continue
        w = round(rng.uniform(lo, hi), 3) if weighted else 1.0
        seen.add((u, v))
        edges.append((u, v, w))
        if not directed and u != v and (v, u) not in seen:
            seen.add((v, u))
            edges.append((v, u, w))
    return edges


def main():
    global checks
    rng = random.Random(20261123)
    with tempfile.TemporaryDirectory() as tmp:
        for f in ["karate.mtx", "dolphins.mtx", "polbooks.mtx", "netscience.mtx", "jagmesh7.mtx", "ca-GrQc.mtx"]:
            path = os.path.join(DATA, f)
            n, edges, _ = read_mtx(path)
            check_graph(f, path, n, edges, tmp, [0, rng.randrange(n)])
        cases = [
            ("random directed weighted", 300, 900, True, True, False, 0.5, 9.0),
            ("random undirected pattern", 400, 500, False, False, False, 1, 1),
            ("random directed pattern", 500, 700, True, False, False, 1, 1),
            ("random undirected weighted", 250, 700, False, True, False, 0.1, 5.0),
            ("random DAG with negative weights", 200, 800, True, True, True, -4.0, 6.0),
        ]
        for name, n, m, directed, weighted, dag, lo, hi in cases:
            edges = random_graph(rng, n, m, directed, weighted, dag, lo, hi)
            path = os.path.join(tmp, name.replace(" ", "-") + ".mtx")
            write_mtx(path, n, edges, weighted)
            check_graph(name, path, n, edges, tmp, [0, rng.randrange(n)])
        # A reachable negative cycle is an error (exit status 2) naming it.
        path = os.path.join(tmp, "negative-cycle.mtx")
        write_mtx(path, 4, [(0, 1, 1.0), (1, 2, -3.0), (2, 1, 1.0), (2, 3, 1.0)], True)
        r = run(["sssp", path, "--source", "0"], expect_ok=False)
        checks += 1
        if r.returncode != 2 or "negative cycle" not in r.stderr:
            fail("negative cycle: exit %d, stderr %r" % (r.returncode, r.stderr))
        else:
            print("ok: negative cycle reported")
    print("%d checks, %d failed" % (checks, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
