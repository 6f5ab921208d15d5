package ui

import (
	"fmt"
	"math"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"spg-tui/run/stats"
	"spg-tui/ui/draw"
)

// scatterPane is the paper's Figure 2, live: the critic's hard Q(s,P) against its soft Q(s,M)
// on the fixed validation states of the latest evaluation, with the diagonal y = x and their
// correlation. With the critic penalty the points hug the diagonal; without it they drift off.
type scatterPane struct{ paneBase }

// View implements pane.
func (p *scatterPane) View() string {
	return p.cached([4]int{p.ctx.data.evalVer, p.ctx.displayVer}, func() string {
		ev, step := p.ctx.shownVal()
		return draw.Frame(valTitle("Q scatter", ev != nil, step, p.ctx.cursor.on, p.w), p.body(p.w-2, p.h-2), p.w, p.h, p.ctx.st, false)
	})
}

// valTitle is the title of a pane of w columns that shows a validation: its name and the
// validation's step (when there is one), marked with the cursor's glyph when the cursor chose
// it; a narrow pane drops the word "step" before the name is cut.
func valTitle(name string, shown bool, step int, cursor bool, w int) string {
	sep := " · "
	if cursor {
		sep = " " + string(draw.CursorRune) + " "
	}
	switch {
	case shown:
		return firstFit(w-5, name+sep+"step "+draw.FmtInt(step), name+sep+draw.FmtInt(step))
	case cursor:
		return name + sep + "no validation yet"
	}
	return name
}

func (p *scatterPane) body(w, h int) []string {
	st := p.ctx.st
	ev, _ := p.ctx.shownVal()
	if !p.ctx.model.Kind.HasCritic() {
		lines := draw.BlankLines(w, h)
		if h > 0 {
			lines[h/2] = draw.Center("no critic: no Q values", w)
		}
		return lines
	}
	if ev == nil || len(ev.QHardScatter) == 0 || len(ev.QHardScatter) != len(ev.QSoftScatter) {
		lines := draw.BlankLines(w, h)
		if h > 0 {
			lines[h/2] = draw.Center("waiting for the first evaluation…", w)
		}
		return lines
	}
	hard, soft := ev.QHardScatter, ev.QSoftScatter
	r := stats.Correlation(hard, soft)
	// A narrow pane keeps the correlation before the axis's name and the count.
	head := firstFit(w, fmt.Sprintf("soft Q(s,M) ↑  r = %s  n = %d", fmtCorr(r), len(hard)),
		fmt.Sprintf("soft Q(s,M) ↑  r = %s", fmtCorr(r)), fmt.Sprintf("Q(s,M) ↑ r = %s", fmtCorr(r)))
	lw := draw.LabelWidth
	if w < 30 {
		lw = 0 // too narrow for labels: the range is under the axis
	}
	cw, ch := w-lw-1, h-3
	if cw < 4 || ch < 2 {
		return []string{head}
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range hard {
		lo = math.Min(lo, math.Min(hard[i], soft[i]))
		hi = math.Max(hi, math.Max(hard[i], soft[i]))
	}
	if pad := 0.05 * (hi - lo); pad > 0 {
		lo, hi = lo-pad, hi+pad
	} else {
		lo, hi = lo-0.5, hi+0.5
	}
	cv := draw.NewCanvas(cw, ch, lo, hi, lo, hi)
	diag := cv.Layer(st.Dim)
	pts := cv.Layer(st.Fg(draw.ColBlue))
	cv.Line(diag, lo, lo, hi, hi)
	for i := range hard {
		cv.Point(pts, hard[i], soft[i])
	}
	lines := []string{head}
	for i, row := range cv.Rows() {
		label, axis := strings.Repeat(" ", lw), "│"
		switch {
		case lw == 0:
		case i == 0:
			label, axis = draw.PadLeft(draw.FmtNum(hi), lw), "┤"
		case i == ch-1:
			label, axis = draw.PadLeft(draw.FmtNum(lo), lw), "┤"
		}
		lines = append(lines, st.Dim.Render(label+axis)+row)
	}
	lines = append(lines, st.Dim.Render(strings.Repeat(" ", lw)+"└"+strings.Repeat("─", cw)))
	return append(lines, st.Dim.Render(strings.Repeat(" ", lw+1)+xLabels(draw.FmtNum(lo), xAxisNames, draw.FmtNum(hi), cw)))
}

// xAxisNames name the scatter's x axis, longest first: a narrow pane takes the first that fits
// between the axis's end values, so that the axis is never unnamed.
var xAxisNames = []string{"hard Q(s,P) → ╱ y=x", "hard Q(s,P) →", "Q(s,P) →", "P →"}

// xLabels puts left and right at the ends of a w-column line and in its centre the first of mids
// that fits, or none when none does.
func xLabels(left string, mids []string, right string, w int) string {
	lw, rw := ansi.StringWidth(left), ansi.StringWidth(right)
	for _, mid := range mids {
		mw := ansi.StringWidth(mid)
		gap := (w-mw)/2 - lw
		if gap >= 1 && w-lw-gap-mw-rw >= 1 {
			return left + strings.Repeat(" ", gap) + mid + strings.Repeat(" ", w-lw-gap-mw-rw) + right
		}
	}
	return draw.Spread(left, right, w)
}

// fmtCorr formats a correlation; NaN (constant data) as "—".
func fmtCorr(r float64) string {
	if math.IsNaN(r) {
		return "—"
	}
	return fmt.Sprintf("%.3f", r)
}
