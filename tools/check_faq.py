#!/usr/bin/python3
"""Checks spg-tui's FAQ (`solve --solver faq`, gm.FAQ in envs/gm) against scipy's
quadratic_assignment(method="faq", maximize=True).

check_faq.py SPG_TUI FILE [K]
    On the graph-matching instances of FILE (written by `spg-tui gen --task gm`):
    - from the barycentre start, both deterministic, the objectives (the fraction of G1's edges
      preserved; scipy's fun counts each preserved edge twice) instance by instance, to 1e-9.
      On 0/1 graphs the Frank-Wolfe subproblems tie (the first one's gradient, 2 A J B =
      (2/n) deg1 deg2^T, scores every degree-sorted matching alike), and two exact assignment
      solvers may pick different optima, so the runs can part there; the script counts the
      instances on which they agree. The weighted check below is the exact one.
    - with K random restarts (spg-tui: --restarts K beside the barycentre; scipy: the
      barycentre and K runs from P0="randomized", the best kept) the random starts differ, so
      only the means are compared, with standard errors.
    Every solution read back is checked: a permutation of 0..n-1 whose objective is its own.

check_faq.py --weighted OUT
    Writes OUT (envs/gm/testdata/faq_scipy.json): symmetric weighted matrices, on which no
    subproblem ties, with scipy's barycentre solution; TestFAQMatchesScipy checks gm.FAQ's
    algorithm against it to 1e-9 without scipy.

Needs Debian's python3-scipy and python3-numpy; run it with /usr/bin/python3.
"""
import json, math, subprocess, sys
import numpy as np
from scipy.optimize import quadratic_assignment


def load(path):
    with open(path) as f:
        doc = json.load(f)
    if doc.get("task") != "gm":
        sys.exit(f"check_faq: {path}: task {doc.get('task')!r}, want gm")
    n = doc["n"]
    out = []
    for i, inst in enumerate(doc["instances"]):
        a, b = np.array(inst["g1"], dtype=float), np.array(inst["g2"], dtype=float)
        if a.shape != (n, n) or b.shape != (n, n):
            sys.exit(f"check_faq: {path}: instance {i}: graphs of shape {a.shape}, {b.shape}, want {n} x {n}")
        out.append((a, b))
    return out


def kept(a, b, perm):
    """The fraction of G1's edges perm maps onto edges of G2 (1 for an edgeless G1)."""
    m = a.sum() / 2
    return 1.0 if m == 0 else (a * b[np.ix_(perm, perm)]).sum() / 2 / m


def spg(binary, path, restarts):
    cmd = [binary, "solve", "--solver", "faq", "--in", path, "--restarts", str(restarts)]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit(f"check_faq: {' '.join(cmd)}: exit {res.returncode}: {res.stderr.strip()}")
    return [json.loads(line) for line in res.stdout.splitlines()]


def checked(sols, insts, what):
    """The objectives of sols, after checking each is a permutation claiming its own objective."""
    if len(sols) != len(insts):
        sys.exit(f"check_faq: {what}: {len(sols)} solutions for {len(insts)} instances")
    objs = []
    for i, (s, (a, b)) in enumerate(zip(sols, insts)):
        perm = s["perm"]
        if s["index"] != i or sorted(perm) != list(range(len(a))):
            sys.exit(f"check_faq: {what}: solution {i} (index {s['index']}) is not a permutation of 0..{len(a)-1}")
        own = kept(a, b, np.array(perm))
        if abs(own - s["objective"]) > 1e-12:
            sys.exit(f"check_faq: {what}: instance {i} claims objective {s['objective']}, its perm keeps {own}")
        objs.append(own)
    return np.array(objs)


def scipy_faq(a, b, p0, seed=None):
    res = quadratic_assignment(a, b, method="faq", options={"maximize": True, "P0": p0, "rng": seed})
    obj = kept(a, b, res.col_ind)
    m = a.sum() / 2
    if m > 0 and abs(obj - res.fun / 2 / m) > 1e-12:
        sys.exit(f"check_faq: scipy's fun {res.fun} is not its col_ind's objective {obj}")
    return obj


def write_weighted(out):
    rng = np.random.default_rng(35)
    cases = []
    for n in [3, 5, 8, 12, 16, 20, 30, 30, 40]:
        mats = []
        while len(mats) < 2:
            # Sparse like graphs, but no empty row: its gradient row would be all ties.
            w = np.round(rng.uniform(size=(n, n)), 6) * (rng.uniform(size=(n, n)) < (0.7 if n < 10 else 0.35))
            w = np.triu(w, 1)
            if ((w + w.T) > 0).sum(axis=1).min() > 0:
                mats.append(w + w.T)
        a, b = mats
        res = quadratic_assignment(a, b, method="faq", options={"maximize": True, "P0": "barycenter"})
        cases.append({"a": a.tolist(), "b": b.tolist(), "perm": res.col_ind.tolist(), "score": float(res.fun), "nit": int(res.nit)})
    with open(out, "w") as f:
        json.dump({"note": "written by tools/check_faq.py --weighted: scipy's quadratic_assignment(method=faq, "
                           "maximize=True, P0=barycenter) on symmetric weighted matrices",
                   "cases": cases}, f)
        f.write("\n")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--weighted":
        write_weighted(sys.argv[2])
        return
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: check_faq.py SPG_TUI FILE [K] | check_faq.py --weighted OUT")
    binary, path = sys.argv[1], sys.argv[2]
    k = sys.argv[3] if len(sys.argv) == 4 else "9"
    if not k.isdigit():
        sys.exit(f"check_faq: K = {k!r}, want a number of restarts, 0 or more")
    k = int(k)
    insts = load(path)
    n = len(insts[0][0]) if insts else 0

    go1 = checked(spg(binary, path, 0), insts, "faq")
    sp1 = np.array([scipy_faq(a, b, "barycenter") for a, b in insts])
    diff = np.abs(go1 - sp1)
    same = int((diff <= 1e-9).sum())
    print(f"barycentre: {len(insts)} instances, N = {n}: spg-tui mean {go1.mean():.6f}, scipy mean {sp1.mean():.6f}; "
          f"same objective (1e-9) on {same} of {len(insts)}, max |diff| {diff.max():.3g}")

    gok = checked(spg(binary, path, k), insts, f"faq --restarts {k}")
    spk = []
    for i, (a, b) in enumerate(insts):
        best = sp1[i]
        for r in range(k):
            best = max(best, scipy_faq(a, b, "randomized", seed=1000003 * i + r))
        spk.append(best)
    spk = np.array(spk)
    se = lambda x: x.std(ddof=1) / math.sqrt(len(x)) if len(x) > 1 else float("nan")
    print(f"barycentre + {k} random starts: spg-tui mean {gok.mean():.6f} (se {se(gok):.4f}), "
          f"scipy mean {spk.mean():.6f} (se {se(spk):.4f}), difference {gok.mean() - spk.mean():+.6f}")
    # The starts differ, so the instances' pairs are independent draws of the same algorithm.
    d = gok - spk
    print(f"paired difference {d.mean():+.6f} +- {se(d):.4f} (se)")


if __name__ == "__main__":
    main()
