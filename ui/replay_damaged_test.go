package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"spg-tui/envs"
	"spg-tui/experiments/enginetest"
	"spg-tui/run"
	"spg-tui/run/runlog"
)

// viewFixture is a finished scripted MWM-6 run in a temporary directory with its config.json,
// and the lines of its metrics.jsonl.
func viewFixture(t *testing.T) (dir string, recs []run.Record, lines []string) {
	t.Helper()
	dir = t.TempDir()
	_, recs = runScripted(t, tinyConfig(envs.TaskMWM, 6), dir)
	if err := os.WriteFile(filepath.Join(dir, run.ConfigFile), []byte(`{"task":"mwm","n":6,"seed":1,"steps":400,"batch":10,"train_size":1000}`), 0o644); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, run.MetricsFile))
	if err != nil {
		t.Fatal(err)
	}
	return dir, recs, strings.SplitAfter(string(data), "\n")
}

// openView is the console of w×h cells on the run in dir opened read-only (tui --view), with
// the records written so far taken.
func openView(t *testing.T, dir string, w, h int) *model {
	t.Helper()
	r, err := runlog.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := newModel(r, enginetest.Start, false, true)
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m.poll()
	return m
}

// TestViewSkipsDamagedLine damages one line in the middle of metrics.jsonl, which used to make
// --view refuse the whole run: the view must show every other record and a warning with the
// count and the line.
func TestViewSkipsDamagedLine(t *testing.T) {
	dir, recs, lines := viewFixture(t)
	lines[5] = `{"kind":"train","step":` + "\x00garbage\n"
	if err := os.WriteFile(filepath.Join(dir, run.MetricsFile), []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := runlog.Open(dir)
	if err != nil {
		t.Fatalf("one damaged line stopped the view: %v", err)
	}
	var got []run.Record
	if _, err := r.Tail(0, func(rec run.Record) { got = append(got, rec) }); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(recs) { // the records less the damaged one, plus the warning
		t.Errorf("%d records replayed, want %d", len(got), len(recs))
	}
	last := got[len(got)-1]
	if last.Event == nil || last.Event.Event != run.EventWarning || !strings.Contains(last.Message, "metrics.jsonl line 6 is damaged") {
		t.Errorf("last record %+v, want the warning", last)
	}
}

// TestViewShowsDamagedLineWhole: the damaged line's warning, naming the file and the line, is
// on the screen whole at 100×30 and 80×24 (it used to be cut to "metrics.j…" in the events, or
// absent where the layout has no events pane).
func TestViewShowsDamagedLineWhole(t *testing.T) {
	dir, _, lines := viewFixture(t)
	lines[5] = "not json\n"
	if err := os.WriteFile(filepath.Join(dir, run.MetricsFile), []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]int{{100, 30}, {80, 24}} {
		m := openView(t, dir, size[0], size[1])
		if want := "metrics.jsonl line 6 is damaged and was skipped (1 in all)"; !strings.Contains(screen(m), want) {
			t.Errorf("%dx%d: the screen lacks %q:\n%s", size[0], size[1], want, screen(m))
		}
	}
}

// TestViewFollowsLiveRun opens a run whose trainer is still writing: the view shows the
// records written so far, names the trainer's PID, takes the records appended later (a line
// torn mid-write only once it is whole), and ends when the run does.
func TestViewFollowsLiveRun(t *testing.T) {
	dir, recs, lines := viewFixture(t)
	lock, err := run.LockDir(dir) // this process plays the trainer
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Release()
	path := filepath.Join(dir, run.MetricsFile)
	half := len(lines) / 2
	torn := lines[half][:10]
	if err := os.WriteFile(path, []byte(strings.Join(lines[:half], "")+torn), 0o644); err != nil {
		t.Fatal(err)
	}
	m := openView(t, dir, 120, 36)
	n := len(m.ctx.data.train.step) + len(m.ctx.data.eval.step)
	if want := fmt.Sprintf("trained live by PID %d", os.Getpid()); !strings.Contains(screen(m), want) {
		t.Errorf("the live view lacks %q:\n%s", want, screen(m))
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(lines[half][10:] + strings.Join(lines[half+1:], "")); err != nil {
		t.Fatal(err)
	}
	m.poll()
	total := 0
	for _, rec := range recs {
		if rec.Kind == run.KindTrain || rec.Kind == run.KindEval && rec.Split == "val" {
			total++
		}
	}
	if got := len(m.ctx.data.train.step) + len(m.ctx.data.eval.step); n >= total || got != total {
		t.Errorf("%d summaries before the rest was written, %d after; want fewer, then %d", n, got, total)
	}
	if m.ctx.data.warning != "" {
		t.Errorf("a line torn mid-write was taken as damaged: %s", m.ctx.data.warning)
	}
	if m.ctx.status.State != run.StateDone || m.ctx.status.Step != 400 {
		t.Errorf("status after the run ended: %+v", m.ctx.status)
	}
}

// TestViewFollowsResumedRun: a resume rewrites metrics.jsonl without the records after its
// checkpoint (a new file renamed over the old); the view must read the new file, not stay on
// the old one forever.
func TestViewFollowsResumedRun(t *testing.T) {
	dir, _, lines := viewFixture(t)
	path := filepath.Join(dir, run.MetricsFile)
	m := openView(t, dir, 120, 36)
	before := len(m.ctx.data.train.step)
	// The resume keeps the first 20 lines; its trainer then appends one summary.
	kept := strings.Join(lines[:20], "") + `{"kind":"train","step":999,"wall":1,"reward_mean":0.5}` + "\n"
	if err := os.WriteFile(path+".tmp", []byte(kept), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		t.Fatal(err)
	}
	time.Sleep(runlog.WriterCheckInterval) // the replay looks for a new file this often
	m.poll()                               // notices the new file
	m.poll()                               // reads it
	want := 1
	for _, l := range lines[:20] {
		if rec, ok := run.ParseRecordLine([]byte(l)); ok && rec.Kind == run.KindTrain {
			want++
		}
	}
	d := m.ctx.data
	if got := len(d.train.step); got != want || d.train.step[got-1] != 999 || got >= before {
		t.Errorf("%d summaries after the resume (last at step %v), want %d ending at 999 (had %d)", got, d.train.step, want, before)
	}
	if m.ctx.status.Step != 999 {
		t.Errorf("status step %d, want 999", m.ctx.status.Step)
	}
}
