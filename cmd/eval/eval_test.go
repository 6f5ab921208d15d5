package evalcmd_test

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

// A model that runs at any N solves a file of another N from the command line, and says at
// which N it was trained.
func TestEvalAtAnotherSizeCLI(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	if out, err := clitest.Command(clitest.TinyTrain(run, "--model", "spg-pairwise")...).CombinedOutput(); err != nil {
		t.Fatalf("train: %v: %s", err, out)
	}
	inst := filepath.Join(dir, "sort7.json")
	gen, err := clitest.Command("gen", "--task", "sort", "--n", "7", "--count", "3").Output()
	if err != nil || os.WriteFile(inst, gen, 0o644) != nil {
		t.Fatal("writing the instance file")
	}
	cmd := clitest.Command("eval", "--checkpoint", run, "--in", inst)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("eval: %v: %s", err, errOut.String())
	}
	if strings.Count(out.String(), "\n") != 3 || !strings.Contains(errOut.String(), "3 sort-7 instances") || !strings.Contains(errOut.String(), "trained at n = 4") {
		t.Errorf("eval at n = 7: stdout %q, stderr %q", out.String(), errOut.String())
	}

	// The critic's own maximum decodes the same file; it takes no sampling.
	cmd = clitest.Command("eval", "--checkpoint", run, "--in", inst, "--critic-max")
	out.Reset()
	errOut.Reset()
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil || strings.Count(out.String(), "\n") != 3 || !strings.Contains(errOut.String(), "the critic's maximum") || !strings.Contains(errOut.String(), "(step 6, trained at n = 4)") {
		t.Errorf("eval --critic-max: %v: stdout %q, stderr %q", err, out.String(), errOut.String())
	}
	msg, err := clitest.Command("eval", "--checkpoint", run, "--in", inst, "--critic-max", "--samples", "4").CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != cmdutil.ExitUsage || !strings.Contains(string(msg), "--critic-max decodes by the critic alone") {
		t.Errorf("eval --critic-max --samples 4: %v, %q", err, msg)
	}
}

// eval samples each model at its own default noise scale unless --gumbel-scale is given:
// SPG+Successor at 96, measured for its off-diagonal spread; it solves a file of another N too.
func TestEvalSuccessorNoiseCLI(t *testing.T) {
	run, inst := clitest.TinySuccessorRun(t)
	for _, c := range []struct {
		extra []string
		want  string
	}{
		{nil, "gumbel-scale 96 relative"},
		{[]string{"--gumbel-scale", "12"}, "gumbel-scale 12 relative"},
		{[]string{"--gumbel-noise", "absolute"}, "gumbel-scale 12 absolute"},
	} {
		cmd := clitest.Command(append([]string{"eval", "--checkpoint", run, "--in", inst, "--samples", "4"}, c.extra...)...)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil || strings.Count(out.String(), "\n") != 3 || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("eval %v: %v: stdout %q, stderr %q; want %q", c.extra, err, out.String(), errOut.String(), c.want)
		}
	}
}
