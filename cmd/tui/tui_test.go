//go:build linux

package tuicmd_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"spg-tui/cmd/cmdutil"
	"spg-tui/cmd/trainflags"
	tuicmd "spg-tui/cmd/tui"
	"spg-tui/internal/clitest"
	"spg-tui/run"
	"spg-tui/ui"
)

// openPTY opens a pseudo-terminal and returns its controlling and terminal ends.
func openPTY(t *testing.T) (ptmx, tty *os.File) {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { ptmx.Close() })
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlocking the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("naming the pseudo-terminal: %v", err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("opening the pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	go io.Copy(io.Discard, ptmx) // the console's output goes nowhere
	return ptmx, tty
}

// TestConsoleRefusesBadInput: the console's bad flags and runs it cannot open are refused as
// train refuses them, with one line and exit status 2, before the screen opens. It used to exit
// 1 for a run it could not reopen, and to ignore training flags on --resume and --view (and
// --out on --resume) without a word.
func TestConsoleRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	runDir := filepath.Join(dir, "run")
	if out, err := clitest.Command(clitest.TinyTrain(runDir)...).CombinedOutput(); err != nil {
		t.Fatalf("train: %v\n%s", err, out)
	}
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := snapshotDir(t, runDir)
	_, tty := openPTY(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--resume", filepath.Join(dir, "none")}, "--resume " + filepath.Join(dir, "none") + ": not a run directory (there is no such directory)"},
		{[]string{"--resume", runDir, "--steps", "3"}, "steps 3: the run is already at step 6"},
		{[]string{"--resume", runDir, "--tau", "0.1"}, "--tau cannot change on --resume"},
		{[]string{"--resume", runDir, "--out", filepath.Join(dir, "other")}, "--out and --resume are exclusive"},
		{[]string{"--view", runDir, "--resume", runDir}, "--resume: --view opens runs read-only"},
		{[]string{"--view", runDir, "--tau", "0.2"}, "--tau: --view opens runs read-only"},
		{[]string{"--task", "mwm", "--n", "5", "--out", file}, "is a file, not a directory"},
		{[]string{"--view", ""}, "--view: the path is empty"},
		{[]string{"--view="}, "--view: the path is empty"},
		{[]string{"--resume", ""}, "--resume: the path is empty"},
		{[]string{"--out", ""}, "--out: the path is empty"},
		{[]string{"--resume", file}, "--resume " + file + ": not a run directory (it is a file)"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			cmd := clitest.Command(append([]string{"tui"}, tc.args...)...)
			cmd.Dir = dir
			var errOut bytes.Buffer
			cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, &errOut
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// A console that opened instead of refusing waits for keys: end it.
			opened := time.AfterFunc(20*time.Second, func() { cmd.Process.Kill() })
			defer opened.Stop()
			err := cmd.Wait()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != cmdutil.ExitUsage {
				t.Errorf("want exit status %d, got %v (stderr %q)", cmdutil.ExitUsage, err, errOut.String())
			}
			if msg := errOut.String(); strings.Count(msg, "\n") != 1 || !strings.Contains(msg, tc.want) {
				t.Errorf("want one line containing %q, got %q", tc.want, msg)
			}
		})
	}
	if after := snapshotDir(t, runDir); after != before {
		t.Errorf("the refused commands changed the run directory:\n%s\nnow\n%s", before, after)
	}
	if _, err := os.Stat(filepath.Join(dir, "other")); err == nil {
		t.Error("a refused --out was created")
	}
	if _, err := os.Stat(filepath.Join(dir, "runs")); err == nil {
		t.Error("a refused command started a new run in runs/")
	}
}

// TestConsoleResumeCountsTheRunsEpochs: tui --resume --epochs E is E epochs of the resumed
// run (train's rule), not of the console's default configuration.
func TestConsoleResumeCountsTheRunsEpochs(t *testing.T) {
	runDir := filepath.Join(t.TempDir(), "run")
	if out, err := clitest.Command(clitest.TinyTrain(runDir)...).CombinedOutput(); err != nil {
		t.Fatalf("train: %v\n%s", err, out)
	}
	opts, status, ok := tuicmd.ConsoleOptions([]string{"--resume", runDir, "--epochs", "3"}, cmdutil.Streams{Out: io.Discard, Err: io.Discard})
	if !ok {
		t.Fatalf("refused with status %d", status)
	}
	cfg, err := run.ReadRunConfig(runDir)
	if err != nil {
		t.Fatal(err)
	}
	if want := 3 * cfg.StepsPerEpoch(); opts.Resume != runDir || opts.Steps != want {
		t.Errorf("resume %q for %d steps, want %q for %d", opts.Resume, opts.Steps, runDir, want)
	}
}

// snapshotDir lists the files under dir with their sizes and modification times, but for the
// lock, which a refused resume takes (and so rewrites) as train --resume does.
func snapshotDir(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.Name() == run.LockFile {
			return err
		}
		fmt.Fprintf(&b, "%s %d %v\n", p, fi.Size(), fi.ModTime().UnixNano())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestConsoleOptionsCanStartRuns: the ways the console trains (a new run, a resume) keep the
// trainer and the scorer its ablation view launches runs with; a view, which trains nothing,
// has neither.
func TestConsoleOptionsCanStartRuns(t *testing.T) {
	dir := t.TempDir()
	runDir := filepath.Join(dir, "run")
	if out, err := clitest.Command(clitest.TinyTrain(runDir)...).CombinedOutput(); err != nil {
		t.Fatalf("train: %v\n%s", err, out)
	}
	for _, c := range []struct {
		args   []string
		trains bool
	}{
		{[]string{"--task", "mwm", "--n", "5", "--out", filepath.Join(dir, "new")}, true},
		{[]string{"--resume", runDir, "--steps", "20"}, true},
		{[]string{"--view", runDir}, false},
	} {
		opts, status, ok := tuicmd.ConsoleOptions(c.args, cmdutil.Streams{Out: io.Discard, Err: io.Discard})
		if !ok {
			t.Errorf("%v: refused with status %d", c.args, status)
			continue
		}
		if got := opts.Start != nil && opts.Score != nil; got != c.trains || (opts.Start == nil) != (opts.Score == nil) {
			t.Errorf("%v: Start %v, Score %v; want both %v", c.args, opts.Start != nil, opts.Score != nil, c.trains)
		}
	}
}

// TestConsoleSwitchResolvesAsTui checks that trainflags.ResolveFlags over ui.ConsoleConfig, by which
// the console's task switch resolves a new task or recipe, gives the run tui's flags start.
func TestConsoleSwitchResolvesAsTui(t *testing.T) {
	for _, args := range [][]string{
		{"--task", "tsp", "--n", "20", "--recipe", "best", "--seed", "3"},
		{"--task", "gm", "--n", "20", "--recipe", "paper", "--seed", "1", "--data", "regular:d=4"},
		{},
	} {
		opts, status, ok := tuicmd.ConsoleOptions(args, cmdutil.Streams{Out: io.Discard, Err: io.Discard})
		if !ok {
			t.Fatalf("%v: refused with status %d", args, status)
		}
		want, err := trainflags.ResolveFlags(ui.ConsoleConfig(), args...)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(opts.Config, want) {
			t.Errorf("tui %v starts\n%+v\nthe switch resolves\n%+v", args, opts.Config, want)
		}
	}
}
