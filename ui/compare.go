package ui

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"charm.land/lipgloss/v2/table"

	"spg-tui/run"
)

// Orders of the compare view's runs table.
const (
	sortOpened = iota // as the runs were named
	sortBest
	sortLast
	sortRate
	sortOrders
)

var sortNames = []string{"as opened", "best val", "last val", "steps/s"}

// compareView overlays the validation and reward curves of several runs (tui --view DIR...)
// and tabulates them: what differs between their configurations, their best, last, lowest and
// highest validation scores, their progress and speed. Live runs keep updating.
type compareView struct {
	paneBase
	runs  []*compareRun
	diff  []string // each run's differing configuration values
	sel   int      // the selected run, in table order
	order int
	wallX bool // x-axis is training time, not steps
	ver   int  // local changes: selection, pins, order, axis, records
}

func newCompareView(ctx *programContext, runs []*compareRun) *compareView {
	return &compareView{paneBase: paneBase{ctx: ctx}, runs: runs, diff: differing(runs)}
}

// poll takes every run's new records; it returns the first error met.
func (v *compareView) poll() error {
	var first error
	for _, r := range v.runs {
		moved, err := r.poll(maxRecordsPerTick)
		if moved {
			v.ver++
		}
		if err != nil && first == nil {
			first = fmt.Errorf("%s: %v", r.label, err)
		}
	}
	return first
}

// close closes the runs' metrics files.
func (v *compareView) close() {
	for _, r := range v.runs {
		r.eng.Stop()
	}
}

// Bindings implements pane: select, hide, pin and sort runs, and switch the x-axis. They come
// first while the view is shown.
func (v *compareView) Bindings() []binding {
	changed := func(f func()) func() tea.Cmd {
		return cmdless(func() {
			f()
			v.ver++
		})
	}
	n := len(v.runs)
	return []binding{
		bind([]string{"up"}, "↑", "select run", colViews, changed(func() { v.sel = (v.sel - 1 + n) % n })),
		bind([]string{"down"}, "↓", "select run", colViews, changed(func() { v.sel = (v.sel + 1) % n })),
		bind([]string{"h"}, "h", "hide/show the run", colViews, changed(func() { r := v.ordered()[v.sel]; r.hidden = !r.hidden })),
		bind([]string{"p"}, "p", "pin/unpin the run (first, drawn on top)", colViews, changed(v.togglePin)),
		bind([]string{"s"}, "s", "sort the runs", colViews, changed(func() { v.order = (v.order + 1) % sortOrders })),
		bind([]string{"w"}, "w", "x-axis: steps / training time", colViews, changed(func() { v.wallX = !v.wallX })),
	}
}

// togglePin pins or unpins the selected run, keeping it selected.
func (v *compareView) togglePin() {
	r := v.ordered()[v.sel]
	r.pinned = !r.pinned
	v.sel = slices.Index(v.ordered(), r)
}

// ordered is the runs in table order: pinned runs first, then by the chosen order (best first).
func (v *compareView) ordered() []*compareRun {
	out := slices.Clone(v.runs)
	key := func(r *compareRun) float64 {
		switch v.order {
		case sortBest, sortLast:
			x := r.best()
			if v.order == sortLast {
				x = r.last()
			}
			if math.IsNaN(x) {
				return math.Inf(1)
			}
			if r.metric().Maximize {
				return -x
			}
			return x
		case sortRate:
			return -r.rate()
		}
		return 0
	}
	slices.SortStableFunc(out, func(a, b *compareRun) int {
		if a.pinned != b.pinned {
			if a.pinned {
				return -1
			}
			return 1
		}
		ka, kb := key(a), key(b)
		switch {
		case ka < kb:
			return -1
		case ka > kb:
			return 1
		}
		return 0
	})
	return out
}

// View implements pane.
func (v *compareView) View() string {
	return v.cached([4]int{v.ver, v.ctx.displayVer}, func() string {
		title := fmt.Sprintf("Compare %d runs", len(v.runs))
		return frame(title, v.body(v.w-2, v.h-2), v.w, v.h, v.ctx.st, true)
	})
}

