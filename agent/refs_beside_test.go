package agent

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"spg-tui/agent/checkpoint"
	"spg-tui/agent/eval"
	"spg-tui/envs"
	"spg-tui/run"
)

// settled is recs as they would have been had the validation references been there when the
// run started: each references event's references go into the start events without them, its
// fill completes the validations made before it, and it goes.
func settled(recs []run.Record) []run.Record {
	out := make([]run.Record, 0, len(recs))
	for _, r := range recs {
		e := r.Event
		if r.Kind != run.KindEvent || e == nil || e.Event != run.EventReferences {
			out = append(out, r)
			continue
		}
		for i := range out {
			switch o := &out[i]; {
			case o.Kind == run.KindEvent && o.Event != nil && o.Event.Event == run.EventStart && o.Event.References == nil:
				start := *o.Event
				start.References = e.References
				o.Event = &start
			case o.Kind == run.KindEval && o.Eval != nil && o.Eval.RefsPending:
				ev := *o.Eval
				ev.Samples = slices.Clone(ev.Samples)
				e.Fill.Fill(&ev)
				o.Eval = &ev
			}
		}
	}
	return out
}

// holdReferences makes the reference solves of the test's runs wait for release (or a Stop).
func holdReferences(t *testing.T, release <-chan struct{}) {
	t.Helper()
	solveReferences = func(path string, env envs.Env, ds envs.Dataset, insts []envs.Instance, baselines bool,
		stop *atomic.Bool, begin func(int), done *atomic.Int64, note func(string), width func() int) (*eval.Reference, error) {
		begin(0)
		for {
			select {
			case <-release:
				return eval.SolveReference(path, env, ds, insts, baselines, stop, begin, done, note, width)
			case <-time.After(time.Millisecond):
				if stop.Load() {
					return nil, eval.ErrStopped
				}
			}
		}
	}
	t.Cleanup(func() { solveReferences = eval.SolveReference })
}

// runHoldingReferences trains tsp-6 in dir, on a reference cache of its own, with the validation
// set's references held back until release is closed and act called at update u, and returns
// the finished run and its configuration.
func runHoldingReferences(t *testing.T, release <-chan struct{}, dir string, u int, act func(*trainer)) (*trainer, run.Config) {
	t.Helper()
	eval.SetReferenceCache(t.TempDir())
	t.Cleanup(func() { eval.SetReferenceCache("") })
	holdReferences(t, release)
	cfg := tinyConfig(envs.TaskTSP, 6)
	var ref runRef
	e := mustStart(t, cfg, dir, fakeOpts{hook: ref.at(u, act)})
	ref.set(e)
	waitDone(t, e)
	return e, cfg
}

// withoutTime drops what depends on the machine's speed: the checkpoint events (written by the
// clock) and the times and rates of the others.
func withoutTime(recs []run.Record) []run.Record {
	var out []run.Record
	for _, r := range timeless(recs) {
		if r.Event == nil || r.Event.Event != run.EventCheckpoint {
			out = append(out, r)
		}
	}
	return out
}

// TestTrainingDoesNotWaitForReferences: a TSP-20 run used to solve its validation set's exact
// references, minutes, before its first step. It trains and validates while they are solved
// (the status shows the solve beside training), and its validations made meanwhile get them
// from the references event.
func TestTrainingDoesNotWaitForReferences(t *testing.T) {
	release := make(chan struct{})
	holdReferences(t, release)
	cfg := tinyConfig(envs.TaskTSP, 6)
	// At update 10 of 40, with the references held back, the status must show their solve
	// beside training. Its goroutine shows itself once scheduled, which on a loaded machine
	// may be after some steps: the hook waits for it (sleeping, so that it can run).
	var ref runRef
	atTen := make(chan run.Wait, 1)
	e := mustStart(t, cfg, t.TempDir(), fakeOpts{hook: ref.at(10, func(tr *trainer) {
		w := tr.Status().Wait
		for deadline := time.Now().Add(time.Minute); w.What == "" && time.Now().Before(deadline); w = tr.Status().Wait {
			time.Sleep(time.Millisecond)
		}
		atTen <- w
	})})
	ref.set(e)
	var recs []run.Record
	for deadline := time.Now().Add(time.Minute); !slices.ContainsFunc(recs, func(r run.Record) bool { return r.Kind == run.KindTrain }); {
		if time.Now().After(deadline) {
			t.Fatalf("no training record while the references are held back: %+v", e.Status())
		}
		time.Sleep(time.Millisecond)
		run.Drain(e.Records(), 0, func(r run.Record) { recs = append(recs, r) })
	}
	var seen run.Wait
	select {
	case seen = <-atTen:
	case <-time.After(5 * time.Minute):
		t.Fatal("the run never reached update 10")
	}
	if seen.What != "solving the references of the validation set" || !seen.Background || seen.Total != cfg.ValSize {
		t.Errorf("at update 10 the status showed %+v, want the validation set's solve beside training", seen)
	}
	close(release)
	waitDone(t, e)
	if err := e.Err(); err != nil {
		t.Fatal(err)
	}
	run.Drain(e.Records(), 0, func(r run.Record) { recs = append(recs, r) })
	if recs[0].Event == nil || recs[0].Event.Event != run.EventStart || recs[0].Event.References != nil {
		t.Errorf("first record %+v, want a start event without references", recs[0])
	}
	i := slices.IndexFunc(recs, func(r run.Record) bool { return r.Event != nil && r.Event.Event == run.EventReferences })
	if i < 0 {
		t.Fatal("no references event")
	}
	ev := recs[i].Event
	if ev.References["optimal"] <= 0 || ev.Fill == nil || ev.Fill.Optimum != ev.References["optimal"] || len(ev.Fill.Samples) != eval.SampleCount {
		t.Errorf("references event %+v", ev)
	}
	for j, r := range recs {
		if r.Kind != run.KindEval || r.Split != "val" {
			continue
		}
		// Made before the references, a validation has its tour length but no gap nor optima.
		if pending := j < i; r.RefsPending != pending || (r.Gap == nil) != pending || (r.Samples[0].OptPerm == nil) != pending {
			t.Errorf("validation at step %d (record %d, references at %d): pending %v, gap %v, optimum %v",
				r.Step, j, i, r.RefsPending, r.Gap, r.Samples[0].OptPerm)
		}
	}
}

