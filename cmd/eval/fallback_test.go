package evalcmd_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spg-tui/internal/clitest"
	"spg-tui/run"
)

// TestEvalFallsBackToLastCLI: eval of a run directory without a best checkpoint (a run stopped
// before its first validation) used to fail with "open …/checkpoints/best: no such file or
// directory"; it evaluates the last checkpoint and says so on stderr.
func TestEvalFallsBackToLastCLI(t *testing.T) {
	dir := t.TempDir()
	runDir := filepath.Join(dir, "run")
	if out, err := clitest.Command(clitest.TinyTrain(runDir)...).CombinedOutput(); err != nil {
		t.Fatalf("train: %v: %s", err, out)
	}
	// What a stop before the first validation leaves: the last checkpoint only.
	if err := os.Remove(filepath.Join(runDir, run.BestCheckpoint)); err != nil {
		t.Fatal(err)
	}
	inst := filepath.Join(dir, "sort4.json")
	gen, err := clitest.Command("gen", "--task", "sort", "--n", "4", "--count", "3").Output()
	if err != nil || os.WriteFile(inst, gen, 0o644) != nil {
		t.Fatal("writing the instance file")
	}
	cmd := clitest.Command("eval", "--checkpoint", runDir, "--in", inst)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("eval: %v: %s", err, errOut.String())
	}
	want := "no " + run.BestCheckpoint + " (the run stopped before its first validation): using " + run.LastCheckpoint + ", step 6"
	if strings.Count(out.String(), "\n") != 3 || !strings.Contains(errOut.String(), want) {
		t.Errorf("stdout %q, stderr %q, want a line with %q", out.String(), errOut.String(), want)
	}
}
