package eval

import (
	"math/rand/v2"
	"testing"

	"spg-tui/agent/internal/devtest"
	"spg-tui/agent/learn"
	"spg-tui/linalg/assign"
	"spg-tui/run"
)

// The toy learners of the critic-max tests, as learn's own tests build them on devtest's toy
// configurations and states (package learn's own helpers, which hold its unexported learner,
// are not importable from here).

// newToyLearner returns a learner for cfg or fails t.
func newToyLearner(t testing.TB, cfg run.Config) learn.Learner {
	t.Helper()
	l, err := learn.NewLearner(*devtest.Spec(t, cfg), nil)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// toyHyper are the defaults of cfg with higher learning rates, so that steps change things.
func toyHyper(cfg run.Config) learn.Hyper {
	return learn.Hyper{Tau: cfg.Tau, SinkhornIters: cfg.SinkhornIters, ActorLR: 1e-3, CriticLR: 1e-3, CriticPenalty: true, ClipNorm: cfg.ClipNorm}
}

// actBatch acts on cfg.Batch fresh random states and returns a minibatch of them with rounded
// actions and random rewards, as the trainer builds one.
func actBatch(t testing.TB, l learn.Learner, cfg run.Config, rng *rand.Rand, h learn.Hyper) *learn.Minibatch {
	t.Helper()
	task, n, b := cfg.Task, cfg.N, cfg.Batch
	states := devtest.ToyStates(task, n, b, rng)
	batch := &learn.Minibatch{B: b, States: states, P: make([]float32, b*n*n), M: make([]float32, b*n*n), Reward: make([]float32, b)}
	if err := l.Act(batch.States, b, h, batch.M); err != nil {
		t.Fatal(err)
	}
	perms := make([]int, b*n)
	if err := assign.RoundBatch(batch.M, b, n, perms); err != nil {
		t.Fatal(err)
	}
	for k := range b {
		for i, j := range perms[k*n : (k+1)*n] {
			batch.P[(k*n+i)*n+j] = 1
		}
		batch.Reward[k] = rng.Float32()
	}
	return batch
}
