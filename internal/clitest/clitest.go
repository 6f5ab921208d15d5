// Package clitest runs spg-tui's command line in the tests of the command packages: a test
// binary whose TestMain is Main doubles as spg-tui (with SPG_TUI_AS_MAIN=1 it runs the command
// line instead of the tests), so that the tests drive the real commands through real pipes,
// exit statuses and signals.
package clitest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"spg-tui/cmd/cmdutil"
	"spg-tui/cmd/root"
	"spg-tui/linalg/backend"
	"spg-tui/linalg/cuda/cudastub"
)

// Main is a command package's TestMain: as spg-tui it runs the command line and exits; else it
// runs the tests with the shared cache of exact references in a directory of this test binary's
// own, for its commands and the commands it runs.
func Main(m *testing.M) {
	if os.Getenv("SPG_TUI_AS_MAIN") == "1" {
		cudastub.FromEnv()
		backend.EnsureCoreType()
		if err := backend.Check(); err != nil {
			fmt.Fprintln(os.Stderr, "spg-tui:", err)
			os.Exit(cmdutil.ExitUsage)
		}
		os.Exit(root.Dispatch(os.Args[1:], cmdutil.Streams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}))
	}
	cache, err := os.MkdirTemp("", "spg-tui-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", cache)
	code := m.Run()
	os.RemoveAll(cache)
	cudastub.Remove()
	os.Exit(code)
}

// Command is spg-tui with args: this test binary as spg-tui.
func Command(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "SPG_TUI_AS_MAIN=1")
	return cmd
}

// Run runs spg-tui with args, stdin on its standard input, and returns its exit status, stdout
// and stderr.
func Run(t *testing.T, stdin []byte, args ...string) (int, string, string) {
	t.Helper()
	cmd := Command(args...)
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

// Finish reads the rest of a started command's stderr from sc into log and returns its exit
// status.
func Finish(t *testing.T, cmd *exec.Cmd, sc *bufio.Scanner, log *strings.Builder) int {
	t.Helper()
	for sc.Scan() {
		log.WriteString(sc.Text() + "\n")
	}
	err := cmd.Wait()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0
}

// TinyTrain is a training run of the real learner into dir that takes about a second.
func TinyTrain(dir string, extra ...string) []string {
	return append([]string{"train", "--task", "sort", "--n", "4", "--steps", "6", "--batch", "4",
		"--train-size", "16", "--val-size", "8", "--test-size", "8", "--buffer", "64",
		"--eval-every", "3", "--log-every", "2", "--seed", "3", "--out", dir}, extra...)
}

// TinySuccessorRun trains a tiny spg-successor run on tsp (n = 4) and writes a file of three
// TSP-6 instances beside it, for the eval tests of the successor's decodes.
func TinySuccessorRun(t *testing.T) (run, inst string) {
	t.Helper()
	dir := t.TempDir()
	run = filepath.Join(dir, "run")
	args := append(TinyTrain(run, "--model", "spg-successor"), "--task", "tsp")
	if out, err := Command(args...).CombinedOutput(); err != nil {
		t.Fatalf("train: %v: %s", err, out)
	}
	inst = filepath.Join(dir, "tsp6.json")
	gen, err := Command("gen", "--task", "tsp", "--n", "6", "--count", "3").Output()
	if err != nil || os.WriteFile(inst, gen, 0o644) != nil {
		t.Fatal("writing the instance file")
	}
	return run, inst
}

// TinyExperiment runs a preset through the command line with the real engine at a budget of
// moments (TinyBudget), one run at a time.
func TinyExperiment(preset, out string, extra ...string) []string {
	args := append([]string{"experiment", preset, "--jobs", "1"}, TinyBudget()...)
	return append(append(args, "--out", out), extra...)
}

// TinyBudget are experiment flags for a budget of moments: one seed, batches of 4 over a
// training set of 16 (an epoch of 4 steps, 80 per run), small evaluation sets.
func TinyBudget() []string {
	return []string{"--scale", "0.001", "--seeds", "1", "--batch", "4", "--train-size", "16",
		"--buffer", "64", "--val-size", "8", "--test-size", "8", "--log-every", "10"}
}

// Repo is path, given from the repository's root, from a command package's directory (where
// its tests run).
func Repo(path ...string) string {
	return filepath.Join(append([]string{"..", ".."}, path...)...)
}
