package experimentcmd_test

import (
	"go/build"
	"slices"
	"strings"
	"testing"

	"spg-tui/cmd/cmdutil"
	experimentcmd "spg-tui/cmd/experiment"
	"spg-tui/cmd/internal/flagparse"
	"spg-tui/internal/clitest"
)

// TestExperimentParsesItsCommandLineOnce: a preset's training flags are parsed once, with the
// rest of its command line, and reach every run as typed overrides; they were stored as strings
// and parsed again in a new flag set for every arm and seed.
func TestExperimentParsesItsCommandLineOnce(t *testing.T) {
	var out, errb strings.Builder
	before := flagparse.Count()
	// Without --out the preset stops after planning every run, the overrides set on each.
	status := experimentcmd.Main([]string{"penalty", "--seeds", "3", "--batch", "4", "--hidden", "24", "--no-exploration", "--recipe", "paper", "--buffer-mem", "64M", "--rounding", "log", "--actor-at", "hard"},
		cmdutil.Streams{Out: &out, Err: &errb})
	if status != cmdutil.ExitUsage || !strings.Contains(errb.String(), "--out is required") {
		t.Fatalf("status %d: %s", status, errb.String())
	}
	if n := flagparse.Count() - before; n != 1 {
		t.Errorf("one command line parsed %d times", n)
	}
}

// TestFlagsBelongToTheCommands: the packages below the commands (run's configuration, the
// experiments, the console, the agent) register and parse no flags: a command line is the
// commands' to read, once.
func TestFlagsBelongToTheCommands(t *testing.T) {
	for _, dir := range []string{"run", "experiments", "ui", "agent", "agent/eval", "envs"} {
		pkg, err := build.ImportDir(clitest.Repo(dir), 0)
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(pkg.Imports, "flag") {
			t.Errorf("%s imports package flag", dir)
		}
	}
}
