package devtest

import (
	"math/rand/v2"
	"testing"

	"spg-tui/envs"
	"spg-tui/linalg/assign"
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

// ActedBatch is the minibatch a trainer builds from b fresh states of task at size n (ToyStates):
// act fills the soft permutations m for the states, which are rounded into the permutation
// matrices p, and each state gets a random reward.
func ActedBatch(t testing.TB, task envs.Task, n, b int, rng *rand.Rand, act func(states, m []float32) error) (states, p, m, reward []float32) {
	t.Helper()
	states = ToyStates(task, n, b, rng)
	p, m, reward = make([]float32, b*n*n), make([]float32, b*n*n), make([]float32, b)
	if err := act(states, m); err != nil {
		t.Fatal(err)
	}
	perms := make([]int, b*n)
	if err := assign.RoundBatch(m, b, n, perms); err != nil {
		t.Fatal(err)
	}
	for k := range b {
		for i, j := range perms[k*n : (k+1)*n] {
			p[(k*n+i)*n+j] = 1
		}
		reward[k] = rng.Float32()
	}
	return states, p, m, reward
}
