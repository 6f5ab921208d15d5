package agent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spg-tui/envs"
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
	path := filepath.Join(dir, MetricsFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	killed := []Record{
		{Kind: KindEvent, Step: stopped, Event: &Event{Event: EventStart, Message: "resumed (killed)"}},
		{Kind: KindEvent, Step: stopped, Event: &Event{Event: EventPause}},
		{Kind: KindTrain, Step: stopped + 5, Train: &Train{}},
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
	viewed, damaged, err := ReadRecordsSkipping(path)
	if err != nil || len(damaged) != 1 || damaged[0] != 4 || len(viewed) != len(lines)-2 {
		t.Fatalf("view: %d records, damaged %v, %v (of %d lines)", len(viewed), damaged, err, len(lines)-1)
	}

	e2, err := resumeRun(dir, stopped+3, fakeFactory(fakeOpts{}))
	if err != nil {
		t.Fatal(err)
	}
	waitDone(t, e2)
	recs, damaged, err := ReadRecordsSkipping(path)
	if err != nil || len(damaged) != 0 {
		t.Fatalf("after the resume: damaged %v, %v", damaged, err)
	}
	var starts []string
	for _, r := range recs {
		if r.Event != nil && r.Event.Event == EventStart {
			starts = append(starts, r.Message)
		}
		if r.Event != nil && r.Event.Event == EventPause {
			t.Error("the killed attempt's pause event survived")
		}
	}
	if len(starts) != 2 || strings.Contains(strings.Join(starts, "|"), "killed") {
		t.Errorf("start events %q, want the first run's and the resume's", starts)
	}
	if strict, err := ReadRecords(path); err != nil || len(strict) != len(recs) {
		t.Errorf("ReadRecords and ReadRecordsSkipping disagree: %d vs %d (%v)", len(strict), len(recs), err)
	}
}

func TestParseRecordLine(t *testing.T) {
	for line, want := range map[string]bool{
		`{"kind":"train","step":3,"reward_mean":0.5}` + "\n":       true,
		`{"kind":"event","step":0,"event":"start"}` + "\n":         true,
		`{"kind":"eval","step":5,"split":"val","metric":1}` + "\n": true,
		`{"kind":"train","step":3,"reward_mean":0.5}`:              false, // torn
		`{"kind":"train","reward_mean":0.5}` + "\n":                false, // no step
		`{"kind":"bogus","step":1}` + "\n":                         false,
		`{"kind":"event","step":1}` + "\n":                         false, // no event field
		`[1,2]` + "\n":                                             false,
		"\n":                                                       false,
	} {
		if _, ok := ParseRecordLine([]byte(line)); ok != want {
			t.Errorf("%q: ok = %v, want %v", line, ok, want)
		}
	}
}
