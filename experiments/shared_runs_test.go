package experiments

import (
	"errors"
	"path/filepath"
	"sync"
	"testing"

	"spg-tui/experiments/enginetest"
	"spg-tui/run"
)

// TestSharedRunFinishedMeanwhile: two experiments sharing --runs at once. A run that the other
// experiment finished after this one planned it used to fail this one ("the run ... is complete
// at step N"), which then exited 1; it is taken as trained and scored.
func TestSharedRunFinishedMeanwhile(t *testing.T) {
	base := t.TempDir()
	runs := filepath.Join(base, "runs")
	pen := tinyOptions("penalty", 1)
	pen.RunsDir = runs
	tau := tinyOptions("tau", 1)
	tau.RunsDir = runs
	pt, err := Prepare(tau, filepath.Join(base, "tau"))
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	var raced bool
	mc := machine()
	mc.Jobs = 1
	mc.Start = func(cfg run.Config, dir string) (run.Engine, error) {
		// When tau starts its first run, penalty trains all of its own, as if on another
		// core; a run it shared is then complete, and starting it is refused as the real
		// trainer refuses it.
		once.Do(func() { runPreset(t, pen, filepath.Join(base, "penalty")) })
		if trained(dir, cfg) {
			raced = true
			return nil, errors.New("the run in " + dir + " is complete")
		}
		return enginetest.Start(cfg, dir)
	}
	if err := pt.Run(mc); err != nil {
		t.Fatalf("tau, with a run penalty finished meanwhile: %v", err)
	}
	if !raced {
		t.Fatal("no run of tau was finished by penalty: the test did not race")
	}
}
