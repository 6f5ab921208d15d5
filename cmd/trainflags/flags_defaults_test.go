package trainflags

import (
	"bytes"
	"flag"
	"io"
	"strings"
	"testing"

	"spg-tui/envs"
	"spg-tui/run"
)

// helpLines is the --help of training flags registered over base and shown by
// ShowRecipeDefaults, by flag: the flag's line and its help joined.
func helpLines(t *testing.T, base run.Config) map[string]string {
	t.Helper()
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	var out bytes.Buffer
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		fs.SetOutput(&out)
		fs.PrintDefaults()
	}
	RegisterFlags(fs, &base)
	ShowRecipeDefaults(fs, base)
	fs.Usage()
	fs.Usage() // a second print (the flag package prints once more on -help) adds nothing
	lines := map[string]string{}
	name := ""
	for _, l := range strings.Split(out.String(), "\n") {
		if f, ok := strings.CutPrefix(l, "  -"); ok {
			name, _, _ = strings.Cut(f, " ")
			if _, seen := lines[name]; seen {
				name = "" // the second print
			}
			continue
		}
		if name != "" {
			lines[name] += strings.TrimSpace(l)
		}
	}
	return lines
}

// TestShowRecipeDefaults: the console's help gives the defaults of its recipe, best, where it
// gave the paper's (actor LR 1e-05, critic 2e-4, epsilon 1, hidden 128, validation every 200),
// and every flag whose default a recipe changes lists each recipe's, the command's first.
func TestShowRecipeDefaults(t *testing.T) {
	console := run.DefaultConfig(envs.TaskMWM, 10)
	console.EvalEvery, console.Recipe = 200, run.RecipeBest
	help := helpLines(t, console)
	for name, want := range map[string][]string{
		"actor-lr":          {"per recipe: best 0.0001 (tsp at n = 50: 3e-05), paper 1e-05, authors 0.0001 (default 0.0001)"},
		"critic-lr":         {"per recipe: best 0.001, paper 0.0002, authors 0.001 (default 0.001)"},
		"eps-start":         {"best 0.01 (sort 0.3), paper 1, authors 0.01 (default 0.01)"},
		"hidden":            {"best 32 (mwm 64), paper 128, authors 128 (default 64)"},
		"eval-every":        {"best 200 (mwm 50, gm 100), paper 200, authors 200 (default 50)"},
		"model":             {"best spg-pairwise (tsp spg-successor, sort spg-factored, gm spg-gm)", `(default "spg-pairwise")`},
		"steps":             {"best 1000 steps (tsp 2000 steps), paper 20 epochs (mwm 100 epochs, tsp 40 epochs), authors 20 epochs (default 1000 steps)"},
		"actor-at":          {"best soft (tsp hard)"},
		"no-critic-penalty": {"best true (sort false), paper false, authors false (default true)"},
	} {
		for _, w := range want {
			if !strings.Contains(help[name], w) {
				t.Errorf("--%s's help %q says no %q", name, help[name], w)
			}
		}
		if strings.Count(help[name], "per recipe") != 1 {
			t.Errorf("--%s's help gives the recipes' defaults %d times: %q", name, strings.Count(help[name], "per recipe"), help[name])
		}
	}
	for _, name := range []string{"seed", "batch", "tau", "task", "n", "init"} {
		if strings.Contains(help[name], "per recipe") {
			t.Errorf("--%s has one default everywhere, yet its help lists the recipes': %q", name, help[name])
		}
	}

	// train has no task until one is given: its defaults stay the paper's, which it lists first.
	train := helpLines(t, run.DefaultConfig("", 0))
	if w := "per recipe: paper 1e-05, authors 0.0001, best 0.0001 (tsp at n = 50: 3e-05) (default 1e-05)"; !strings.Contains(train["actor-lr"], w) {
		t.Errorf("train's --actor-lr: %q, want %q", train["actor-lr"], w)
	}
}
