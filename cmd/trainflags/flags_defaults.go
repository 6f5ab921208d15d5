package trainflags

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"spg-tui/cmd/internal/flagparse"
	"spg-tui/envs"
	"spg-tui/run"
)

// Sizes at which ShowRecipeDefaults resolves every recipe: a default is shown at the first, and
// one that differs at the second (best's tsp actor rate falls with n) is shown at both.
const (
	defaultsN      = 20
	defaultsLargeN = 50
)

// Flags whose defaults ShowRecipeDefaults leaves as RegisterFlags words them: what the run is
// (task, n, data, recipe, init) and what has no value of its own (epochs, in place of steps).
var recipeFreeFlags = []string{"task", "n", "data", "recipe", "init", "epochs"}

// ShowRecipeDefaults makes the help of fs, whose training flags RegisterFlags registered over
// base, say the defaults a run gets: each flag's default is the one base resolves to under its
// own recipe (the console's best on MWM-10: actor LR 0.0001, not the paper's 1e-05), where base
// has a task; a flag whose default the recipe, the task or the size changes also lists them,
// base's recipe first: "per recipe: best 0.0001 (tsp at n = 50: 3e-05), paper 1e-05, authors
// 0.0001". The defaults are resolved once, when the help is first printed, through the flags
// themselves.
func ShowRecipeDefaults(fs *flag.FlagSet, base run.Config) {
	usage, done := fs.Usage, false
	fs.Usage = func() {
		if !done {
			annotateDefaults(fs, base)
			done = true
		}
		usage()
	}
}

// annotateDefaults sets fs's defaults and help as ShowRecipeDefaults says.
func annotateDefaults(fs *flag.FlagSet, base run.Config) {
	if base.Task != "" {
		if own, err := resolvedDefaults(base, base.Recipe, base.Task, base.N); err == nil {
			fs.VisitAll(func(f *flag.Flag) {
				if v, ok := own[f.Name]; ok {
					f.DefValue = v
				}
			})
		}
	}
	names := run.RecipeNames()
	if i := slices.Index(names, base.Recipe); i > 0 {
		names = append([]string{base.Recipe}, slices.Delete(names, i, i+1)...)
	}
	byRecipe := map[string][]taskDefaults{}
	for _, r := range names {
		for _, t := range envs.Tasks {
			d := taskDefaults{task: t}
			d.small, _ = resolvedDefaults(base, r, t, defaultsN)
			d.large, _ = resolvedDefaults(base, r, t, defaultsLargeN)
			byRecipe[r] = append(byRecipe[r], d)
		}
	}
	fs.VisitAll(func(f *flag.Flag) {
		if slices.Contains(recipeFreeFlags, f.Name) {
			return
		}
		if note := recipeNote(f.Name, names, byRecipe); note != "" {
			f.Usage += "; per recipe: " + note
		}
	})
}

// taskDefaults are the flags' defaults for one task under one recipe, at defaultsN and at
// defaultsLargeN, by flag name; nil at a size the recipe cannot resolve the task at.
type taskDefaults struct {
	task         envs.Task
	small, large map[string]string
}

// resolvedDefaults is every training flag's value as a run of task at size n under recipe resolves
// it from base (RegisterFlags, then its finish), as the flag prints it; the model's name for
// "model", and the run length in steps or epochs, as the recipe sets it, for "steps".
func resolvedDefaults(base run.Config, recipe string, task envs.Task, n int) (map[string]string, error) {
	c, err := ResolveFlags(base, "--task", string(task), "--n", strconv.Itoa(n), "--recipe", recipe)
	if err != nil {
		return nil, err
	}
	resolved := flag.NewFlagSet("", flag.ContinueOnError)
	RegisterFlags(resolved, &c)
	out := map[string]string{}
	resolved.VisitAll(func(f *flag.Flag) { out[f.Name] = f.DefValue })
	out["model"], out["steps"] = c.Model, run.RecipeLength(recipe, c)
	return out, nil
}

// ResolveFlags is the configuration that training flags args give over base, as a command that
// RegisterFlags registered over base resolves them (its finish included): the console's task
// switch starts the run that tui with those flags starts.
func ResolveFlags(base run.Config, args ...string) (run.Config, error) {
	c := base
	fs := flag.NewFlagSet("", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	finish := RegisterFlags(fs, &c)
	if err := flagparse.Parse(fs, args); err != nil {
		return base, err
	}
	if err := finish(); err != nil {
		return base, err
	}
	return c, nil
}

// recipeNote words flag name's defaults under each recipe of names, "" when they are one value
// everywhere: "best 32 (mwm 64), paper 128, authors 128". Within a recipe the value of most tasks
// comes first, then by task the others, and a task's value at defaultsLargeN where it differs.
func recipeNote(name string, names []string, byRecipe map[string][]taskDefaults) string {
	var parts []string
	varies := false
	first := ""
	for k, r := range names {
		tasks := byRecipe[r]
		common := mostCommon(name, tasks)
		var others []string
		for _, d := range tasks {
			v, ok := d.small[name]
			if ok && v != common {
				others = append(others, fmt.Sprintf("%s %s", d.task, v))
			}
			if lv, lok := d.large[name]; ok && lok && lv != v {
				others = append(others, fmt.Sprintf("%s at n = %d: %s", d.task, defaultsLargeN, lv))
			}
		}
		part := r + " " + common
		if others != nil {
			part += " (" + strings.Join(others, ", ") + ")"
			varies = true
		}
		if k == 0 {
			first = common
		}
		varies = varies || common != first
		parts = append(parts, part)
	}
	if !varies {
		return ""
	}
	return strings.Join(parts, ", ")
}

// mostCommon is the value of flag name at defaultsN that most of the tasks share; of values
// shared as often, the one that got there first in task order.
func mostCommon(name string, tasks []taskDefaults) string {
	count := map[string]int{}
	best, most := "", 0
	for _, d := range tasks {
		if v, ok := d.small[name]; ok {
			if count[v]++; count[v] > most {
				best, most = v, count[v]
			}
		}
	}
	return best
}
