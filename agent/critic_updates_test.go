package agent

import (
	"testing"

	"spg-tui/agent/device"
	"spg-tui/agent/learn"
	"spg-tui/envs"
	"spg-tui/run"
)

// countingLearner records, for every Update, whether it was critic-only.
type countingLearner struct {
	learn.Learner
	criticOnly []bool
}

func (c *countingLearner) Update(b *learn.Minibatch, h learn.Hyper) (learn.StepStats, error) {
	c.criticOnly = append(c.criticOnly, h.CriticOnly)
	return c.Learner.Update(b, h)
}

// With --critic-updates 3 every step makes three updates, the first two critic-only and the
// last one the critic's and the actor's; with the default, one full update per step.
func TestCriticUpdatesPerStep(t *testing.T) {
	for _, k := range []int{1, 3} {
		cfg := tinyConfig(envs.TaskMWM, 4)
		cfg.Hidden, cfg.Steps, cfg.CriticUpdates = 8, 5, k
		var counted *countingLearner
		factory := func(c run.Spec, dev *device.Device) (learn.Learner, error) {
			l, err := learn.NewLearner(c, dev)
			counted = &countingLearner{Learner: l}
			return counted, err
		}
		s, err := startRun(cfg, t.TempDir(), nil, factory)
		if err != nil {
			t.Fatal(err)
		}
		waitDone(t, s)
		if err := s.Err(); err != nil {
			t.Fatal(err)
		}
		if len(counted.criticOnly) != k*cfg.Steps {
			t.Fatalf("critic-updates %d: %d updates in %d steps, want %d", k, len(counted.criticOnly), cfg.Steps, k*cfg.Steps)
		}
		for i, only := range counted.criticOnly {
			if want := i%k != k-1; only != want {
				t.Fatalf("critic-updates %d: update %d critic-only %v, want %v", k, i, only, want)
			}
		}
	}
}
