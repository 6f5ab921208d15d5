#!/usr/bin/env python3
"""Diagnostic: SPG+Matching's actor trained through an ORACLE critic, Q(s, M) = <M, C(s)> / N
(C[i][j] = |b_i - a_j|; exactly the MWM reward for a permutation matrix, linear in M), instead
of a learned one. If the actor climbs, the actor side (embedding, GRU, Sinkhorn, DPG through M,
Adam, clipping) works and the learned critic is the weak link.
Usage: oracle_spg.py N STEPS EVAL actor_lr [init.npz|-] [threads]
SINKHORN_L in the environment sets Sinkhorn's iterations (default 10)."""
import json, sys, time
import numpy as np, torch, torch.nn as nn, torch.nn.functional as F
from scipy.optimize import linear_sum_assignment
N = int(sys.argv[1]); STEPS = int(sys.argv[2]); EVAL = int(sys.argv[3]); ALR = float(sys.argv[4])
INIT = sys.argv[5] if len(sys.argv) > 5 else "-"; TH = int(sys.argv[6]) if len(sys.argv) > 6 else 1
torch.set_num_threads(TH); torch.manual_seed(1); np.random.seed(1)
import os
B, H, TAU, L = 128, 128, 0.05, int(os.environ.get("SINKHORN_L", "10"))
def sinkhorn(x):
    x = x / TAU
    for _ in range(L):
        x = x - torch.logsumexp(x, 2, keepdim=True); x = x - torch.logsumexp(x, 1, keepdim=True)
    return torch.exp(x)
class Actor(nn.Module):
    def __init__(s):
        super().__init__(); s.e = nn.Linear(2, H); s.gru = nn.GRU(N, H, batch_first=True); s.o = nn.Linear(H, N)
    def forward(s, a, b):
        ea, eb = F.leaky_relu(s.e(a)), F.leaky_relu(s.e(b))
        return sinkhorn(s.o(s.gru(torch.bmm(eb, ea.transpose(1, 2)))[0]))
actor = Actor()
if INIT != "-":
    z = np.load(INIT)
    with torch.no_grad():
        actor.e.weight.copy_(torch.from_numpy(z["embedding.weight"])); actor.e.bias.copy_(torch.from_numpy(z["embedding.bias"]))
        actor.gru.weight_ih_l0.copy_(torch.from_numpy(z["gru.weight_ih_l0"][:, :N])); actor.gru.weight_hh_l0.copy_(torch.from_numpy(z["gru.weight_hh_l0"]))
        actor.gru.bias_ih_l0.copy_(torch.from_numpy(z["gru.bias_ih_l0"])); actor.gru.bias_hh_l0.copy_(torch.from_numpy(z["gru.bias_hh_l0"]))
        actor.o.weight.copy_(torch.from_numpy(z["fc1.weight"][:N])); actor.o.bias.copy_(torch.from_numpy(z["fc1.bias"][:N]))
oa = torch.optim.Adam(actor.parameters(), ALR); sa = torch.optim.lr_scheduler.StepLR(oa, 5000, 0.95)
def cost(a, b): return torch.cdist(b, a)  # [k, i, j] = |b_i - a_j|
ta, tb = torch.rand(500, N, 2), torch.rand(500, N, 2)
tc = cost(ta, tb).numpy()
topt = np.array([tc[k][linear_sum_assignment(-tc[k])].sum() for k in range(500)])
def evaluate():
    with torch.no_grad(): M = actor(ta, tb).numpy()
    w = np.array([tc[k][linear_sum_assignment(-M[k])].sum() for k in range(500)])
    return float(np.mean(w / topt))
t0 = time.time(); print(json.dumps({"step": 0, "ratio": round(evaluate(), 4)}), flush=True)
for step in range(1, STEPS + 1):
    a, b = torch.rand(B, N, 2), torch.rand(B, N, 2)
    M = actor(a, b)
    loss = -(M * cost(a, b)).sum((1, 2)).mean() / N
    oa.zero_grad(); loss.backward(); nn.utils.clip_grad_norm_(actor.parameters(), 1); oa.step(); sa.step()
    if step % EVAL == 0:
        print(json.dumps({"step": step, "ratio": round(evaluate(), 4), "Q": round(-float(loss), 4), "s": round(time.time() - t0)}), flush=True)