func (v *compareView) body(w, h int) []string {
	st := v.ctx.st
	rows := v.ordered()
	tbl := v.table(rows, w)
	axis := "steps"
	if v.wallX {
		axis = "training time"
	}
	lines := []string{st.dim.Render(fmt.Sprintf("↑↓ select · h hide · p pin · s sort: %s · w x-axis: %s · read-only", sortNames[v.order], axis))}
	lines = append(lines, v.legend(rows, w))
	chartH := h - len(lines) - len(tbl) - 3 // two labels and the axis
	if chartH >= 4 {
		x0, x1 := v.xRange()
		valH := (chartH + 1) / 2
		name := "val"
		if len(v.runs) > 0 {
			name += " " + metricLabel(v.runs[0].metric().Name)
		}
		lines = append(lines, st.bold.Render(name))
		lines = append(lines, v.chart(rows, x0, x1, true).render(w, valH, "waiting for the first evaluations…")...)
		lines = append(lines, st.bold.Render(fmt.Sprintf("train reward, EMA %.2f", v.ctx.smoothing)))
		lines = append(lines, v.chart(rows, x0, x1, false).render(w, chartH-valH, "waiting for the first training summaries…")...)
		unit := stepsLabel
		if v.wallX {
			unit = timeLabel
		}
		lines = append(lines, axisRowUnit(w, x0, x1, nil, unit, st))
	}
	return append(lines, tbl...)
}

// header is the screen's top two lines while the view is shown: how many runs, how many still
// train, and where they are.
func (v *compareView) header(w int) string {
	st := v.ctx.st
	live, done := 0, 0
	for _, r := range v.runs {
		switch {
		case r.eng.writer > 0:
			live++
		case r.eng.status.State == run.StateDone:
			done++
		}
	}
	sep := st.dim.Render(" · ")
	line1 := st.title.Render(fmt.Sprintf("Compare %d runs", len(v.runs))) + sep + st.dim.Render("◇ viewing, read-only") + sep +
		fmt.Sprintf("%d training live · %d done", live, done)
	dirs := map[string]bool{}
	var parents []string
	for _, r := range v.runs {
		if p := filepath.Dir(filepath.Clean(r.eng.info.Dir)); !dirs[p] {
			dirs[p] = true
			parents = append(parents, p)
		}
	}
	line2 := st.dim.Render("in " + strings.Join(parents, ", "))
	return fitLine(line1, w) + "\n" + spread(line2, st.dim.Render("? help"), w)
}

// xRange is the x-axis: from 0 to the furthest step (or training time) of the shown runs.
func (v *compareView) xRange() (x0, x1 float64) {
	for _, r := range v.runs {
		if r.hidden {
			continue
		}
		if v.wallX {
			x1 = max(x1, r.wall)
		} else {
			x1 = max(x1, float64(r.eng.status.Step))
		}
	}
	return 0, max(x1, 1)
}

// glyph is the look of run i's curves: a colour and a glyph, so that they differ without
// colour too (the ablation view's variants look the same).
func (v *compareView) glyph(r *compareRun) (chars int, color int) {
	i := slices.Index(v.runs, r)
	return i % len(variantChars), seriesColors[i%len(seriesColors)]
}

// chart overlays the shown runs' validation curves (val) or smoothed rewards, pinned runs last
// so that they are drawn on top.
func (v *compareView) chart(rows []*compareRun, x0, x1 float64, val bool) chart {
	st := v.ctx.st
	c := chart{x0: x0, x1: x1, axis: st.graphColor(colDimGray)}
	for i := len(rows) - 1; i >= 0; i-- {
		r := rows[i]
		if r.hidden {
			continue
		}
		g, col := v.glyph(r)
		d := r.data
		x, y := d.eval.step, d.eval.metric
		if v.wallX {
			x = d.eval.wall
		}
		if !val {
			x, y = d.train.step, d.train.get("reward_mean")
			if v.wallX {
				x = d.train.wall
			}
			sm := make([]float64, len(y))
			smooth(sm, y, v.ctx.smoothing)
			y = sm
		}
		c.curves = append(c.curves, curve{x: x, y: y, chars: variantChars[g], color: st.graphColor(col)})
	}
	return c
}

// legend names the shown runs' curves by glyph and colour.
func (v *compareView) legend(rows []*compareRun, w int) string {
	st := v.ctx.st
	var parts []string
	for _, r := range rows {
		if r.hidden {
			continue
		}
		g, col := v.glyph(r)
		ch := variantChars[g].Horizontal
		parts = append(parts, st.fg(col).Render(ch+ch)+" "+r.label)
	}
	if len(parts) == 0 {
		return st.dim.Render("every run is hidden (h shows the selected one)")
	}
	return fitLine(strings.Join(parts, "  "), w)
}

