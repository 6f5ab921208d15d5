package runlog

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spg-tui/run"
)

// runDir is a run directory holding config.json and metrics.jsonl with the given content.
func runDir(t *testing.T, metrics string) string {
	t.Helper()
	dir := t.TempDir()
	cfg := `{"task":"mwm","n":6,"seed":1,"steps":400,"batch":10,"train_size":1000}`
	if err := os.WriteFile(filepath.Join(dir, run.ConfigFile), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, run.MetricsFile), []byte(metrics), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestReplayTailsTheFile: Tail hands the complete records, skips and reports a damaged line,
// keeps a line without its newline until the rest is written, and refuses changes.
func TestReplayTailsTheFile(t *testing.T) {
	dir := runDir(t, `{"kind":"train","step":10,"wall":1,"reward_mean":0.5}`+"\n"+
		"not a record\n"+
		`{"kind":"train","step":20,"wall":2,"reward_mean":0.6}`+"\n"+
		`{"kind":"train","step":30,`)
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	var steps []int
	var warnings []string
	take := func(rec run.Record) {
		switch rec.Kind {
		case run.KindTrain:
			steps = append(steps, rec.Step)
		case run.KindEvent:
			warnings = append(warnings, rec.Event.Message)
		}
	}
	if _, err := r.Tail(0, take); err != nil {
		t.Fatal(err)
	}
	if len(steps) != 2 || steps[1] != 20 {
		t.Errorf("steps %v, want [10 20] (the torn line kept back)", steps)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "metrics.jsonl line 2 is damaged") {
		t.Errorf("warnings %q", warnings)
	}
	f, err := os.OpenFile(filepath.Join(dir, run.MetricsFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`"wall":3,"reward_mean":0.7}` + "\n")
	f.Close()
	if _, err := r.Tail(0, take); err != nil {
		t.Fatal(err)
	}
	if len(steps) != 3 || steps[2] != 30 || r.Status().Step != 30 {
		t.Errorf("steps %v, status step %d after the line was finished, want 30 last", steps, r.Status().Step)
	}
	if err := r.Set("lr", 1); !errors.Is(err, ErrReadOnly) {
		t.Errorf("Set: %v, want ErrReadOnly", err)
	}
}

// TestStarted: a run has started once it has a metrics.jsonl.
func TestStarted(t *testing.T) {
	dir := runDir(t, "")
	if !Started(dir) {
		t.Error("a run with metrics.jsonl has not started")
	}
	if Started(t.TempDir()) {
		t.Error("an empty directory has started")
	}
}
