package evalcmd_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"spg-tui/envs"
	"spg-tui/internal/clitest"
)

// readSolutions parses solve's and eval's JSON Lines.
func readSolutions(t *testing.T, out []byte) []envs.Solution {
	t.Helper()
	var sols []envs.Solution
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var s envs.Solution
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatal(err)
		}
		sols = append(sols, s)
	}
	return sols
}

// TestEvalPrintsOptimalityRatio: eval on an MWM file gives, beside the single decode's mean
// objective, its optimality ratio against the Hungarian optima, the mean of the per-instance
// ratios as validation reports it, and the optima's own mean; it printed the mean objective
// alone.
func TestEvalPrintsOptimalityRatio(t *testing.T) {
	dir := t.TempDir()
	runDir := filepath.Join(dir, "run")
	if out, err := clitest.Command(clitest.TinyTrain(runDir, "--task", "mwm", "--n", "5")...).CombinedOutput(); err != nil {
		t.Fatalf("train: %v: %s", err, out)
	}
	file := filepath.Join(dir, "mwm5.json")
	gen, err := clitest.Command("gen", "--task", "mwm", "--n", "5", "--count", "30", "--seed", "9").Output()
	if err != nil || os.WriteFile(file, gen, 0o644) != nil {
		t.Fatal("writing the instance file")
	}
	opt, err := clitest.Command("solve", "--solver", "hungarian", "--in", file).Output()
	if err != nil {
		t.Fatal(err)
	}
	cmd := clitest.Command("eval", "--checkpoint", runDir, "--in", file)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("eval: %v: %s", err, errOut.String())
	}
	policy, optima := readSolutions(t, out.Bytes()), readSolutions(t, opt)
	sum := 0.0
	for i := range policy {
		sum += policy[i].Objective / optima[i].Objective
	}
	m := regexp.MustCompile(`single decode mean objective [0-9.e+-]+, optimality ratio ([0-9.]+) \(`).FindStringSubmatch(errOut.String())
	if m == nil || strings.Count(errOut.String(), "\n") != 1 || !strings.Contains(errOut.String(), "; the optimum (hungarian): mean objective") {
		t.Fatalf("eval's summary gives no optimality ratio after the mean objective, or the optimum's: %q", errOut.String())
	}
	if got, _ := strconv.ParseFloat(m[1], 64); m[1] != fmt.Sprintf("%.4f", sum/float64(len(policy))) {
		t.Errorf("optimality ratio %v, want the mean of the per-instance ratios %.4f", got, sum/float64(len(policy)))
	}
}
