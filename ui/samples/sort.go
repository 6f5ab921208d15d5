package samples

import (
	"fmt"
	"math"
	"strings"

	"charm.land/lipgloss/v2"

	"spg-tui/envs"
	"spg-tui/run"
	"spg-tui/ui/draw"
)

func init() {
	Register(envs.TaskSort, Drawer{
		Draw: func(s run.Sample, perm []int, look Look, w, h int) ([]string, string) {
			return drawSort(s, perm, w, h, look.St), "out: the " + look.Which + " order"
		},
		// Kendall tau is already on the optimum's scale.
		Score: func(s run.Sample) []string {
			return []string{fmt.Sprintf("KT %s vs opt %s", draw.FmtNum(s.Objective), draw.FmtNum(s.OptObjective)), "KT " + draw.FmtNum(s.Objective)}
		},
	})
}

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
			rows[r].WriteRune(draw.Bars[fill])
			rows[r].WriteString(strings.Repeat(" ", colw-1))
		}
	}
	out := make([]string, h)
	for i := range rows {
		out[i] = rows[i].String()
	}
	return out
}
