#!/usr/bin/env python3
"""Peer benchmark: one SPG+Attention training step on TSP (critic update + actor update) in
PyTorch on the CPU, the same networks as agent/nets/attention.go under `--recipe best`: hidden 32,
a 3-layer self-attention encoder (4 heads, feed-forward 4x, skips, no norm) over the centred
cities, a place MLP over points on a circle, X = <F(city), P(place)>, Sinkhorn tau 0.05, L 10,
Hungarian rounding with scipy; the critic a pair MLP G over (c_i, c_k, c_i - c_k) summed over the
tour's directed edges, its diagonal scored as the city's mean edge. Batch 128, Adam (actor 1e-5,
critic 1e-3), gradients clipped to norm 1, no critic penalty. It is the side-by-side reference
for `spg-tui bench --task tsp --model spg-attention --recipe best`, modelled on
../shared/bench/torch_spg_step.py (which has no replay buffer or exploration, nor has this).

Needs Debian's python3-torch, python3-scipy, python3-numpy; run it with /usr/bin/python3.

Usage: torch_attn_step.py N [steps] [threads] [batch]   -> one JSON line on stdout
"""
import json, math, sys, time, statistics
import numpy as np, torch, torch.nn as nn, torch.nn.functional as F
from scipy.optimize import linear_sum_assignment

N = int(sys.argv[1]) if len(sys.argv) > 1 else 20
STEPS = int(sys.argv[2]) if len(sys.argv) > 2 else 20
torch.set_num_threads(int(sys.argv[3]) if len(sys.argv) > 3 else 2)
B = int(sys.argv[4]) if len(sys.argv) > 4 else 128
H, HEADS, LAYERS, FF, TAU, L = 32, 4, 3, 4, 0.05, 10
torch.manual_seed(0); np.random.seed(0)


def sinkhorn(x):
    x = x / TAU
    for _ in range(L):
        x = x - torch.logsumexp(x, dim=2, keepdim=True)
        x = x - torch.logsumexp(x, dim=1, keepdim=True)
    return torch.exp(x)


def mlp(i, h, o):
    return nn.Sequential(nn.Linear(i, h), nn.LeakyReLU(0.01), nn.Linear(h, h), nn.LeakyReLU(0.01), nn.Linear(h, o))


class Layer(nn.Module):  # x + MHA(x), then x + FF(x)
    def __init__(s):
        super().__init__()
        s.qkv, s.o = nn.Linear(H, 3 * H, bias=False), nn.Linear(H, H, bias=False)
        s.ff = nn.Sequential(nn.Linear(H, FF * H), nn.LeakyReLU(0.01), nn.Linear(FF * H, H))

    def forward(s, x):
        b, n, _ = x.shape
        q, k, v = s.qkv(x).view(b, n, 3, HEADS, H // HEADS).permute(2, 0, 3, 1, 4)
        a = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(H // HEADS), dim=-1)
        x = x + s.o((a @ v).transpose(1, 2).reshape(b, n, H))
        return x + s.ff(x)


class Actor(nn.Module):
    def __init__(s):
        super().__init__()
        s.inp, s.layers, s.out = nn.Linear(2, H), nn.ModuleList(Layer() for _ in range(LAYERS)), nn.Linear(H, H)
        s.place = mlp(2, H, H)
        j = torch.arange(N, dtype=torch.float32) * 2 * math.pi / N
        s.register_buffer("circle", torch.stack([torch.cos(j), torch.sin(j)], 1))

    def forward(s, c):
        e = s.inp(c - c.mean(1, keepdim=True))
        for layer in s.layers:
            e = layer(e)
        return sinkhorn(s.out(e) @ s.place(s.circle).T)


class Critic(nn.Module):
    def __init__(s):
        super().__init__(); s.g = mlp(6, H, 1)
        s.register_buffer("shift", torch.roll(torch.eye(N), 1, 1))  # S_j,j+1 = 1
        s.register_buffer("eye", torch.eye(N))

    def forward(s, c, acts):
        ci, ck = c[:, :, None, :].expand(-1, -1, N, -1), c[:, None, :, :].expand(-1, N, -1, -1)
        g = s.g(torch.cat([ci, ck, ci - ck], 3)).squeeze(3)
        off = g * (1 - s.eye)
        mean = off.sum(2) / (N - 1)
        qs = []
        for a in acts:
            adj = (a @ s.shift) @ a.transpose(1, 2)
            qs.append((adj * off).sum((1, 2)) + (torch.diagonal(adj, dim1=1, dim2=2) * mean).sum(1))
        return qs


actor, critic = Actor(), Critic()
opt_a = torch.optim.Adam(actor.parameters(), 1e-5)
opt_c = torch.optim.Adam(critic.parameters(), 1e-3)


def round_to_perm(M):
    P = np.zeros_like(M)
    for k in range(M.shape[0]):
        r, c = linear_sum_assignment(-M[k]); P[k, r, c] = 1
    return P


def step():
    c = torch.rand(B, N, 2)
    t0 = time.perf_counter()
    with torch.no_grad(): M = actor(c)
    P = torch.from_numpy(round_to_perm(M.numpy()))
    tour = P.transpose(1, 2) @ c  # the city at each place
    r = -(tour - torch.roll(tour, -1, 1)).norm(dim=2).sum(1)
    q_hard, = critic(c, [P])
    loss_c = F.mse_loss(q_hard, r)
    opt_c.zero_grad(); loss_c.backward(); nn.utils.clip_grad_norm_(critic.parameters(), 1.0); opt_c.step()
    loss_a = -critic(c, [actor(c)])[0].mean()
    opt_a.zero_grad(); loss_a.backward(); nn.utils.clip_grad_norm_(actor.parameters(), 1.0); opt_a.step()
    return (time.perf_counter() - t0) * 1000


for _ in range(3): step()
ms = [step() for _ in range(STEPS)]
print(json.dumps({"peer": "pytorch", "version": torch.__version__, "threads": torch.get_num_threads(), "device": "cpu",
                  "task": "tsp", "model": "spg-attention", "n": N, "batch": B, "steps": STEPS,
                  "median_ms_per_step": round(statistics.median(ms), 2),
                  "min_ms": round(min(ms), 2), "max_ms": round(max(ms), 2)}))
