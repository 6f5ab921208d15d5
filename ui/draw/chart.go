package draw

import (
	"math"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/guptarohit/asciigraph"
)

// Chart geometry: asciigraph draws each row as a y label right-aligned in LabelWidth+1 columns,
// then the axis; the curves start at column PlotLeft.
const (
	LabelWidth = 7
	PlotLeft   = LabelWidth + 2
)

// Glyph sets that tell curves apart without colour.
var (
	CharsLine   = asciigraph.DefaultCharSet
	CharsDots   = asciigraph.CreateCharSet("·")
	CharsBullet = asciigraph.CreateCharSet("•")
	CharsPlus   = asciigraph.CreateCharSet("+")
	charsDash   = asciigraph.CreateCharSet("╌")
)

// Curve is one series of a chart, against steps.
type Curve struct {
	X, Y  []float64
	Chars asciigraph.CharSet
	Color asciigraph.AnsiColor
}

// HLine is a horizontal reference line.
type HLine struct {
	Y     float64
	Color asciigraph.AnsiColor
}

// Chart is a plot of curves against steps over [x0, x1], drawn by asciigraph. ntcharts'
// linechart draws its axes with its own runes and labels (graph.DrawXYAxis, its
// LabelFormatter) and its lines on a canvas of one style per cell, where asciigraph writes
// "0.548┤" labels, crosses reference lines through the axis and tells curves apart by glyph;
// drawing the curves with it would change every golden screen, so the line charts stay here.
type Chart struct {
	Curves []Curve
	HLines []HLine
	X0, X1 float64
	LogY   bool
	Axis   asciigraph.AnsiColor
}

// Render draws the chart in exactly h lines of width w; empty is shown, centred, when no curve
// has a point yet.
func (c Chart) Render(w, h int, empty string) []string {
	cols := w - PlotLeft
	if cols < 2 || h < 2 {
		return BlankLines(w, h)
	}
	var (
		data   [][]float64
		colors []asciigraph.AnsiColor
		chars  []asciigraph.CharSet
	)
	lo, hi := math.Inf(1), math.Inf(-1)
	add := func(v []float64, ch asciigraph.CharSet, col asciigraph.AnsiColor) {
		if c.LogY {
			Log10All(v)
		}
		for _, x := range v {
			if !math.IsNaN(x) {
				lo, hi = math.Min(lo, x), math.Max(hi, x)
			}
		}
		data, chars, colors = append(data, v), append(chars, ch), append(colors, col)
	}
	// asciigraph draws a segment from each point to the next in the point's column, so the last
	// point gets no column of its own: cols+1 points fill cols columns.
	n := cols + 1
	for _, r := range c.HLines {
		v := make([]float64, n)
		for i := range v {
			v[i] = r.Y
		}
		add(v, charsDash, r.Color)
	}
	drawn := 0
	for _, cv := range c.Curves {
		v := make([]float64, n)
		Resample(v, cv.X, cv.Y, c.X0, c.X1, n)
		add(v, cv.Chars, cv.Color)
		if !allNaN(v) {
			drawn++
		}
	}
	if drawn == 0 || math.IsInf(lo, 0) {
		lines := BlankLines(w, h)
		lines[h/2] = Center(empty, w)
		return lines
	}
	if hi-lo < 1e-12 {
		pad := math.Max(math.Abs(hi)*0.05, 1e-3)
		lo, hi = lo-pad, hi+pad
	}
	var lines []string
	for height := h - 1; height >= 1; height-- {
		sig := tickDigits(lo, hi, height, c.LogY)
		format := func(v float64) string {
			if c.LogY {
				v = math.Pow(10, v)
			}
			return PadLeft(ansi.Truncate(FmtSig(v, sig), LabelWidth, ""), LabelWidth)
		}
		out := asciigraph.PlotMany(data, asciigraph.Height(height), asciigraph.Offset(2),
			asciigraph.LowerBound(lo), asciigraph.UpperBound(hi), asciigraph.SeriesColors(colors...),
			asciigraph.SeriesChars(chars...), asciigraph.YAxisValueFormatter(format),
			asciigraph.AxisColor(c.Axis), asciigraph.LabelColor(c.Axis))
		lines = strings.Split(out, "\n")
		if len(lines) <= h {
			break
		}
	}
	return FitLines(lines, w, h)
}

func allNaN(v []float64) bool {
	for _, x := range v {
		if !math.IsNaN(x) {
			return false
		}
	}
	return true
}

// column is the plot column of step x in a chart of cols columns over [x0, x1]: the column
// where render draws the point of step x.
func column(x, x0, x1 float64, cols int) int {
	if x1 <= x0 {
		return 0
	}
	return max(0, min(int((x-x0)/(x1-x0)*float64(cols+1)), cols-1))
}

// AxisRow is the line under a chart: the first and last steps at the ends of the plot, and a ▲
// under each step in marks (the live changes).
func AxisRow(w int, x0, x1 float64, marks []int, st Styles) string {
	return AxisRowUnit(w, x0, x1, marks, StepsLabel, st)
}

// AxisRowUnit is AxisRow with the last label written by last (a step count or a duration).
func AxisRowUnit(w int, x0, x1 float64, marks []int, last func(float64) string, st Styles) string {
	cols := w - PlotLeft
	if cols < 2 {
		return strings.Repeat(" ", max(w, 0))
	}
	row := []rune(strings.Repeat(" ", w))
	isMark, isLabel := make([]bool, w), make([]bool, w)
	// The axis's end labels come first: a mark never hides where the axis ends.
	put := func(at int, s string) {
		r := []rune(s)
		if at < 0 || at+len(r) > w || slices.Contains(isLabel[at:at+len(r)], true) {
			return
		}
		copy(row[at:], r)
		for i := range r {
			isLabel[at+i] = true
		}
	}
	end := last(x1)
	put(w-len([]rune(end)), end)
	put(PlotLeft, FmtInt(int(x0)))
	// A mark that falls on a label is drawn in the nearest free column before it.
	for _, m := range marks {
		at := PlotLeft + column(float64(m), x0, x1, cols)
		for at >= PlotLeft && isLabel[at] {
			at--
		}
		if at >= PlotLeft {
			row[at], isMark[at] = '▲', true
		}
	}
	var b strings.Builder
	for i, r := range row {
		if isMark[i] {
			b.WriteString(st.Warn.Render(string(r)))
		} else {
			b.WriteString(st.Dim.Render(string(r)))
		}
	}
	return b.String()
}

// tickDigits is the fewest significant digits, from 3, that tell apart the y labels of a chart
// of rows rows spanning [lo, hi] (log10 units when logY), as asciigraph places them: 0.5470 to
// 0.5475 would read "0.547" on every row. A label holds LabelWidth characters, which bounds it.
func tickDigits(lo, hi float64, rows int, logY bool) int {
	const most = LabelWidth - 2
	for sig := 3; sig < most; sig++ {
		seen := map[string]bool{}
		unique := true
		for k := 0; k <= rows && unique; k++ {
			v := hi - float64(k)*(hi-lo)/float64(max(rows, 1))
			if logY {
				v = math.Pow(10, v)
			}
			l := ansi.Truncate(FmtSig(v, sig), LabelWidth, "")
			unique = !seen[l]
			seen[l] = true
		}
		if unique {
			return sig
		}
	}
	return most
}
