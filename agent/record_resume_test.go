package agent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spg-tui/agent/checkpoint"
	"spg-tui/envs"
	"spg-tui/run"
)

// TestResumeDropsAbandonedAttempt stops a run, then fakes an attempt that resumed and was
// killed before checkpointing (its start event and a record after the checkpoint) and damages
// a line in the middle. The resume must keep one start event per live attempt (the killed
// attempt's used to stay), drop the damaged line, and agree with --view on what remains.
func TestResumeDropsAbandonedAttempt(t *testing.T) {
	dir := t.TempDir()
	cfg := tinyConfig(envs.TaskSort, 4)
	var ref runRef
	e := mustStart(t, cfg, dir, fakeOpts{hook: ref.at(12, func(tr *trainer) { tr.Stop() })})
	ref.set(e)
	waitDone(t, e)
	stopped := e.Status().Step
	path := filepath.Join(dir, run.MetricsFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	killed := []run.Record{
		{Kind: run.KindEvent, Step: stopped, Event: &run.Event{Event: run.EventStart, Message: "resumed (killed)"}},
		{Kind: run.KindEvent, Step: stopped, Event: &run.Event{Event: run.EventPause}},
		{Kind: run.KindTrain, Step: stopped + 5, Train: &run.Train{}},
	}
	lines := strings.SplitAfter(string(data), "\n")
	lines[3] = `{"kind":"train","step":3,"reward_mean":` + "\n" // damaged in the middle
	for _, r := range killed {
		b, _ := json.Marshal(r)
		lines = append(lines, string(b)+"\n")
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	// --view reads all but the damaged line.
	viewed, damaged, err := run.ReadRecordsSkipping(path)
	if err != nil || len(damaged) != 1 || damaged[0] != 4 || len(viewed) != len(lines)-2 {
		t.Fatalf("view: %d records, damaged %v, %v (of %d lines)", len(viewed), damaged, err, len(lines)-1)
	}

	e2, err := resumeRun(dir, stopped+3, nil, fakeFactory(fakeOpts{}))
	if err != nil {
		t.Fatal(err)
	}
	waitDone(t, e2)
	recs, damaged, err := run.ReadRecordsSkipping(path)
	if err != nil || len(damaged) != 0 {
		t.Fatalf("after the resume: damaged %v, %v", damaged, err)
	}
	var starts []string
	for _, r := range recs {
		if r.Event != nil && r.Event.Event == run.EventStart {
			starts = append(starts, r.Message)
		}
		if r.Event != nil && r.Event.Event == run.EventPause {
			t.Error("the killed attempt's pause event survived")
		}
	}
	if len(starts) != 2 || strings.Contains(strings.Join(starts, "|"), "killed") {
		t.Errorf("start events %q, want the first run's and the resume's", starts)
	}
	if strict, err := run.ReadRecords(path); err != nil || len(strict) != len(recs) {
		t.Errorf("run.ReadRecords and run.ReadRecordsSkipping disagree: %d vs %d (%v)", len(strict), len(recs), err)
	}
}

// TestResumeFromEarlyCheckpointSaysSo resumes a run from an early checkpoint written during step 15 (as
// after a kill before its first full checkpoint, with a buffer too large to write at every
// validation) and then from its own full one: only the first resume's start event says that the
// run continued without its replay buffer, and both carry the run's identity.
func TestResumeFromEarlyCheckpointSaysSo(t *testing.T) {
	dir := t.TempDir()
	cfg := tinyConfig(envs.TaskMWM, 4)
	cfg.Steps = 20
	last := filepath.Join(dir, run.LastCheckpoint)
	var (
		ref   runRef
		early []byte
	)
	e := mustStart(t, cfg, dir, fakeOpts{hook: ref.at(15, func(tr *trainer) {
		if err := tr.checkpointEarly(); err != nil {
			t.Error(err)
		}
		early, _ = os.ReadFile(last)
	})})
	ref.set(e)
	waitDone(t, e)
	if err := e.Err(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(last, early, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		steps, at int
		early     bool
	}{{30, 14, true}, {40, 30, false}} {
		e, err := resumeRun(dir, tc.steps, nil, fakeFactory(fakeOpts{}))
		if err != nil {
			t.Fatal(err)
		}
		var start *run.Record
		skip := e.Info().History
		run.Follow(e.Records(), func(r run.Record) {
			if skip--; skip < 0 && start == nil && r.Event != nil && r.Event.Event == run.EventStart {
				start = &r
			}
		})
		waitDone(t, e)
		if err := e.Err(); err != nil {
			t.Fatal(err)
		}
		if start == nil || start.Step != tc.at || start.Event.ResumedEarly != tc.early || start.Event.RunID != checkpoint.RunID(cfg) ||
			strings.Contains(start.Event.Message, "without the replay buffer") != tc.early {
			t.Errorf("resume to %d: start event %+v, want step %d, resumed_early %v, run_id %s", tc.steps, start, tc.at, tc.early, checkpoint.RunID(cfg))
		}
	}
}
