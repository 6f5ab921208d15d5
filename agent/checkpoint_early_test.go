package agent

import (
	"os"
	"path/filepath"
	"testing"

	"spg-tui/agent/checkpoint"
	"spg-tui/envs"
	"spg-tui/run"
)

// TestOneEarlyCheckpointAtStart: a fresh run used to write its early checkpoint twice at step 0,
// before and after the validation of its untrained policy (two identical events in
// metrics.jsonl). It must write one, after that validation, so that a resume from it does not
// validate step 0 again.
func TestOneEarlyCheckpointAtStart(t *testing.T) {
	cfg := tinyConfig(envs.TaskMWM, 5)
	dir := t.TempDir()
	last := filepath.Join(dir, run.LastCheckpoint)
	var atFirst []byte
	waitDone(t, mustStart(t, cfg, dir, fakeOpts{hook: func(u int) {
		if u == 1 {
			atFirst, _ = os.ReadFile(last)
		}
	}}))
	n := 0
	for _, r := range readMetrics(t, dir) {
		if r.Kind == run.KindEvent && r.Event.Event == run.EventCheckpoint && r.Step == 0 {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d checkpoint events at step 0, want 1", n)
	}
	if err := os.WriteFile(last, atFirst, 0o644); err != nil {
		t.Fatal(err)
	}
	ck, err := checkpoint.Open(last)
	if err != nil {
		t.Fatal(err)
	}
	ck.Close()
	if h := ck.Header; h.Step != 0 || !h.ReplayOmitted || h.LastEval != 0 || h.Best == nil {
		t.Errorf("checkpoint at step 0: step %d, replay omitted %v, last eval %d, best %v; want the early one after the validation of step 0",
			h.Step, h.ReplayOmitted, h.LastEval, h.Best)
	}
}
