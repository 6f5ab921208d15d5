package agent

import (
	"runtime"
	"testing"

	"spg-tui/agent/internal/devtest"
	"spg-tui/agent/learn"
	"spg-tui/envs"
	"spg-tui/linalg/parallel"
	"spg-tui/run"
)

// TestStepSplitsInstances checks that the step's per-instance work outside the learner, the
// fresh instances' generation, their rewards and the minibatch's assembly, runs inside parallel
// loops: otherwise it is the step's serial part, which no number of cores shortens.
func TestStepSplitsInstances(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3))
	defer parallel.Account(false)
	const n = 10
	cfg := run.DefaultConfig(envs.TaskTSP, n)
	cfg.Buffer = 4 * cfg.Batch
	spec := devtest.Spec(t, cfg)
	l, err := newLoop(*spec, nullLearner{n})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.step(0, spec); err != nil {
		t.Fatal(err)
	}
	h := learn.HyperAt(spec, 1)
	for _, part := range []struct {
		name string
		run  func()
	}{
		{"fetch", func() { l.fetch(1, &spec.Config) }},
		{"reward", func() { l.reward(h) }},
		{"sample", func() { l.sample() }},
	} {
		parallel.Account(true)
		part.run()
		parallel.Account(false)
		if parallel.Accounted().Wall == 0 {
			t.Errorf("%s ran outside any parallel loop", part.name)
		}
	}
}
