package learn

import (
	"errors"
	"testing"

	"spg-tui/agent/internal/devtest"
	"spg-tui/envs"
	"spg-tui/run"
)

// Every model of the catalogue has networks here, and nothing else does: the SPG models an
// architecture, the critic-free ones a policy network (an untrained model reuses its task's SPG
// architecture), and each learner has a critic exactly when its kind says so.
func TestEveryModelHasNetworks(t *testing.T) {
	for _, m := range run.Models {
		for _, task := range m.Tasks() {
			cfg := run.DefaultConfig(task, 5)
			if m.Defaults != nil {
				m.Defaults(&cfg)
			}
			cfg.Model, cfg.Hidden, cfg.Batch, cfg.TrainSize = m.Name, 4, 8, 8
			l, err := NewLearner(*devtest.Spec(t, cfg), nil)
			if err != nil {
				t.Errorf("%s on %s: %v", m.Name, task, err)
				continue
			}
			q := make([]float32, 1)
			free := errors.Is(l.Q(make([]float32, envs.MustFacts(task).StateLen(5)), make([]float32, 25), make([]float32, 25), 1, q, q), ErrNoCritic)
			if free != !m.Kind.HasCritic() {
				t.Errorf("%s: learner critic-free %v, catalogue kind %s", m.Name, free, m.Kind)
			}
		}
	}
}
