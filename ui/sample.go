package ui

import (
	"fmt"
	"math"
	"strings"

	"charm.land/lipgloss/v2"

	"spg-tui/envs"
	"spg-tui/run"
	"spg-tui/ui/draw"
)

// samplePane draws one validation instance of the latest evaluation with the policy's solution,
// or the optimal one, with the run's task's sampleDrawer (for mwm the two point sets and the
// matching, for tsp the tour, for sort the input and output sequences); its score against the
// optimum is written underneath.
type samplePane struct {
	paneBase
	index   int
	optimal bool
	// matrix shows the actor's soft permutation M of the sample instead of its drawing.
	matrix bool
}

// Bindings implements pane: step through the samples, toggle the optimal solution.
func (p *samplePane) Bindings() []binding {
	return []binding{
		bind([]string{"left"}, "←", "previous sample", colViews, cmdless(func() { p.step(-1) })),
		bind([]string{"right"}, "→", "next sample", colViews, cmdless(func() { p.step(1) })),
		bind([]string{"o"}, "o", "show optimal solution", colViews, cmdless(func() { p.optimal = !p.optimal })),
		bind([]string{"m"}, "m", "show M / the sample", colViews, cmdless(func() { p.matrix = !p.matrix })),
	}
}

// step moves d samples on, around the latest evaluation's samples.
func (p *samplePane) step(d int) {
	if ev := p.ctx.data.latest; ev != nil && len(ev.Samples) > 0 {
		n := len(ev.Samples)
		p.index = (p.index + d + n) % n
	}
}

// View implements pane.
func (p *samplePane) View() string {
	mode := 0
	if p.optimal {
		mode = 1
	}
	title := "Sample"
	if p.matrix {
		mode, title = 2, "Soft permutation M"
	}
	return p.cached([4]int{p.ctx.data.evalVer, p.index, mode}, func() string {
		return draw.Frame(title, p.body(p.w-2, p.h-2), p.w, p.h, p.ctx.st, false)
	})
}

func (p *samplePane) body(w, h int) []string {
	ev := p.ctx.data.latest
	if ev == nil || len(ev.Samples) == 0 {
		lines := draw.BlankLines(w, h)
		if h > 0 {
			lines[h/2] = draw.Center("waiting for the first evaluation…", w)
		}
		return lines
	}
	if p.matrix {
		return p.matrixBody(w, h)
	}
	i := min(p.index, len(ev.Samples)-1)
	s := ev.Samples[i]
	perm, which := s.Perm, "policy"
	if p.optimal {
		perm, which = s.OptPerm, "optimal"
	}
	st := p.ctx.st
	var drawing []string
	var legend string
	scored := []string{""} // a task without a drawer scores nothing
	dh := max(h-2, 0)
	if d, ok := sampleDrawers[p.ctx.cfg.Task]; ok {
		drawing, legend = d.draw(p, s, perm, which, w, dh)
		scored = d.score(s)
	}
	lines := make([]string, 0, h)
	lines = append(lines, draw.FitLines(drawing, w, dh)...)
	solver := s.OptSolverName
	if solver == "" {
		solver = "reference"
	}
	// A narrow pane keeps the score and the legend before the sample's index and the solver.
	lines = append(lines, firstFit(w, append([]string{fmt.Sprintf("%d/%d · %s", i+1, len(ev.Samples), scored[0])}, scored...)...))
	return append(lines, firstFit(w, legend+st.Dim.Render(" · opt: "+solver), legend))
}

func (p *samplePane) lineStyle() lipgloss.Style {
	if p.optimal {
		return p.ctx.st.Fg(draw.ColYellow)
	}
	return p.ctx.st.Fg(draw.ColGreen)
}

// sampleDrawer draws the samples of one task: the drawing of an instance with a solution perm
// (which names it: policy or optimal) and its legend, and the line scoring the policy's objective
// against the optimum's, longest first (a narrow pane takes the first that fits; the last keeps
// the score alone).
type sampleDrawer struct {
	draw  func(p *samplePane, s run.Sample, perm []int, which string, w, h int) (drawing []string, legend string)
	score func(s run.Sample) []string
}

