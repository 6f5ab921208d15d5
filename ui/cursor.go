package ui

import (
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"

	"spg-tui/run"
	"spg-tui/ui/draw"
)

// stepCursor is the step cursor. Off, the panes follow the run; on, every chart marks its step
// and reads its values there, and the Q scatter, the sample and M show the validation at or
// before it. It stays where it was put while the run goes on.
type stepCursor struct {
	on   bool
	step int
}

// maxCount bounds the count typed before a cursor key (30[ moves 30 summaries back).
const maxCount = 9999

// shownVal is the validation the scatter, sample and M panes show, and its step: the latest
// kept, or the one at or before the cursor; nil when there is none.
func (c *programContext) shownVal() (*run.Eval, int) {
	if c.cursor.on {
		return c.data.vals.at(c.cursor.step)
	}
	return c.data.vals.latest()
}

// atOrBefore is the index of the last of the ascending xs at or before x, -1 when none is.
func atOrBefore(xs []float64, x float64) int {
	i, found := slices.BinarySearch(xs, x)
	if found {
		// The last of equal steps (a resumed run repeats none, but a view may).
		for i+1 < len(xs) && xs[i+1] == x {
			i++
		}
		return i
	}
	return i - 1
}

// cursorMark is the cursor on the x-axis of the charts: at its step, or at the training time
// of the summary (or validation) at or before it.
func (c *programContext) cursorMark() draw.Cursor {
	if !c.cursor.on {
		return draw.Cursor{}
	}
	d, s := c.data, float64(c.cursor.step)
	if !c.wallX {
		return draw.Cursor{X: s, On: true, Label: draw.FmtInt(c.cursor.step)}
	}
	x := 0.0
	if i := atOrBefore(d.train.step, s); i >= 0 && i < len(d.train.wall) {
		x = d.train.wall[i]
	}
	if j := atOrBefore(d.eval.step, s); j >= 0 && j < len(d.eval.wall) {
		x = max(x, d.eval.wall[j])
	}
	return draw.Cursor{X: x, On: true, Label: draw.TimeLabel(x)}
}

// cursorSteps are the steps the cursor moves along: the training summaries', or the
// validations' before the first summary.
func (d *runData) cursorSteps() []float64 {
	if len(d.train.step) > 0 {
		return d.train.step
	}
	return d.eval.step
}

// count is the count typed before a cursor key, 1 when none was.
func (m *model) count() int { return max(m.typedCount, 1) }

// typeCount takes a digit typed in the main view as part of a count; it reports whether it
// did (a leading 0 is not a count).
func (m *model) typeCount(k tea.KeyPressMsg) bool {
	r := []rune(k.Text)
	if m.view != viewMain || len(r) != 1 || r[0] < '0' || r[0] > '9' || r[0] == '0' && m.typedCount == 0 {
		return false
	}
	m.typedCount = min(m.typedCount*10+int(r[0]-'0'), maxCount)
	m.info("count %d: [ ] move the cursor %d training summaries, { } %d validations", m.typedCount, m.typedCount, m.typedCount)
	return true
}

// moveCursor moves the cursor n training summaries on (back when n < 0); off, it starts from
// the latest.
func (m *model) moveCursor(n int) {
	d := m.ctx.data
	steps := d.cursorSteps()
	if len(steps) == 0 {
		m.fail("no step to put the cursor on yet")
		return
	}
	i := len(steps) - 1
	if m.ctx.cursor.on {
		i = max(atOrBefore(steps, float64(m.ctx.cursor.step)), 0)
	}
	m.setCursor(int(steps[min(max(i+n, 0), len(steps)-1)]))
}

// jumpVal moves the cursor n validations on (back when n < 0). Back, the first jump from a
// cursor between validations (or off) goes to the one at or before it.
func (m *model) jumpVal(n int) {
	vs := m.ctx.data.eval.step
	if len(vs) == 0 {
		m.fail("no validation yet")
		return
	}
	cur := m.ctx.data.lastStep
	if m.ctx.cursor.on {
		cur = m.ctx.cursor.step
	}
	j := atOrBefore(vs, float64(cur))
	if n < 0 && (j < 0 || vs[j] != float64(cur) || !m.ctx.cursor.on) {
		n++
	}
	m.setCursor(int(vs[min(max(j+n, 0), len(vs)-1)]))
}

// setCursor puts the cursor at step and says where it is.
func (m *model) setCursor(step int) {
	m.ctx.cursor = stepCursor{on: true, step: step}
	m.ctx.displayVer++
	msg := fmt.Sprintf("cursor at step %s", draw.FmtInt(step))
	if _, vs := m.ctx.shownVal(); vs != step && vs > 0 {
		msg += fmt.Sprintf(", validation of step %s", draw.FmtInt(vs))
	}
	m.info("%s (esc follows the run)", msg)
}

// cursorOff lets the panes follow the run again; it reports whether the cursor was on.
func (m *model) cursorOff() bool {
	if !m.ctx.cursor.on {
		return false
	}
	m.ctx.cursor = stepCursor{}
	m.ctx.displayVer++
	m.info("cursor off: following the run")
	return true
}

// cursorBindings are the cursor's keys in the main view: [ ] by a training summary, { } by a
// validation, each times the count typed before it.
func (m *model) cursorBindings() []binding {
	return []binding{
		bind([]string{"["}, "[", "cursor: back", colViews, cmdless(func() { m.moveCursor(-m.count()) })),
		bind([]string{"]"}, "]", "cursor: forward", colViews, cmdless(func() { m.moveCursor(m.count()) })),
		bind([]string{"{"}, "{", "cursor: back a validation", colViews, cmdless(func() { m.jumpVal(-m.count()) })),
		bind([]string{"}"}, "}", "cursor: next validation", colViews, cmdless(func() { m.jumpVal(m.count()) })),
		bind([]string{"esc"}, "esc", "cursor off (follow)", colViews, cmdless(func() { m.cursorOff() })),
	}
}

// readout is a pane title with the cursor's readout: the first of readouts that fits in a
// frame of w columns, or the name alone when the cursor is off or none fits.
func readout(name string, on bool, w int, readouts ...string) string {
	if !on {
		return name
	}
	// draw.Frame keeps a title of at most w-5 columns.
	for _, r := range readouts {
		if t := name + " " + string(draw.CursorRune) + " " + r; len([]rune(t)) <= w-5 {
			return t
		}
	}
	return name + " " + string(draw.CursorRune)
}

// valueAt is y[i] formatted, "—" when i is out of y.
func valueAt(y []float64, i int) string {
	if i < 0 || i >= len(y) {
		return "—"
	}
	return draw.FmtNum(y[i])
}

// evalReadout is the validation metric at or before the cursor: "val 0.985", or
// "val@250 0.985" when it was taken before the cursor's step.
func (c *programContext) evalReadout() string {
	d := c.data
	j := atOrBefore(d.eval.step, float64(c.cursor.step))
	if j < 0 {
		return "val —"
	}
	if s := int(d.eval.step[j]); s != c.cursor.step {
		return fmt.Sprintf("val@%s %s", draw.FmtInt(s), draw.FmtNum(d.eval.metric[j]))
	}
	return "val " + draw.FmtNum(d.eval.metric[j])
}

// trainAtCursor is the index of the training summary at or before the cursor, -1 when none is.
func (c *programContext) trainAtCursor() int {
	return atOrBefore(c.data.train.step, float64(c.cursor.step))
}
