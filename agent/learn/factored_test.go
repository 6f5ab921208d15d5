package learn

import (
	"math"
	"math/rand/v2"
	"testing"

	"spg-tui/agent/internal/devtest"
	"spg-tui/agent/nets"
	"spg-tui/envs"
	"spg-tui/run"
)

// factoredArch is SPG+Factored for task at the gradient checks' toy sizes.
func factoredArch(t *testing.T, task envs.Task) nets.Arch {
	t.Helper()
	return testArch(t, run.ModelFactored, task, checkN, checkH)
}

// SPG+Factored's critic loss (penalty off and on) and its actor loss through the critic, for
// sort and tsp (the tour critic's A S A^T), against central differences in float64.
func TestFactoredGradients(t *testing.T) {
	for _, task := range []envs.Task{envs.TaskSort, envs.TaskTSP} {
		a := factoredArch(t, task)
		rng := rand.New(rand.NewPCG(71, uint64(len(task))))
		ap, cp := randParams(a.ActorSpecs(), rng), randParams(a.CriticSpecs(), rng)
		tb := newToyBatch(a, task, checkB, checkN, rng)
		for _, w := range []float64{0, 1} {
			checkCriticLoss(t, a, cp, tb, w)
		}
		t.Logf("%s: %d actor tensors checked", task, checkActorLoss(t, a, ap, cp, tb, 1e-5))
	}
}

// Relabelling the items (values, cities) of a state permutes the rows of SPG+Factored's M the
// same way: the actor is permutation-equivariant in the items.
func TestFactoredIsEquivariant(t *testing.T) {
	for _, task := range []envs.Task{envs.TaskSort, envs.TaskTSP} {
		const n, b = 6, 3
		cfg := run.DefaultConfig(task, n)
		cfg.Model, cfg.Critic, cfg.Hidden = run.ModelFactored, run.CriticBilinear, 8
		l, err := NewLearner(*devtest.Spec(t, cfg), nil)
		if err != nil {
			t.Fatal(err)
		}
		h := Hyper{Tau: 1, SinkhornIters: 10}
		rng := rand.New(rand.NewPCG(73, 1))
		w := envs.MustFacts(task).StateLen(n) / n
		states := make([]float32, b*n*w)
		for s := range b {
			for i, v := range rng.Perm(n) {
				states[s*n+i] = float32(v)
			}
		}
		if task == envs.TaskTSP {
			for i := range states {
				states[i] = rng.Float32()
			}
		}
		m := make([]float32, b*n*n)
		if err := l.Act(states, b, h, m); err != nil {
			t.Fatal(err)
		}
		rows := rng.Perm(n) // new item i is old item rows[i]
		moved := make([]float32, len(states))
		for s := range b {
			for i := range n {
				copy(moved[(s*n+i)*w:][:w], states[(s*n+rows[i])*w:][:w])
			}
		}
		mm := make([]float32, b*n*n)
		if err := l.Act(moved, b, h, mm); err != nil {
			t.Fatal(err)
		}
		for s := range b {
			for i := range n {
				for j := range n {
					got, want := mm[(s*n+i)*n+j], m[(s*n+rows[i])*n+j]
					if math.Abs(float64(got-want)) > 1e-5 {
						t.Fatalf("%s: state %d, M'[%d][%d] = %g, want M[%d][%d] = %g", task, s, i, j, got, rows[i], j, want)
					}
				}
			}
		}
	}
}
