package experiments

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

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

// TestSharedRunLockedMeanwhile: two experiments sharing --runs at once. A run that the other
// experiment was training when this one came to it used to fail this one ("run directory ... is
// in use by process N"), which then exited 1. It must train its other runs meanwhile, wait
// for the run, and score it once the other process has finished it.
func TestSharedRunLockedMeanwhile(t *testing.T) {
	pr, dir, other := heldSharedRun(t)
	shared := pr.Mine[0]
	refused, startedOther := make(chan struct{}), make(chan struct{})
	var refusedOnce, otherOnce sync.Once
	mc := machine()
	mc.Jobs = 1
	mc.Start = func(cfg run.Config, d string) (run.Engine, error) {
		e, err := lockingStart(cfg, d)
		var locked *run.DirLockedError
		switch {
		case errors.As(err, &locked):
			refusedOnce.Do(func() { close(refused) })
		case d != dir:
			otherOnce.Do(func() { close(startedOther) })
		}
		return e, err
	}
	go func() {
		// Once refused, the experiment trains its next run while this one trains the shared run
		// to its end, then lets go of it.
		defer other.Release()
		for _, c := range []chan struct{}{refused, startedOther} {
			select {
			case <-c:
			case <-time.After(20 * time.Second):
				t.Error("the experiment did not go on to its next run while the shared one was held")
				return
			}
		}
		e, err := enginetest.Start(shared.Config, dir)
		if err != nil {
			t.Error(err)
			return
		}
		<-e.Done()
		// The real trainer ends a run with its result (the scripted engine writes none).
		if err := run.WriteJSONAtomic(filepath.Join(dir, run.ResultFile), map[string]int{"step": shared.Config.Steps}); err != nil {
			t.Error(err)
		}
	}()
	if err := pr.Run(mc); err != nil {
		t.Fatalf("penalty, with a run held by another process: %v", err)
	}
	recs, err := run.ReadRecords(filepath.Join(dir, run.MetricsFile))
	if err != nil {
		t.Fatal(err)
	}
	starts := 0
	for _, r := range recs {
		if r.Kind == run.KindEvent && r.Event.Event == run.EventStart {
			starts++
		}
	}
	if starts != 1 {
		t.Errorf("the shared run was started %d times, want once (by the other process)", starts)
	}
	if _, err := os.Stat(filepath.Join(dir, TestScoreFile)); err != nil {
		t.Errorf("the shared run was not scored: %v", err)
	}
}

// heldSharedRun prepares a one-seed penalty experiment whose runs directory another process
// shares, polling for held runs every 10 ms, and locks its first run's directory dir as the
// other process would hold it from the start.
func heldSharedRun(t *testing.T) (pr *Prepared, dir string, other *run.DirLock) {
	t.Helper()
	poll := lockPoll
	t.Cleanup(func() { lockPoll = poll })
	lockPoll = 10 * time.Millisecond
	base := t.TempDir()
	o := tinyOptions("penalty", 1)
	o.RunsDir = filepath.Join(base, "runs")
	pr, err := Prepare(o, filepath.Join(base, "penalty"))
	if err != nil {
		t.Fatal(err)
	}
	dir = pr.Manifest.runDir(pr.Dir, pr.Mine[0].ID)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if other, err = run.LockDir(dir); err != nil {
		t.Fatal(err)
	}
	return pr, dir, other
}

// lockingStart starts a scripted run holding its directory's lock until it ends, and refuses a
// complete run, as the real trainer does.
func lockingStart(cfg run.Config, dir string) (run.Engine, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	lock, err := run.LockDir(dir)
	if err != nil {
		return nil, err
	}
	if trained(dir, cfg) {
		lock.Release()
		return nil, errors.New("the run in " + dir + " is complete")
	}
	e, err := enginetest.Start(cfg, dir)
	if err != nil {
		lock.Release()
		return nil, err
	}
	go func() {
		<-e.Done()
		lock.Release()
	}()
	return e, nil
}

// TestStopWhileWaitingForSharedRun: a stop while a run is held by another process skips that
// run at once (the same command continues it), rather than waiting for the holder.
func TestStopWhileWaitingForSharedRun(t *testing.T) {
	pr, _, other := heldSharedRun(t)
	defer other.Release()
	stop := make(chan struct{})
	var once sync.Once
	mc := machine()
	mc.Jobs, mc.Stop = 1, stop
	mc.Start = func(cfg run.Config, d string) (run.Engine, error) {
		e, err := lockingStart(cfg, d)
		if locked := (*run.DirLockedError)(nil); errors.As(err, &locked) {
			once.Do(func() { close(stop) })
		}
		return e, err
	}
	ended := make(chan error)
	go func() { ended <- pr.Run(mc) }()
	select {
	case err := <-ended:
		if !errors.Is(err, ErrStopped) {
			t.Errorf("stopped while waiting: %v, want it stopped", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("a stop did not end the wait for a held run")
	}
}

// A finished run is scored holding its directory's lock, waited for while another process
// holds it: that process, starting the run to find it complete, removed the unfinished
// temporary file of the score, which failed the run ("rename …experiment-test.json.tmp…").
func TestScoringWaitsForTheRunLock(t *testing.T) {
	pr, dir, other := heldSharedRun(t)
	other.Release()
	if err := pr.Run(machine()); err != nil {
		t.Fatal(err)
	}
	// Trained in an earlier session, as the real trainer leaves it, and not yet scored.
	score := filepath.Join(dir, TestScoreFile)
	if os.Remove(score) != nil || run.WriteJSONAtomic(filepath.Join(dir, run.ResultFile), map[string]int{"step": pr.Mine[0].Config.Steps}) != nil {
		t.Fatal("making the fixture")
	}
	held, err := run.LockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	go func() { done <- pr.Run(machine()) }()
	time.Sleep(30 * lockPoll)
	if _, err := os.Stat(score); err == nil {
		t.Error("the run was scored while another process held its directory")
	}
	held.Release()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the scoring did not go on once the directory was free")
	}
	if _, err := os.Stat(score); err != nil {
		t.Errorf("the run was not scored once free: %v", err)
	}
}
