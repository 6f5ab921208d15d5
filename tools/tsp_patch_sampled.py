"""Best of K Gumbel-perturbed cycle covers of -D, each patched (tools/tsp_patch.py's merge): what
the successor action's sampled decode would reach with scores X = -D and no learning.
usage: python3 tools/tsp_patch_sampled.py FILE COUNT K SCALE (noise per entry: SCALE * spread(X) / N^2, as eval's relative noise)"""
import json, sys
import numpy as np
from scipy.optimize import linear_sum_assignment

def cycles_of(succ):
    seen, cyc = set(), []
    for s in range(len(succ)):
        if s in seen: continue
        c, i = [], s
        while i not in seen:
            seen.add(i); c.append(i); i = succ[i]
        cyc.append(c)
    return cyc

def merge(d, a, b):
    best = None
    for i in range(len(a)):
        p, q = a[i], a[(i + 1) % len(a)]
        for j in range(len(b)):
            r, s = b[j], b[(j + 1) % len(b)]
            rot = b[j + 1:] + b[:j + 1]
            for cost, ins in ((d[p, s] + d[r, q] - d[p, q] - d[r, s], rot), (d[p, r] + d[s, q] - d[p, q] - d[r, s], rot[::-1])):
                if best is None or cost < best[0]:
                    best = (cost, a[:i + 1] + ins + a[i + 1:])
    return best

def patched(d, succ):
    cyc = cycles_of(succ)
    while len(cyc) > 1:
        best = None
        for i in range(len(cyc)):
            for j in range(i + 1, len(cyc)):
                c, t = merge(d, cyc[i], cyc[j])
                if best is None or c < best[0]: best = (c, i, j, t)
        _, i, j, t = best
        cyc = [x for k, x in enumerate(cyc) if k not in (i, j)] + [t]
    t = cyc[0]
    return sum(d[t[k], t[(k + 1) % len(t)]] for k in range(len(t)))

def spread(x):
    n = len(x)
    y = x - x.mean(1, keepdims=True) - x.mean(0, keepdims=True) + x.mean()
    return np.sqrt((y * y).mean())

f = json.load(open(sys.argv[1])); count, K, scale = int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
rng = np.random.default_rng(1); singles, bests = [], []
for inst in f["instances"][:count]:
    p = np.array(inst["points"]); n = len(p)
    d = np.linalg.norm(p[:, None] - p[None], axis=2)
    x = -d.copy(); np.fill_diagonal(x, -1e9)
    sp = spread(np.where(np.eye(n) > 0, 0, -d))
    best = None
    for k in range(K):
        y = x if k == 0 else x + scale * sp / n**2 * rng.gumbel(size=(n, n))
        r, c = linear_sum_assignment(-y)
        t = patched(d, list(c))
        if k == 0: singles.append(t)
        best = t if best is None else min(best, t)
    bests.append(best)
print(f"{sys.argv[1]} {count} inst K={K} scale={scale}: single {np.mean(singles):.4f} best-of-K {np.mean(bests):.4f}")
