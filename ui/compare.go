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
	"github.com/charmbracelet/x/ansi"

	"spg-tui/run"
	"spg-tui/ui/draw"
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
// and tabulates them: what differs between their settings (live changes included), their
// last, lowest and highest validation scores, their progress and speed. Live runs keep
// updating; / filters them by name or setting.
type compareView struct {
	paneBase
	runs   []*compareRun
	diff   [][]string // each run's differing settings
	metric string     // the runs' validation metric (its short name), "" when they measure different ones
	sel    int        // the selected run, in table order
	order  int
	wallX  bool // x-axis is training time, not steps
	filter runFilter
	ver    int // local changes: selection, pins, order, axis, filter, records
}

func newCompareView(ctx *programContext, runs []*compareRun) *compareView {
	v := &compareView{paneBase: paneBase{ctx: ctx}, runs: runs, diff: differing(runs), filter: newRunFilter()}
	for i, r := range runs {
		if m := r.metric().Short; i == 0 {
			v.metric = m
		} else if m != v.metric {
			v.metric = ""
			break
		}
	}
	return v
}

// poll takes every run's new records; it returns the first error met.
func (v *compareView) poll() error {
	var first error
	moved := false
	for _, r := range v.runs {
		m, err := r.poll(maxRecordsPerTick)
		moved = moved || m
		if err != nil && first == nil {
			first = fmt.Errorf("%s: %v", r.label, err)
		}
	}
	if moved {
		// A live change tells a setting that may now differ.
		v.diff = differing(v.runs)
		v.ver++
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
	step := func(d int) func() {
		return func() {
			if n := len(v.rows()); n > 0 {
				v.sel = (v.sel + d + n) % n
			}
		}
	}
	return []binding{
		bind([]string{"up"}, "↑", "select run", colViews, changed(step(-1))),
		bind([]string{"down"}, "↓", "select run", colViews, changed(step(1))),
		bind([]string{"h"}, "h", "hide/show the run", colViews, changed(func() {
			if r := v.selected(); r != nil {
				r.hidden = !r.hidden
			}
		})),
		bind([]string{"p"}, "p", "pin/unpin the run (first, drawn on top)", colViews, changed(v.togglePin)),
		bind([]string{"s"}, "s", "sort the runs", colViews, changed(func() { v.order = (v.order + 1) % sortOrders })),
		bind([]string{"w"}, "w", "x-axis: steps / training time", colViews, changed(func() { v.wallX = !v.wallX })),
		bind([]string{"/"}, "/", "filter the runs by name or setting", colViews, v.startFilter),
		bind([]string{"esc"}, "esc", "clear the filter", colViews, changed(v.clearFilter)),
	}
}

// selected is the selected run, nil when the filter leaves none.
func (v *compareView) selected() *compareRun {
	rows := v.rows()
	if len(rows) == 0 {
		return nil
	}
	return rows[min(v.sel, len(rows)-1)]
}

// togglePin pins or unpins the selected run, keeping it selected.
func (v *compareView) togglePin() {
	r := v.selected()
	if r == nil {
		return
	}
	r.pinned = !r.pinned
	v.sel = slices.Index(v.rows(), r)
}

// rows is the runs the filter keeps, in table order.
func (v *compareView) rows() []*compareRun {
	return slices.DeleteFunc(v.ordered(), func(r *compareRun) bool { return !v.filter.matches(r) })
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
		return draw.Frame(title, v.body(v.w-2, v.h-2), v.w, v.h, v.ctx.st, true)
	})
}

