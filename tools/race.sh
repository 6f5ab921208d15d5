#!/usr/bin/env bash
# The race detector over the packages whose code shares state across goroutines: the trainer,
# its engine and the reference solver (agent), the parallel loops (linalg/parallel), the GPU
# thread (linalg/cuda), the console (ui), the experiment runner (experiments), and the run files
# and locks (run). -short leaves out the learning tests (minutes each under -race; they share
# their code paths with the tests that stay). -race needs cgo; the default build stays cgo-free,
# so cgo is on for this command alone.
#
#   tools/race.sh [go test flags]      e.g. tools/race.sh -count=2
set -euo pipefail
cd "$(dirname "$0")/.."
RACE_PACKAGES=(./agent ./linalg/parallel ./linalg/cuda ./ui ./experiments ./run)
CGO_ENABLED=1 go test -race -short "$@" "${RACE_PACKAGES[@]}"
