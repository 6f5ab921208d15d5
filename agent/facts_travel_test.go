package agent

import (
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
	calls := 0
	counted.Featurize = func(inst envs.Instance, dst []float32) {
		calls++
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
	if calls < cfg.Batch {
		t.Errorf("a step of batch %d featurised %d states through the run's facts", cfg.Batch, calls)
	}
	calls = 0
	ds := envs.Dataset{Env: lp.env, Seed: 1, Size: 6}
	if set := eval.NewSet(envs.Validation, ds, &counted); calls != ds.Size || set.Facts != &counted {
		t.Errorf("a set of %d featurised %d states through the facts it was given (set's facts %p, given %p)", ds.Size, calls, set.Facts, &counted)
	}
}
