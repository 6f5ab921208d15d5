package envs

import (
	"slices"
	"testing"
)

// Every task has facts, and they agree with its Env: the exact solver and the baselines are
// solvers it accepts, the metric goes the objective's way, and a featurised state holds the
// instance's numbers.
func TestFacts(t *testing.T) {
	for _, task := range Tasks {
		f, err := FactsOf(task)
		if err != nil {
			t.Fatal(err)
		}
		n := 6
		env, _ := New(task, n)
		solvers := env.Solvers()
		if ex := f.Exact(n); ex != solvers[0] {
			t.Errorf("%s: exact solver %q, the Env's reference is %q", task, ex, solvers[0])
		}
		for _, b := range f.Baselines {
			if !slices.Contains(solvers, b) {
				t.Errorf("%s: baseline %q is no solver of the task", task, b)
			}
		}
		if f.Metric.Maximize != env.Maximize() || f.DefaultEpochs < 1 || f.Name == "" {
			t.Errorf("%s: facts %+v", task, f)
		}
		if m, ok := MetricNamed(f.Metric.Name); !ok || m != f.Metric {
			t.Errorf("%s: MetricNamed(%q) = %+v", task, f.Metric.Name, m)
		}
		inst := env.Generate(1, 0)
		state := make([]float32, f.StateLen(n))
		f.Featurize(inst, state)
		var want []float32
		for _, pts := range [][]Point{inst.A, inst.B, inst.Points} {
			for _, p := range pts {
				want = append(want, float32(p[0]), float32(p[1]))
			}
		}
		for _, v := range inst.Values {
			want = append(want, float32(v))
		}
		if !slices.Equal(state, want) {
			t.Errorf("%s: state %v, want %v", task, state, want)
		}
	}
	if f := MustFacts(TaskTSP); f.Exact(MaxHeldKarp+1) != "" {
		t.Error("tsp has an exact solver beyond Held-Karp's reach")
	}
	if _, err := FactsOf("nope"); err == nil {
		t.Error("an unknown task has facts")
	}
}
