package learn

import (
	"math/rand/v2"
	"testing"

	"spg-tui/agent/internal/devtest"
	"spg-tui/envs"
	"spg-tui/run"
)

// BenchmarkReinforceStep times one critic-free training step (sample a batch of 128, score it,
// REINFORCE update) of each model at N = 20, hidden 128, without the engine around it.
func BenchmarkReinforceStep(b *testing.B) {
	for _, c := range []struct {
		model string
		task  envs.Task
	}{{"pn-ac", envs.TaskSort}, {"pn-ac-matching", envs.TaskMWM}, {"ac-matching", envs.TaskMWM}} {
		b.Run(c.model, func(b *testing.B) {
			cfg := run.DefaultConfig(c.task, 20)
			cfg.Model = c.model
			l, err := NewLearner(*devtest.Spec(b, cfg), nil)
			if err != nil {
				b.Fatal(err)
			}
			op := l.(OnPolicyLearner)
			env, _ := envs.New(c.task, 20)
			ds := envs.Dataset{Env: env, Seed: 1, Size: cfg.Batch}
			sl := envs.MustFacts(c.task).StateLen(20)
			states, perms, rewards := make([]float32, cfg.Batch*sl), make([]int, cfg.Batch*20), make([]float64, cfg.Batch)
			insts := make([]envs.Instance, cfg.Batch)
			for i := range insts {
				insts[i] = ds.At(i)
				envs.MustFacts(c.task).Featurize(insts[i], states[i*sl:(i+1)*sl])
			}
			rng := rand.New(rand.NewPCG(1, 2))
			h := HyperAt(devtest.Spec(b, cfg), 0)
			for b.Loop() {
				if err := op.Sample(states, cfg.Batch, rng, perms); err != nil {
					b.Fatal(err)
				}
				for i := range rewards {
					rewards[i] = env.Reward(insts[i], perms[i*20:(i+1)*20])
				}
				if _, err := op.Reinforce(rewards, h); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
