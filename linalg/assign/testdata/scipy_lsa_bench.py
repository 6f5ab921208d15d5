"""Time scipy's linear_sum_assignment on the workload of BenchmarkRoundBatch.

For each n in 20, 50, 100, 200 it rounds 128 uniform random n x n matrices to the permutation
maximising trace(P^T M) by calling linear_sum_assignment(-M) in a loop, repeats the batch, and
prints one JSON line per n with the median milliseconds per batch of 128.

Run with: /usr/bin/python3 linalg/assign/testdata/scipy_lsa_bench.py
"""
import json
import statistics
import time

import numpy as np
import scipy
from scipy.optimize import linear_sum_assignment

BATCH = 128
REPEATS = 15


def time_batch(mats):
    start = time.perf_counter()
    for m in mats:
        linear_sum_assignment(-m)
    return (time.perf_counter() - start) * 1e3


def main():
    rng = np.random.default_rng(0)
    for n in (20, 50, 100, 200):
        mats = rng.random((BATCH, n, n))
        time_batch(mats)  # warm up
        times = [time_batch(mats) for _ in range(REPEATS)]
        print(json.dumps({
            "n": n,
            "batch": BATCH,
            "ms_per_batch_median": round(statistics.median(times), 3),
            "ms_per_batch_min": round(min(times), 3),
            "repeats": REPEATS,
            "scipy": scipy.__version__,
        }))


if __name__ == "__main__":
    main()
