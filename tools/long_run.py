#!/usr/bin/env python3
"""Best and last validation of a run at multiples of its length: the long-run table.

usage: tools/long_run.py LENGTH RUN_DIR...

For each run directory, reads metrics.jsonl's validation records (kind "eval", split "val")
and prints, at steps LENGTH, 2 LENGTH and 5 LENGTH (those the run reached), the validation at
that step ("last", the checkpoint a run of that length would end with) and the best validation
up to it, with the best's step. The metric's direction comes from the record's metric_name:
tour lengths are lower-better, ratios and Kendall tau higher-better.
"""
import json
import sys

LOWER_BETTER = {"tour_length"}


def curve(path):
    """Returns the metric's name and [(step, value)] of the validation records, in order."""
    name, points = None, {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            try:
                r = json.loads(line)
            except ValueError:
                sys.exit(f"long_run.py: {path}:{n}: not a JSON line")
            if r.get("kind") != "eval" or r.get("split", "val") != "val":
                continue
            name = r.get("metric_name", name)
            points[int(r["step"])] = float(r["metric"])  # a resumed run's later record wins
    return name, sorted(points.items())


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip().splitlines()[2])
    try:
        length = int(sys.argv[1])
    except ValueError:
        sys.exit(f"long_run.py: LENGTH {sys.argv[1]!r}: not a whole number of steps")
    if length < 1:
        sys.exit(f"long_run.py: LENGTH {length}: must be >= 1")
    for run in sys.argv[2:]:
        name, points = curve(f"{run}/metrics.jsonl")
        if not points:
            print(f"{run}: no validation records")
            continue
        lower = name in LOWER_BETTER
        cells = []
        for mult in (1, 2, 5):
            upto = [p for p in points if p[0] <= mult * length]
            if not upto or upto[-1][0] != mult * length:
                cells.append(f"{mult}x: not reached")
                continue
            if lower:
                best = min(upto, key=lambda p: (p[1], p[0]))
            else:
                best = max(upto, key=lambda p: (p[1], -p[0]))
            cells.append(f"{mult}x: last {upto[-1][1]:.4f}, best {best[1]:.4f} (step {best[0]})")
        print(f"{run} ({name}): " + "; ".join(cells))


if __name__ == "__main__":
    main()
