package ui

import (
	"fmt"

	"charm.land/lipgloss/v2"

	"spg-tui/ui/draw"
	"spg-tui/ui/samples"
)

// samplePane draws one validation instance of the latest evaluation (or the one at the step
// cursor) with the policy's solution,
// or the optimal one, with the run's task's drawer (ui/samples: for mwm the two point sets and
// the matching, for tsp the tour, for sort the input and output sequences); its score against
// the optimum is written underneath.
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
	if ev, _ := p.ctx.shownVal(); ev != nil && len(ev.Samples) > 0 {
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
	return p.cached([4]int{p.ctx.data.evalVer, p.index, mode, p.ctx.displayVer}, func() string {
		if p.ctx.cursor.on {
			ev, step := p.ctx.shownVal()
			title = valTitle(title, ev != nil, step, true, p.w)
		}
		return draw.Frame(title, p.body(p.w-2, p.h-2), p.w, p.h, p.ctx.st, false)
	})
}

func (p *samplePane) body(w, h int) []string {
	ev, _ := p.ctx.shownVal()
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
	// A validation made while the references were solved has no optimum to show yet (the
	// references event brings it); o keeps the policy's solution until then.
	solving := s.OptPerm == nil
	perm, which := s.Perm, "policy"
	if p.optimal && !solving {
		perm, which = s.OptPerm, "optimal"
	}
	st := p.ctx.st
	var drawing []string
	var legend string
	scored := []string{""} // a task without a drawer scores nothing
	dh := max(h-2, 0)
	if d, ok := samples.For(p.ctx.cfg.Task); ok {
		drawing, legend = d.Draw(s, perm, samples.Look{St: st, Line: p.lineStyle(), Which: which}, w, dh)
		scored = d.Score(s)
	}
	if solving {
		score := shortMetric(ev.MetricName) + " " + draw.FmtNum(s.Objective)
		scored = []string{score + " · optimum being solved", score + " · opt: solving…", score}
	}
	lines := make([]string, 0, h)
	lines = append(lines, draw.FitLines(drawing, w, dh)...)
	solver := s.OptSolverName
	switch {
	case solving:
		solver = "solving…"
	case solver == "":
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
