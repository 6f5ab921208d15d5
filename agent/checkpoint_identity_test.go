package agent

import (
	"bytes"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"spg-tui/run"
	"strings"
	"testing"

	"spg-tui/envs"
)

// TestResumeChecksRunIdentity copies an MWM run's checkpoints/last into a sort run (which used
// to resume as MWM and append its records after the sort ones) and deletes a run's config.json
// (which used to make the run unresumable).
func TestResumeChecksRunIdentity(t *testing.T) {
	sortDir, mwmDir := t.TempDir(), t.TempDir()
	sortCfg, mwmCfg := tinyConfig(envs.TaskSort, 5), tinyConfig(envs.TaskMWM, 5)
	sortCfg.Steps, mwmCfg.Steps = 7, 7
	for dir, cfg := range map[string]run.Config{sortDir: sortCfg, mwmDir: mwmCfg} {
		waitDone(t, mustStart(t, cfg, dir, fakeOpts{}))
	}
	mwmLast, err := os.ReadFile(filepath.Join(mwmDir, run.LastCheckpoint))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sortDir, run.LastCheckpoint), mwmLast, 0o644); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(sortDir, run.MetricsFile))
	_, err = resumeRun(sortDir, 9, nil, fakeFactory(fakeOpts{}))
	if err == nil || !strings.Contains(err.Error(), "belongs to another run (mwm n = 5") {
		t.Errorf("resuming a sort run from an MWM checkpoint: %v", err)
	}
	if after, _ := os.ReadFile(filepath.Join(sortDir, run.MetricsFile)); string(after) != string(before) {
		t.Error("the refused resume touched metrics.jsonl")
	}

	// A run of the same task but another seed is another run too.
	other := mwmCfg
	other.Seed = 99
	if err := run.WriteJSONAtomic(filepath.Join(mwmDir, run.ConfigFile), other); err != nil {
		t.Fatal(err)
	}
	if _, err := resumeRun(mwmDir, 9, nil, fakeFactory(fakeOpts{})); err == nil || !strings.Contains(err.Error(), "configuration hash") {
		t.Errorf("a checkpoint of seed 1 under a config.json of seed 99: %v", err)
	}

	// With config.json gone, the checkpoint's starting configuration restores it.
	if err := os.Remove(filepath.Join(mwmDir, run.ConfigFile)); err != nil {
		t.Fatal(err)
	}
	e, err := resumeRun(mwmDir, 9, nil, fakeFactory(fakeOpts{}))
	if err != nil {
		t.Fatalf("resume without config.json: %v", err)
	}
	waitDone(t, e)
	if err := e.Err(); err != nil {
		t.Fatal(err)
	}
	got, err := run.ReadRunConfig(mwmDir)
	want := mwmCfg
	want.Steps = 9
	if err != nil || got != want {
		t.Errorf("restored config.json %+v (%v), want %+v", got, err, want)
	}
}

// TestResumeRefusesForeignCheckpointWithoutConfig copies checkpoints/last of one MWM run into
// another of the same task, size and seed (another evaluation interval) and deletes the
// latter's config.json, which used to adopt the copied run: config.json restored from it,
// metrics.jsonl cut to its step, result.json rewritten. The records still name their run, so the
// resume is refused and the directory is left byte for byte as it was; with the metrics gone too,
// the best checkpoint names it.
func TestResumeRefusesForeignCheckpointWithoutConfig(t *testing.T) {
	aDir, bDir := t.TempDir(), t.TempDir()
	a, b := tinyConfig(envs.TaskMWM, 5), tinyConfig(envs.TaskMWM, 5)
	a.Steps, a.EvalEvery = 10, 5
	b.Steps = 30
	for dir, cfg := range map[string]run.Config{aDir: a, bDir: b} {
		waitDone(t, mustStart(t, cfg, dir, fakeOpts{}))
	}
	aLast, err := os.ReadFile(filepath.Join(aDir, run.LastCheckpoint))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bDir, run.LastCheckpoint), aLast, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(bDir, run.ConfigFile)); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ remove, names string }{{"", run.MetricsFile}, {run.MetricsFile, run.BestCheckpoint}} {
		if tc.remove != "" {
			if err := os.Remove(filepath.Join(bDir, tc.remove)); err != nil {
				t.Fatal(err)
			}
		}
		before := dirFiles(t, bDir)
		_, err := resumeRun(bDir, 40, nil, fakeFactory(fakeOpts{}))
		if err == nil || !strings.Contains(err.Error(), "belongs to another run") || !strings.Contains(err.Error(), tc.names) {
			t.Errorf("resuming from another run's checkpoint (%s present): %v, want a refusal naming %s", tc.names, err, tc.names)
		}
		if after := dirFiles(t, bDir); !maps.EqualFunc(before, after, bytes.Equal) {
			t.Errorf("the refused resume changed the run directory (%s present)", tc.names)
		}
	}
}

// dirFiles maps every file under dir (its lock aside) to its content.
func dirFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == run.LockFile {
			return err
		}
		data, err := os.ReadFile(path)
		files[path] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
