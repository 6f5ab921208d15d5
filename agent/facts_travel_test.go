package agent

import (
	"sync/atomic"
	"testing"

	"spg-tui/agent/eval"
	"spg-tui/agent/internal/devtest"
	"spg-tui/envs"
	"spg-tui/run"
)

// The training loop and eval's sets featurise through the facts the run resolved, not by
// looking the task's name up again: a Spec whose facts count their Featurize calls sees every
// state of a step and of a set.
func TestFeaturizeByTheRunsFacts(t *testing.T) {
	cfg := run.DefaultConfig(envs.TaskMWM, 5)
	cfg.Batch, cfg.Buffer, cfg.TrainSize = 4, 8, 40
	spec := *devtest.Spec(t, cfg)
	counted, featurize := *spec.Facts, spec.Facts.Featurize
	// The step featurises its batch on several goroutines.
	var calls atomic.Int64
	counted.Featurize = func(inst envs.Instance, dst []float32) {
		calls.Add(1)
		featurize(inst, dst)
	}
	spec.Facts = &counted
	l, err := fakeFactory(fakeOpts{})(spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	lp, err := newLoop(spec, l)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lp.step(0, &spec); err != nil {
		t.Fatal(err)
	}
	if n := calls.Load(); n < int64(cfg.Batch) {
		t.Errorf("a step of batch %d featurised %d states through the run's facts", cfg.Batch, n)
	}
	calls.Store(0)
	ds := envs.Dataset{Env: lp.env, Seed: 1, Size: 6}
	if set := eval.NewSet(envs.Validation, ds, &counted); calls.Load() != int64(ds.Size) || set.Facts != &counted {
		t.Errorf("a set of %d featurised %d states through the facts it was given (set's facts %p, given %p)", ds.Size, calls.Load(), set.Facts, &counted)
	}
}
