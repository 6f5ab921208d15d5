// Command spg-tui is an experiment console for Sinkhorn Policy Gradient: it generates and solves
// permutation problems (sorting, maximum weight matching, Euclidean TSP, graph matching), trains
// SPG policies on them and evaluates and benchmarks the result from the command line. The
// commands are in cmd/ (cmd/root dispatches them); main checks the machine and hands over.
package main

import (
	"fmt"
	"os"

	"spg-tui/cmd/cmdutil"
	"spg-tui/cmd/root"
	"spg-tui/linalg/backend"
)

func main() {
	backend.EnsureCoreType()
	if err := backend.Check(); err != nil {
		fmt.Fprintln(os.Stderr, "spg-tui:", err)
		os.Exit(cmdutil.ExitUsage)
	}
	os.Exit(root.Dispatch(os.Args[1:], cmdutil.Streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}))
}
