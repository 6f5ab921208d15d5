package draw

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// yLabels are the y labels of a rendered chart, top first.
func yLabels(lines []string) []string {
	var out []string
	for _, l := range lines {
		label, _, found := strings.Cut(strings.ReplaceAll(ansi.Strip(l), "┼", "┤"), "┤")
		if label = strings.TrimSpace(label); found && label != "" {
			out = append(out, label)
		}
	}
	return out
}

// TestChartFitsData: the y-axis spans the curve, not the reference lines: a fall from 0.9944
// to 0.9788 fills the chart, the random reference (0.728) far below it is not drawn, and the
// greedy one (0.985) inside it is.
func TestChartFitsData(t *testing.T) {
	c := Chart{X0: 0, X1: 300, Curves: []Curve{{X: []float64{100, 200, 300}, Y: []float64{0.9944, 0.99, 0.9788}, Chars: CharsLine}},
		HLines: []HLine{{Y: 0.728}, {Y: 0.985}, {Y: 1}}}
	lines := c.Render(40, 8, "")
	labels := yLabels(lines)
	if len(labels) == 0 || labels[0] != "0.994" || labels[len(labels)-1] != "0.979" {
		t.Fatalf("y labels %q, want 0.994 down to 0.979:\n%s", labels, strings.Join(lines, "\n"))
	}
	dashed := 0
	for _, l := range lines {
		if strings.Count(l, "╌") > 10 {
			dashed++
		}
	}
	if dashed != 1 {
		t.Errorf("%d dashed reference rows, want 1 (greedy, inside the range):\n%s", dashed, strings.Join(lines, "\n"))
	}
	if lo, hi, ok := c.YRange(40); !ok || lo != 0.9788 || hi != 0.9944 {
		t.Errorf("YRange = %g, %g, %v", lo, hi, ok)
	}
}

// TestChartCursor: the cursor is a dotted column over the blank cells of the plot and a mark
// with its label under it.
func TestChartCursor(t *testing.T) {
	cur := Cursor{X: 50, On: true, Label: "50"}
	c := Chart{X0: 0, X1: 100, Curves: []Curve{{X: []float64{0, 100}, Y: []float64{1, 2}, Chars: CharsLine}}, Cursor: cur}
	w := 40
	at := PlotLeft + column(50, 0, 100, w-PlotLeft)
	lines := c.Render(w, 6, "")
	marked := 0
	for _, l := range lines {
		r := []rune(ansi.Strip(l))
		if len(r) != w {
			t.Fatalf("line %q is %d wide", string(r), len(r))
		}
		if r[at] == CursorRune {
			marked++
		}
	}
	if marked < 4 {
		t.Errorf("the cursor marks %d rows of column %d:\n%s", marked, at, strings.Join(lines, "\n"))
	}
	row := []rune(ansi.Strip(XAxis{X0: 0, X1: 100, Last: StepsLabel, Cursor: cur}.Row(w, NewStyles(false))))
	if string(row[at:at+3]) != "┊50" || !strings.HasSuffix(string(row), "100 steps") {
		t.Errorf("axis row %q: want ┊50 at column %d", string(row), at)
	}
	// Near the end label the label goes before the mark.
	row = []rune(ansi.Strip(XAxis{X0: 0, X1: 100, Last: StepsLabel, Cursor: Cursor{X: 80, On: true, Label: "80"}}.Row(w, NewStyles(false))))
	if !strings.Contains(string(row), "80┊") && !strings.Contains(string(row), "┊80") {
		t.Errorf("axis row %q has no cursor label", string(row))
	}
}

// TestChartLogScale: a log-scale chart leaves out the points at or below zero and says so when
// none is left.
func TestChartLogScale(t *testing.T) {
	c := Chart{X0: 0, X1: 10, LogY: true, Curves: []Curve{{X: []float64{0, 5, 10}, Y: []float64{0.001, 0, 10}, Chars: CharsLine}}}
	labels := yLabels(c.Render(40, 6, ""))
	if len(labels) == 0 || labels[0] != "10" || labels[len(labels)-1] != "0.001" {
		t.Errorf("log labels %q, want 10 down to 0.001", labels)
	}
	neg := Chart{X0: 0, X1: 10, LogY: true, Curves: []Curve{{X: []float64{0, 10}, Y: []float64{-1, -2}, Chars: CharsLine}}}
	if got := strings.Join(neg.Render(60, 5, "waiting"), "\n"); !strings.Contains(got, NoPositive) {
		t.Errorf("a chart of negative values on a log scale:\n%s", got)
	}
}
