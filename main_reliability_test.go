package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI runs spg-tui with args and returns its exit status, stdout and stderr.
func runCLI(t *testing.T, stdin []byte, args ...string) (int, string, string) {
	t.Helper()
	cmd := spgTUI(args...)
	var out, errOut bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(stdin), &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0, out.String(), errOut.String()
	case errors.As(err, &exit):
		return exit.ExitCode(), out.String(), errOut.String()
	}
	t.Fatalf("%v: %v", args, err)
	return 0, "", ""
}

// TestSizesRefusedUpFront runs the sizes that used to crash with a Go runtime trace, spin for
// minutes or fail at step 1: each must be refused with one line naming the bound or the memory,
// exit status 2, and no run directory.
func TestSizesRefusedUpFront(t *testing.T) {
	dir := t.TempDir()
	fresh := filepath.Join(dir, "fresh")
	train := func(extra ...string) []string {
		return append([]string{"train", "--task", "mwm", "--n", "20", "--out", fresh}, extra...)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{train("--val-size", "1000000000"), "val-size 1000000000: must be at most 1000000"},
		{train("--train-size", "1000000000"), "train-size 1000000000: must be at most 100000000"},
		{train("--buffer", "1000000000000", "--buffer-mem", "1048575G"), "buffer 1000000000000: must be at most"},
		{train("--buffer", "2000000000", "--buffer-mem", "1048575G"), "needs about"},
		{train("--sinkhorn-iters", "1000000000"), "sinkhorn-iters 1000000000: must be at most 1000"},
		{train("--tau", "1e-300"), "tau 1e-300: must be in"},
		{train("--epochs", "1e300"), "more than the most a run may have"},
		{train("--batch", "100000000"), "batch 100000000: must be at most 65536"},
		{[]string{"bench", "--task", "mwm", "--n", "10", "--batch", "100000000"}, "batch 100000000: must be at most 65536"},
	} {
		status, out, msg := runCLI(t, nil, tc.args...)
		if status != exitUsage || out != "" || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line containing %q", tc.args[len(tc.args)-2:], status, msg, tc.want)
		}
	}
	if _, err := os.Stat(fresh); err == nil {
		t.Error("a refused size created its run directory")
	}
}

// TestSolveRefusesWhatCannotFit: the Hungarian solver on one MWM-100000 instance needs two
// 80 GB matrices; solve must say so in one line (it died in the runtime).
func TestSolveRefusesWhatCannotFit(t *testing.T) {
	in := filepath.Join(t.TempDir(), "mwm100000.json")
	status, out, msg := runCLI(t, nil, "gen", "--task", "mwm", "--n", "100000", "--count", "1")
	if status != 0 || os.WriteFile(in, []byte(out), 0o644) != nil {
		t.Fatalf("gen: %d %s", status, msg)
	}
	status, out, msg = runCLI(t, nil, "solve", "--solver", "hungarian", "--in", in)
	if status != exitUsage || out != "" || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "needs about") {
		t.Errorf("exit %d, stderr %q", status, msg)
	}
}
