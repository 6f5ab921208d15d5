package eval

import (
	"math"
	"testing"

	"spg-tui/envs"
)

// fileOf is count instances of task at size n with the generator's seed 4, as gen writes them.
func fileOf(t *testing.T, task envs.Task, n, count int) (envs.Env, []envs.Instance) {
	t.Helper()
	env, err := envs.New(task, n)
	if err != nil {
		t.Fatal(err)
	}
	insts := make([]envs.Instance, count)
	for i := range insts {
		insts[i] = env.Generate(4, i)
	}
	return env, insts
}

// TestFileReference: a file's reference is its task's exact solver where that is cheap (the one
// runs take when they must be fast), else the planted correspondence every instance carries,
// else none: TSP's Held-Karp to n = 12, graph matching's branch and bound to n = 11.
func TestFileReference(t *testing.T) {
	for _, tc := range []struct {
		task    envs.Task
		n       int
		solver  string // "" for no reference
		exact   bool
		planted bool // keep the instances' planted correspondences
	}{
		{envs.TaskMWM, 30, "hungarian", true, true},
		{envs.TaskSort, 30, "exact", true, true},
		{envs.TaskTSP, 12, "exact", true, true},
		{envs.TaskTSP, 13, "", false, true},
		{envs.TaskGM, 8, "exact", true, true},
		{envs.TaskGM, 16, "planted", false, true},
		{envs.TaskGM, 16, "", false, false},
	} {
		env, insts := fileOf(t, tc.task, tc.n, 6)
		if !tc.planted {
			insts[3].Planted = nil
		}
		ref, err := FileReference(env, insts)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case tc.solver == "" && ref != nil:
			t.Errorf("%s-%d: a reference by %s, want none", tc.task, tc.n, ref.BestSolver[0])
		case tc.solver == "":
		case ref == nil:
			t.Errorf("%s-%d: no reference, want %s's", tc.task, tc.n, tc.solver)
		case ref.BestSolver[5] != tc.solver || ref.Exact != tc.exact || len(ref.Best) != 6:
			t.Errorf("%s-%d: reference by %s (exact %v, %d solutions), want %s (exact %v)", tc.task, tc.n, ref.BestSolver[5], ref.Exact, len(ref.Best), tc.solver, tc.exact)
		}
	}
}

// TestScoreSolutions: solutions are scored against a file's reference as a validation set's
// are: the optima themselves score 1 (mwm) or a gap of 0 (tsp), and a worse tour its gap.
func TestScoreSolutions(t *testing.T) {
	env, insts := fileOf(t, envs.TaskMWM, 7, 10)
	ref, err := FileReference(env, insts)
	if err != nil {
		t.Fatal(err)
	}
	if ev := ScoreSolutions(env, insts, ref.Best, ref); ev.Metric != 1 || ev.RatioMedian != 1 {
		t.Errorf("mwm: the optima score %v (median %v), want 1", ev.Metric, ev.RatioMedian)
	}
	env, insts = fileOf(t, envs.TaskTSP, 8, 10)
	if ref, err = FileReference(env, insts); err != nil {
		t.Fatal(err)
	}
	nn, err := envs.SolveAll(env, "nn", insts, 0)
	if err != nil {
		t.Fatal(err)
	}
	sum, opt := 0.0, 0.0
	for i := range nn {
		sum, opt = sum+nn[i].Objective, opt+ref.Best[i].Objective
	}
	if ev := ScoreSolutions(env, insts, nn, ref); ev.Gap == nil || math.Abs(*ev.Gap-(sum/opt-1)) > 1e-12 || *ev.Gap <= 0 {
		t.Errorf("tsp: nearest neighbour's gap %v, want %v", ev.Gap, sum/opt-1)
	}
}
