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

// TestRoundingLogIsTheScoresMaximum checks that a policy configured with --rounding log decodes
// every instance to the Hungarian maximum of its actor's scores X, whatever tau (log M differs
// from X/tau by a constant per row and per column), and that the paper's rounding of M, the
// default, is what a configuration without the setting still gets.
func TestRoundingLogIsTheScoresMaximum(t *testing.T) {
	const n = 7
	pol, env, insts := samplingPolicy(t, envs.TaskSort, n, run.RecipeBest)
	pol.cfg.Rounding = run.RoundingLog
	sl := envs.MustFacts(envs.TaskSort).StateLen(n)
	states := make([]float32, len(insts)*sl)
	for i, inst := range insts {
		envs.MustFacts(envs.TaskSort).Featurize(inst, states[i*sl:(i+1)*sl])
	}
	h := learn.HyperAt(&pol.cfg, 0)
	x, m := make([]float32, len(insts)*n*n), make([]float32, len(insts)*n*n)
	if err := pol.learner.(Scorer).Scores(states, len(insts), h, x, m); err != nil {
		t.Fatal(err)
	}
	rowToCol := make([]int, len(insts)*n)
	if err := assign.RoundBatch(x, len(insts), n, rowToCol); err != nil {
		t.Fatal(err)
	}
	want := make([]int, n)
	for _, tau := range []float64{pol.cfg.Tau, 1} {
		pol.cfg.Tau = tau
		got, err := pol.Solve(env, insts)
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range got {
			nets.ActionToPerm(rowToCol[i*n:(i+1)*n], want)
			if !slices.Equal(s.Perm, want) {
				t.Fatalf("tau %g, instance %d: decoded %v, Hungarian of X %v", tau, i, s.Perm, want)
			}
		}
	}
	if learn.HyperAt(&run.Spec{Config: run.Config{Tau: 1, SinkhornIters: 1, LRDecay: 1, LRDecayEvery: 1}, Entry: run.Model{Kind: run.KindSPG}}, 0).RoundLog {
		t.Error("a configuration without a rounding rounds log M")
	}
}
