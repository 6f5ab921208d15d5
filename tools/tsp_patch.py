"""The successor-matrix action's rounding, without a network: the minimum cycle cover of D (the
Hungarian algorithm on the successor matrix A_ik = 1 when city k follows city i, self-loops
barred), the optimum of the tight relaxation min <A, D> over doubly stochastic A, patched into
one tour by repeatedly merging the two cycles whose cheapest 2-exchange (either orientation)
costs least. Prints the mean cover length, the mean number of cycles and the mean patched tour.

usage: python3 tools/tsp_patch.py FILE COUNT
"""
import json
import sys

import numpy as np
from scipy.optimize import linear_sum_assignment


def cycles_of(succ):
    seen, cyc = set(), []
    for s in range(len(succ)):
        if s in seen:
            continue
        c, i = [], s
        while i not in seen:
            seen.add(i)
            c.append(i)
            i = succ[i]
        cyc.append(c)
    return cyc


def merge(d, a, b):
    """The cheapest single tour through cycles a and b by one 2-exchange, and its added cost."""
    best = None
    for i in range(len(a)):
        p, q = a[i], a[(i + 1) % len(a)]
        for j in range(len(b)):
            r, s = b[j], b[(j + 1) % len(b)]
            rot = b[j + 1:] + b[:j + 1]  # starts at s, ends at r
            for cost, ins in ((d[p, s] + d[r, q] - d[p, q] - d[r, s], rot),
                              (d[p, r] + d[s, q] - d[p, q] - d[r, s], rot[::-1])):
                if best is None or cost < best[0]:
                    best = (cost, a[:i + 1] + ins + a[i + 1:])
    return best


def tour_len(d, t):
    return sum(d[t[i], t[(i + 1) % len(t)]] for i in range(len(t)))


def patch(d, succ):
    """The tour (visiting order) of successor function succ, its cycles merged as above."""
    cyc = cycles_of(list(succ))
    while len(cyc) > 1:
        _, i, j, t = min((merge(d, cyc[i], cyc[j])[0], i, j, merge(d, cyc[i], cyc[j])[1])
                         for i in range(len(cyc)) for j in range(i + 1, len(cyc)))
        cyc = [x for k, x in enumerate(cyc) if k not in (i, j)] + [t]
    return cyc[0]


def main():
    pts = json.load(open(sys.argv[1]))["instances"][:int(sys.argv[2])]
    cover, ncyc, tours = [], [], []
    for inst in pts:
        p = np.array(inst["points"])
        d = np.linalg.norm(p[:, None] - p[None], axis=2)
        dd = d + np.diag(np.full(len(p), 1e9))
        r, c = linear_sum_assignment(dd)
        cover.append(d[r, c].sum())
        ncyc.append(len(cycles_of(list(c))))
        tours.append(tour_len(d, patch(d, c)))
    print(f"{len(pts)} instances: cycle cover {np.mean(cover):.4f}, cycles {np.mean(ncyc):.2f}, patched tour {np.mean(tours):.4f}")


if __name__ == "__main__":
    main()
