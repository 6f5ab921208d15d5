#!/usr/bin/env bash
# Issue 48's checks on an otherwise idle machine, one JSON line per measurement into OUT:
#   A: five paired rounds of best's and the paper's MWM-20 step at 2 cores, the default build
#      against the OpenBLAS build (the AVX-512 kernels against OPENBLAS_CORETYPE=SkylakeX, only
#      where the CPU has avx512f: elsewhere they would die on an illegal instruction; then AVX2
#      against Haswell), and the PyTorch peer (../shared/bench) at one and at two threads, with
#      OpenBLAS's own choice of kernels and, where the CPU has avx512f, SkylakeX's (the summary
#      takes the faster: the peer at its best);
#   B: three rounds of each target step: at one core (its serial share), and at two cores
#      alternating step by step with one (bench --versus-cores 1: the 2-core over 1-core ratio
#      of steps seconds apart, which a machine whose speed drifts still gives).
# Summarise with tools/idle_bench_summary.py OUT. About 6 minutes on an idle 2-core machine.
#
#   go build -o spg-tui . && go build -tags openblas -o spg-tui-openblas .
#   tools/idle_bench.sh ./spg-tui ./spg-tui-openblas idle.jsonl
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: $0 BIN OPENBLAS_BIN OUT" >&2; exit 2; }
B=$(realpath "$1"); OB=$(realpath "$2"); OUT=$3
PEER="$(dirname "$0")/../../shared/bench/torch_spg_step.py"
[ -x "$B" ] && [ -x "$OB" ] || { echo "idle_bench: $1 and $2 must be executables" >&2; exit 2; }
: >"$OUT"
avx512=false
grep -qw avx512f /proc/cpuinfo && avx512=true
m() { # label, then the command (env assignments first)
	local label=$1 load res
	shift
	load=$(cut -d' ' -f1 /proc/loadavg)
	res=$(env "$@" 2>/dev/null | tail -1)
	echo "{\"label\":\"$label\",\"load\":$load,\"res\":${res:-null}}" >>"$OUT"
}
for r in 1 2 3 4 5; do
	for rec in best paper; do
		if $avx512; then
			m "$rec-def-512-r$r" GOMAXPROCS=2 "$B" bench --task mwm --n 20 --recipe $rec --steps 10
			m "$rec-ob-skx-r$r" GOMAXPROCS=2 OPENBLAS_CORETYPE=SkylakeX "$OB" bench --task mwm --n 20 --recipe $rec --steps 10
		fi
		m "$rec-def-avx2-r$r" GOMAXPROCS=2 SPG_TUI_GEMM=avx2 "$B" bench --task mwm --n 20 --recipe $rec --steps 10
		m "$rec-ob-hsw-r$r" GOMAXPROCS=2 OPENBLAS_CORETYPE=Haswell "$OB" bench --task mwm --n 20 --recipe $rec --steps 10
	done
	m "peer-1t-r$r" /usr/bin/python3 "$PEER" 20 10 1
	m "peer-2t-r$r" /usr/bin/python3 "$PEER" 20 10 2
	if $avx512; then # the peer's OpenBLAS may not pick its fastest kernels itself (2x slower here)
		m "peer-1t-skx-r$r" OPENBLAS_CORETYPE=SkylakeX /usr/bin/python3 "$PEER" 20 10 1
		m "peer-2t-skx-r$r" OPENBLAS_CORETYPE=SkylakeX /usr/bin/python3 "$PEER" 20 10 2
	fi
done
for r in 1 2 3; do
	for s in "mwm 50 paper" "mwm 20 best" "tsp 50 best" "tsp 20 best" "sort 50 best" "gm 50 best" "gm 20 best"; do
		set -- $s
		m "$1-$2-$3-p1-r$r" GOMAXPROCS=1 "$B" bench --task "$1" --n "$2" --recipe "$3" --steps 6
		m "$1-$2-$3-p2-r$r" GOMAXPROCS=2 "$B" bench --task "$1" --n "$2" --recipe "$3" --steps 6 --versus-cores 1
	done
done
