package evalcmd_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"spg-tui/cmd/cmdutil"
	"spg-tui/internal/clitest"
)

// eval --polish 2swap writes the polished matchings, each at least as good as the policy's own,
// and reports the policy's mean apart from the policy + polish mean; other tasks and other
// searches are refused in one line.
func TestEvalPolishCLI(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	args := []string{"train", "--task", "gm", "--n", "8", "--recipe", "best", "--steps", "2", "--batch", "4",
		"--train-size", "16", "--val-size", "4", "--test-size", "4", "--buffer", "64", "--eval-every", "2", "--seed", "3", "--out", run}
	if out, err := clitest.Command(args...).CombinedOutput(); err != nil {
		t.Fatalf("train: %v: %s", err, out)
	}
	inst := filepath.Join(dir, "gm8.json")
	gen, err := clitest.Command("gen", "--task", "gm", "--n", "8", "--count", "20", "--seed", "5").Output()
	if err != nil || os.WriteFile(inst, gen, 0o644) != nil {
		t.Fatal("writing the instance file")
	}
	decode := func(extra ...string) ([]float64, string) {
		t.Helper()
		cmd := clitest.Command(append([]string{"eval", "--checkpoint", run, "--in", inst}, extra...)...)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Fatalf("eval %v: %v: %s", extra, err, errOut.String())
		}
		var objs []float64
		for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			var s struct{ Objective float64 }
			if err := json.Unmarshal([]byte(line), &s); err != nil {
				t.Fatalf("eval %v: line %q: %v", extra, line, err)
			}
			objs = append(objs, s.Objective)
		}
		return objs, errOut.String()
	}
	own, _ := decode()
	polished, summary := decode("--polish", "2swap")
	if len(own) != 20 || len(polished) != 20 {
		t.Fatalf("%d and %d lines, want 20", len(own), len(polished))
	}
	var ownSum, polishedSum float64
	for i := range own {
		if polished[i] < own[i] {
			t.Errorf("instance %d: polished %v below the policy's %v", i, polished[i], own[i])
		}
		ownSum += own[i]
		polishedSum += polished[i]
	}
	if polishedSum <= ownSum {
		t.Errorf("the polish improved no instance of 20 (%v)", polishedSum/20)
	}
	m := regexp.MustCompile(`single decode mean objective ([0-9.]+)[, ].*; policy \+ 2swap polish mean objective ([0-9.]+)[, ]`).FindStringSubmatch(summary)
	if m == nil {
		t.Fatalf("summary %q lacks the policy's and the polished means", summary)
	}
	for i, want := range []float64{ownSum / 20, polishedSum / 20} {
		if got, _ := strconv.ParseFloat(m[i+1], 64); got < want-1e-5 || got > want+1e-5 {
			t.Errorf("summary mean %d: %v, want %v: %q", i, got, want, summary)
		}
	}

	sortRun := filepath.Join(dir, "sort")
	if out, err := clitest.Command(clitest.TinyTrain(sortRun)...).CombinedOutput(); err != nil {
		t.Fatalf("train: %v: %s", err, out)
	}
	sortInst := filepath.Join(dir, "sort4.json")
	gen, err = clitest.Command("gen", "--task", "sort", "--n", "4", "--count", "2").Output()
	if err != nil || os.WriteFile(sortInst, gen, 0o644) != nil {
		t.Fatal("writing the instance file")
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--checkpoint", run, "--in", inst, "--polish", "faq"}, `--polish "faq": must be one of 2swap`},
		{[]string{"--checkpoint", sortRun, "--in", sortInst, "--polish", "2swap"}, "--polish 2swap: sort's solutions take no polish"},
		{[]string{"--checkpoint", run, "--in", inst, "--polish", "2swap", "--critic-max"}, "it takes no --polish"},
	} {
		msg, err := clitest.Command(append([]string{"eval"}, c.args...)...).CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != cmdutil.ExitUsage || !strings.Contains(string(msg), c.want) || strings.Count(string(msg), "\n") != 1 {
			t.Errorf("eval %v: %v, %q; want one line with %q", c.args, err, msg, c.want)
		}
	}
}
