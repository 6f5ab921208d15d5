package main

import (
	"errors"
	"fmt"
	"io"

	"spg-tui/agent/authors"
	"spg-tui/envs"
	"spg-tui/run"
)

// runImport writes a run directory from the authors' published SPG+Matching actor.
func runImport(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("import", "--task mwm --n N --in FILE.npz --out DIR [--seed S]")
	task := fs.String("task", "", "task: mwm, the only one the authors published actors for (required)")
	n := fs.Int("n", 0, fmt.Sprintf("problem size the actor is used at, 2 to %d (required)", run.MaxN))
	in := fs.String("in", "", "the actor's arrays, a NumPy .npz under their PyTorch names (required)")
	out := fs.String("out", "", "new run directory to write (required)")
	seed := fs.Uint64("seed", 1, "seed of the fresh critic and of the validation and test sets")
	if status, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return status
	}
	switch {
	case *task == "":
		return fail(stderr, "import", errors.New("--task is required (mwm)"))
	case *n == 0:
		return fail(stderr, "import", errors.New("--n is required"))
	case *in == "":
		return fail(stderr, "import", errors.New("--in is required (an .npz file)"))
	case *out == "":
		return fail(stderr, "import", errors.New("--out is required (the run directory)"))
	}
	cfg := run.DefaultConfig(envs.Task(*task), *n)
	cfg.Seed = *seed
	val, test, err := authors.ImportActor(cfg, *in, *out)
	if err != nil {
		return fail(stderr, "import", err)
	}
	fmt.Fprintf(stderr, "import: %s into %s: validation %s %.4f, test %.4f (median %.4f)\n",
		*in, *out, val.MetricName, val.Metric, test.Metric, test.RatioMedian)
	return 0
}
