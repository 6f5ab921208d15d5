#!/usr/bin/env python3
"""Peer benchmark: one SPG+Successor training step on TSP (critic update + actor update) in PyTorch
on the CPU, the same networks as agent/nets/successor.go under `--recipe best`: hidden 32, a pair
MLP (2 hidden layers, LeakyReLU 0.01) over the features (c_i, c_j, c_i - c_j) of every ordered pair
of cities, the diagonal barred (X_ii = -1e4), Sinkhorn tau 0.05, L 10, Hungarian rounding of log M
with scipy (a cycle cover); the critic Q(s, A) = sum A * G(s), G the same MLP under its own weights;
the actor ascends a Polyak copy of the critic (rate 0.01) at the rounded action (straight-through,
which for this linear critic is the soft update). Batch 128, Adam (actor 1e-4, critic 1e-3),
gradients clipped to norm 1, no critic penalty. The reward is minus the cover's length: the step
times the networks, as BenchmarkStep does, not the environment's patching. It is the
side-by-side reference for `spg-tui bench --task tsp --recipe best`, modelled on
../shared/bench/torch_spg_step.py (no replay buffer or exploration, nor has this).

Needs Debian's python3-torch, python3-scipy, python3-numpy; run it with /usr/bin/python3.

Usage: torch_succ_step.py N [steps] [threads] [batch]   -> one JSON line on stdout
"""
import copy, json, sys, time, statistics
import numpy as np, torch, torch.nn as nn, torch.nn.functional as F
from scipy.optimize import linear_sum_assignment

N = int(sys.argv[1]) if len(sys.argv) > 1 else 20
STEPS = int(sys.argv[2]) if len(sys.argv) > 2 else 20
torch.set_num_threads(int(sys.argv[3]) if len(sys.argv) > 3 else 2)
B = int(sys.argv[4]) if len(sys.argv) > 4 else 128
H, TAU, L, BAR, POLYAK = 32, 0.05, 10, -1e4, 0.01
torch.manual_seed(0); np.random.seed(0)


def pair_mlp():
    return nn.Sequential(nn.Linear(6, H), nn.LeakyReLU(0.01), nn.Linear(H, H), nn.LeakyReLU(0.01), nn.Linear(H, 1))


def pairs(c):
    ci, cj = c[:, :, None, :].expand(-1, -1, N, -1), c[:, None, :, :].expand(-1, N, -1, -1)
    return torch.cat([ci, cj, ci - cj], 3)


class Actor(nn.Module):
    def __init__(s):
        super().__init__(); s.f = pair_mlp()
        s.register_buffer("eye", torch.eye(N, dtype=torch.bool))

    def forward(s, c):
        x = s.f(pairs(c)).squeeze(3).masked_fill(s.eye, BAR) / TAU
        for _ in range(L):
            x = x - torch.logsumexp(x, dim=2, keepdim=True)
            x = x - torch.logsumexp(x, dim=1, keepdim=True)
        return torch.exp(x), x


class Critic(nn.Module):
    def __init__(s):
        super().__init__(); s.g = pair_mlp()

    def forward(s, c, a):
        return (a * s.g(pairs(c)).squeeze(3)).sum((1, 2))


actor, critic = Actor(), Critic()
target = copy.deepcopy(critic)
for p in target.parameters():
    p.requires_grad_(False)
opt_a = torch.optim.Adam(actor.parameters(), 1e-4)
opt_c = torch.optim.Adam(critic.parameters(), 1e-3)


def round_to_cover(logm):
    P = np.zeros_like(logm)
    for k in range(logm.shape[0]):
        r, c = linear_sum_assignment(-logm[k]); P[k, r, c] = 1
    return P


def step():
    c = torch.rand(B, N, 2)
    t0 = time.perf_counter()
    with torch.no_grad(): _, logm = actor(c)
    P = torch.from_numpy(round_to_cover(logm.numpy()))
    d = (c[:, :, None, :] - c[:, None, :, :]).norm(dim=3)
    r = -(P * d).sum((1, 2))
    loss_c = F.mse_loss(critic(c, P), r)
    opt_c.zero_grad(); loss_c.backward(); nn.utils.clip_grad_norm_(critic.parameters(), 1.0); opt_c.step()
    with torch.no_grad():
        for t, p in zip(target.parameters(), critic.parameters()):
            t.mul_(1 - POLYAK).add_(POLYAK * p)
    m, _ = actor(c)
    loss_a = -target(c, m).mean()
    opt_a.zero_grad(); loss_a.backward(); nn.utils.clip_grad_norm_(actor.parameters(), 1.0); opt_a.step()
    return (time.perf_counter() - t0) * 1000


for _ in range(3): step()
ms = [step() for _ in range(STEPS)]
print(json.dumps({"peer": "pytorch", "version": torch.__version__, "threads": torch.get_num_threads(), "device": "cpu",
                  "task": "tsp", "model": "spg-successor", "n": N, "batch": B, "steps": STEPS,
                  "median_ms_per_step": round(statistics.median(ms), 2),
                  "min_ms": round(min(ms), 2), "max_ms": round(max(ms), 2)}))
