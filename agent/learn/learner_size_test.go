package learn

import (
	"errors"
	"testing"

	"spg-tui/envs"
	"spg-tui/linalg/cuda/gpulayers"
	"spg-tui/run"
)

// A learner (no replay buffer) is built above the training bound run.MaxN, up to the task's
// instance bound (run.ResolveModel): it decodes there. On a GPU above the Sinkhorn kernels' n
// there are no kernels, so such a learner is the CPU's (NewLearner falls back on
// errNoGPUKernels), not an error at its first forward pass.
func TestLearnerAboveTheTrainingBound(t *testing.T) {
	cfg := run.DefaultConfig(envs.TaskTSP, run.MaxN+45)
	cfg.Model, cfg.Critic, cfg.Batch, cfg.Hidden = run.ModelSuccessor, run.CriticBilinear, 1, 4
	at := func(n int) (run.Spec, error) {
		cfg.N = n
		return run.ResolveModel(cfg)
	}
	spec, err := at(run.MaxN + 45)
	if err == nil {
		_, err = NewLearner(spec, nil)
	}
	if err != nil {
		t.Fatalf("a learner at n = %d: %v", cfg.N, err)
	}
	if spec, err = at(gpulayers.MaxSinkhornN + 1); err != nil {
		t.Fatal(err)
	}
	if _, err := NewDeviceLearner(spec, nil); !errors.Is(err, errNoGPUKernels) {
		t.Errorf("a GPU learner at n = %d: %v; want errNoGPUKernels", cfg.N, err)
	}
	if _, err := at(envs.MustFacts(envs.TaskTSP).MaxN + 1); err == nil {
		t.Errorf("a learner at n = %d, past tsp's instance bound, was resolved", cfg.N)
	}
}
