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
		{envs.TaskTSP, run.ModelFactored, run.RecipePaper, nil, true},
		{envs.TaskTSP, run.ModelFactored, run.RecipePaper, func(c *run.Config) { c.TargetCritic = 0.01 }, true},
		{envs.TaskTSP, run.ModelFactored, run.RecipePaper, func(c *run.Config) { c.ActorAt = run.ActorAtHard }, false},
		{envs.TaskTSP, run.ModelSequential, run.RecipePaper, nil, false},
		{envs.TaskGM, run.ModelGM, run.RecipeBest, nil, true},
		{envs.TaskGM, run.ModelGMLogStep, run.RecipePaper, nil, true},
		{envs.TaskGM, run.ModelGMSpectral, run.RecipeBest, func(c *run.Config) { c.TargetCritic = 0 }, true},
		{envs.TaskGM, run.ModelGM, run.RecipeBest, func(c *run.Config) { c.ActorAt = run.ActorAtHard }, false},
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

// TestBestHasGPUKernels: the best recipe's model on every task, with the options it sets (and on
// gm its choice for regular graphs, spg-gm-spectral with the live critic), trains on the GPU.
func TestBestHasGPUKernels(t *testing.T) {
	for _, c := range []struct {
		task envs.Task
		data string
	}{{envs.TaskMWM, ""}, {envs.TaskTSP, ""}, {envs.TaskSort, ""}, {envs.TaskGM, ""}, {envs.TaskGM, "regular:d=4"}} {
		for _, n := range []int{20, 50} {
			cfg := run.DefaultConfig(c.task, n)
			given := map[string]bool{"task": true, "n": true, "recipe": true}
			if c.data != "" {
				cfg.Data, given["data"] = c.data, true
			}
			cfg, err := run.Choose(cfg, run.Choices{Given: given, Recipe: run.RecipeBest})
			if err != nil {
				t.Fatal(err)
			}
			spec, err := run.Resolve(cfg)
			if err != nil {
				t.Fatalf("%s %s at N = %d: %v", c.task, c.data, n, err)
			}
			if !hasGPUKernels(spec) {
				t.Errorf("best on %s %s at N = %d (%s, target critic %g, critic %q): no GPU kernels", c.task, c.data, n, spec.Model, spec.TargetCritic, spec.Critic)
			}
		}
	}
}
