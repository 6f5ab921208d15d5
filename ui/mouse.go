package ui

import (
	"math"

	tea "charm.land/bubbletea/v2"

	"spg-tui/ui/draw"
)

// chartArea is where a pane's last rendering drew a chart, in rows of the pane's body: its
// legend's row, and the rows [top, bottom) of its plot and the axis row under it, over the x
// range [x0, x1].
type chartArea struct {
	chart       chartSet
	legend      int
	top, bottom int
	x0, x1      float64
}

// click answers a left click in the main view: on a chart's plot or axis row it puts the
// cursor at the step under the pointer, on a chart's legend it switches that chart between a
// linear and a log scale. Clicks elsewhere do nothing.
func (m *model) click(msg tea.MouseClickMsg) {
	if msg.Button != tea.MouseLeft || m.view != viewMain || m.dialog != nil || m.showHelp || m.params.editing {
		return
	}
	if m.width < minWidth || m.height < minHeight {
		return
	}
	l := computeLayout(m.width, m.height)
	panes := []struct {
		y0, w int
		areas []chartArea
	}{
		{headerLines, l.reward.w, m.reward.areas},
		{headerLines + l.reward.h, l.critic.w, m.critic.areas},
	}
	for _, p := range panes {
		// Inside the pane's frame: one cell of border on each side.
		row, col, inner := msg.Y-p.y0-1, msg.X-1, p.w-2
		if msg.X >= p.w || col < 0 || col >= inner {
			continue
		}
		for _, a := range p.areas {
			switch {
			case row == a.legend:
				m.setLogScale(m.ctx.logScale ^ a.chart)
				return
			case row >= a.top && row < a.bottom:
				m.cursorAtColumn(col-draw.PlotLeft, inner-draw.PlotLeft, a.x0, a.x1)
				return
			}
		}
	}
}

// cursorAtColumn puts the cursor at the training summary nearest the middle of plot column c
// of cols, over [x0, x1] on the current x-axis; a click left of the plot does nothing.
func (m *model) cursorAtColumn(c, cols int, x0, x1 float64) {
	if c < 0 || c >= cols || x1 <= x0 {
		return
	}
	// A chart of cols columns draws cols+1 points (draw.Chart.Render): column c holds x in
	// [x0 + c dx, x0 + (c+1) dx).
	x := x0 + (float64(c)+0.5)*(x1-x0)/float64(cols+1)
	d := m.ctx.data
	steps, xs := d.cursorSteps(), d.cursorSteps()
	if m.ctx.wallX {
		xs = d.train.wall
		if len(d.train.step) == 0 {
			xs = d.eval.wall
		}
	}
	best := -1
	for i := range min(len(steps), len(xs)) {
		if best < 0 || math.Abs(xs[i]-x) < math.Abs(xs[best]-x) {
			best = i
		}
	}
	if best < 0 {
		m.fail("no step to put the cursor on yet")
		return
	}
	m.setCursor(int(steps[best]))
}
