#!/usr/bin/env bash
# Runs on a GPU machine, from the repository root, with gpu-kit.tgz built by tools/gpu-kit.sh:
# every GPU test, then the step benchmark table of issue 32 (ours on the GPU and on the host's
# CPU at all cores and at 2, and the PyTorch peer on the same GPU), into $OUT/report.md and
# $OUT/*.jsonl. Meant to finish in under 8 minutes; each part has its own time limit, so one
# that hangs costs its limit and the rest still runs. SIZES, BATCHES and SCALING override the
# points (a quick try: SIZES=20 BATCHES=128 SCALING=none; SCALING is comma-separated "task n recipe").
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-/tmp/gpu-check}"
mkdir -p "$OUT"
K=gpu-kit
[ -d "$K" ] || tar xzf gpu-kit.tgz
R="$OUT/report.md"
export SPG_TUI_REQUIRE_GPU=1 # a GPU test that cannot open the GPU fails instead of skipping
export XDG_CACHE_HOME="$OUT/cache"
cores=$(nproc)
{
  echo "# gpu-check $(date -u +%FT%TZ)"
  echo
  echo '```'
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 | head -3
  grep -m1 'model name' /proc/cpuinfo
  echo "cores: $cores"
  python3 -c 'import torch; print("torch", torch.__version__, torch.cuda.is_available())' 2>&1 | tail -1
  echo '```'
} >"$R"

echo "## Tests" >>"$R"
for t in "$K"/*.test; do
  name=$(basename "$t" .test)
  timeout 150 "$t" -test.v -test.run 'Device|GPU|Cuda|CUDA' -test.timeout 140s >"$OUT/$name.log" 2>&1
  rc=$?
  pass=$(grep -c '^--- PASS' "$OUT/$name.log"); fail=$(grep -c '^--- FAIL' "$OUT/$name.log"); skip=$(grep -c '^--- SKIP' "$OUT/$name.log")
  echo "- $name: exit $rc, $pass passed, $fail failed, $skip skipped (log $name.log)" >>"$R"
  grep -A8 '^--- FAIL' "$OUT/$name.log" | head -40 | sed 's/^/    /' >>"$R"
done

# bench: one JSON line per point; the device line names where it ran.
bench() { # label timeout args...
  local label=$1 limit=$2; shift 2
  local line
  line=$(timeout "$limit" "$@" 2>"$OUT/bench-err.txt" | tail -1)
  [ -n "$line" ] || line="{\"error\": \"$(head -c 300 "$OUT/bench-err.txt" | tr '\n"' ' ')\"}"
  echo "{\"label\": \"$label\", \"result\": $line}" >>"$OUT/bench.jsonl"
  echo "$label: $line"
}
: >"$OUT/bench.jsonl"
{
  echo "## MWM step (SPG+Matching, paper recipe), ms per step"
  echo '```'
  for n in ${SIZES:-20 50 100}; do
    for b in ${BATCHES:-128 1024}; do
      bench "ours cuda mwm-$n b$b" 60 "$K/spg-tui" bench --device cuda --task mwm --n "$n" --batch "$b" --steps 10
      bench "ours cpu$cores mwm-$n b$b" 60 "$K/spg-tui" bench --device cpu --task mwm --n "$n" --batch "$b" --steps 5
      bench "torch cuda mwm-$n b$b" 90 python3 "$K/torch_spg_step.py" "$n" 10 4 cuda "$b"
      bench "torch rounding mwm-$n b$b" 60 python3 "$K/torch_round_time.py" "$n" "$b" cuda 3
    done
  done
  echo '```'
  echo "## CPU scaling (taskset to 2 cores against all $cores)"
  echo '```'
  specs=("mwm 50 paper" "tsp 50 best" "mwm 20 best" "sort 50 best" "gm 20 best")
  [ -n "${SCALING:-}" ] && IFS=',' read -ra specs <<<"$SCALING"
  for spec in "${specs[@]}"; do
    [ "$spec" = none ] && continue
    set -- $spec
    bench "ours cpu2 $1-$2 $3" 90 taskset -c 0,1 env GOMAXPROCS=2 "$K/spg-tui" bench --device cpu --task "$1" --n "$2" --recipe "$3" --steps 5
    bench "ours cpu$cores $1-$2 $3" 60 "$K/spg-tui" bench --device cpu --task "$1" --n "$2" --recipe "$3" --steps 5
    # all cores against 2 in one process, step by step: the speed-up over the same seconds
    bench "ours cpu$cores vs 2 $1-$2 $3" 120 "$K/spg-tui" bench --device cpu --task "$1" --n "$2" --recipe "$3" --steps 5 --versus-cores 2
    bench "ours cuda $1-$2 $3" 60 "$K/spg-tui" bench --device cuda --task "$1" --n "$2" --recipe "$3" --steps 10
  done
  echo '```'
} >>"$R" 2>&1

echo "## The console on the GPU (tmux, 20 s)" >>"$R"
if command -v tmux >/dev/null; then
  tmux new-session -d -s gpucheck -x 120 -y 36 "$K/spg-tui tui --device cuda --task mwm --n 20 --out $OUT/tui-run --cache off"
  sleep 20
  tmux capture-pane -p -t gpucheck | head -3 | sed 's/^/    /' >>"$R"
  tmux send-keys -t gpucheck q
  sleep 3
  tmux kill-session -t gpucheck 2>/dev/null
else
  echo "no tmux" >>"$R"
fi

# The table: one row per bench point, the device beside every figure.
python3 - "$OUT/bench.jsonl" >>"$R" <<'PY'
import json, sys
def versus(x):  # bench --versus-cores: this step over the one at fewer cores, paired
    return f"{x['ratio_to_versus']:.3f} ({x['versus_cores']} cores: {x['versus_median_ms']:.1f} ms)" if x.get("versus_cores") else ""
print("\n## Summary (median ms per step)\n")
print("| point | ms/step | rounding ms | step less rounding | serial ms | parallel eff. | launches/step | over the step at fewer cores | device / backend |")
print("|---|---|---|---|---|---|---|---|---|")
for line in open(sys.argv[1]):
    r = json.loads(line); x = r["result"]
    if "error" in x:
        print(f"| {r['label']} | error: {x['error'][:80]} |  |  |  |  |  |  |  |"); continue
    if x.get("peer") == "pytorch-rounding":
        print(f"| {r['label']} | {x['median_ms']} |  |  |  |  |  |  | torch rounding alone (copy + scipy) |"); continue
    if x.get("peer") == "pytorch":
        print(f"| {r['label']} | {x['median_ms_per_step']} |  |  |  |  |  |  | torch {x['version']} {x['device']} |"); continue
    if "median_ms_per_step" in x:  # ours; launches only on the GPU
        print(f"| {r['label']} | {x['median_ms_per_step']:.1f} | {x.get('round_ms', 0):.1f} | {x.get('step_less_round_ms', 0):.1f} | "
              f"{x.get('serial_ms', 0):.1f} | {x.get('parallel_efficiency', 0):.2f} | {x.get('launches_per_step', '')} | "
              f"{versus(x)} | {x.get('device')} / {x.get('backend')}, {x.get('cores')} cores |")
PY
cat "$R"
