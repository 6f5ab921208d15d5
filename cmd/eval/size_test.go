package evalcmd_test

import (
	"strings"
	"testing"

	"spg-tui/cmd/cmdutil"
	"spg-tui/internal/clitest"
)

// A model that runs at any N decodes above the training bound run.MaxN (255, the replay
// buffer's), single and sampled: eval of a TSP model at n = 300 was refused with "n 300: must be
// in [2, 255]". Past the task's instance bound a file is still refused in one line, exit 2.
func TestEvalAboveTheTrainingBoundCLI(t *testing.T) {
	run, _ := clitest.TinySuccessorRun(t)
	status, inst, msg := clitest.Run(t, nil, "gen", "--task", "tsp", "--n", "300", "--count", "2")
	if status != 0 {
		t.Fatalf("gen: %s", msg)
	}
	for _, extra := range [][]string{nil, {"--samples", "2"}} {
		status, out, msg := clitest.Run(t, []byte(inst), append([]string{"eval", "--checkpoint", run, "--in", "-"}, extra...)...)
		if status != 0 || strings.Count(out, "\n") != 2 || !strings.Contains(msg, "2 tsp-300 instances") || !strings.Contains(msg, "trained at n = 4") {
			t.Errorf("eval %v at n = 300: exit %d, stdout %d bytes, stderr %q", extra, status, len(out), msg)
		}
	}
	big := `{"task":"tsp","n":4097,"instances":[{"points":[[0,0]]}]}`
	status, out, msg := clitest.Run(t, []byte(big), "eval", "--checkpoint", run, "--in", "-")
	if status != cmdutil.ExitUsage || out != "" || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, "size n = 4097: tsp instances have at most n = 4096") {
		t.Errorf("eval at n = 4097: exit %d, stdout %q, stderr %q; want exit 2 and one line naming the bound", status, out, msg)
	}
}
