package run

import (
	"strings"
	"testing"
)

// --critic exact: any SPG model on tsp and mwm takes it (recorded as such, with best's or any
// rounding and actor-at); other tasks and models without a critic are refused in one line.
func TestCriticExact(t *testing.T) {
	for _, args := range [][]string{
		{"--task", "tsp", "--n", "20", "--recipe", "best", "--critic", "exact"},
		{"--task", "tsp", "--n", "20", "--recipe", "best", "--model", ModelAttention, "--critic", "exact", "--actor-at", "hard", "--rounding", "log"},
		{"--task", "tsp", "--n", "5", "--critic", "exact"},
		{"--task", "mwm", "--n", "5", "--recipe", "best", "--critic", "exact"},
		{"--task", "mwm", "--n", "5", "--critic", "exact", "--reward", "sum"},
	} {
		if c, err := parseTrainFlags(args...); err != nil || c.Critic != CriticExact {
			t.Errorf("%v: critic %q, %v; want exact", args, c.Critic, err)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--task", "sort", "--n", "5", "--critic", "exact"}, "critic must be paper, or bilinear for mwm, or exact on mwm and tsp"},
		{[]string{"--task", "sort", "--n", "5", "--recipe", "best", "--critic", "exact"}, "critic must be bilinear for spg-factored, or exact on mwm and tsp"},
		{[]string{"--task", "gm", "--n", "5", "--recipe", "best", "--critic", "exact"}, "critic must be bilinear for spg-gm"},
		{[]string{"--task", "tsp", "--n", "5", "--model", "pn-ac", "--critic", "exact"}, "critic must be"},
		{[]string{"--task", "tsp", "--n", "5", "--model", "spg-random", "--critic", "exact"}, "critic must be"},
	} {
		_, err := parseTrainFlags(tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: %v, want a one-line error containing %q", tc.args, err, tc.want)
		}
	}
}
