package main

import (
	"bytes"
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// eval --tour-decode and --tour-repair: each decode and repair names itself in the summary and
// writes a tour per instance; a bad name or weight, a weight with another decode and
// patch-scores without one are refused in one line with the usage status.
func TestEvalTourDecodeCLI(t *testing.T) {
	run, inst := tinySuccessorRun(t)
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
		cmd := spgTUI(append([]string{"eval", "--checkpoint", run, "--in", inst}, c.extra...)...)
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
	} {
		msg, err := spgTUI(append([]string{"eval", "--checkpoint", run, "--in", inst}, c.extra...)...).CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != exitUsage || strings.Count(string(msg), "\n") != 1 || !strings.Contains(string(msg), c.want) {
			t.Errorf("eval %v: %v, %q; want one line containing %q", c.extra, err, msg, c.want)
		}
	}
}
