package learn

import (
	"errors"
	"testing"

	"spg-tui/envs"
	"spg-tui/linalg/cuda/layers"
	"spg-tui/run"
)

// A learner (no replay buffer) is built above the training bound run.MaxN, up to the task's
// instance bound: it decodes there. On a GPU above the Sinkhorn kernels' n there are no kernels,
// so such a learner is the CPU's (NewLearner falls back on errNoGPUKernels), not an error at its
// first forward pass.
func TestLearnerAboveTheTrainingBound(t *testing.T) {
	cfg := run.DefaultConfig(envs.TaskTSP, run.MaxN+45)
	cfg.Model, cfg.Critic, cfg.Batch, cfg.Hidden = run.ModelSuccessor, run.CriticBilinear, 1, 4
	if _, err := NewLearner(cfg); err != nil {
		t.Fatalf("a learner at n = %d: %v", cfg.N, err)
	}
	cfg.N = layers.MaxSinkhornN + 1
	if _, err := NewDeviceLearner(cfg, nil); !errors.Is(err, errNoGPUKernels) {
		t.Errorf("a GPU learner at n = %d: %v; want errNoGPUKernels", cfg.N, err)
	}
	cfg.N = envs.MustFacts(envs.TaskTSP).MaxN + 1
	if _, err := NewLearner(cfg); err == nil {
		t.Errorf("a learner at n = %d, past tsp's instance bound, was built", cfg.N)
	}
}
