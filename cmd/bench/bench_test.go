package benchcmd_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spg-tui/cmd/cmdutil"
	"spg-tui/internal/clitest"
)

func TestBenchPrintsOneJSONLine(t *testing.T) {
	prof := filepath.Join(t.TempDir(), "cpu.prof")
	out, err := clitest.Command("bench", "--task", "tsp", "--n", "5", "--batch", "8", "--steps", "3", "--cpuprofile", prof).Output()
	if err != nil {
		t.Fatal(err)
	}
	// pprof's format is a gzipped protocol buffer
	if b, err := os.ReadFile(prof); err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("--cpuprofile wrote no profile: %v, % x", err, b[:min(len(b), 2)])
	}
	var res map[string]any
	if strings.Count(string(out), "\n") != 1 || json.Unmarshal(out, &res) != nil {
		t.Fatalf("output %q", out)
	}
	for _, k := range []string{"median_ms_per_step", "min_ms", "max_ms", "backend", "task", "n", "batch", "steps", "gflops", "serial_share"} {
		if _, ok := res[k]; !ok {
			t.Errorf("no %q in %s", k, out)
		}
	}
	if res["task"] != "tsp" || res["n"] != 5.0 || res["steps"] != 3.0 || !(res["min_ms"].(float64) > 0) ||
		!(res["min_ms"].(float64) <= res["median_ms_per_step"].(float64)) || !(res["gflops"].(float64) > 0) ||
		!(res["serial_share"].(float64) > 0 && res["serial_share"].(float64) <= 1) {
		t.Errorf("result %s", out)
	}
}

// TestSizesRefusedUpFront runs the sizes that used to crash with a Go runtime trace, spin for
// minutes or fail at step 1: each must be refused with one line naming the bound or the memory,
// exit status 2, and no run directory.
func TestSizesRefusedUpFront(t *testing.T) {
	dir := t.TempDir()
	fresh := filepath.Join(dir, "fresh")
	train := func(extra ...string) []string {
		return append([]string{"train", "--task", "mwm", "--n", "20", "--out", fresh}, extra...)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{train("--val-size", "1000000000"), "val-size 1000000000: must be at most 1000000"},
		{train("--train-size", "1000000000"), "train-size 1000000000: must be at most 10000000"},
		{train("--buffer", "1000000000000", "--buffer-mem", "1048575G"), "buffer 1000000000000: must be at most"},
		{train("--buffer", "2000000000", "--buffer-mem", "1048575G"), "needs about"},
		{train("--sinkhorn-iters", "1000000000"), "sinkhorn-iters 1000000000: must be at most 1000"},
		{train("--tau", "1e-300"), "tau 1e-300: must be in"},
		{train("--epochs", "1e300"), "more than the most a run may have"},
		{train("--batch", "100000000"), "batch 100000000: must be at most 65536"},
		{[]string{"bench", "--task", "mwm", "--n", "10", "--batch", "100000000"}, "batch 100000000: must be at most 65536"},
		// --steps counts the timed steps, not the warm-up ones (it said 1000000000003).
		{[]string{"bench", "--task", "mwm", "--n", "10", "--steps", "1000000000000"}, "steps 1000000000000: must be in [1, 1000000] (the timed steps"},
		// bench has no --buffer-mem: a batch its replay buffer cannot hold names the --batch it can.
		{[]string{"bench", "--task", "mwm", "--n", "200", "--batch", "65536"}, "give --batch 53547 or less"},
		{[]string{"bench", "--task", "mwm", "--n", "10", "--versus-cores", "-1"}, "versus-cores -1: must be in [1, "},
		{[]string{"bench", "--task", "mwm", "--n", "10", "--versus-cores", "100000"}, "versus-cores 100000: must be in [1, "},
	} {
		status, out, msg := clitest.Run(t, nil, tc.args...)
		if status != cmdutil.ExitUsage || out != "" || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, tc.want) || (tc.args[0] == "bench" && strings.Contains(msg, "buffer-mem")) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line containing %q", tc.args[len(tc.args)-2:], status, msg, tc.want)
		}
	}
	if _, err := os.Stat(fresh); err == nil {
		t.Error("a refused size created its run directory")
	}
}
