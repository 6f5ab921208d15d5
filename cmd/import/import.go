// Package importcmd is spg-tui import: a run directory holding the authors' published
// SPG+Matching actor.
package importcmd

import (
	"errors"
	"flag"
	"fmt"

	"spg-tui/agent/authors"
	"spg-tui/cmd/cmdutil"
	"spg-tui/envs"
	"spg-tui/run"
)

// Options are import's flags.
type Options struct {
	Task    string
	N       int
	In, Out string
	Seed    uint64
}

// NewFlags registers import's flags into o.
func NewFlags(o *Options) *flag.FlagSet {
	fs := cmdutil.NewFlags("import", "--task mwm --n N --in FILE.npz --out DIR [--seed S]")
	fs.StringVar(&o.Task, "task", "", "task: mwm, the only one the authors published actors for (required)")
	fs.IntVar(&o.N, "n", 0, fmt.Sprintf("problem size the actor is used at, 2 to %d (required)", run.MaxN))
	fs.StringVar(&o.In, "in", "", "the actor's arrays, a NumPy .npz under their PyTorch names (required)")
	fs.StringVar(&o.Out, "out", "", "new run directory to write (required)")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed of the fresh critic and of the validation and test sets")
	return fs
}

// Main is import on the command line args.
func Main(args []string, s cmdutil.Streams) int {
	var o Options
	if status, ok := cmdutil.Parse(NewFlags(&o), args, s); !ok {
		return status
	}
	return Run(&o, s)
}

// Run writes the run directory from the authors' actor.
func Run(o *Options, s cmdutil.Streams) int {
	stderr := s.Err
	switch {
	case o.Task == "":
		return cmdutil.Fail(stderr, "import", errors.New("--task is required (mwm)"))
	case o.N == 0:
		return cmdutil.Fail(stderr, "import", errors.New("--n is required"))
	case o.In == "":
		return cmdutil.Fail(stderr, "import", errors.New("--in is required (an .npz file)"))
	case o.Out == "":
		return cmdutil.Fail(stderr, "import", errors.New("--out is required (the run directory)"))
	}
	cfg := run.DefaultConfig(envs.Task(o.Task), o.N)
	cfg.Seed = o.Seed
	val, test, err := authors.ImportActor(cfg, o.In, o.Out)
	if err != nil {
		return cmdutil.Fail(stderr, "import", err)
	}
	fmt.Fprintf(stderr, "import: %s into %s: validation %s %.4f, test %.4f (median %.4f)\n",
		o.In, o.Out, val.MetricName, val.Metric, test.Metric, test.RatioMedian)
	return 0
}
