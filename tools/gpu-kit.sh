#!/usr/bin/env bash
# Builds what tools/gpu-check.sh runs on a GPU machine (which has no Go): the spg-tui binary, the
# GPU test binaries and the PyTorch peer, all into gpu-kit/ (ignored by git; the device tool's
# `carry` takes it). Run from the repository root, with ../shared beside it.
#   bash tools/gpu-kit.sh && <device run> 'bash tools/gpu-check.sh' carrying gpu-kit
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf gpu-kit && mkdir -p gpu-kit
export CGO_ENABLED=0 GOFLAGS="${GOFLAGS:--buildvcs=false}"
go build -o gpu-kit/spg-tui .
# Every package with tests that run on a GPU when one opens (they skip elsewhere).
for pkg in ./linalg/cuda/ ./linalg/cuda/kernels/ ./linalg/cuda/layers/ ./agent/; do
  [ -d "$pkg" ] || continue
  name=$(echo "${pkg#./}" | tr / _ | sed 's/_$//')
  go test -c -o "gpu-kit/$name.test" "$pkg"
done
cp ../shared/bench/torch_spg_step.py tools/torch_succ_step.py gpu-kit/
ls -la gpu-kit
