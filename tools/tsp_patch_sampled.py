"""The successor action's sampled decode with scores X = -D and no learning: the best of K
Gumbel-perturbed minimum cycle covers (the first unperturbed), each patched into one tour as
tools/tsp_patch.py patches. The noise per entry is SCALE * spread(X) / N^2, eval's relative noise
(spread: the root mean square of X once its row and column means are removed). Prints the mean
single and best-of-K tours.

usage: python3 tools/tsp_patch_sampled.py FILE COUNT K SCALE
"""
import json
import os
import sys

import numpy as np
from scipy.optimize import linear_sum_assignment

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tsp_patch import patch, tour_len  # noqa: E402


def spread(x):
    y = x - x.mean(1, keepdims=True) - x.mean(0, keepdims=True) + x.mean()
    return np.sqrt((y * y).mean())


def main():
    insts = json.load(open(sys.argv[1]))["instances"][:int(sys.argv[2])]
    k, scale = int(sys.argv[3]), float(sys.argv[4])
    rng = np.random.default_rng(1)
    singles, bests = [], []
    for inst in insts:
        p = np.array(inst["points"])
        n = len(p)
        d = np.linalg.norm(p[:, None] - p[None], axis=2)
        x = -d.copy()
        np.fill_diagonal(x, -1e9)
        s = scale * spread(-d) / n**2
        best = None
        for i in range(k):
            y = x if i == 0 else x + s * rng.gumbel(size=(n, n))
            _, c = linear_sum_assignment(-y)
            t = tour_len(d, patch(d, c))
            if i == 0:
                singles.append(t)
            best = t if best is None else min(best, t)
        bests.append(best)
    print(f"{sys.argv[1]}: {len(insts)} instances, K = {k}, scale {scale}: single {np.mean(singles):.4f}, best of K {np.mean(bests):.4f}")


if __name__ == "__main__":
    main()
