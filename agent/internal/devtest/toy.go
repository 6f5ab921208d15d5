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

// PlantedGraphs fills x with b random graph pairs of n nodes (symmetric adjacencies without
// loops, each edge present with probability 1/2 and weighted in [0.5, 1)): G1, then G2 = G1 with
// its nodes relabelled, as graph matching's states plant a correspondence. The weights leave no
// two nodes alike: where nodes tie (unrelated graphs, or a 0/1 graph's automorphisms), the
// consensus rounds (Sinkhorn at tau 0.01) turn rounding into M up to 0.7 apart on the CPU
// alone, and no two implementations could be compared there.
func PlantedGraphs(rng *rand.Rand, x []float32, b, n int) {
	clear(x[:b*2*n*n])
	for k := range b {
		g1, g2 := x[k*2*n*n:][:n*n], x[k*2*n*n+n*n:][:n*n]
		perm := rng.Perm(n)
		for i := range n {
			for j := i + 1; j < n; j++ {
				if rng.IntN(2) == 1 {
					v := 0.5 + rng.Float32()/2
					g1[i*n+j], g1[j*n+i] = v, v
					g2[perm[i]*n+perm[j]], g2[perm[j]*n+perm[i]] = v, v
				}
			}
		}
	}
}
