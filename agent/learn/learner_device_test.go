package learn

import (
	"testing"

	"spg-tui/agent/internal/devtest"
	"spg-tui/envs"
	"spg-tui/run"
)

// TestGPUKernelsFor: which configurations have a GPU learner (and so open the GPU under
// --device auto), as docs/gpu.md lists them.
func TestGPUKernelsFor(t *testing.T) {
	for _, c := range []struct {
		task          envs.Task
		model, recipe string
		edit          func(*run.Config)
		want          bool
	}{
		{envs.TaskMWM, run.ModelMatching, run.RecipePaper, nil, true},
		{envs.TaskMWM, run.ModelMatching, run.RecipePaper, func(c *run.Config) { c.TargetCritic = 0.01 }, false},
		{envs.TaskMWM, run.ModelMatching, run.RecipePaper, func(c *run.Config) { c.ActorAt = run.ActorAtHard }, false},
		{envs.TaskMWM, run.ModelPairwise, run.RecipeBest, nil, true},
		{envs.TaskSort, run.ModelPairwise, run.RecipeBest, nil, true},
		{envs.TaskMWM, run.ModelPairwise, run.RecipeBest, func(c *run.Config) { c.Critic = run.CriticExact }, false},
		{envs.TaskTSP, run.ModelSuccessor, run.RecipeBest, nil, true},
		{envs.TaskTSP, run.ModelSuccessor, run.RecipeBest, func(c *run.Config) { c.Critic = run.CriticExact }, false},
		{envs.TaskSort, run.ModelFactored, run.RecipeBest, nil, true},
		{envs.TaskTSP, run.ModelFactored, run.RecipePaper, nil, false},
		{envs.TaskTSP, run.ModelSequential, run.RecipePaper, nil, false},
	} {
		cfg := devtest.RecipeConfig(t, c.task, c.model, c.recipe, 5)
		if c.edit != nil {
			c.edit(&cfg)
		}
		spec, err := run.Resolve(cfg)
		if err != nil {
			t.Errorf("%s %s %s: %v", c.task, c.model, c.recipe, err)
			continue
		}
		if got := hasGPUKernels(spec); got != c.want {
			t.Errorf("%s %s %s (target %g, actor at %q, critic %q): GPU kernels %v, want %v",
				c.task, c.model, c.recipe, cfg.TargetCritic, cfg.ActorAt, cfg.Critic, got, c.want)
		}
	}
}
