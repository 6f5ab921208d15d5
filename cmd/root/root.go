// Package root is spg-tui's command line: the table of commands, the dispatch to them and the
// usage that lists them. Each command lives in a package of its own under cmd/, with its
// options, the flags that fill them and the function that runs them; what they share is in
// cmd/cmdutil.
package root

import (
	"fmt"
	"io"
	"strings"

	benchcmd "spg-tui/cmd/bench"
	"spg-tui/cmd/cmdutil"
	evalcmd "spg-tui/cmd/eval"
	experimentcmd "spg-tui/cmd/experiment"
	gencmd "spg-tui/cmd/gen"
	importcmd "spg-tui/cmd/import"
	solvecmd "spg-tui/cmd/solve"
	traincmd "spg-tui/cmd/train"
	tuicmd "spg-tui/cmd/tui"
	"spg-tui/run"
	"spg-tui/ui"
)

// command is one subcommand of spg-tui: main parses args and runs it, returning the exit status.
type command struct {
	name    string
	summary string
	main    func(args []string, s cmdutil.Streams) int
}

var commands = []command{
	{"gen", "write a seeded instance file to stdout", gencmd.Main},
	{"solve", "solve every instance of a file with an exact or classical solver (JSON Lines)", solvecmd.Main},
	{"train", "train an SPG policy headless into a run directory (resumable)", traincmd.Main},
	{"eval", "solve every instance of a file with a trained policy (JSON Lines, like solve)", evalcmd.Main},
	{"bench", "time full training steps and print one JSON line", benchcmd.Main},
	{"import", "write a run directory holding the authors' published SPG+Matching actor (.npz)", importcmd.Main},
	{"tui", "the live console (the default): train and watch, --resume a run, or --view runs read-only (several: compare them)", tuicmd.Main},
	{"experiment", "reproduce the paper's tables and figures across seeds (list, a preset, merge)", experimentcmd.Main},
}

// Dispatch runs the command named by args[0] and returns its exit status; no command, or flags
// without one (spg-tui --steps 40), opens the console.
func Dispatch(args []string, s cmdutil.Streams) int {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
		usage(s.Out)
		return 0
	}
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return tuicmd.Main(args, s)
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.main(args[1:], s)
		}
	}
	fmt.Fprintf(s.Err, "spg-tui: unknown command %q%s (run spg-tui --help)\n", args[0], cmdutil.DidYouMean("", args[0], Names()))
	return cmdutil.ExitUsage
}

// Names lists the commands, in the order --help lists them.
func Names() []string {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	return names
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "spg-tui: Sinkhorn Policy Gradient experiment console")
	fmt.Fprintln(w, "\nUsage: spg-tui [<command>] [flags]   (spg-tui <command> --help for its flags)")
	// The model is the recipe's, as the console resolves it when it starts.
	base := ui.ConsoleConfig()
	cfg, err := run.Choose(base, run.Choices{Recipe: base.Recipe})
	if err != nil {
		panic(err) // the console's configuration names a built-in recipe
	}
	fmt.Fprintf(w, "With no command, spg-tui opens the console training %s (recipe %s); flags alone are tui's.\n", run.Title(cfg), cfg.Recipe)
	fmt.Fprintln(w, "\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
}
