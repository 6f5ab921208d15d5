package nets

import (
	"testing"

	"spg-tui/envs"
)

// A model is built from the states the task declares, not from its number of features per item:
// two features per item are MWM's two point sets or TSP's cities, and a model that reads one
// refuses the other rather than treating it as the wrong task.
func TestArchRefusesOtherStates(t *testing.T) {
	for _, c := range []struct {
		model string
		task  envs.Task
		ok    bool
	}{
		{"spg-pairwise", envs.TaskMWM, true},
		{"spg-pairwise", envs.TaskSort, true},
		{"spg-pairwise", envs.TaskTSP, false},
		{"spg-factored", envs.TaskTSP, true},
		{"spg-factored", envs.TaskSort, true},
		{"spg-factored", envs.TaskMWM, false},
		{"spg-attention", envs.TaskTSP, true},
		{"spg-attention", envs.TaskSort, false},
		{"spg-successor", envs.TaskTSP, true},
		{"spg-successor", envs.TaskMWM, false},
		{"spg-successor", envs.TaskSort, false},
		{"spg-matching", envs.TaskMWM, true},
		{"spg-matching", envs.TaskTSP, false},
		{"spg-sequential", envs.TaskTSP, true},
		{"spg-sequential", envs.TaskMWM, false},
	} {
		_, err := newArch(c.model, envs.MustFacts(c.task), 4, 8)
		if (err == nil) != c.ok {
			t.Errorf("%s on %s: err = %v, want ok = %v", c.model, c.task, err, c.ok)
		}
	}
}
