package ui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spg-tui/run"
	"spg-tui/ui/export"
)

// typeText presses each character of text.
func typeText(m *model, text string) {
	for _, r := range text {
		press(m, string(r))
	}
}

// rowLabels are the labels of the compare view's rows, in order.
func rowLabels(v *compareView) []string {
	var out []string
	for _, r := range v.rows() {
		out = append(out, r.label)
	}
	return out
}

// TestCompareFilter: / filters the runs by setting (key=value exactly) or by a part of a name,
// every word of the filter must match, enter keeps it, esc clears it; a filter that keeps no
// run says so and leaves every key harmless.
func TestCompareFilter(t *testing.T) {
	m := compareModel(t, compareFixture(t), 80, 24)
	press(m, "/")
	typeText(m, "tau=0.1")
	if got := strings.Join(rowLabels(m.compare), " "); got != "tau10 tau10-seed2" {
		t.Errorf("/tau=0.1 keeps %q", got)
	}
	press(m, "enter")
	golden(t, "screen_compare_filter_80x24", screen(m))
	if !strings.Contains(screen(m), "/tau=0.1  2 of 3 runs") {
		t.Errorf("the screen does not tell the filter:\n%s", screen(m))
	}
	// Keys act on the runs kept: h hides the selected one of them.
	press(m, "down", "h")
	if !m.compare.runs[2].hidden {
		t.Error("h hid another run than the selected tau10-seed2")
	}
	press(m, "esc")
	if len(m.compare.rows()) != 3 {
		t.Errorf("esc left %d runs", len(m.compare.rows()))
	}
	press(m, "/")
	typeText(m, "seed=2 tau")
	if got := strings.Join(rowLabels(m.compare), " "); got != "tau10-seed2" {
		t.Errorf("/seed=2 tau keeps %q", got)
	}
	press(m, "esc", "/")
	typeText(m, "nothing")
	press(m, "enter", "h", "p", "up", "down")
	if sc := screen(m); !strings.Contains(sc, "no run matches the filter") {
		t.Errorf("a filter that keeps nothing:\n%s", sc)
	}
	// q while the filter is typed is text, not quit.
	press(m, "/", "q")
	if m.quitting || !strings.HasSuffix(m.compare.filter.text(), "q") {
		t.Errorf("q while typing the filter: quitting %v, filter %q", m.quitting, m.compare.filter.text())
	}
}

// TestCompareDiffersLiveEdits: a setting changed while the run trained (a set event in its
// metrics.jsonl) is in differs as start→now and comes first, and the filter finds it.
func TestCompareDiffersLiveEdits(t *testing.T) {
	dirs := compareFixture(t)
	f, err := os.OpenFile(filepath.Join(dirs[1], run.MetricsFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	ev := run.Record{Kind: run.KindEvent, Step: 300, Event: &run.Event{Event: run.EventSet, Param: run.FlagCriticPenalty, Old: 1, New: 0}}
	if err := json.NewEncoder(f).Encode(ev); err != nil {
		t.Fatal(err)
	}
	f.Close()
	m := compareModel(t, dirs, 120, 36)
	got := m.compare.diff
	if len(got[1]) == 0 || got[1][0] != "critic_penalty=true→false" || got[0][0] != "critic_penalty=true" {
		t.Errorf("differs %q: the live change is not first", got)
	}
	// At 80 columns the setting wraps whole rather than being cut.
	if sc := screen(compareModel(t, dirs, 80, 24)); !strings.Contains(sc, "critic_penalty=true→false") {
		t.Errorf("the live change is cut at 80 columns:\n%s", sc)
	}
	press(m, "/")
	typeText(m, "critic_penalty=true→false")
	if labels := rowLabels(m.compare); len(labels) != 1 || labels[0] != "tau10" {
		t.Errorf("the filter on the live change keeps %q", labels)
	}
}

// TestWrapSettings: settings wrap whole onto the lines allowed; what does not fit is counted.
func TestWrapSettings(t *testing.T) {
	s := []string{"seed=1", "tau=0.05", "actor_lr=0.00001", "critic=paper", "critic_lr=0.0002"}
	for _, c := range []struct {
		w, lines int
		want     string
	}{
		{80, 3, "seed=1 tau=0.05 actor_lr=0.00001 critic=paper critic_lr=0.0002"},
		{20, 3, "seed=1 tau=0.05\nactor_lr=0.00001\ncritic=paper +1"},
		{20, 1, "seed=1 tau=0.05 +3"},
		{12, 1, "seed=1 +4"},
		{6, 2, "seed=1\ntau=0…"},
	} {
		got := wrapSettings(s, c.w, c.lines)
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("w %d, %d lines: %q, want %q", c.w, c.lines, got, c.want)
		}
	}
}

// TestCompareExport: e in the compare view writes the overlays of the runs it draws (PNG and
// SVG, against its x-axis) and one CSV of every run's curves into exports/, and says where.
func TestCompareExport(t *testing.T) {
	m := compareModel(t, compareFixture(t), 120, 36)
	press(m, "/")
	typeText(m, "tau10")
	press(m, "enter", "w")
	_, cmd := m.Update(keyMsg("e"))
	if cmd == nil {
		t.Fatalf("e gave no command: %+v", m.msg)
	}
	msg := cmd().(exportedMsg)
	if msg.err != nil {
		t.Fatal(msg.err)
	}
	m.Update(msg)
	dir := export.Dir(msg.files)
	if !strings.HasPrefix(dir, filepath.Join(exportsDir, "compare-")) || !strings.Contains(m.msg.text, "exported 5 files to "+dir) {
		t.Errorf("files %q, message %q", msg.files, m.msg.text)
	}
	csv, err := os.ReadFile(filepath.Join(dir, "curves.csv"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"run,dir,series,step,wall,value\n", "\ntau05,runs/tau05,val_optimality_ratio,100,2.5,", "\ntau10-seed2,runs/tau10-seed2,reward_ema,500,"} {
		if !strings.Contains(string(csv), want) {
			t.Errorf("curves.csv lacks %q", want)
		}
	}
	svg, err := os.ReadFile(filepath.Join(dir, "val.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for want, in := range map[string]bool{">training time (s)</text>": true, ">tau10</text>": true, ">tau05</text>": false} {
		if strings.Contains(string(svg), want) != in {
			t.Errorf("val.svg contains %q: %v, want %v (drawn: the runs the filter keeps, against time)", want, !in, in)
		}
	}
}
