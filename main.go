// Command spg-tui is an experiment console for Sinkhorn Policy Gradient: it generates and solves
// permutation problems (sorting, maximum weight matching, Euclidean TSP) from the command line.
// This file only wires flags to the packages that do the work.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"spg-tui/envs"
	"spg-tui/linalg/stats"
)

// exitUsage is the exit status for bad flags and bad input files.
const exitUsage = 2

// command is one subcommand of spg-tui.
type command struct {
	name    string
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

var commands = []command{
	{"gen", "write a seeded instance file to stdout", runGen},
	{"solve", "solve every instance of a file with an exact or classical solver (JSON Lines)", runSolve},
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stdout)
		return 0
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(args[1:], stdin, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "spg-tui: unknown command %q (run spg-tui --help)\n", args[0])
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "spg-tui: Sinkhorn Policy Gradient experiment console")
	fmt.Fprintln(w, "\nUsage: spg-tui <command> [flags]   (spg-tui <command> --help for its flags)")
	fmt.Fprintln(w, "\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
}

// newFlags returns a flag set that reports errors as one line (via parseFlags) instead of
// printing the whole usage.
func newFlags(name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		out := fs.Output()
		fmt.Fprintf(out, "Usage: spg-tui %s %s\n\nFlags:\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args; it returns ok=false with the exit status when the command should stop
// (help was asked for, or a flag was bad).
func parseFlags(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (status int, ok bool) {
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fs.SetOutput(stdout)
		fs.Usage()
		return 0, false
	}
	if err == nil && fs.NArg() > 0 {
		err = fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err != nil {
		fmt.Fprintf(stderr, "spg-tui %s: %v (see spg-tui %s --help)\n", fs.Name(), err, fs.Name())
		return exitUsage, false
	}
	return 0, true
}

func fail(stderr io.Writer, cmd string, err error) int {
	fmt.Fprintf(stderr, "spg-tui %s: %v\n", cmd, err)
	return exitUsage
}

func runGen(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("gen", "--task mwm|tsp|sort --n N [--count K] [--seed S]")
	task := fs.String("task", "", "task: mwm, tsp or sort (required)")
	n := fs.Int("n", 0, "size of every instance, at least 1 (required)")
	count := fs.Int("count", 1, "number of instances, at least 1")
	seed := fs.Uint64("seed", 1, "dataset seed: instance i is the same for the same (task, n, seed, i)")
	if status, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return status
	}
	if *task == "" {
		return fail(stderr, "gen", errors.New("--task is required (mwm, tsp or sort)"))
	}
	if *count < 1 {
		return fail(stderr, "gen", fmt.Errorf("--count %d: must be at least 1", *count))
	}
	env, err := envs.New(envs.Task(*task), *n)
	if err != nil {
		return fail(stderr, "gen", fmt.Errorf("--task/--n: %v", err))
	}
	f := &envs.File{Task: env.Task(), N: env.N(), Instances: make([]envs.Instance, *count)}
	for i := range f.Instances {
		f.Instances[i] = env.Generate(*seed, i)
	}
	w := bufio.NewWriter(stdout)
	if err := envs.WriteFile(w, f); err != nil {
		return fail(stderr, "gen", err)
	}
	if err := w.Flush(); err != nil {
		return fail(stderr, "gen", err)
	}
	return 0
}

func runSolve(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("solve", "--solver NAME --in FILE|- [--seed S]")
	solver := fs.String("solver", "", "solver name (mwm: hungarian, greedy, random; tsp: exact, nn, farthest, 2opt, christofides, random; sort: exact, random)")
	in := fs.String("in", "", "instance file, or - for standard input (required)")
	seed := fs.Uint64("seed", 1, "seed of the randomised solvers")
	if status, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return status
	}
	if *solver == "" {
		return fail(stderr, "solve", errors.New("--solver is required"))
	}
	if *in == "" {
		return fail(stderr, "solve", errors.New("--in is required (a file, or - for standard input)"))
	}
	r := stdin
	if *in != "-" {
		file, err := os.Open(*in)
		if err != nil {
			return fail(stderr, "solve", err)
		}
		defer file.Close()
		r = file
	}
	f, env, err := envs.ReadFile(r)
	if err != nil {
		return fail(stderr, "solve", err)
	}
	start := time.Now()
	sols, err := envs.SolveAll(env, *solver, f.Instances, *seed)
	if err != nil {
		return fail(stderr, "solve", err)
	}
	elapsed := time.Since(start)
	w := bufio.NewWriter(stdout)
	enc := json.NewEncoder(w)
	objectives := make([]float64, len(sols))
	for i, s := range sols {
		if err := enc.Encode(s); err != nil {
			return fail(stderr, "solve", err)
		}
		objectives[i] = s.Objective
	}
	if err := w.Flush(); err != nil {
		return fail(stderr, "solve", err)
	}
	fmt.Fprintf(stderr, "solve: %d %s-%d instances, solver %s, mean objective %.6g, %s\n",
		len(sols), env.Task(), env.N(), *solver, stats.Mean(objectives), elapsed.Round(time.Microsecond))
	return 0
}
