package evalcmd_test

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"spg-tui/cmd/cmdutil"
	"spg-tui/internal/clitest"
)

// eval --tour-decode and --tour-repair: each decode and repair names itself in the summary and
// writes a tour per instance; a bad or empty name (--tour-repair "" was taken as none), a bad
// weight, a weight with another decode and patch-scores without one are refused in one line with
// the usage status.
func TestEvalTourDecodeCLI(t *testing.T) {
	run, inst := clitest.TinySuccessorRun(t)
	for _, c := range []struct {
		extra []string
		want  string
	}{
		{[]string{"--tour-decode", "greedy"}, "tour-decode greedy)"},
		{[]string{"--tour-decode", "greedy", "--samples", "4", "--augment"}, "tour-decode greedy)"},
		{[]string{"--tour-decode", "patch-scores", "--patch-weight", "0.5"}, "tour-decode patch-scores at weight 0.5)"},
		{[]string{"--tour-decode", "patch"}, "trained at n = 4): single decode"},
		{[]string{"--tour-repair", "2opt-oropt"}, "single decode + 2opt-oropt repair mean objective"},
		{[]string{"--tour-repair", "2opt-scores", "--samples", "4", "--augment"}, "seed 1) + 2opt-scores repair mean objective"},
		{[]string{"--tour-repair", "none"}, "trained at n = 4): single decode mean objective"},
	} {
		cmd := clitest.Command(append([]string{"eval", "--checkpoint", run, "--in", inst}, c.extra...)...)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil || strings.Count(out.String(), "\n") != 3 || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("eval %v: %v: stdout %q, stderr %q; want %q", c.extra, err, out.String(), errOut.String(), c.want)
		}
	}
	for _, c := range []struct {
		extra []string
		want  string
	}{
		{[]string{"--tour-decode", "2opt"}, `tour-decode "2opt": must be patch, patch-scores or greedy`},
		{[]string{"--tour-decode", "patch-scores", "--patch-weight", "-1"}, "patch-weight -1: must be in [0, 1e+06]"},
		{[]string{"--patch-weight", "1"}, "patch-weight 1: only tour-decode patch-scores weighs the scores"},
		{[]string{"--tour-decode", "patch-scores"}, "--tour-decode patch-scores needs --patch-weight W"},
		{[]string{"--tour-repair", "3opt"}, `tour-repair "3opt": must be none, 2opt, 2opt-scores or 2opt-oropt`},
		// Given empty, either is refused rather than taken for the default.
		{[]string{"--tour-repair", ""}, `tour-repair "": must be none, 2opt, 2opt-scores or 2opt-oropt`},
		{[]string{"--tour-decode="}, `tour-decode "": must be patch, patch-scores or greedy`},
	} {
		msg, err := clitest.Command(append([]string{"eval", "--checkpoint", run, "--in", inst}, c.extra...)...).CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != cmdutil.ExitUsage || strings.Count(string(msg), "\n") != 1 || !strings.Contains(string(msg), c.want) {
			t.Errorf("eval %v: %v, %q; want one line containing %q", c.extra, err, msg, c.want)
		}
	}
}

// A model without a successor action refuses --tour-decode and --tour-repair in one line, exit 2,
// even given as the default they name (patch, none), as the documentation says; without them it
// decodes. An explicit --tour-decode patch used to be accepted.
func TestEvalTourFlagsNeedASuccessorAction(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	if out, err := clitest.Command(clitest.TinyTrain(run, "--task", "tsp")...).CombinedOutput(); err != nil {
		t.Fatalf("train: %v: %s", err, out)
	}
	status, inst, msg := clitest.Run(t, nil, "gen", "--task", "tsp", "--n", "4", "--count", "2")
	if status != 0 {
		t.Fatalf("gen: %s", msg)
	}
	for _, c := range []struct {
		extra []string
		want  string
	}{
		{[]string{"--tour-decode", "patch"}, "tour-decode patch: SPG+Sequential has no successor action (only spg-successor, spg-successor-local and spg-successor-graph do)"},
		{[]string{"--tour-repair", "none"}, "tour-repair none: SPG+Sequential has no successor action"},
		{[]string{"--critic-max", "--tour-decode", "patch"}, "takes no --samples, --augment, --rounding, --tour-decode or --tour-repair"},
	} {
		status, out, msg := clitest.Run(t, []byte(inst), append([]string{"eval", "--checkpoint", run, "--in", "-"}, c.extra...)...)
		if status != cmdutil.ExitUsage || out != "" || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, c.want) {
			t.Errorf("eval %v: exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", c.extra, status, out, msg, c.want)
		}
	}
	if status, out, msg := clitest.Run(t, []byte(inst), "eval", "--checkpoint", run, "--in", "-"); status != 0 || strings.Count(out, "\n") != 2 {
		t.Errorf("eval without tour flags: exit %d, stdout %q, stderr %q", status, out, msg)
	}
}
