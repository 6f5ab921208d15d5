"""PyTorch peer of BenchmarkReinforceStep/pn-ac: one PN-AC REINFORCE step on sort-N.

A pointer network as agent/nets/pointer_net.go builds it (linear embedding, LSTM encoder and decoder
of width H, additive attention u = v . tanh(Wref e + Wq d), logits 10 tanh(u), masking), sampling
a permutation per instance autoregressively with the graph kept, then the REINFORCE loss against
a moving-average baseline, backward, gradient-norm clip 1 and an Adam step, as the authors'
PyTorch code does it.

usage: /usr/bin/python3 torch_pnac_step.py N STEPS THREADS   (B = 128, H = 128)
prints the median milliseconds per step after 3 warm-up steps.
"""
import sys
import time

import torch

N, STEPS, THREADS = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
B, H, C = 128, 128, 10.0
torch.set_num_threads(THREADS)
torch.manual_seed(1)


class PN(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Linear(1, H)
        self.enc = torch.nn.LSTM(H, H, batch_first=True)
        self.dec = torch.nn.LSTMCell(H, H)
        self.g = torch.nn.Parameter(torch.empty(H).uniform_(-0.08, 0.08))
        self.wref = torch.nn.Linear(H, H, bias=False)
        self.wq = torch.nn.Linear(H, H, bias=False)
        self.v = torch.nn.Parameter(torch.empty(H).uniform_(-0.08, 0.08))

    def forward(self, x):
        e = self.emb(x)  # (B, N, H)
        enc, (h, c) = self.enc(e)
        h, c = h[0], c[0]
        ref = self.wref(enc)
        inp = self.g.expand(B, H)
        mask = torch.zeros(B, N, dtype=torch.bool)
        logp = torch.zeros(B)
        actions = []
        for _ in range(N):
            h, c = self.dec(inp, (h, c))
            u = (torch.tanh(ref + self.wq(h)[:, None, :]) * self.v).sum(-1)
            l = (C * torch.tanh(u)).masked_fill(mask, float("-inf"))
            lp = torch.log_softmax(l, -1)
            a = torch.multinomial(lp.exp(), 1)[:, 0]
            logp = logp + lp.gather(1, a[:, None])[:, 0]
            mask = mask.clone()
            mask[torch.arange(B), a] = True
            inp = e[torch.arange(B), a]
            actions.append(a)
        return torch.stack(actions, 1), logp


net = PN()
opt = torch.optim.Adam(net.parameters(), lr=1e-4)
baseline = None
times = []
for step in range(STEPS + 3):
    x = torch.stack([torch.randperm(N) for _ in range(B)]).float()[:, :, None]
    t0 = time.perf_counter()
    actions, logp = net(x)
    out = x[:, :, 0].gather(1, actions)
    # Reward: the fraction of ordered adjacent pairs (a cheap stand-in for Kendall tau; timing only).
    r = (out[:, 1:] > out[:, :-1]).float().mean(1)
    baseline = r.mean() if baseline is None else 0.8 * baseline + 0.2 * r.mean()
    loss = -((r - baseline) * logp).mean()
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
    opt.step()
    if step >= 3:
        times.append(time.perf_counter() - t0)
times.sort()
print(f"torch PN-AC step, sort-{N}, B={B}, H={H}, {THREADS} thread(s): median {1000 * times[len(times) // 2]:.1f} ms")
