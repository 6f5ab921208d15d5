package run

import (
	"strconv"
	"strings"
	"testing"

	"spg-tui/envs"
)

// TestValidationSize: --val-n is 0 (the run's n) by default; another size is taken up to the
// task's instance bound by a model that runs at any n, and refused in one line otherwise.
func TestValidationSize(t *testing.T) {
	c, err := parseTrainFlags("--task", "tsp", "--n", "20", "--recipe", "best", "--steps", "10")
	if err != nil || c.ValN != 0 || c.ValidationN() != 20 {
		t.Fatalf("default: val-n %d, validated at %d, %v; want 0 and 20", c.ValN, c.ValidationN(), err)
	}
	bound := envs.MustFacts(envs.TaskTSP).MaxN
	for _, v := range []int{2, 200, bound} {
		c, err := parseTrainFlags("--task", "tsp", "--n", "20", "--recipe", "best", "--steps", "10", "--val-n", strconv.Itoa(v))
		if err != nil || c.ValidationN() != v {
			t.Errorf("--val-n %d: validated at %d, %v", v, c.ValidationN(), err)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--task", "tsp", "--n", "20", "--recipe", "best", "--val-n", "1"}, "val-n 1: must be in [2, 4096] (0: n)"},
		{[]string{"--task", "tsp", "--n", "20", "--recipe", "best", "--val-n", strconv.Itoa(bound + 1)}, "val-n 4097: must be in [2, 4096]"},
		{[]string{"--task", "tsp", "--n", "20", "--recipe", "best", "--val-n", "-3"}, "val-n -3: must be in"},
		{[]string{"--task", "mwm", "--n", "20", "--val-n", "30"}, "val-n 30: SPG+Matching has layers sized by n, so it validates at n = 20 only (models that run at any n: spg-pairwise"},
	} {
		_, err := parseTrainFlags(append(c.args, "--steps", "10")...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
	// A model with layers sized by n may name its own n.
	if c, err := parseTrainFlags("--task", "mwm", "--n", "20", "--val-n", "20", "--steps", "10"); err != nil || c.ValidationN() != 20 {
		t.Errorf("--val-n 20 at n = 20: %d, %v", c.ValidationN(), err)
	}
}
