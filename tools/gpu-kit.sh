#!/usr/bin/env bash
# Builds what tools/gpu-check.sh runs on a GPU machine (which has no Go): the spg-tui binary, the
# test binaries with GPU tests and the PyTorch peer, stripped and packed into gpu-kit.tgz (ignored
# by git; the device tool's `carry` takes it, 64 MiB at most). Run from the repository root, with
# ../shared beside it.
#   bash tools/gpu-kit.sh && <device run> 'bash tools/gpu-check.sh' carrying gpu-kit.tgz
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf gpu-kit && mkdir -p gpu-kit
export CGO_ENABLED=0 GOFLAGS="${GOFLAGS:--buildvcs=false}"
go build -ldflags='-s -w' -o gpu-kit/spg-tui .
# The packages whose tests run on a GPU when one opens (they skip elsewhere): the driver's, the
# layers' (the GRU's sequence kernels at training's batches), the learners' (every kernel,
# composed, against the CPU learner) and the trainer's (a run trained on the device resumes on
# the CPU; launches a step that do not grow with N).
for pkg in ./linalg/cuda/ ./linalg/cuda/gpulayers/ ./agent/ ./agent/learn/; do
  name=$(echo "${pkg#./}" | tr / _ | sed 's/_$//')
  go test -c -ldflags='-s -w' -o "gpu-kit/$name.test" "$pkg"
done
cp ../shared/bench/torch_spg_step.py tools/torch_succ_step.py tools/torch_round_time.py gpu-kit/
tar czf gpu-kit.tgz gpu-kit
rm -rf gpu-kit
ls -la gpu-kit.tgz
