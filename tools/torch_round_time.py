#!/usr/bin/env python3
"""The PyTorch peer's rounding share: the time ../shared/bench/torch_spg_step.py spends moving M to
the CPU and rounding it with scipy's linear_sum_assignment, one matrix after another as the
authors' code does, timed alone so that the peer's GPU side is its step less this.

Usage: torch_round_time.py N B [device] [reps]   -> one JSON line on stdout
"""
import json, statistics, sys, time
import numpy as np, torch
from scipy.optimize import linear_sum_assignment

N, B = int(sys.argv[1]), int(sys.argv[2])
DEV = torch.device(sys.argv[3] if len(sys.argv) > 3 else "cpu")
REPS = int(sys.argv[4]) if len(sys.argv) > 4 else 5
torch.manual_seed(0)
m = torch.softmax(torch.randn(B, N, N, device=DEV), dim=2)

def once():
    if DEV.type == "cuda":
        torch.cuda.synchronize()
    t0 = time.perf_counter()
    host = m.detach().cpu().numpy()
    p = np.zeros_like(host)
    for i in range(B):
        r, c = linear_sum_assignment(-host[i])
        p[i, r, c] = 1
    torch.from_numpy(p).to(DEV)
    if DEV.type == "cuda":
        torch.cuda.synchronize()
    return (time.perf_counter() - t0) * 1000

once()
ms = [once() for _ in range(REPS)]
print(json.dumps({"peer": "pytorch-rounding", "n": N, "batch": B, "device": str(DEV), "median_ms": round(statistics.median(ms), 2)}))