// sampleDrawers holds each task's drawer, by task name; a task's drawer registers itself.
var sampleDrawers = map[envs.Task]sampleDrawer{}

// registerDrawer makes the console draw task's samples with d.
func registerDrawer(task envs.Task, d sampleDrawer) {
	if _, dup := sampleDrawers[task]; dup {
		panic("ui: task " + string(task) + " has two sample drawers")
	}
	sampleDrawers[task] = d
}

func init() {
	registerDrawer(envs.TaskMWM, sampleDrawer{
		draw: func(p *samplePane, s run.Sample, perm []int, which string, w, h int) ([]string, string) {
			st := p.ctx.st
			return p.drawMatching(s, perm, w, h),
				st.Fg(draw.ColBlue).Render("+") + " a " + st.Fg(draw.ColOrange).Render("▪") + " b " + p.lineStyle().Render("─") + " " + which
		},
		// The optimality ratio of the matched weight.
		score: func(s run.Sample) []string {
			if s.OptObjective > 0 {
				ratio := s.Objective / s.OptObjective
				return []string{fmt.Sprintf("%s vs opt %s = %.3f", draw.FmtNum(s.Objective), draw.FmtNum(s.OptObjective), ratio), fmt.Sprintf("ratio %.3f", ratio)}
			}
			return []string{fmt.Sprintf("weight %s vs opt %s", draw.FmtNum(s.Objective), draw.FmtNum(s.OptObjective))}
		},
	})
	registerDrawer(envs.TaskTSP, sampleDrawer{
		draw: func(p *samplePane, s run.Sample, perm []int, which string, w, h int) ([]string, string) {
			return p.drawTour(s, perm, w, h),
				p.ctx.st.Fg(draw.ColOrange).Render("▪") + " city " + p.lineStyle().Render("─") + " " + which + " tour"
		},
		// The gap of a minimised objective.
		score: func(s run.Sample) []string {
			gap := 100 * (s.Objective/s.OptObjective - 1)
			return []string{fmt.Sprintf("tour %s vs opt %s (%+.1f%%)", draw.FmtNum(s.Objective), draw.FmtNum(s.OptObjective), gap),
				fmt.Sprintf("tour %s (%+.1f%%)", draw.FmtNum(s.Objective), gap)}
		},
	})
	registerDrawer(envs.TaskSort, sampleDrawer{
		draw: func(p *samplePane, s run.Sample, perm []int, which string, w, h int) ([]string, string) {
			return drawSort(s, perm, w, h, p.ctx.st), "out: the " + which + " order"
		},
		// Kendall tau is already on the optimum's scale.
		score: func(s run.Sample) []string {
			return []string{fmt.Sprintf("KT %s vs opt %s", draw.FmtNum(s.Objective), draw.FmtNum(s.OptObjective)), "KT " + draw.FmtNum(s.Objective)}
		},
	})
}

// square returns a canvas over the unit square with square dots, centred in w columns: a cell
// holds 2×4 dots and is about twice as tall as wide, so 2 columns per row keep the aspect.
func square(w, h int) (c *draw.Canvas, indent int) {
	ch := min(h, w/2)
	cw := 2 * ch
	return draw.NewCanvas(cw, ch, 0, 1, 0, 1), (w - cw) / 2
}

func indentRows(rows []string, n int) []string {
	pad := strings.Repeat(" ", max(n, 0))
	for i := range rows {
		rows[i] = pad + rows[i]
	}
	return rows
}

