package eval

import (
	"math/rand/v2"
	"testing"

	"spg-tui/agent/internal/devtest"
	"spg-tui/agent/learn"
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
	b := cfg.Batch
	states, p, m, reward := devtest.ActedBatch(t, cfg.Task, cfg.N, b, rng, func(states, m []float32) error { return l.Act(states, b, h, m) })
	return &learn.Minibatch{B: b, States: states, P: p, M: m, Reward: reward}
}