func (v *compareView) body(w, h int) []string {
	st := v.ctx.st
	rows := v.rows()
	axis := "steps"
	if v.wallX {
		axis = "training time"
	}
	keys := firstFit(w, fmt.Sprintf("↑↓ select · h hide · p pin · s sort: %s · w x-axis: %s · / filter · e export · read-only", sortNames[v.order], axis),
		fmt.Sprintf("↑↓ h p · s sort: %s · w x-axis: %s · / filter · e export", sortNames[v.order], axis))
	lines := []string{st.Dim.Render(keys)}
	if f := v.filter.line(len(rows), len(v.runs), st); f != "" {
		lines = append(lines, f)
	}
	if len(rows) == 0 {
		return append(lines, "", draw.Center(st.Dim.Render("no run matches the filter (esc clears it)"), w))
	}
	v.sel = min(v.sel, len(rows)-1)
	// The differs cells wrap onto the lines the charts can spare (minChartRows and their three
	// labels), at least one.
	spare := h - len(lines) - 1 - 3 - minChartRows - 2 // the legend, labels, charts, head and shared line
	tbl := v.table(rows, w, min(max(spare/len(rows), 1), maxDiffLines))
	drawn, others := v.drawn(rows)
	lines = append(lines, v.legend(drawn, w))
	chartH := h - len(lines) - len(tbl) - 3 // two labels and the axis
	if chartH >= minChartRows {
		x0, x1 := v.xRange(drawn)
		valH := (chartH + 1) / 2
		sel := rows[v.sel]
		name := "val " + metricLabel(sel.metric().Name)
		if others > 0 {
			// One axis has one unit: runs of another task are left out, not drawn on this scale.
			name += st.Dim.Render(fmt.Sprintf(" · %s runs only (%d of another task: select one to draw them)", sel.eng.Config().Task, others))
		}
		lines = append(lines, st.Bold.Render(name))
		lines = append(lines, v.chart(drawn, x0, x1, true).Render(w, valH, "waiting for the first evaluations…")...)
		lines = append(lines, st.Bold.Render(fmt.Sprintf("train reward, EMA %.2f", v.ctx.smoothing)))
		lines = append(lines, v.chart(drawn, x0, x1, false).Render(w, chartH-valH, "waiting for the first training summaries…")...)
		unit := draw.StepsLabel
		if v.wallX {
			unit = draw.TimeLabel
		}
		lines = append(lines, draw.AxisRowUnit(w, x0, x1, nil, unit, st))
	}
	return append(lines, tbl...)
}

// drawn is the rows whose curves the charts draw: those shown (not hidden) of the selected run's
// task, whose validation metric and reward share its units; others counts the shown runs of
// other tasks, left out.
func (v *compareView) drawn(rows []*compareRun) (drawn []*compareRun, others int) {
	task := rows[v.sel].eng.Config().Task
	for _, r := range rows {
		switch {
		case r.hidden:
		case r.eng.Config().Task != task:
			others++
		default:
			drawn = append(drawn, r)
		}
	}
	return drawn, others
}

// header is the screen's top two lines while the view is shown: how many runs, how many still
// train, and where they are.
func (v *compareView) header(w int) string {
	st := v.ctx.st
	live, done := 0, 0
	for _, r := range v.runs {
		switch {
		case r.eng.Writer() > 0:
			live++
		case r.eng.Status().State == run.StateDone:
			done++
		}
	}
	sep := st.Dim.Render(" · ")
	line1 := st.Title.Render(fmt.Sprintf("Compare %d runs", len(v.runs))) + sep + st.Dim.Render("◇ viewing, read-only") + sep +
		fmt.Sprintf("%d training live · %d done", live, done)
	dirs := map[string]bool{}
	var parents []string
	for _, r := range v.runs {
		if p := filepath.Dir(filepath.Clean(r.eng.Info().Dir)); !dirs[p] {
			dirs[p] = true
			parents = append(parents, p)
		}
	}
	line2 := st.Dim.Render("in " + strings.Join(parents, ", "))
	return draw.FitLine(line1, w) + "\n" + draw.Spread(line2, st.Dim.Render("? help"), w)
}

// xRange is the x-axis: from 0 to the furthest step (or training time) of the drawn runs.
func (v *compareView) xRange(drawn []*compareRun) (x0, x1 float64) {
	for _, r := range drawn {
		if v.wallX {
			x1 = max(x1, r.wall)
		} else {
			x1 = max(x1, float64(r.eng.Status().Step))
		}
	}
	return 0, max(x1, 1)
}

// glyph is the look of run i's curves: a colour and a glyph, so that they differ without
// colour too (the ablation view's variants look the same).
func (v *compareView) glyph(r *compareRun) (chars int, color int) {
	i := slices.Index(v.runs, r)
	return i % len(variantChars), draw.SeriesColors[i%len(draw.SeriesColors)]
}

