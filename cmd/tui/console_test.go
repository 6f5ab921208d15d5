package tuicmd_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"spg-tui/internal/clitest"
)

// TestConsoleNeedsTerminal checks that the default command, the console, refuses a pipe with one
// line before it creates a run directory, bare or given the console's flags without the word tui
// (which was an unknown command "--steps").
func TestConsoleNeedsTerminal(t *testing.T) {
	for _, args := range [][]string{nil, {"--steps", "40", "--out", "run"}} {
		dir := t.TempDir()
		cmd := clitest.Command(args...)
		cmd.Dir = dir
		var errOut bytes.Buffer
		cmd.Stdin, cmd.Stderr = strings.NewReader(""), &errOut
		if err := cmd.Run(); err == nil {
			t.Fatalf("%q: the console started without a terminal", args)
		}
		if msg := errOut.String(); strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "spg-tui tui: the console needs a terminal") {
			t.Errorf("%q: want one line saying the console needs a terminal, got %q", args, msg)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("%q: the refused console left %d entries in its working directory", args, len(entries))
		}
	}
}

// TestConsoleHelpShowsItsRecipe: tui --help gives the defaults of the recipe the console trains
// (best: actor LR 0.0001), where it gave the paper's (1e-05) that train starts from.
func TestConsoleHelpShowsItsRecipe(t *testing.T) {
	for cmd, want := range map[string]string{"tui": "(default 0.0001)", "train": "(default 1e-05)"} {
		out, err := clitest.Command(cmd, "--help").Output()
		if err != nil {
			t.Fatal(err)
		}
		_, after, _ := strings.Cut(string(out), "  -actor-lr float\n")
		line, _, _ := strings.Cut(after, "\n")
		if !strings.HasSuffix(line, want) || !strings.Contains(line, "per recipe:") {
			t.Errorf("%s --help: --actor-lr %q, want its recipe's %s and every recipe's", cmd, line, want)
		}
	}
}