func (p *samplePane) drawMatching(s run.Sample, perm []int, w, h int) []string {
	cv, indent := square(w, h)
	if cv.H < 2 {
		return nil
	}
	st := p.ctx.st
	edges := cv.Layer(p.lineStyle())
	as := cv.Layer(st.Fg(draw.ColBlue))
	bs := cv.Layer(st.Fg(draw.ColOrange))
	a, b := s.Instance.A, s.Instance.B
	for i, j := range perm {
		if i < len(a) && j >= 0 && j < len(b) {
			cv.Line(edges, a[i][0], a[i][1], b[j][0], b[j][1])
		}
	}
	for _, q := range a {
		cv.Mark(as, q[0], q[1], '+')
	}
	for _, q := range b {
		cv.Mark(bs, q[0], q[1], '#')
	}
	return indentRows(cv.Rows(), indent)
}

func (p *samplePane) drawTour(s run.Sample, perm []int, w, h int) []string {
	cv, indent := square(w, h)
	if cv.H < 2 {
		return nil
	}
	edges := cv.Layer(p.lineStyle())
	cities := cv.Layer(p.ctx.st.Fg(draw.ColOrange))
	pts := s.Instance.Points
	for k, i := range perm {
		j := perm[(k+1)%len(perm)]
		if i >= 0 && i < len(pts) && j >= 0 && j < len(pts) {
			cv.Line(edges, pts[i][0], pts[i][1], pts[j][0], pts[j][1])
		}
	}
	for _, q := range pts {
		cv.Mark(cities, q[0], q[1], '#')
	}
	return indentRows(cv.Rows(), indent)
}

// bars are the eighth-block glyphs from empty to full.
var bars = []rune(" ▁▂▃▄▅▆▇█")

// drawSort draws the input values and the output order as bar charts, one column per value,
// with the numbers underneath when they fit.
func drawSort(s run.Sample, perm []int, w, h int, st draw.Styles) []string {
	vals := s.Instance.Values
	n := len(vals)
	if n == 0 || h < 2 {
		return nil
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vals {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	out := make([]float64, 0, n)
	for _, i := range perm {
		if i >= 0 && i < n {
			out = append(out, vals[i])
		}
	}
	const lw = 4 // "in  ", "out "
	// A column is as wide as the widest number and a gap when the numbers fit underneath,
	// else a bar and a gap, else a bar.
	numw := 1
	for _, v := range vals {
		numw = max(numw, len(draw.FmtNum(v)))
	}
	colw := 1
	switch {
	case n*(numw+1) <= w-lw:
		colw = numw + 1
	case 2*n <= w-lw:
		colw = 2
	}
	bh := max((h-2)/2, 1)
	var lines []string
	addBars := func(label string, v []float64, style lipgloss.Style) {
		rows := barRows(v, lo, hi, bh, colw, w-lw)
		for r, row := range rows {
			l := "    "
			if r == len(rows)-1 {
				l = fmt.Sprintf("%-4s", label)
			}
			lines = append(lines, l+style.Render(row))
		}
		if colw == numw+1 && len(lines) < h {
			var t strings.Builder
			for _, x := range v {
				fmt.Fprintf(&t, "%-*s", colw, draw.FmtNum(x))
			}
			lines = append(lines, "    "+st.Dim.Render(strings.TrimRight(t.String(), " ")))
		}
	}
	addBars("in", vals, st.Fg(draw.ColBlue))
	addBars("out", out, st.Fg(draw.ColGreen))
	return lines
}

// barRows draws v as vertical bars h rows tall between lo (empty) and hi (full), colw columns
// per value (a bar, then colw-1 spaces), cut at w columns.
func barRows(v []float64, lo, hi float64, h, colw, w int) []string {
	rows := make([]strings.Builder, h)
	for i, x := range v {
		if (i+1)*colw > w {
			break
		}
		frac := 1.0
		if hi > lo {
			frac = (x - lo) / (hi - lo)
		}
		// At least one eighth, so that the smallest value still shows.
		eighths := max(int(math.Round(frac*float64(8*h))), 1)
		for r := range h {
			fill := min(max(eighths-8*(h-1-r), 0), 8)
			rows[r].WriteRune(bars[fill])
			rows[r].WriteString(strings.Repeat(" ", colw-1))
		}
	}
	out := make([]string, h)
	for i := range rows {
		out[i] = rows[i].String()
	}
	return out
}
