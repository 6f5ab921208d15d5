#!/usr/bin/env bash
# Runs tools/slurm/experiment.sbatch and merge.sbatch, as written, under a real Slurm on this
# machine, and checks that the merged report is the one a single process writes:
#   - installs slurm-wlm and munge (Debian's packages) if missing, and a munge key if none;
#   - starts munged, slurmctld and slurmd on a one-node cluster of this machine's cores and
#     memory, configured in a temporary directory (non-default ports, private munge socket);
#   - submits a 4-task array of a small `penalty` plan and the merge job after it, and requeues
#     one task in the middle of its run (scontrol requeue), which must continue from its
#     checkpoint;
#   - compares the merge's report.md, results.csv and figures with a one-process run of the same
#     plan byte for byte, the wall-clock fields aside (the sampled decode's milliseconds per
#     instance);
#   - prints the Slurm version and each job's state, and stops every daemon it started, also on
#     failure. Needs root (re-runs itself with sudo); about a minute on 2 cores.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
if [ "$(id -u)" -ne 0 ]; then
  exec sudo env "PATH=$PATH" "GOFLAGS=${GOFLAGS:-}" "$0" "$@"
fi
start=$SECONDS
ctld_port=16817 slurmd_port=16818
# The plan: 2 arms x 2 seeds of 400 steps (20 epochs of 20), a task each; --samples adds the
# sampled decode, whose times per instance are the report's only wall-clock fields.
plan=(penalty --scale 0.001 --seeds 2 --batch 16 --train-size 320 --buffer 256 --val-size 50
  --test-size 50 --samples 2)
shards=4 requeued=1

say() { echo "slurm-check: $*"; }
die() {
  say "FAIL: $*" >&2
  exit 1
}

# wait_for SECONDS WHAT COMMAND...: polls COMMAND until it succeeds.
wait_for() {
  local limit=$1 what=$2
  shift 2
  local deadline=$((SECONDS + limit))
  until "$@"; do
    [ "$SECONDS" -lt "$deadline" ] || die "no $what within $limit s"
    sleep 0.2
  done
}

for port in "$ctld_port" "$slurmd_port"; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    die "port $port is in use (another Slurm, or this check running)"
  fi
done

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null ||
  ! command -v munged >/dev/null; then
  say "installing slurm-wlm and munge"
  # Debian starts a package's daemons on install; a policy-rc.d answering 101 stops that, so that
  # the only daemons running are those this check starts and stops.
  policy=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    policy=/usr/sbin/policy-rc.d
    trap 'rm -f "$policy"' EXIT
    printf '#!/bin/sh\nexit 101\n' >"$policy"
    chmod +x "$policy"
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
  [ -z "$policy" ] || rm -f "$policy"
  trap - EXIT
fi
if [ ! -e /etc/munge/munge.key ]; then
  say "writing /etc/munge/munge.key"
  (umask 077 && dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none)
  chown munge:munge /etc/munge/munge.key
fi

