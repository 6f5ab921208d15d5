#!/usr/bin/env bash
# The tests of the packages with concurrency or parallel numerics, three times each at one and at
# two cores, while two busy loops load the machine; then the race detector (tools/race.sh).
# Timing-free tests must pass on a loaded machine at any core count: this is where one that hangs
# on a scheduler's luck shows. Both builds when OpenBLAS is installed (Debian's libopenblas-dev).
#
#   tools/stress.sh            80 minutes on a 2-core Xeon with trainings beside it (load 5-9)
set -euo pipefail
cd "$(dirname "$0")/.."
export GOFLAGS="${GOFLAGS:--buildvcs=false}"
PACKAGES=(./agent/... ./linalg/... ./ui/... ./experiments/...)

busy=()
stop_busy() { [ ${#busy[@]} -eq 0 ] || kill "${busy[@]}" 2>/dev/null || true; }
trap stop_busy EXIT
for _ in 1 2; do
	(while :; do :; done) &
	busy+=($!)
done

tags=("")
if ls /usr/lib/x86_64-linux-gnu/libopenblas.so >/dev/null 2>&1; then
	tags+=(openblas)
fi
for tag in "${tags[@]}"; do
	for procs in 1 2; do
		echo "== build ${tag:-default}, GOMAXPROCS=$procs, -count=3, two busy loops"
		GOMAXPROCS=$procs go test -tags "$tag" -count=3 -timeout 60m "${PACKAGES[@]}"
	done
done
echo "== race detector, two busy loops"
tools/race.sh -count=1 -timeout 60m
echo "stress: passed"
