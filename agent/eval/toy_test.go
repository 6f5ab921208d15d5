package eval

import (
	"math/rand/v2"
	"testing"

	"spg-tui/agent/learn"
	"spg-tui/agent/nets"
	"spg-tui/envs"
	"spg-tui/linalg/assign"
	"spg-tui/run"
)

// The toy learners of the critic-max tests, as learn's own tests build them (package learn's
// test helpers are not importable from here).

// toyConfig is cfg's defaults at a small batch and width, seed 7.
func toyConfig(task envs.Task, n, batch, hidden int) run.Config {
	cfg := run.DefaultConfig(task, n)
	cfg.Batch, cfg.Hidden = batch, hidden
	cfg.TrainSize, cfg.Buffer = 10*batch, 10*batch
	cfg.Seed = 7
	return cfg
}

// newToyLearner returns a learner for cfg or fails t.
func newToyLearner(t testing.TB, cfg run.Config) learn.Learner {
	t.Helper()
	l, err := learn.NewLearner(cfg)
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
	states := make([]float32, b*nets.StateLen(task, n))
	for i := range states {
		if task == envs.TaskSort {
			states[i] = float32(rng.IntN(n))
		} else {
			states[i] = rng.Float32()
		}
	}
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
