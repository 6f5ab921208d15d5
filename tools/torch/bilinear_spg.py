#!/usr/bin/env python3
"""Diagnostic (issue 8): ../shared/bench/torch_spg_train.py (SPG+Matching, Algorithm 1, in
PyTorch on MWM-N, mean per-instance optimality ratio on 500 fixed test instances every EVAL
steps) with the paper's critic replaced by a BILINEAR one, Q(s, A) = sum_ij A_ij G(s)_ij + c.
Usage: bilinear_spg.py N STEPS EVAL actor_lr critic_lr [penalty=1] [eps0=1] [div_n=1] [threads=1]
SINKHORN_L in the environment sets Sinkhorn's iterations (default 10).
M's rows are B's points and its columns A's (E = E_B E_A^T): a rounded M[i][j] = 1 matches b_i
with a_j."""
import json, sys, time
import numpy as np, torch, torch.nn as nn, torch.nn.functional as F
from scipy.optimize import linear_sum_assignment
sys.argv += [None] * 10
N = int(sys.argv[1] or 10); STEPS = int(sys.argv[2] or 2000); EVAL = int(sys.argv[3] or 250)
ALR = float(sys.argv[4] or 1e-5); CLR = float(sys.argv[5] or 2e-4); PEN = int(sys.argv[6] or 1)
EPS0 = float(sys.argv[7] or 1); DIVN = int(sys.argv[8] or 1); TH = int(sys.argv[9] or 1)
torch.set_num_threads(TH); torch.manual_seed(1); np.random.seed(1)
import os
B, H, TAU, L = 128, 128, 0.05, int(os.environ.get("SINKHORN_L", "10"))
def sinkhorn(x):
    x = x / TAU
    for _ in range(L):
        x = x - torch.logsumexp(x, 2, keepdim=True); x = x - torch.logsumexp(x, 1, keepdim=True)
    return torch.exp(x) + 1e-6
class Trunk(nn.Module):
    def __init__(s): super().__init__(); s.e = nn.Linear(2, H); s.gru = nn.GRU(N, H, batch_first=True)
    def forward(s, a, b):
        ea, eb = F.leaky_relu(s.e(a)), F.leaky_relu(s.e(b)); return s.gru(torch.bmm(eb, ea.transpose(1, 2)))[0]
class Actor(nn.Module):
    def __init__(s): super().__init__(); s.t = Trunk(); s.o = nn.Linear(H, N)
    def forward(s, a, b): return sinkhorn(s.o(s.t(a, b)))
class Critic(nn.Module):
    """Bilinear critic: Q(s, A) = sum_ij A_ij G(s)_ij + c, G(s) from its own trunk (the actor's
    architecture without Sinkhorn): it can represent the MWM reward <P, C>/N exactly."""
    def __init__(s):
        super().__init__(); s.t = Trunk(); s.o = nn.Linear(H, N); s.c = nn.Parameter(torch.zeros(()))
    def forward(s, a, b, act):
        return (act * s.o(s.t(a, b))).sum((1, 2)) + s.c
actor, critic = Actor(), Critic()
oa, oc = torch.optim.Adam(actor.parameters(), ALR), torch.optim.Adam(critic.parameters(), CLR)
sa = torch.optim.lr_scheduler.StepLR(oa, 5000, 0.95); sc = torch.optim.lr_scheduler.StepLR(oc, 5000, 0.95)
def perms(M):  # out[k, j] = index of the b matched with a_j
    out = np.zeros(M.shape[:2], int)
    for k in range(len(M)):
        r, c = linear_sum_assignment(-M[k]); out[k, c] = r
    return out
def weight(a, b, p): return np.linalg.norm(a - np.take_along_axis(b, p[:, :, None], 1), axis=2).sum(1)
ta, tb = torch.rand(500, N, 2), torch.rand(500, N, 2)
topt = weight(ta.numpy(), tb.numpy(), np.stack([linear_sum_assignment(-np.linalg.norm(ta[k].numpy()[:, None] - tb[k].numpy()[None], axis=2))[1] for k in range(500)]))
def evaluate():
    actor.eval()
    with torch.no_grad(): p = perms(actor(ta, tb).numpy())
    actor.train(); return float(np.mean(weight(ta.numpy(), tb.numpy(), p) / topt))
buf = []; CAP = 1_000_000; eps = EPS0; per_step = (0.05 if EPS0 >= 0.5 else EPS0 * 0.1) / (500000 / B)
t0 = time.time(); print(json.dumps({"step": 0, "ratio": round(evaluate(), 4)}), flush=True)
for step in range(1, STEPS + 1):
    a, b = torch.rand(B, N, 2), torch.rand(B, N, 2)
    with torch.no_grad(): M = actor(a, b)
    p = perms(M.numpy())
    P = np.zeros((B, N, N), np.float32); P[np.arange(B)[:, None], p, np.arange(N)[None]] = 1
    for k in range(B):  # epsilon-greedy 2-exchange of rows of P and M, per instance
        if np.random.rand() < eps:
            i, j = np.random.choice(N, 2, replace=False)
            P[k, [i, j]] = P[k, [j, i]]; M[k, [i, j]] = M[k, [j, i]]
    p = P.argmax(1)  # the (possibly exchanged) matching: p[k, j] = b matched with a_j
    eps = max(0.01 if EPS0 >= 0.5 else 0.0, eps - per_step)
    r = weight(a.numpy(), b.numpy(), p) / (N if DIVN else 1)
    for k in range(B): buf.append((a[k], b[k], torch.from_numpy(P[k]), M[k], float(r[k])))
    if len(buf) > CAP: buf = buf[-CAP:]
    idx = np.random.randint(0, len(buf), B); mb = [buf[i] for i in idx]
    sa_, sb_, sP, sM = (torch.stack([m[j] for m in mb]) for j in range(4)); sr = torch.tensor([m[4] for m in mb])
    qh = critic(sa_, sb_, sP); qs = critic(sa_, sb_, sM)
    lc = F.mse_loss(qh, sr) + (F.mse_loss(qs, qh.detach()) if PEN else 0)
    oc.zero_grad(); lc.backward(); nn.utils.clip_grad_norm_(critic.parameters(), 1); oc.step(); sc.step()
    la = -critic(sa_, sb_, actor(sa_, sb_)).mean()
    oa.zero_grad(); la.backward(); nn.utils.clip_grad_norm_(actor.parameters(), 1); oa.step(); sa.step()
    if step % EVAL == 0:
        print(json.dumps({"step": step, "ratio": round(evaluate(), 4), "lossC": round(float(lc), 5), "eps": round(eps, 3), "s": round(time.time() - t0)}), flush=True)
