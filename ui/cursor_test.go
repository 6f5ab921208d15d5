package ui

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"spg-tui/envs"
	"spg-tui/run"
	"spg-tui/ui/draw"
)

// TestGoldenCursor moves the cursor 300 steps back (30 training summaries of 10 steps) on the
// fixture, which ends at step 400: every chart marks step 100 and reads its values in its
// title, and the scatter and the sample show the validation of step 100.
func TestGoldenCursor(t *testing.T) {
	for _, size := range [][2]int{{120, 36}, {80, 24}} {
		m := fixture(t, envs.TaskMWM, 10, size[0], size[1])
		press(m, "3", "0", "[")
		if !m.ctx.cursor.on || m.ctx.cursor.step != 100 {
			t.Fatalf("30[ from step 400: cursor %+v, want step 100", m.ctx.cursor)
		}
		golden(t, "screen_cursor_"+itoa(size[0])+"x"+itoa(size[1]), screen(m))
	}
}

// TestCursorShowsThatValidation: the panes that show a validation show the one at or before
// the cursor (its scatter and samples, not the latest's), and esc gives the latest back.
func TestCursorShowsThatValidation(t *testing.T) {
	m := fixture(t, envs.TaskMWM, 10, 120, 36)
	latest, _ := m.ctx.shownVal()
	press(m, "{", "{")
	if m.ctx.cursor.step != 350 {
		t.Fatalf("{ { from step 400: cursor at %d, want 350 (the latest validation, then the one before)", m.ctx.cursor.step)
	}
	press(m, "]") // step 360: still the validation of step 350
	ev, step := m.ctx.shownVal()
	if step != 350 || ev == latest || slices.Equal(ev.QHardScatter, latest.QHardScatter) {
		t.Fatalf("cursor at 360 shows the validation of step %d", step)
	}
	for name, view := range map[string]string{"scatter": m.scatter.View(), "sample": m.sample.View()} {
		if !strings.Contains(strip(view), "┊ step 350") {
			t.Errorf("the %s pane does not show the validation of step 350:\n%s", name, strip(view))
		}
	}
	if !strings.Contains(strip(m.reward.View()), "Reward ┊ step 360") || !strings.Contains(strip(m.critic.View()), "Critic loss ┊ 360 · total 0.0189") {
		t.Errorf("the charts do not read step 360:\n%s\n%s", strip(m.reward.View()), strip(m.critic.View()))
	}
	press(m, "m")
	if !strings.Contains(strip(m.sample.View()), "M at step 350") {
		t.Errorf("M does not follow the cursor:\n%s", strip(m.sample.View()))
	}
	press(m, "m", "esc")
	if ev, _ := m.ctx.shownVal(); m.ctx.cursor.on || ev != latest || strings.Contains(screen(m), "┊") {
		t.Errorf("esc did not give the latest validation back")
	}
	// Moves stop at the ends.
	press(m, "9", "9", "9", "[")
	if m.ctx.cursor.step != 10 {
		t.Errorf("999[ stops at %d, want the first summary, 10", m.ctx.cursor.step)
	}
	press(m, "5", "}")
	if m.ctx.cursor.step != 250 {
		t.Errorf("5} from step 10: %d, want 250", m.ctx.cursor.step)
	}
}

// TestCursorClick: a click on a chart puts the cursor at the step under the pointer, one on a
// chart's legend switches that chart to a log scale, in the main view only.
func TestCursorClick(t *testing.T) {
	m := fixture(t, envs.TaskMWM, 10, 120, 36)
	screen(m) // the panes know where their charts are once drawn
	a := m.critic.areas[0]
	cols := m.critic.w - 2 - draw.PlotLeft
	y := headerLines + computeLayout(120, 36).reward.h + 1 + a.top + 2
	// The middle of the plot is step 200 of 0 to 400.
	m.Update(tea.MouseClickMsg{X: 1 + draw.PlotLeft + cols/2, Y: y, Button: tea.MouseLeft})
	if !m.ctx.cursor.on || m.ctx.cursor.step < 190 || m.ctx.cursor.step > 210 {
		t.Errorf("a click in the middle of the critic chart: cursor %+v, want about step 200", m.ctx.cursor)
	}
	// The validation chart's legend.
	r := m.reward.areas[1]
	m.Update(tea.MouseClickMsg{X: 5, Y: headerLines + 1 + r.legend, Button: tea.MouseLeft})
	if m.ctx.logScale != chartVal || !strings.Contains(strip(m.reward.View()), "(log)") {
		t.Errorf("a click on the validation legend: log scale %v", m.ctx.logScale)
	}
	m.Update(tea.MouseClickMsg{X: 5, Y: headerLines + 1 + r.legend, Button: tea.MouseLeft})
	if m.ctx.logScale != 0 {
		t.Errorf("a second click left log scale %v", m.ctx.logScale)
	}
	press(m, "?")
	m.Update(tea.MouseClickMsg{X: 5, Y: headerLines + 1 + r.legend, Button: tea.MouseLeft})
	if m.ctx.logScale != 0 {
		t.Error("a click under the help changed a chart")
	}
}

// TestCursorInView: tui --view replays the validations' scatters and samples from
// metrics.jsonl, and the cursor shows them.
func TestCursorInView(t *testing.T) {
	dir, recs, _ := viewFixture(t)
	m := openView(t, dir, 120, 36)
	var first int
	for _, r := range recs {
		if r.Kind == run.KindEval && r.Split == "val" {
			first = r.Step
			break
		}
	}
	press(m, "9", "9", "{")
	if ev, step := m.ctx.shownVal(); ev == nil || step != first || !strings.Contains(strip(m.scatter.View()), "┊ step "+draw.FmtInt(first)) {
		t.Errorf("99{ in a view shows the validation of step %d, want the first, %d:\n%s", step, first, strip(m.scatter.View()))
	}
}

// TestValHistoryBounded: the validations kept whole are bounded in number, thinned from the
// oldest so that the whole run stays covered, and only the latest keep M.
func TestValHistoryBounded(t *testing.T) {
	var h valHistory
	sample := run.Sample{Perm: []int{0, 1}, M: make([]float32, 4)}
	for s := 1; s <= 3*maxKeptVals; s++ {
		h.add(s*10, &run.Eval{QHardScatter: []float64{1}, Samples: []run.Sample{sample}})
	}
	if len(h.vals) > maxKeptVals {
		t.Errorf("%d validations kept, more than %d", len(h.vals), maxKeptVals)
	}
	if _, step := h.at(15); step != 10 {
		t.Errorf("the first validation was let go (at 15: step %d)", step)
	}
	if _, step := h.latest(); step != 3*maxKeptVals*10 {
		t.Errorf("latest is step %d", step)
	}
	withM := 0
	for _, k := range h.vals {
		if k.ev.Samples[0].M != nil {
			withM++
		}
	}
	if withM > keptM {
		t.Errorf("%d validations keep M, more than %d", withM, keptM)
	}
	if ev, _ := h.at(5); ev != nil {
		t.Error("a validation before the first")
	}
	// A validation without a scatter or samples (a test split's) is not kept.
	n := len(h.vals)
	h.add(1e9, &run.Eval{})
	if len(h.vals) != n {
		t.Error("an empty validation was kept")
	}
	if sample.M == nil {
		t.Error("letting M go changed the record's sample")
	}
}
