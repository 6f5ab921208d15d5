package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"spg-tui/cmd/cmdutil"
	"spg-tui/experiments"
	"spg-tui/internal/clitest"
)

// TestMain lets this test binary double as spg-tui, the one the Slurm scripts run.
func TestMain(m *testing.M) { clitest.Main(m) }

// sbatchTask runs a tools/slurm script as Slurm runs a batch job, with env (SLURM_* variables)
// and this test binary as the spg-tui on PATH, and returns its exit status and output.
func sbatchTask(t *testing.T, script string, env []string, args ...string) (int, string) {
	t.Helper()
	bin := t.TempDir()
	wrapper := "#!/bin/sh\nSPG_TUI_AS_MAIN=1 exec '" + os.Args[0] + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "spg-tui"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join("tools", "slurm", script), args...)
	cmd.Env = append(append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH")), env...)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("%s: %v", script, err)
	}
	return cmd.ProcessState.ExitCode(), string(out)
}

// arrayTask is the environment of task id of a job array of count tasks numbered min..max.
func arrayTask(id, min, max, count, cpus string) []string {
	return []string{"SLURM_ARRAY_TASK_ID=" + id, "SLURM_ARRAY_TASK_MIN=" + min, "SLURM_ARRAY_TASK_MAX=" + max,
		"SLURM_ARRAY_TASK_COUNT=" + count, "SLURM_CPUS_PER_TASK=" + cpus}
}

// The job array's task i of n is shard i/n of the experiment into DIR/shard-i, with --jobs its
// CPUs; the merge job merges DIR/shard-*. (Slurm itself runs them in tools/slurm-check.sh.)
func TestSlurmScripts(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "exp")
	// The seventh of 7 shards of penalty's 2 runs holds none: made without training.
	args := append([]string{dir, "penalty"}, clitest.TinyBudget()...)
	status, out := sbatchTask(t, "experiment.sbatch", arrayTask("6", "0", "6", "7", "3"), append(args, "--out", filepath.Join(tmp, "elsewhere"))...)
	if status != 0 || !strings.Contains(out, "0 runs (shard 6/7: 0 of the plan's 2 runs), 0 steps, 3 at a time, into "+dir+"/shard-6") {
		t.Fatalf("task 6 of 0-6: exit %d:\n%s", status, out)
	}
	m, err := experiments.ReadManifest(filepath.Join(dir, "shard-6"))
	if err != nil || m.Shard != "6/7" {
		t.Errorf("shard-6: %+v, %v", m, err)
	}
	if status, out = sbatchTask(t, "experiment.sbatch", arrayTask("6", "0", "6", "7", "3"), append(args, "--jobs", "1")...); status != 0 || !strings.Contains(out, "1 at a time") {
		t.Errorf("--jobs 1 among the flags: exit %d:\n%s", status, out)
	}
	// The merge finds the shards the array wrote, and names those missing.
	status, out = sbatchTask(t, "merge.sbatch", nil, dir)
	if status != cmdutil.ExitUsage || !strings.Contains(out, "the shards hold 0 of the plan's 2 runs (shards 0/7, 1/7 are missing)") {
		t.Errorf("merge of shard 6/7 alone: exit %d:\n%s", status, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "report")); err == nil {
		t.Error("a refused merge wrote DIR/report")
	}

	for _, tc := range []struct {
		script string
		env    []string
		args   []string
		want   string
	}{
		{"experiment.sbatch", arrayTask("1", "1", "6", "6", "2"), args, "--array must be 0-N, every index once (got 6 tasks from 1 to 6)"},
		{"experiment.sbatch", arrayTask("0", "0", "6", "4", "2"), args, "--array must be 0-N, every index once (got 4 tasks from 0 to 6)"},
		{"experiment.sbatch", nil, args, "not a task of a job array"},
		{"experiment.sbatch", arrayTask("0", "0", "6", "7", "2"), []string{dir}, "want DIR PRESET"},
		{"merge.sbatch", nil, nil, "want DIR"},
	} {
		env := tc.env
		if env == nil {
			env = []string{"SLURM_ARRAY_TASK_ID="} // not inherited from a job running this test
		}
		status, out := sbatchTask(t, tc.script, env, tc.args...)
		if status != cmdutil.ExitUsage || strings.Count(out, "\n") != 1 || !strings.Contains(out, tc.want) {
			t.Errorf("%s %v %v: exit %d, want %d and one line containing %q:\n%s", tc.script, tc.env, tc.args, status, cmdutil.ExitUsage, tc.want, out)
		}
	}
}
