// Command spg-tui is an experiment console for Sinkhorn Policy Gradient: it generates and solves
// permutation problems (sorting, maximum weight matching, Euclidean TSP), trains SPG policies on
// them and evaluates and benchmarks the result from the command line.
// Each subcommand wires its flags to the packages that do the work in its own main_<command>.go;
// this file holds the dispatch and what the subcommands share.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"spg-tui/envs"
	"spg-tui/linalg/backend"
	"spg-tui/run"
	"spg-tui/run/stats"
	"spg-tui/ui"
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
	{"train", "train an SPG policy headless into a run directory (resumable)", runTrain},
	{"eval", "solve every instance of a file with a trained policy (JSON Lines, like solve)", runEval},
	{"bench", "time full training steps and print one JSON line", runBench},
	{"import", "write a run directory holding the authors' published SPG+Matching actor (.npz)", runImport},
	{"tui", "the live console (the default): train and watch, --resume a run, or --view runs read-only (several: compare them)", runTUI},
}

// exitFailed is the exit status of a training run that failed after it started.
const exitFailed = 1

func main() {
	backend.EnsureCoreType()
	if err := backend.Check(); err != nil {
		fmt.Fprintln(os.Stderr, "spg-tui:", err)
		os.Exit(exitUsage)
	}
	os.Exit(dispatch(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// dispatch runs the command named by args[0]; no command, or flags without one (spg-tui --steps
// 40), opens the console.
func dispatch(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
		usage(stdout)
		return 0
	}
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return runTUI(args, stdin, stdout, stderr)
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(args[1:], stdin, stdout, stderr)
		}
	}
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	fmt.Fprintf(stderr, "spg-tui: unknown command %q%s (run spg-tui --help)\n", args[0], didYouMean("", args[0], names))
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "spg-tui: Sinkhorn Policy Gradient experiment console")
	fmt.Fprintln(w, "\nUsage: spg-tui [<command>] [flags]   (spg-tui <command> --help for its flags)")
	// The model is the recipe's, as the console resolves it when it starts.
	cfg, err := run.ResolveFlags(ui.ConsoleConfig())
	if err != nil {
		panic(err) // the console's configuration names a built-in recipe
	}
	fmt.Fprintf(w, "With no command, spg-tui opens the console training %s (recipe %s); flags alone are tui's.\n", run.Title(cfg), cfg.Recipe)
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
	err = flagError(fs, err)
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

// failOutput reports an error met while writing the output: an I/O error (standard output
// that cannot be written) exits 1, a value refused on its way out (a non-finite objective) 2.
func failOutput(stderr io.Writer, cmd string, err error) int {
	fail(stderr, cmd, err)
	return runErrorStatus(err)
}

// readInstances reads and validates the instance file at path, or standard input for "-".
func readInstances(path string, stdin io.Reader) (*envs.File, envs.Env, error) {
	r := stdin
	if path != "-" {
		file, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		defer file.Close()
		r = file
	}
	return envs.ReadFile(r)
}

// writeSolutions writes one JSON line per solution and returns their mean objective.
func writeSolutions(stdout io.Writer, sols []envs.Solution) (float64, error) {
	if err := envs.CheckObjectives(sols); err != nil {
		return 0, err
	}
	w := bufio.NewWriter(stdout)
	enc := json.NewEncoder(w)
	objectives := make([]float64, len(sols))
	for i, s := range sols {
		if err := enc.Encode(s); err != nil {
			return 0, err
		}
		objectives[i] = s.Objective
	}
	return stats.Mean(objectives), w.Flush()
}
