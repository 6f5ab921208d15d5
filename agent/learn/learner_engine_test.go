package learn

import (
	"reflect"
	"testing"

	"gorgonia.org/tensor"

	"spg-tui/agent/internal/devtest"
	"spg-tui/agent/ops"
	"spg-tui/envs"
)

// The learner's machines run on ops.Engine, which splits gorgonia's gradient sums over the
// cores: a machine gives its engine to the tensors bound to its graph, the inputs among them.
func TestLearnerMachinesUseEngine(t *testing.T) {
	l := newToyLearner(t, devtest.ToyConfig(envs.TaskMWM, 4, 3, 8))
	want := reflect.TypeOf(ops.Engine())
	for name, x := range map[string]*tensor.Dense{"act": l.act.x, "critic": l.crit.x, "q": l.q.x} {
		if got := reflect.TypeOf(x.Engine()); got != want {
			t.Errorf("%s graph: its input's engine is %v, want %v", name, got, want)
		}
	}
}