// chart overlays the drawn runs' validation curves (val) or smoothed rewards, pinned runs last
// so that they are drawn on top.
func (v *compareView) chart(drawn []*compareRun, x0, x1 float64, val bool) draw.Chart {
	st := v.ctx.st
	c := draw.Chart{X0: x0, X1: x1, Axis: st.GraphColor(draw.ColDimGray)}
	for i := len(drawn) - 1; i >= 0; i-- {
		r := drawn[i]
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
			draw.Smooth(sm, y, v.ctx.smoothing)
			y = sm
		}
		c.Curves = append(c.Curves, draw.Curve{X: x, Y: y, Chars: variantChars[g], Color: st.GraphColor(col)})
	}
	return c
}

// legend names the drawn runs' curves by glyph and colour.
func (v *compareView) legend(drawn []*compareRun, w int) string {
	st := v.ctx.st
	var parts []string
	for _, r := range drawn {
		g, col := v.glyph(r)
		ch := variantChars[g].Horizontal
		parts = append(parts, st.Fg(col).Render(ch+ch)+" "+r.label)
	}
	if len(parts) == 0 {
		return st.Dim.Render("every run is hidden (h shows the selected one)")
	}
	return draw.FitLine(strings.Join(parts, "  "), w)
}

// compareColumn is a column of the runs table: its head (given the metric's short name, "" when
// the runs measure different metrics) and its cell for run r in row i.
type compareColumn struct {
	head func(metric string) string
	cell func(v *compareView, r *compareRun, i int) string
	// shared columns are left out when every run has the same value, told once above the table.
	shared bool
}

// fixed is a column whose head does not depend on the metric.
func fixed(head string) func(string) string { return func(string) string { return head } }

// scored is a column of validation scores: the metric in its head, or in every cell when the
// runs measure different ones (an MWM ratio beside a TSP tour length).
func scored(head string, score func(r *compareRun) float64) compareColumn {
	return compareColumn{
		head: func(metric string) string {
			if metric == "" {
				return head
			}
			return head + " " + metric
		},
		cell: func(v *compareView, r *compareRun, _ int) string { return withMetric(v, r, fmtScore(score(r))) },
	}
}

// withMetric is a score's cell: the score, and its metric when the runs measure different ones.
func withMetric(v *compareView, r *compareRun, score string) string {
	if v.metric == "" {
		return score + " " + r.metric().Short
	}
	return score
}

// Columns of the runs table, most important first: narrow screens drop them from the end, and
// differs (diffColumn) is narrowed and wrapped to fit before a column after it is dropped. The
// model, task, N and recipe are shown when they differ between the runs, and told once above
// the table when they do not (shared).
var compareColumns = []compareColumn{
	{head: fixed(""), cell: func(v *compareView, r *compareRun, i int) string { return runMarker(r, i == v.sel) }},
	{head: fixed("run"), cell: func(_ *compareView, r *compareRun, _ int) string { return r.label }},
	scored("last", (*compareRun).last),
	scored("min", func(r *compareRun) float64 { return minOf(r.data.eval.metric) }),
	scored("max", func(r *compareRun) float64 { return maxOf(r.data.eval.metric) }),
	{head: fixed("differs"), cell: func(v *compareView, r *compareRun, _ int) string {
		return strings.Join(v.diff[slices.Index(v.runs, r)], " ")
	}},
	{head: fixed("steps"), cell: func(_ *compareView, r *compareRun, _ int) string {
		return draw.FmtInt(r.eng.Status().Step) + "/" + draw.FmtInt(r.eng.Status().TotalSteps)
	}},
	{head: fixed("steps/s"), cell: func(_ *compareView, r *compareRun, _ int) string { return fmt.Sprintf("%.1f", r.rate()) }},
	{head: fixed("recipe"), shared: true, cell: func(_ *compareView, r *compareRun, _ int) string { return orDash(r.eng.Config().Recipe) }},
	{head: fixed("model"), shared: true, cell: func(_ *compareView, r *compareRun, _ int) string { return r.eng.Info().Model }},
	{head: fixed("task"), shared: true, cell: func(_ *compareView, r *compareRun, _ int) string { return string(r.eng.Config().Task) }},
	{head: fixed("N"), shared: true, cell: func(_ *compareView, r *compareRun, _ int) string { return itoa(r.eng.Config().N) }},
	{head: fixed("wall"), cell: func(_ *compareView, r *compareRun, _ int) string {
		return draw.TimeLabel(r.wall)
	}},
}