// Columns of the runs table, most important first: narrow screens drop them from the end.
var compareColumns = []struct {
	head string
	cell func(v *compareView, r *compareRun, i int) string
}{
	{"", func(v *compareView, r *compareRun, i int) string { return runMarker(r, i == v.sel) }},
	{"run", func(_ *compareView, r *compareRun, _ int) string { return r.label }},
	{"best", func(_ *compareView, r *compareRun, _ int) string { return fmtScore(r.best()) }},
	{"last", func(_ *compareView, r *compareRun, _ int) string { return fmtScore(r.last()) }},
	{"steps", func(_ *compareView, r *compareRun, _ int) string {
		return fmtInt(r.eng.status.Step) + "/" + fmtInt(r.eng.status.TotalSteps)
	}},
	{"steps/s", func(_ *compareView, r *compareRun, _ int) string { return fmt.Sprintf("%.1f", r.rate()) }},
	{"differs", func(v *compareView, r *compareRun, _ int) string { return v.diff[slices.Index(v.runs, r)] }},
	{"min", func(_ *compareView, r *compareRun, _ int) string { return fmtScore(minOf(r.data.eval.metric)) }},
	{"max", func(_ *compareView, r *compareRun, _ int) string { return fmtScore(maxOf(r.data.eval.metric)) }},
	{"wall", func(_ *compareView, r *compareRun, _ int) string {
		return timeLabel(r.wall)
	}},
	{"model", func(_ *compareView, r *compareRun, _ int) string { return r.eng.info.Model }},
	{"task", func(_ *compareView, r *compareRun, _ int) string { return string(r.eng.cfg.Task) }},
	{"N", func(_ *compareView, r *compareRun, _ int) string { return itoa(r.eng.cfg.N) }},
	{"recipe", func(_ *compareView, r *compareRun, _ int) string { return orDash(r.eng.cfg.Recipe) }},
}

// runMarker says whether a run is selected, pinned, hidden or live.
func runMarker(r *compareRun, selected bool) string {
	m := " "
	if selected {
		m = "›"
	}
	switch {
	case r.hidden:
		m += "◌"
	case r.pinned:
		m += "●"
	default:
		m += " "
	}
	if r.eng.writer > 0 {
		m += "↻"
	}
	return m
}

// table is the runs table in order, with as many columns as fit in w; the selected run is
// highlighted, hidden ones dimmed.
func (v *compareView) table(rows []*compareRun, w int) []string {
	st := v.ctx.st
	cells := make([][]string, len(rows))
	for i, r := range rows {
		for _, c := range compareColumns {
			cells[i] = append(cells[i], c.cell(v, r, i))
		}
	}
	heads := make([]string, len(compareColumns))
	for j, c := range compareColumns {
		heads[j] = c.head
	}
	// Keep the columns that fit, each as wide as its widest cell and one space apart.
	ncol, used := 0, 0
	for j := range compareColumns {
		cw := lipgloss.Width(heads[j])
		for i := range cells {
			cw = max(cw, lipgloss.Width(cells[i][j]))
		}
		if cw == 0 {
			continue
		}
		if used+cw+1 > w && j > 2 {
			break
		}
		used += cw + 1
		ncol = j + 1
	}
	t := table.New().Headers(heads[:ncol]...).
		Border(lipgloss.HiddenBorder()).BorderTop(false).BorderBottom(false).BorderLeft(false).BorderRight(false).
		BorderHeader(false).BorderColumn(true).
		StyleFunc(func(row, col int) lipgloss.Style {
			switch {
			case row == table.HeaderRow:
				return st.bold
			case row == v.sel:
				return st.sel
			case rows[row].hidden:
				return st.dim
			}
			return lipgloss.NewStyle()
		})
	for _, c := range cells {
		t.Row(c[:ncol]...)
	}
	return strings.Split(t.Render(), "\n")
}

// fmtScore is a validation score, "—" before the first.
func fmtScore(x float64) string {
	if math.IsNaN(x) {
		return "—"
	}
	return fmt.Sprintf("%.4f", x)
}

func minOf(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	return slices.Min(v)
}

func maxOf(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	return slices.Max(v)
}
