package devtest

import (
	"math/rand/v2"

	"spg-tui/envs"
	"spg-tui/run"
)

// ToyConfig is a valid config for task at size n with a small batch and hidden width, seed 7:
// the learner tests' toy size.
func ToyConfig(task envs.Task, n, batch, hidden int) run.Config {
	cfg := run.DefaultConfig(task, n)
	cfg.Batch, cfg.Hidden = batch, hidden
	cfg.TrainSize, cfg.Buffer = 10*batch, 10*batch
	cfg.Seed = 7
	return cfg
}

// ToyStates returns b featurised random states of task at size n.
func ToyStates(task envs.Task, n, b int, rng *rand.Rand) []float32 {
	s := make([]float32, b*envs.MustFacts(task).StateLen(n))
	for i := range s {
		if task == envs.TaskSort {
			s[i] = float32(rng.IntN(n))
		} else {
			s[i] = rng.Float32()
		}
	}
	return s
}