// minChartRows is the fewest rows of the two charts together: fewer leave them out.
const minChartRows = 4

// Fitting the runs table: the columns always kept, the one that shrinks, and how narrow it may
// get before it is dropped like the others.
const (
	keptColumns = 5 // the marker, the run and its last, lowest and highest scores
	diffColumn  = 5
	minDiffCols = 16
	maxDiffCols = 40 // the most differs asks for one setting; a longer one is cut
)

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
	if r.eng.Writer() > 0 {
		m += "↻"
	}
	return m
}

// table is the runs table in order, with as many columns as fit in w, under a line naming the
// model, task, size and recipe when every run has the same; the selected run is highlighted,
// hidden ones dimmed. A column too wide for what is left is dropped and the next
// ones tried, so that one wide column (differs, when recipes differ) never takes the rest with
// it; differs itself is given the room left once the columns after it are placed, its
// settings wrapped onto up to diffLines lines.
func (v *compareView) table(rows []*compareRun, w, diffLines int) []string {
	st := v.ctx.st
	cells := make([][]string, len(rows))
	for i, r := range rows {
		for _, c := range compareColumns {
			cells[i] = append(cells[i], c.cell(v, r, i))
		}
	}
	heads := make([]string, len(compareColumns))
	widths := make([]int, len(compareColumns))
	for j, c := range compareColumns {
		heads[j] = c.head(v.metric)
		widths[j] = lipgloss.Width(heads[j])
		for i := range cells {
			widths[j] = max(widths[j], lipgloss.Width(cells[i][j]))
		}
	}
	// Each column is one space from the next. Differs asks for room for its longest setting
	// (a setting is wrapped whole, never cut, where the screen allows).
	longest := 0
	for _, d := range v.diff {
		for _, set := range d {
			longest = max(longest, ansi.StringWidth(set))
		}
	}
	need := func(j int) int {
		if j == diffColumn {
			return min(widths[j], max(minDiffCols, min(longest, maxDiffCols))) + 1
		}
		return widths[j] + 1
	}
	var keep []int
	var shared []string
	used := 0
	for j := range compareColumns {
		if compareColumns[j].shared && sameCells(cells, j) {
			shared = append(shared, heads[j]+" "+cells[0][j])
			continue
		}
		if widths[j] == 0 || j >= keptColumns && used+need(j) > w {
			continue
		}
		keep = append(keep, j)
		used += need(j)
	}
	if slices.Contains(keep, diffColumn) {
		dw := min(widths[diffColumn], need(diffColumn)-1+max(w-used, 0))
		for i, r := range rows {
			cells[i][diffColumn] = wrapSettings(v.diff[slices.Index(v.runs, r)], dw, diffLines)
		}
	}
	pick := func(row []string) []string {
		out := make([]string, len(keep))
		for k, j := range keep {
			out[k] = row[j]
		}
		return out
	}
	t := table.New().Headers(pick(heads)...).
		Border(lipgloss.HiddenBorder()).BorderTop(false).BorderBottom(false).BorderLeft(false).BorderRight(false).
		BorderHeader(false).BorderColumn(true).
		StyleFunc(func(row, col int) lipgloss.Style {
			switch {
			case row == table.HeaderRow:
				return st.Bold
			case row == v.sel:
				return st.Sel
			case rows[row].hidden:
				return st.Dim
			}
			return lipgloss.NewStyle()
		})
	for _, c := range cells {
		t.Row(pick(c)...)
	}
	out := strings.Split(t.Render(), "\n")
	if len(shared) > 0 {
		out = append([]string{st.Dim.Render(draw.FitLine("every run: "+strings.Join(shared, " · "), w))}, out...)
	}
	return out
}

// sameCells reports whether every row has the same value in column j.
func sameCells(cells [][]string, j int) bool {
	for _, row := range cells {
		if row[j] != cells[0][j] {
			return false
		}
	}
	return true
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