// TestRecordsDoNotDependOnWhenReferencesCame: a run whose references were solved while it
// trained (held back past three validations) has the records of the same run with the
// references cached before it started, once the references event has completed the validations
// made before it: the same training, validations, best checkpoint and test.
func TestRecordsDoNotDependOnWhenReferencesCame(t *testing.T) {
	release := make(chan struct{})
	late, early := t.TempDir(), t.TempDir()
	e, cfg := runHoldingReferences(t, release, late, 25, func(*trainer) { close(release) })
	// The second run finds the references the first one solved in the shared cache.
	e2 := mustStart(t, cfg, early, fakeOpts{})
	waitDone(t, e2)
	if e.Err() != nil || e2.Err() != nil {
		t.Fatal(e.Err(), e2.Err())
	}
	lateRecs, earlyRecs := readMetrics(t, late), readMetrics(t, early)
	pending := 0
	for _, r := range lateRecs {
		if r.Eval != nil && r.RefsPending {
			pending++
		}
	}
	if pending < 3 || earlyRecs[0].References == nil || slices.ContainsFunc(earlyRecs, func(r run.Record) bool {
		return r.Event != nil && r.Event.Event == run.EventReferences || r.Eval != nil && r.RefsPending
	}) {
		t.Fatalf("%d validations before the late references (want 3 or more); the early run's start has references %v", pending, earlyRecs[0].References)
	}
	got, want := withoutTime(settled(lateRecs)), withoutTime(earlyRecs)
	if len(got) != len(want) {
		t.Fatalf("%d records, want %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("record %d: %+v\nwant %+v", i, got[i], want[i])
		}
	}
	a, errA := os.ReadFile(filepath.Join(late, run.ResultFile))
	b, errB := os.ReadFile(filepath.Join(early, run.ResultFile))
	if errA != nil || errB != nil || !bytes.Equal(a, b) {
		t.Errorf("result.json differs (%v, %v):\n%s\n%s", errA, errB, a, b)
	}
	ca, _ := checkpoint.Open(filepath.Join(late, run.BestCheckpoint))
	cb, _ := checkpoint.Open(filepath.Join(early, run.BestCheckpoint))
	defer ca.Close()
	defer cb.Close()
	if ca.Header.Step != cb.Header.Step || !bytes.Equal(ca.Learner, cb.Learner) {
		t.Errorf("best checkpoints at steps %d and %d differ", ca.Header.Step, cb.Header.Step)
	}
}

// TestRatioWaitsForReferences: mwm's optimality ratio is scored against each instance's
// optimum, so its validations wait for the references (solved in a second at most) rather than
// report something else first.
func TestRatioWaitsForReferences(t *testing.T) {
	release := make(chan struct{})
	holdReferences(t, release)
	e := mustStart(t, tinyConfig(envs.TaskMWM, 5), t.TempDir(), fakeOpts{})
	for deadline := time.Now().Add(time.Minute); e.Status().Wait.What == ""; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the solve never showed")
		}
	}
	if s := e.Status(); s.State != run.StateStarting || s.Wait.Background {
		t.Errorf("status %+v, want a start that waits for the references", s)
	}
	close(release)
	waitDone(t, e)
	for _, r := range drain(e) {
		if r.Eval != nil && r.RefsPending || r.Event != nil && r.Event.Event == run.EventReferences {
			t.Errorf("record %+v: mwm validated before its references", r)
		}
	}
}

// TestPendingValidationsFilledAfterResume: a run stopped before its references were solved
// keeps validations without them; resumed once the references are in the cache, it completes
// them with a references event right after its start, to the records of a run that never
// stopped.
func TestPendingValidationsFilledAfterResume(t *testing.T) {
	release := make(chan struct{})
	dir, straight := t.TempDir(), t.TempDir()
	_, cfg := runHoldingReferences(t, release, dir, 15, (*trainer).Stop)
	if !unfilled(readMetrics(t, dir)) {
		t.Fatal("the stopped run has no validation waiting for its references")
	}
	// Another run of the same sets solves the references into the shared cache.
	close(release)
	waitDone(t, mustStart(t, cfg, straight, fakeOpts{}))
	r, err := resumeRun(dir, 0, nil, fakeFactory(fakeOpts{}))
	if err != nil {
		t.Fatal(err)
	}
	waitDone(t, r)
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	recs := readMetrics(t, dir)
	starts := 0
	for i, rec := range recs {
		if rec.Event != nil && rec.Event.Event == run.EventStart {
			if starts++; starts == 2 && (rec.Event.References == nil || recs[i+1].Event == nil || recs[i+1].Event.Event != run.EventReferences) {
				t.Errorf("the resumed start %+v is not followed by the references event: %+v", rec.Event, recs[i+1])
			}
		}
	}
	if unfilled(recs) || starts != 2 {
		t.Errorf("%d starts; validations left without references: %v", starts, unfilled(recs))
	}
	if !reflect.DeepEqual(summarise(t, dir), summarise(t, straight)) {
		t.Error("the resumed run's settled records differ from the uninterrupted run's")
	}
}
