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
//
// The y-axis spans the curves alone: a reference line (HLines) is drawn where it falls inside
// that range and never widens it, so that a fall from 0.994 to 0.979 fills the chart rather
// than a sliver of [0.728, 1].
type Chart struct {
	Curves []Curve
	HLines []HLine
	X0, X1 float64
	// LogY draws the curves on a log scale; their points at or below zero are left out.
	LogY bool
	Axis asciigraph.AnsiColor
	// Cursor, when On, is marked by a dotted vertical line at its x.
	Cursor Cursor
}

// Cursor is a position on a chart's x-axis, shown when On; the axis row under the chart
// writes Label there.
type Cursor struct {
	X     float64
	On    bool
	Label string
}

// CursorRune marks the step cursor on the charts and under them.
const CursorRune = '┊'

// NoPositive is what a log-scale chart shows when its curves have points but none above zero.
const NoPositive = "no values above 0 to draw on a log scale"

// sampled are a chart's curves resampled to its columns (log10 units on a log scale) with
// their glyphs and colours, and the range of their values; drawn counts the curves with a
// point, and hadPoints says whether there were any before a log scale left out those at or
// below zero.
type sampled struct {
	data      [][]float64
	chars     []asciigraph.CharSet
	colors    []asciigraph.AnsiColor
	lo, hi    float64
	drawn     int
	hadPoints bool
}

// sample resamples the curves to n points and finds their range, padded when flat.
func (c Chart) sample(n int) sampled {
	s := sampled{lo: math.Inf(1), hi: math.Inf(-1)}
	for _, cv := range c.Curves {
		v := make([]float64, n)
		Resample(v, cv.X, cv.Y, c.X0, c.X1, n)
		s.hadPoints = s.hadPoints || !allNaN(v)
		if c.LogY {
			// The points a log axis cannot show are left out before the columns are filled,
			// so that none is interpolated towards zero.
			y := slices.Clone(cv.Y)
			for i, x := range y {
				if !(x > 0) {
					y[i] = math.NaN()
				}
			}
			Resample(v, cv.X, y, c.X0, c.X1, n)
			Log10All(v)
		}
		for _, x := range v {
			if !math.IsNaN(x) {
				s.lo, s.hi = math.Min(s.lo, x), math.Max(s.hi, x)
			}
		}
		if !allNaN(v) {
			s.drawn++
		}
		s.data, s.chars, s.colors = append(s.data, v), append(s.chars, cv.Chars), append(s.colors, cv.Color)
	}
	if s.drawn > 0 && s.hi-s.lo < 1e-12 {
		pad := math.Max(math.Abs(s.hi)*0.05, 1e-3)
		s.lo, s.hi = s.lo-pad, s.hi+pad
	}
	return s
}

// YRange is the range of the y-axis Render draws in w columns (in the data's units, not
// log10), and whether there is one (some curve has a point).
func (c Chart) YRange(w int) (lo, hi float64, ok bool) {
	cols := w - PlotLeft
	if cols < 2 {
		return 0, 0, false
	}
	s := c.sample(cols + 1)
	if s.drawn == 0 {
		return 0, 0, false
	}
	if c.LogY {
		return math.Pow(10, s.lo), math.Pow(10, s.hi), true
	}
	return s.lo, s.hi, true
}

// Render draws the chart in exactly h lines of width w; empty is shown, centred, when no curve
// has a point yet.
func (c Chart) Render(w, h int, empty string) []string {
	cols := w - PlotLeft
	if cols < 2 || h < 2 {
		return BlankLines(w, h)
	}
	// asciigraph draws a segment from each point to the next in the point's column, so the last
	// point gets no column of its own: cols+1 points fill cols columns.
	n := cols + 1
	s := c.sample(n)
	if s.drawn == 0 {
		if s.hadPoints && c.LogY {
			empty = NoPositive
		}
		lines := BlankLines(w, h)
		lines[h/2] = Center(empty, w)
		return lines
	}
	lo, hi := s.lo, s.hi
	// The reference lines inside the range go first, under the curves.
	var (
		data   [][]float64
		chars  []asciigraph.CharSet
		colors []asciigraph.AnsiColor
	)
	for _, r := range c.HLines {
		y := r.Y
		if c.LogY {
			if !(y > 0) {
				continue
			}
			y = math.Log10(y)
		}
		if y < lo || y > hi {
			continue
		}
		v := make([]float64, n)
		for i := range v {
			v[i] = y
		}
		data, chars, colors = append(data, v), append(chars, charsDash), append(colors, r.Color)
	}
	data, chars, colors = append(data, s.data...), append(chars, s.chars...), append(colors, s.colors...)
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
	lines = FitLines(lines, w, h)
	if c.Cursor.On {
		at := PlotLeft + column(c.Cursor.X, c.X0, c.X1, cols)
		for i, l := range lines {
			lines[i] = overlay(l, at, string(CursorRune), w)
		}
	}
	return lines
}

// overlay puts glyph in column at of the styled line l of w columns where that cell is blank.
func overlay(l string, at int, glyph string, w int) string {
	if at < 0 || at >= w || ansi.Strip(ansi.Cut(l, at, at+1)) != " " {
		return l
	}
	return ansi.Cut(l, 0, at) + glyph + ansi.Cut(l, at+1, w)
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
	return axisRow(w, x0, x1, marks, last, Cursor{}, st)
}

// axisRow is AxisRowUnit with the cursor, when on, marked in its column and its label written
// after the mark where that does not cover an end label.
func axisRow(w int, x0, x1 float64, marks []int, last func(float64) string, cur Cursor, st Styles) string {
	cols := w - PlotLeft
	if cols < 2 {
		return strings.Repeat(" ", max(w, 0))
	}
	row := []rune(strings.Repeat(" ", w))
	isMark, isLabel := make([]bool, w), make([]bool, w)
	// The labels come before the marks: a mark never hides where the axis ends.
	put := func(at int, s string) bool {
		r := []rune(s)
		if at < 0 || at+len(r) > w || slices.Contains(isLabel[at:at+len(r)], true) {
			return false
		}
		copy(row[at:], r)
		for i := range r {
			isLabel[at+i] = true
		}
		return true
	}
	put(PlotLeft, FmtInt(int(x0)))
	// The cursor's mark and label (after the mark, or before it near the end) go before the end
	// label, which is shortened to its number, or left out, where the cursor is in the way.
	cursorAt := -1
	if cur.On {
		cursorAt = PlotLeft + column(cur.X, x0, x1, cols)
		if !put(cursorAt, string(CursorRune)+cur.Label) && !put(cursorAt-len([]rune(cur.Label)), cur.Label+string(CursorRune)) {
			row[cursorAt], isLabel[cursorAt] = CursorRune, true
		}
	}
	end := last(x1)
	if !put(w-len([]rune(end)), end) {
		short := strings.Fields(end)[0]
		put(w-len([]rune(short)), short)
	}
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
		switch {
		case isMark[i]:
			b.WriteString(st.Warn.Render(string(r)))
		case cursorAt >= 0 && isLabel[i] && i >= cursorAt-len([]rune(cur.Label)) && i <= cursorAt+len([]rune(cur.Label)):
			b.WriteString(st.Key.Render(string(r)))
		default:
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
