"""Per-instance Sinkhorn relaxation of TSP: no actor network, free scores X per instance.

Ascends the exact critic's objective (spg-tui --critic exact: Q(A) = -sum_ik W_ik (A S A^T)_ik,
W = D with each city's self-pair priced at its mean edge) at M = exp(S^L(X / tau)) (rows then
columns, L iterations, as linalg/sinkhorn), soft or straight-through at Hungarian(M), with Adam
on X, and reports the soft objective, the Birkhoff mass sum(M * P)/N and the Hungarian tour.
It separates what the relaxation itself reaches from what an actor network reaches.

LAMBDA > 0 adds LAMBDA (N - |M|_F^2) to the minimised tour: zero at every permutation, positive
inside the Birkhoff polytope, so it prices the blur that the quadratic tour relaxation under-prices.

usage: python3 tools/tsp_relax.py FILE COUNT STEPS LR TAU ITERS MODE(soft|hard) SEED [INIT(rand|angle) [LAMBDA]]
"""
import json
import sys

import numpy as np
import torch
from scipy.optimize import linear_sum_assignment

path, count, steps, lr, tau, iters, mode, seed = sys.argv[1:9]
init = sys.argv[9] if len(sys.argv) > 9 else "rand"
lam = float(sys.argv[10]) if len(sys.argv) > 10 else 0.0
count, steps, lr, tau, iters, seed = int(count), int(steps), float(lr), float(tau), int(iters), int(seed)
torch.manual_seed(seed)
pts = torch.tensor([inst["points"] for inst in json.load(open(path))["instances"][:count]], dtype=torch.float64)
b, n, _ = pts.shape
d = torch.cdist(pts, pts)
eye = torch.eye(n, dtype=torch.float64)
w = d * (1 - eye) + torch.diag_embed(d.sum(2) / (n - 1))  # self-pair = the city's mean edge
shift = torch.roll(eye, 1, dims=1)  # S_j,j+1 = 1


def sinkhorn(x):
    z = x / tau
    for _ in range(iters):
        z = z - torch.logsumexp(z, 2, keepdim=True)
        z = z - torch.logsumexp(z, 1, keepdim=True)
    return z.exp()


def tour_len(a):  # sum_ik W_ik (A S A^T)_ik
    return (w * (a @ shift @ a.transpose(1, 2))).sum((1, 2))


def hungarian(m):
    p = torch.zeros_like(m)
    for k in range(b):
        r, c = linear_sum_assignment(-m[k].detach().numpy())
        p[k, r, c] = 1
    return p


if init == "angle":  # X_ij = <c_i - centroid, place j on the circle>, SPG+Factored's start
    ang = 2 * np.pi * torch.arange(n, dtype=torch.float64) / n
    place = torch.stack([ang.cos(), ang.sin()], 1)
    x = ((pts - pts.mean(1, keepdim=True)) @ place.T).clone()
else:
    x = 0.01 * torch.randn(b, n, n, dtype=torch.float64)
x.requires_grad_(True)
opt = torch.optim.Adam([x], lr=lr)
for t in range(steps + 1):
    m = sinkhorn(x)
    p = hungarian(m)
    if t % max(steps // 10, 1) == 0:
        print(f"step {t}: soft {tour_len(m).mean():.4f}, birkhoff {(m * p).sum((1, 2)).mean() / n:.4f}, "
              f"hungarian tour {tour_len(p).mean():.4f}", flush=True)
    if t == steps:
        break
    act = m + (p - m).detach() if mode == "hard" else m
    loss = (tour_len(act) + lam * (n - (act * act).sum((1, 2)))).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
