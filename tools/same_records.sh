#!/usr/bin/env bash
# Proves that a change leaves learning alone: the same seeds must give the same records, bit for
# bit, on every task with the paper's and the best recipe.
#
#   tools/same_records.sh record BIN DIR   short train runs of binary BIN, one per task and recipe,
#                                          under DIR (GOMAXPROCS=1, or $SAME_RECORDS_PROCS to
#                                          check the split over several cores; exact
#                                          references not cached)
#   tools/same_records.sh compare DIR1 DIR2
#                                          compares the metrics.jsonl of two such DIRs, less the
#                                          wall-clock fields (wall, steps_per_sec) and what depends
#                                          on when the references were solved (see strip); exits 1
#                                          if any run differs
#
# A typical check: build main's binary and the branch's, record each, compare.
set -euo pipefail

TASKS="mwm tsp sort gm"
PROCS="${SAME_RECORDS_PROCS:-1}"
RECIPES="paper best"

# strip drops the fields that measure time, not learning: the wall-clock fields, and what
# depends on when the validation set's references, solved beside training, were ready: the
# step of their event (which goes last, without it), a validation's gap or refs_pending and its
# samples' optimum (opt_*); the metric, from which the gap follows, and the samples stay.
strip() {
	jq -c -s '(map(select(.event != "references")) + map(select(.event == "references") | del(.step)))
		| .[] | del(.wall, .steps_per_sec, .gap, .refs_pending)
		| if .samples then .samples |= map(with_entries(select(.key | startswith("opt_") | not))) else . end' "$1"
}

case "${1:-}" in
record)
	[ $# -eq 3 ] || { echo "usage: $0 record BIN DIR" >&2; exit 2; }
	[[ "$PROCS" =~ ^[1-9][0-9]{0,2}$ ]] || { echo "same_records: SAME_RECORDS_PROCS=$PROCS: not a core count, 1 to 999" >&2; exit 2; }
	bin=$(realpath "$2")
	[ -x "$bin" ] || { echo "same_records: $2 is not an executable" >&2; exit 2; }
	mkdir -p "$3"
	cd "$3"
	for task in $TASKS; do
		for recipe in $RECIPES; do
			out="$task-$recipe"
			rm -rf "$out"
			# a relative --out keeps the run directory's name, which the records quote, the same
			# wherever DIR is
			GOMAXPROCS="$PROCS" "$bin" train --task "$task" --recipe "$recipe" --json --n 10 --steps 12 \
				--eval-every 6 --log-every 3 --val-size 20 --seed 5 --cache off --out "$out" \
				>"$out.stdout" 2>"$out.stderr" || { echo "same_records: $out failed: $(tail -1 "$out.stderr")" >&2; exit 1; }
			echo "$out: $(wc -l <"$out/metrics.jsonl") records"
		done
	done
	;;
compare)
	[ $# -eq 3 ] || { echo "usage: $0 compare DIR1 DIR2" >&2; exit 2; }
	status=0
	for task in $TASKS; do
		for recipe in $RECIPES; do
			run="$task-$recipe/metrics.jsonl"
			for d in "$2" "$3"; do
				[ -s "$d/$run" ] || { echo "same_records: $d/$run is missing or empty" >&2; exit 1; }
			done
			if cmp -s <(strip "$2/$run") <(strip "$3/$run"); then
				echo "$task-$recipe: same ($(wc -l <"$2/$run") records)"
			else
				echo "$task-$recipe: DIFFERENT"
				status=1
			fi
		done
	done
	exit $status
	;;
*)
	echo "usage: $0 record BIN DIR | compare DIR1 DIR2" >&2
	exit 2
	;;
esac
