package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"spg-tui/envs"
)

func runSolve(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("solve", "--solver NAME --in FILE|- [--seed S] [--restarts K]")
	solver := fs.String("solver", "", "`NAME` of a solver of the file's task (each in docs/commands.md): "+envs.SolverUsage())
	in := fs.String("in", "", "instance file, or - for standard input (required)")
	seed := fs.Uint64("seed", 1, "seed of the randomised solvers")
	restarts := fs.Int("restarts", 0, fmt.Sprintf("random doubly stochastic starts of gm's faq beside its barycentre start, the best kept, 0 to %d (0: the barycentre alone, deterministic)", envs.MaxRestarts))
	if status, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return status
	}
	if *solver == "" {
		return fail(stderr, "solve", errors.New("--solver is required"))
	}
	if *in == "" {
		return fail(stderr, "solve", errors.New("--in is required (a file, or - for standard input)"))
	}
	f, env, err := readInstances(*in, stdin)
	if err != nil {
		return fail(stderr, "solve", err)
	}
	start := time.Now()
	sols, err := envs.SolveAllRestarts(env, *solver, f.Instances, *seed, *restarts)
	if err != nil {
		return fail(stderr, "solve", err)
	}
	elapsed := time.Since(start)
	mean, err := writeSolutions(stdout, sols)
	if err != nil {
		return failOutput(stderr, "solve", err)
	}
	name := *solver
	if *restarts > 0 {
		name = fmt.Sprintf("%s with %d random restarts", name, *restarts)
	}
	fmt.Fprintf(stderr, "solve: %d %s-%d instances, solver %s, mean objective %.6g, %s\n",
		len(sols), env.Task(), env.N(), name, mean, elapsed.Round(time.Microsecond))
	return 0
}
