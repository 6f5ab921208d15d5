package ui

import (
	"spg-tui/envs"
	"spg-tui/run"
)

// ConsoleConfig is the run the console starts without flags, which tui's training flags change
// and which the task switch resolves a new task or recipe over.
func ConsoleConfig() run.Config {
	cfg := run.DefaultConfig(envs.TaskMWM, 10)
	cfg.EvalEvery = 200         // a console shows its first evaluation sooner than a headless run logs one
	cfg.Recipe = run.RecipeBest // the console starts on the project's best learner; train keeps the paper's
	return cfg
}

// switchConfig is the run the task switch starts for task at size n under recipe, from the run
// cur. The same task and recipe keep cur's live hyperparameters and model, at the new size and
// the recipe's length; another task or recipe is the run `tui --task T --n N --recipe R` starts
// (with cur's seed, and cur's data on the same task), since a recipe sets each task apart and a
// value kept from another task's run (best's mwm validates every 50 steps) is not the recipe's.
func switchConfig(cur run.Config, task envs.Task, n int, recipe string) (run.Config, error) {
	if _, err := envs.FactsOf(task); err != nil {
		return cur, err
	}
	if recipe == "" {
		recipe = cur.Recipe
	}
	if recipe == "" { // a run from before recipes were recorded trained the paper's
		recipe = run.RecipePaper
	}
	sameTask := task == cur.Task
	if md, err := run.ModelNamed(cur.Model); sameTask && recipe == cur.Recipe && err == nil && md.Supports(task) {
		c := cur
		c.N = n
		c.K = min(c.K, max(n, 2))
		// The new run runs as long as its recipe runs its task, not as long as the run it
		// replaces.
		c.Steps = run.RecipeSteps(c.Recipe, c)
		return c, c.Validate()
	}
	c := ConsoleConfig()
	c.Task, c.N, c.Seed = task, n, cur.Seed
	ch := run.Choices{Given: map[string]bool{"task": true, "n": true, "recipe": true, "seed": true}, Recipe: recipe}
	if sameTask && cur.Data != "" {
		c.Data, ch.Given["data"] = cur.Data, true
	}
	r, err := run.Choose(c, ch)
	if err != nil {
		return ConsoleConfig(), err
	}
	return r, nil
}
