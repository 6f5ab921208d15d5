package run

import (
	"strings"
	"testing"
)

// TestRoundingNeedsASinkhornLayer: --rounding log on a critic-free model (a pointer network,
// which decodes step by step and rounds nothing) used to be accepted and recorded in
// config.json without effect; it is refused in one line, as --actor-at hard is. The untrained
// SPG policy has a Sinkhorn layer and keeps it.
func TestRoundingNeedsASinkhornLayer(t *testing.T) {
	for _, args := range [][]string{
		{"--task", "sort", "--n", "10", "--model", "pn-ac", "--rounding", RoundingLog},
		{"--task", "mwm", "--n", "10", "--model", "ac-matching", "--rounding", RoundingLog},
	} {
		_, err := parseTrainFlags(args...)
		if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "rounding log") {
			t.Errorf("%v: error %v, want one line naming rounding log", args, err)
		}
	}
	for _, args := range [][]string{
		{"--task", "sort", "--n", "10", "--model", "pn-ac", "--rounding", RoundingM},
		{"--task", "mwm", "--n", "10", "--model", "spg-random", "--rounding", RoundingLog},
	} {
		if _, err := parseTrainFlags(args...); err != nil {
			t.Errorf("%v: %v", args, err)
		}
	}
}
