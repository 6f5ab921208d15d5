package ui

import (
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"spg-tui/experiments/enginetest"
	"spg-tui/run"
	"spg-tui/run/runlog"
)

// A run written by the version before the run contract moved to package run (see
// ../testdata/prev-run/README.md) opens read-only with its curves, events and title.
func TestViewRunOfThePreviousVersion(t *testing.T) {
	for _, tc := range []struct{ name, title string }{
		{"mwm5", "SPG+Matching · MWM-5"}, {"sort5", "SPG+Sequential · Sort-5"},
	} {
		r, err := runlog.Open(filepath.Join("..", "testdata", "prev-run", tc.name))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		m := newModel(r, enginetest.Start, false, true)
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 36})
		m.poll()
		if got := len(m.ctx.data.train.step); got != 4 {
			t.Errorf("%s: %d training summaries, want 4", tc.name, got)
		}
		if got := len(m.ctx.data.eval.step); got != 2 {
			t.Errorf("%s: %d validations, want 2", tc.name, got)
		}
		if m.ctx.status.State != run.StateDone || m.ctx.status.Step != 20 || m.ctx.cfg.Model != run.DefaultModel(m.ctx.cfg.Task) {
			t.Errorf("%s: status %+v, model %q", tc.name, m.ctx.status, m.ctx.cfg.Model)
		}
		sc := screen(m)
		for _, want := range []string{tc.title, "viewing, read-only", "set tau 0.05 → 0.1", "1/8"} {
			if !strings.Contains(sc, want) {
				t.Errorf("%s: the view lacks %q:\n%s", tc.name, want, sc)
			}
		}
	}
}
