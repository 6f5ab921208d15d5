package eval

import (
	"slices"
	"testing"

	"spg-tui/agent/learn"
	"spg-tui/agent/nets"
	"spg-tui/envs"
	"spg-tui/linalg/assign"
	"spg-tui/run"
)

// TestDecodingRoundingOverrides checks eval's --rounding on a run that rounds M: log decodes
// every instance to the Hungarian maximum of the actor's scores X, sampling with it never
// scores below that decode, m gives the run's own decode, and a bad value is refused.
func TestDecodingRoundingOverrides(t *testing.T) {
	pol, env, insts := samplingPolicy(t, envs.TaskMWM, 7, run.RecipeBest)
	n, nn := env.N(), env.N()*env.N()
	sl := envs.MustFacts(env.Task()).StateLen(n)
	states := make([]float32, len(insts)*sl)
	for i, inst := range insts {
		envs.MustFacts(env.Task()).Featurize(inst, states[i*sl:(i+1)*sl])
	}
	x, m := make([]float32, len(insts)*nn), make([]float32, len(insts)*nn)
	h := learn.HyperAt(&pol.cfg, 0)
	if err := pol.learner.(Scorer).Scores(states, len(insts), h, x, m); err != nil {
		t.Fatal(err)
	}
	single := SingleDecode
	single.Rounding = run.RoundingLog
	one, err := pol.SolveWith(env, insts, single)
	if err != nil {
		t.Fatal(err)
	}
	many, err := pol.SolveWith(env, insts, run.Decoding{Samples: 8, GumbelScale: 0.05, Noise: run.NoiseRelative, Augment: true, Rounding: run.RoundingLog, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	own, err := pol.Solve(env, insts)
	if err != nil {
		t.Fatal(err)
	}
	single.Rounding = run.RoundingM
	byM, err := pol.SolveWith(env, insts, single)
	if err != nil {
		t.Fatal(err)
	}
	var s assign.Solver
	rowToCol, want := make([]int, n), make([]int, n)
	for i := range insts {
		if err := assign.Round(&s, x[i*nn:(i+1)*nn], n, rowToCol); err != nil {
			t.Fatal(err)
		}
		nets.ActionToPerm(rowToCol, want)
		if !slices.Equal(one[i].Perm, want) {
			t.Fatalf("instance %d: decode by log M %v, Hungarian(X) %v", i, one[i].Perm, want)
		}
		if many[i].Objective < one[i].Objective {
			t.Fatalf("instance %d: sampled weight %v below the single decode's %v", i, many[i].Objective, one[i].Objective)
		}
		if !slices.Equal(byM[i].Perm, own[i].Perm) {
			t.Fatalf("instance %d: --rounding m decoded %v, the run's own rounding %v", i, byM[i].Perm, own[i].Perm)
		}
	}
}
