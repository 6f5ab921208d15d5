//go:build linux

package cmdutil_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"spg-tui/cmd/cmdutil"
	"spg-tui/internal/clitest"
)

// TestFullOutputIsAnIOError: a standard output that cannot be written (a full disk) is an I/O
// error, exit status 1 as the README's exit statuses say, not a bad input (2, as it was).
func TestFullOutputIsAnIOError(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full: %v", err)
	}
	defer full.Close()
	dir := t.TempDir()
	runDir := filepath.Join(dir, "run")
	if out, err := clitest.Command(clitest.TinyTrain(runDir)...).CombinedOutput(); err != nil {
		t.Fatalf("train: %v\n%s", err, out)
	}
	insts := filepath.Join(dir, "sort4.json")
	data, err := clitest.Command("gen", "--task", "sort", "--n", "4", "--count", "3").Output()
	if err != nil || os.WriteFile(insts, data, 0o644) != nil {
		t.Fatalf("gen: %v", err)
	}
	for _, args := range [][]string{
		{"gen", "--task", "mwm", "--n", "5", "--count", "3"},
		{"solve", "--solver", "exact", "--in", insts},
		{"eval", "--checkpoint", runDir, "--in", insts},
		{"bench", "--task", "sort", "--n", "4", "--batch", "4", "--steps", "1"},
	} {
		cmd := clitest.Command(args...)
		var errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = full, &errOut
		err := cmd.Run()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != cmdutil.ExitFailed {
			t.Errorf("%v: want exit status %d, got %v (stderr %q)", args, cmdutil.ExitFailed, err, errOut.String())
		}
		if msg := errOut.String(); !strings.Contains(msg, "no space left on device") {
			t.Errorf("%v: stderr %q does not say why", args, msg)
		}
	}
}
