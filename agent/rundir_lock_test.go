package agent

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"spg-tui/run"
	"strings"
	"testing"

	"spg-tui/envs"
)

// TestOneWriterPerRunDir holds a run directory with a paused trainer and checks that a second
// start, a resume and a console are refused naming this
// process, that the first run's files are untouched, and that the lock goes with the run.
func TestOneWriterPerRunDir(t *testing.T) {
	dir := t.TempDir()
	cfg := tinyConfig(envs.TaskMWM, 5)
	var ref runRef
	first := mustStart(t, cfg, dir, fakeOpts{hook: ref.at(3, func(tr *trainer) { tr.Pause() })})
	ref.set(first)
	for first.Status().State != run.StatePaused {
		select {
		case <-first.Done():
			t.Fatal("the first run ended before it paused")
		default:
		}
	}
	before, err := os.ReadFile(filepath.Join(dir, run.MetricsFile))
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("in use by process %d", os.Getpid())
	for name, try := range map[string]func() (*trainer, error){
		"start":  func() (*trainer, error) { return startRun(cfg, dir, nil, fakeFactory(fakeOpts{})) },
		"resume": func() (*trainer, error) { return resumeRun(dir, 0, nil, fakeFactory(fakeOpts{})) },
	} {
		_, err := try()
		var locked *run.DirLockedError
		if !errors.As(err, &locked) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s while a run holds the directory: %v, want a run.DirLockedError naming %q", name, err, want)
		}
	}
	after, err := os.ReadFile(filepath.Join(dir, run.MetricsFile))
	if err != nil || string(after) != string(before) {
		t.Errorf("a refused start changed metrics.jsonl (%v)", err)
	}
	first.Stop()
	waitDone(t, first)
	second, err := resumeRun(dir, 0, nil, fakeFactory(fakeOpts{}))
	if err != nil {
		t.Fatalf("resume after the first run ended: %v", err)
	}
	waitDone(t, second)
	if err := second.Err(); err != nil {
		t.Fatal(err)
	}
}

// TestOrphanTempsRemoved leaves the temporary files of a killed checkpoint write behind and
// checks that the next start removes them, and only them.
func TestOrphanTempsRemoved(t *testing.T) {
	dir := t.TempDir()
	cfg := tinyConfig(envs.TaskSort, 4)
	cfg.Steps = 5
	e := mustStart(t, cfg, dir, fakeOpts{})
	waitDone(t, e)
	orphans := []string{"checkpoints/.last.tmp123456", "checkpoints/.best.tmp9", ".metrics.jsonl.tmp42", "cache/.val.json.tmp7"}
	for _, o := range orphans {
		if err := os.WriteFile(filepath.Join(dir, o), []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	keep := filepath.Join(dir, "notes.tmp")
	if err := os.WriteFile(keep, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	e2, err := resumeRun(dir, 7, nil, fakeFactory(fakeOpts{}))
	if err != nil {
		t.Fatal(err)
	}
	waitDone(t, e2)
	for _, o := range orphans {
		if _, err := os.Stat(filepath.Join(dir, o)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s survived the resume (%v)", o, err)
		}
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("a file not of run.WriteAtomic's was removed: %v", err)
	}
}