tmp=$(mktemp -d /tmp/slurm-check.XXXXXX)
chmod 755 "$tmp"
pids=() jobs=()
cleanup() {
  local status=$?
  set +e
  trap - EXIT INT TERM
  if [ ${#jobs[@]} -gt 0 ] && [ -n "$(squeue -h -j "$(IFS=,; echo "${jobs[*]}")" 2>/dev/null)" ]; then
    scancel "${jobs[@]}"
    local deadline=$((SECONDS + 60))
    while [ -n "$(squeue -h -j "$(IFS=,; echo "${jobs[*]}")" 2>/dev/null)" ] && [ "$SECONDS" -lt "$deadline" ]; do
      sleep 0.5
    done
  fi
  # The daemons in the reverse order of their start: slurmd, slurmctld, munged.
  local i
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    kill "${pids[i]}" 2>/dev/null
    wait "${pids[i]}" 2>/dev/null
  done
  if [ "$status" -ne 0 ]; then
    for f in "$tmp"/log/* "$tmp"/work/*.out; do
      [ -f "$f" ] && { echo "--- $f"; tail -n 20 "$f"; }
    done
  fi
  rm -rf "$tmp"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mkdir -p "$tmp"/{munge,log,ctld,slurmd,bin,work,cache}
munged --force --foreground --socket="$tmp/munge/socket" --pid-file="$tmp/munge/pid" \
  --log-file="$tmp/log/munged.log" --seed-file="$tmp/munge/seed" >/dev/null 2>&1 &
pids+=($!)
wait_for 10 "munged" sh -c "munge -n -S '$tmp/munge/socket' 2>/dev/null | unmunge -S '$tmp/munge/socket' >/dev/null 2>&1"

export SLURM_CONF=$tmp/slurm.conf
cat >"$SLURM_CONF" <<EOF
ClusterName=spgcheck
SlurmctldHost=$(hostname -s)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/socket
CredType=cred/munge
StateSaveLocation=$tmp/ctld
SlurmdSpoolDir=$tmp/slurmd
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
MpiDefault=none
ReturnToService=2
$(slurmd -C | head -n 1) State=UNKNOWN
PartitionName=check Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -D >/dev/null 2>&1 &
pids+=($!)
slurmd -D >/dev/null 2>&1 &
pids+=($!)
wait_for 30 "idle node" sh -c '[ "$(sinfo -h -o %t 2>/dev/null)" = idle ]'
say "$(sbatch --version) up: $(slurmd -C | head -n 1)"

say "building spg-tui"
(cd "$repo" && go build -o "$tmp/bin/spg-tui" .)
# The jobs inherit this environment (sbatch --export=ALL): spg-tui on PATH, a private cache.
export PATH="$tmp/bin:$PATH" XDG_CACHE_HOME="$tmp/cache"
cd "$tmp/work"

# The files as written; the options size the array and its tasks to this machine.
array=$(sbatch --parsable --array=0-$((shards - 1)) --cpus-per-task=1 --mem=1G \
  "$repo/tools/slurm/experiment.sbatch" exp "${plan[@]}")
jobs+=("$array")
merge=$(sbatch --parsable --dependency=afterok:"$array" --mem=1G "$repo/tools/slurm/merge.sbatch" exp)
jobs+=("$merge")
say "submitted array job $array ($shards tasks) and merge job $merge (afterok:$array)"

# Requeue one task once its run trains (its references solved), long before its 400 steps end.
task=${array}_$requeued
metrics="exp/shard-$requeued/runs/*/metrics.jsonl"
wait_for 120 "training in task $task" sh -c "grep -qs '\"kind\":\"train\"' $metrics"
scontrol requeue "$task"
say "requeued task $task"
# A requeued job waits two minutes (its begin time) before it may start again; start it now.
wait_for 60 "task $task pending again" sh -c "[ \"\$(squeue -h -j $task -o %T)\" = PENDING ]"
scontrol update JobId="$task" StartTime=now
wait_for 300 "end of the jobs" sh -c "[ -z \"\$(squeue -h -j $array,$merge)\" ]"

# Each job's state: every task and the merge must have completed, the requeued task once restarted.
failed=""
while read -r name state exit_code restarts; do
  say "job $name: $state, exit $exit_code, restarts $restarts"
  [ "$state" = COMPLETED ] || failed="$failed $name:$state"
  if [ "$name" = "$task" ] && [ "$restarts" != 1 ]; then failed="$failed $name:restarts=$restarts"; fi
done < <({ scontrol -o show job "$array"; scontrol -o show job "$merge"; } | awk '{
    delete f
    for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
    name = f["ArrayTaskId"] == "" ? f["JobId"] : f["ArrayJobId"] "_" f["ArrayTaskId"]
    print name, f["JobState"], f["ExitCode"], f["Restarts"]
  }' | sort)
[ -z "$failed" ] || die "jobs not completed as expected:$failed"

# The requeued task stopped with a checkpoint (SIGTERM) and its second start resumed from it.
stopped=$(grep -ho '"event":"stop","old":0,"new":0,"message":"stopped at step [0-9]*' $metrics | grep -o '[0-9]*$') ||
  die "task $task's run has no stop event: the requeue did not stop it with a checkpoint"
grep -qs "resumed at step $stopped\"" $metrics || die "task $task's run did not resume at step $stopped"
say "task $task stopped at step $stopped with a checkpoint and resumed there"

say "running the same plan in one process"
spg-tui experiment "${plan[@]}" --jobs 2 --out one 2>one.log || die "the one-process run failed: $(tail -n 3 one.log)"

# strip_wall FILE: FILE without its wall-clock fields: in results.csv the sampled decode's
# {single,sampled}_ms_per_instance rows; in report.md the "ms per instance" cells (the last
# column of the sampling table, the row of the sizes table).
strip_wall() {
  case $1 in
  *.csv) grep -Ev '^[^,]*,[^,]*,(single|sampled)_ms_per_instance,' "$1" ;;
  *.md) awk -F'|' -v OFS='|' '
      /^\|[^-]/ && ms { $(NF-1) = " ms " }
      /^\| ms per instance/ { for (i = 3; i < NF; i++) $i = " ms " }
      /^\|.*\| ms per instance, single \/ sampled \|$/ { ms = 1 }
      !/^\|/ { ms = 0 }
      { print }' "$1" ;;
  esac
}
for f in report.md results.csv; do
  if ! cmp -s <(strip_wall "one/$f") <(strip_wall "exp/report/$f"); then
    diff <(strip_wall "one/$f") <(strip_wall "exp/report/$f") | head -n 20
    die "$f of the merge differs from the one-process run's"
  fi
  wall=$(diff "one/$f" <(strip_wall "one/$f") | grep -c '^<' || true)
  say "$f: the merge's is the one-process run's byte for byte, but for its $wall lines of wall-clock fields"
done
for f in one/*.png; do
  cmp -s "$f" "exp/report/${f#one/}" || die "${f#one/} of the merge differs from the one-process run's"
done
say "figures identical: $(cd one && echo *.png)"
say "passed in $((SECONDS - start)) s"
