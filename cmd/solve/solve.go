// Package solvecmd is spg-tui solve: every instance of a file solved by an exact or classical
// solver, as JSON Lines.
package solvecmd

import (
	"errors"
	"flag"
	"fmt"
	"time"

	"spg-tui/cmd/cmdutil"
	"spg-tui/envs"
)

// Options are solve's flags.
type Options struct {
	Solver   string
	In       string
	Seed     uint64
	Restarts int
}

// NewFlags registers solve's flags into o.
func NewFlags(o *Options) *flag.FlagSet {
	fs := cmdutil.NewFlags("solve", "--solver NAME --in FILE|- [--seed S] [--restarts K]")
	fs.StringVar(&o.Solver, "solver", "", "`NAME` of a solver of the file's task (each in docs/commands.md): "+envs.SolverUsage())
	fs.StringVar(&o.In, "in", "", "instance file, or - for standard input (required)")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed of the randomised solvers")
	fs.IntVar(&o.Restarts, "restarts", 0, fmt.Sprintf("random doubly stochastic starts of gm's faq beside its barycentre start, the best kept, 0 to %d (0: the barycentre alone, deterministic)", envs.MaxRestarts))
	return fs
}

// Main is solve on the command line args.
func Main(args []string, s cmdutil.Streams) int {
	var o Options
	if status, ok := cmdutil.Parse(NewFlags(&o), args, s); !ok {
		return status
	}
	return Run(&o, s)
}

// Run solves the file o names and writes one line per instance.
func Run(o *Options, s cmdutil.Streams) int {
	stderr := s.Err
	if o.Solver == "" {
		return cmdutil.Fail(stderr, "solve", errors.New("--solver is required"))
	}
	if o.In == "" {
		return cmdutil.Fail(stderr, "solve", errors.New("--in is required (a file, or - for standard input)"))
	}
	f, env, err := cmdutil.ReadInstances(o.In, s.In)
	if err != nil {
		return cmdutil.Fail(stderr, "solve", err)
	}
	start := time.Now()
	sols, err := envs.SolveAllRestarts(env, o.Solver, f.Instances, o.Seed, o.Restarts)
	if err != nil {
		return cmdutil.Fail(stderr, "solve", err)
	}
	elapsed := time.Since(start)
	mean, err := cmdutil.WriteSolutions(s.Out, sols)
	if err != nil {
		return cmdutil.FailOutput(stderr, "solve", err)
	}
	name := o.Solver
	if o.Restarts > 0 {
		name = fmt.Sprintf("%s with %d random restarts", name, o.Restarts)
	}
	fmt.Fprintf(stderr, "solve: %d %s-%d instances, solver %s, mean objective %.6g, %s\n",
		len(sols), env.Task(), env.N(), name, mean, elapsed.Round(time.Microsecond))
	return 0
}
