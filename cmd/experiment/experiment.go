// Package experimentcmd is spg-tui experiment: the paper's tables and figures reproduced across
// seeds (list, a preset, merge).
package experimentcmd

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"spg-tui/cmd/cmdutil"
	"spg-tui/cmd/internal/flagparse"
	"spg-tui/experiments"
)

// Main dispatches `experiment list`, `experiment merge` and `experiment PRESET`.
func Main(args []string, s cmdutil.Streams) int {
	stdout, stderr := s.Out, s.Err
	if len(args) == 0 {
		return cmdutil.Fail(stderr, "experiment", fmt.Errorf("want list, merge or a preset (%s)", strings.Join(experiments.PresetNames(), ", ")))
	}
	if args[0] == "-h" || args[0] == "--help" {
		experimentUsage(stdout)
		return 0
	}
	switch args[0] {
	case "list":
		return experimentList(args[1:], s)
	case "merge":
		return experimentMerge(args[1:], s)
	}
	return presetMain(args[0], args[1:], s)
}

func experimentUsage(w io.Writer) {
	fmt.Fprintln(w, "Usage: spg-tui experiment list")
	fmt.Fprintln(w, "       spg-tui experiment PRESET --out DIR [--seeds 10] [--scale 1] [--jobs J] [--runs DIR] [--shard i/n] [--model M,...] [--samples K] [--gumbel-scale S] [--gumbel-noise relative|absolute] [--augment] [training flags]")
	fmt.Fprintln(w, "       spg-tui experiment merge --out DIR [--partial] SHARD_DIR...")
	fmt.Fprintf(w, "Presets: %s\n", strings.Join(experiments.PresetNames(), ", "))
}

func experimentList(args []string, s cmdutil.Streams) int {
	if status, ok := cmdutil.Parse(cmdutil.NewFlags("experiment list", "(the presets, what each reproduces and its cost)"), args, s); !ok {
		return status
	}
	stdout := s.Out
	for _, p := range experiments.Presets() {
		fmt.Fprintf(stdout, "%-12s %s\n", p.Name, p.Reproduces)
		fmt.Fprintf(stdout, "%-12s models %s; %d arms x 10 seeds, %s training steps at scale 1 (batch 128)\n",
			"", strings.Join(p.Models(), ", "), len(p.Arms), fmtThousands(p.CostSteps(10)))
	}
	return 0
}

func fmtThousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func experimentMerge(args []string, s cmdutil.Streams) int {
	stdout, stderr := s.Out, s.Err
	fs := cmdutil.NewFlags("experiment merge", "--out DIR [--partial] SHARD_DIR...")
	out := fs.String("out", "", "the merged experiment directory: new, empty, or an earlier merge of the same plan, which is replaced (required)")
	partial := fs.Bool("partial", false, "merge shards that lack some of the plan's runs; the report says it is partial")
	if err := flagparse.Parse(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stdout)
			fs.Usage()
			return 0
		}
		return cmdutil.Fail(stderr, "experiment merge", err)
	}
	m, err := experiments.Merge(*out, fs.Args(), *partial)
	if err != nil {
		return cmdutil.FailRun(stderr, "experiment merge", err)
	}
	part := ""
	if m.Runs < m.Total {
		part = " (partial)"
	}
	fmt.Fprintf(stderr, "experiment merge: %d of the plan's %d runs%s into %s (%s)\n", m.Runs, m.Total, part, *out, experiments.ReportFile)
	return 0
}
