#!/usr/bin/env python3
"""Writes torch-spg-step.json: an independent PyTorch computation of SPG+Matching's training
ingredients on one small batch, for TestLearnerMatchesPyTorch (which needs no torch).

The networks are the paper's appendix (as spg-tui builds them, agent/nets/matching.go) written with
plain nn modules in their default initialisation: actor E = lrelu(emb(B)) lrelu(emb(A))^T, GRU
over E's rows, Linear(H, N), Sinkhorn(./tau, L) rows first; critic with its own trunk,
Yc = lrelu(BN(Linear(H,H)(h))), Ed = lrelu(BN(Linear(N,H)(action))), Yf = lrelu(BN(Linear(H,N)(Yc+Ed))),
Q = g2(g1(Yf)^T), every BatchNorm1d(N) over the item channels in training mode. It records:
- the critic loss MSE(Q(s,P), r) + MSE(Q(s,M), Q(s,P).detach()) and its parts, with and without
  the penalty, and the critic's parameter gradients for each;
- the actor loss -mean Q(s, actor(s)) (critic in training mode, its weights fixed) and the
  actor's parameter gradients;
- one full step as Algorithm 1 takes it: critic Adam step (global-norm clip 1), then the actor
  step through the updated critic, and the parameters after it.
Weights and gradients are written in spg-tui's layout (Linear weights as (in, out)).
Usage: /usr/bin/python3 agent/learn/testdata/torch_spg_step.py > agent/learn/testdata/torch-spg-step.json
"""
import json
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

N, H, B, TAU, L = 7, 12, 8, 0.05, 10
ACTOR_LR, CRITIC_LR = 1e-3, 1e-2
torch.manual_seed(8)


def sinkhorn(x):
    x = x / TAU
    for _ in range(L):
        x = x - torch.logsumexp(x, 2, keepdim=True)
        x = x - torch.logsumexp(x, 1, keepdim=True)
    return torch.exp(x)


class Trunk(nn.Module):
    def __init__(s):
        super().__init__()
        s.emb, s.gru = nn.Linear(2, H), nn.GRU(N, H, batch_first=True)

    def forward(s, x):
        ea, eb = F.leaky_relu(s.emb(x[:, :N])), F.leaky_relu(s.emb(x[:, N:]))
        return s.gru(torch.bmm(eb, ea.transpose(1, 2)))[0]


class Actor(nn.Module):
    def __init__(s):
        super().__init__()
        s.trunk, s.out = Trunk(), nn.Linear(H, N)

    def forward(s, x):
        return sinkhorn(s.out(s.trunk(x)))


class Critic(nn.Module):
    def __init__(s):
        super().__init__()
        s.trunk = Trunk()
        s.c, s.c_bn = nn.Linear(H, H), nn.BatchNorm1d(N)
        s.d, s.d_bn = nn.Linear(N, H), nn.BatchNorm1d(N)
        s.f, s.f_bn = nn.Linear(H, N), nn.BatchNorm1d(N)
        s.g1, s.g2 = nn.Linear(N, 1, bias=False), nn.Linear(N, 1, bias=False)

    def forward(s, x, act):
        yc = F.leaky_relu(s.c_bn(s.c(s.trunk(x))))
        ed = F.leaky_relu(s.d_bn(s.d(act)))
        yf = F.leaky_relu(s.f_bn(s.f(yc + ed)))
        return s.g2(s.g1(yf).squeeze(-1)).squeeze(-1)


def linear(prefix, m, bias=True):
    """A Linear's parameters; True marks the weight, stored transposed as (in, out)."""
    out = {prefix + ".W": (m.weight, True)}
    if bias:
        out[prefix + ".b"] = (m.bias, False)
    return out


def trunk_params(t):
    g = t.gru
    return {**linear("emb", t.emb), "gru.Wih": (g.weight_ih_l0, False), "gru.Whh": (g.weight_hh_l0, False),
            "gru.bih": (g.bias_ih_l0, False), "gru.bhh": (g.bias_hh_l0, False)}


def actor_params(a):
    return {**trunk_params(a.trunk), **linear("out", a.out)}


def critic_params(c):
    p = trunk_params(c.trunk)
    for name in "cdf":
        p.update(linear(name, getattr(c, name)))
        bn = getattr(c, name + "_bn")
        p[name + ".gamma"], p[name + ".beta"] = (bn.weight, False), (bn.bias, False)
    p.update(linear("g1", c.g1, False))
    p.update(linear("g2", c.g2, False))
    return p


def flat(t, transpose=False):
    t = t.detach()
    return [float(v) for v in (t.t() if transpose else t).reshape(-1)]


def values(params):
    return {k: flat(v, tr) for k, (v, tr) in params.items()}


actor, critic = Actor(), Critic()
x = torch.rand(B, 2 * N, 2)
perm = torch.stack([torch.randperm(N) for _ in range(B)])  # perm[k, i] = column of row i
P = torch.zeros(B, N, N)
P[torch.arange(B)[:, None], torch.arange(N)[None], perm] = 1
M = sinkhorn(torch.randn(B, N, N) * TAU)  # a soft action as stored at acting time
# reward: mean matched distance, row i of P is b_i, its column j the a_j beside it
a, b = x[:, :N], x[:, N:]
r = torch.stack([(a[k, perm[k]] - b[k]).norm(dim=1).mean() for k in range(B)])

fixture = {"n": N, "hidden": H, "batch": B, "tau": TAU, "sinkhorn_iters": L,
           "actor_lr": ACTOR_LR, "critic_lr": CRITIC_LR,
           "actor": values(actor_params(actor)), "critic": values(critic_params(critic)),
           "states": flat(x), "P": flat(P), "M": flat(M), "r": flat(r)}


def critic_loss(penalty):
    qh, qs = critic(x, P), critic(x, M)
    hard = F.mse_loss(qh, r)
    pen = F.mse_loss(qs, qh.detach())
    return hard + (pen if penalty else 0), hard, pen


def named_grads(module, mapping):
    """Gradients of module's parameters in spg-tui's layout (a Linear weight's transposed)."""
    return {k: flat(v.grad if v.grad is not None else torch.zeros_like(v), tr)
            for k, (v, tr) in mapping(module).items()}


for key, penalty in (("critic_penalty", True), ("critic_no_penalty", False)):
    critic.zero_grad()
    loss, hard, pen = critic_loss(penalty)
    loss.backward()
    fixture[key] = {"loss": float(loss), "hard": float(hard), "penalty": float(pen),
                    "grads": named_grads(critic, critic_params)}

# The actor's loss through the critic (training mode, batch statistics), critic weights fixed.
critic.zero_grad()
actor.zero_grad()
la = -critic(x, actor(x)).mean()
la.backward()
fixture["actor_loss"] = {"loss": float(la), "grads": named_grads(actor, actor_params)}

# One full step of Algorithm 1.
actor.zero_grad()
critic.zero_grad()
oa = torch.optim.Adam(actor.parameters(), ACTOR_LR)
oc = torch.optim.Adam(critic.parameters(), CRITIC_LR)
loss, _, _ = critic_loss(True)
loss.backward()
nn.utils.clip_grad_norm_(critic.parameters(), 1.0)
oc.step()
critic.zero_grad()
la = -critic(x, actor(x)).mean()
la.backward()
nn.utils.clip_grad_norm_(actor.parameters(), 1.0)
oa.step()
fixture["after_step"] = {"actor": values(actor_params(actor)), "critic": values(critic_params(critic))}

json.dump(fixture, sys.stdout, separators=(",", ":"))
sys.stdout.write("\n")
