package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spg-tui/envs"
	"spg-tui/run"
)

// TestViewSkipsDamagedLine damages one line in the middle of metrics.jsonl, which used to make
// --view refuse the whole run: the view must show every other record and a warning with the
// count and the line.
func TestViewSkipsDamagedLine(t *testing.T) {
	dir := t.TempDir()
	_, recs := runScripted(t, tinyConfig(envs.TaskMWM, 6), dir)
	if err := os.WriteFile(filepath.Join(dir, run.ConfigFile), []byte(`{"task":"mwm","n":6,"seed":1,"steps":400,"batch":10,"train_size":1000}`), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, run.MetricsFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	lines[5] = `{"kind":"train","step":` + "\x00garbage\n"
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := openReplay(dir)
	if err != nil {
		t.Fatalf("one damaged line stopped the view: %v", err)
	}
	var got []run.Record
	for rec := range r.Records() {
		got = append(got, rec)
	}
	if len(got) != len(recs) { // the records less the damaged one, plus the warning
		t.Errorf("%d records replayed, want %d", len(got), len(recs))
	}
	last := got[len(got)-1]
	if last.Event == nil || last.Event.Event != run.EventWarning || !strings.Contains(last.Message, "skipped 1 damaged line(s), the first at line 6") {
		t.Errorf("last record %+v, want the warning", last)
	}
}
