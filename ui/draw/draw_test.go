package draw

import (
	"math"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/guptarohit/asciigraph"
)

// dots decodes a braille rendering back into the set of dots it shows, from the Unicode
// standard's layout of the eight dots (dots 1-3 and 7 on the left, 4-6 and 8 on the right).
func dots(t *testing.T, rows []string) map[[2]int]bool {
	t.Helper()
	bit := [4][2]rune{{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}}
	out := map[[2]int]bool{}
	for y, row := range rows {
		for x, r := range []rune(ansi.Strip(row)) {
			if r == ' ' {
				continue
			}
			if r < 0x2800 || r > 0x28FF {
				t.Fatalf("cell (%d,%d) is %q, not braille", x, y, r)
			}
			for dy := range 4 {
				for dx := range 2 {
					if (r-0x2800)&bit[dy][dx] != 0 {
						out[[2]int{2*x + dx, 4*y + dy}] = true
					}
				}
			}
		}
	}
	return out
}

func TestCanvasPoints(t *testing.T) {
	st := NewStyles(false)
	cv := NewCanvas(3, 2, 0, 1, 0, 1)
	l := cv.Layer(st.Dim)
	cv.Point(l, 0, 1) // top left: dot 1 of the first cell
	cv.Point(l, 1, 0) // bottom right: dot 8 of the last cell
	rows := cv.Rows()
	if got := []rune(rows[0])[0]; got != '⠁' {
		t.Errorf("top-left cell = %q, want ⠁", got)
	}
	if got := []rune(rows[1])[2]; got != '⢀' {
		t.Errorf("bottom-right cell = %q, want ⢀", got)
	}
	if got := dots(t, rows); len(got) != 2 || !got[[2]int{0, 0}] || !got[[2]int{5, 7}] {
		t.Errorf("dots %v", got)
	}
	cv.Point(l, 2, 2) // outside: dropped
	if got := dots(t, cv.Rows()); len(got) != 2 {
		t.Errorf("a point outside the window was drawn: %v", got)
	}
}

// TestCanvasLine checks Bresenham against the ideal segment: every dot drawn lies within one
// dot of it, both ends are drawn, and the dots form an 8-connected path.
func TestCanvasLine(t *testing.T) {
	st := NewStyles(false)
	segs := [][4]float64{{0, 0, 1, 1}, {0, 1, 1, 0}, {0.1, 0.5, 0.9, 0.55}, {0.5, 0, 0.52, 1}, {0.3, 0.3, 0.3, 0.3}, {1, 0.2, 0, 0.8}}
	for _, s := range segs {
		cv := NewCanvas(10, 5, 0, 1, 0, 1)
		cv.Line(cv.Layer(st.Dim), s[0], s[1], s[2], s[3])
		got := dots(t, cv.Rows())
		ax, ay := cv.dot(s[0], s[1])
		bx, by := cv.dot(s[2], s[3])
		if !got[[2]int{ax, ay}] || !got[[2]int{bx, by}] {
			t.Errorf("segment %v: an end is missing", s)
		}
		want := max(abs(bx-ax), abs(by-ay)) + 1
		if len(got) != want {
			t.Errorf("segment %v: %d dots, want %d", s, len(got), want)
		}
		for d := range got {
			if dist := segDist(float64(d[0]), float64(d[1]), float64(ax), float64(ay), float64(bx), float64(by)); dist > 1 {
				t.Errorf("segment %v: dot %v is %.2f dots off the line", s, d, dist)
			}
			near := false
			for e := range got {
				if e != d && abs(e[0]-d[0]) <= 1 && abs(e[1]-d[1]) <= 1 {
					near = true
				}
			}
			if len(got) > 1 && !near {
				t.Errorf("segment %v: dot %v is isolated", s, d)
			}
		}
	}
}

func segDist(px, py, ax, ay, bx, by float64) float64 {
	dx, dy := bx-ax, by-ay
	l2 := dx*dx + dy*dy
	if l2 == 0 {
		return math.Hypot(px-ax, py-ay)
	}
	u := math.Max(0, math.Min(1, ((px-ax)*dx+(py-ay)*dy)/l2))
	return math.Hypot(px-ax-u*dx, py-ay-u*dy)
}

func TestCanvasLayers(t *testing.T) {
	st := NewStyles(true)
	cv := NewCanvas(1, 1, 0, 1, 0, 1)
	low, high := cv.Layer(st.Fg(ColGray)), cv.Layer(st.Fg(ColRed))
	cv.Point(low, 0, 1)
	cv.Point(high, 1, 0)
	row := cv.Rows()[0]
	if r := []rune(ansi.Strip(row))[0]; r != 0x2800|0x01|0x80 {
		t.Errorf("combined cell %q", r)
	}
	if row != st.Fg(ColRed).Render(ansi.Strip(row)) {
		t.Errorf("the cell is not in the top layer's style: %q", row)
	}
}

func TestColumnAndAxisRow(t *testing.T) {
	const cols = 40
	if c := column(0, 0, 100, cols); c != 0 {
		t.Errorf("column(x0) = %d", c)
	}
	if c := column(100, 0, 100, cols); c != cols-1 {
		t.Errorf("column(x1) = %d, want %d", c, cols-1)
	}
	st := NewStyles(false)
	w := PlotLeft + cols
	row := []rune(AxisRow(w, 0, 100, []int{50}, st))
	at := PlotLeft + column(50, 0, 100, cols)
	if row[at] != '▲' || strings.Count(string(row), "▲") != 1 {
		t.Errorf("mark not at column %d: %q", at, string(row))
	}
	if !strings.HasSuffix(string(row), "100 steps") || string(row[PlotLeft]) != "0" {
		t.Errorf("labels missing: %q", string(row))
	}
	// A mark on the last label is drawn just before it: the axis's end stays labelled (the
	// mark used to hide it).
	row = []rune(AxisRow(w, 0, 100, []int{100}, st))
	if !strings.HasSuffix(string(row), "▲100 steps") {
		t.Errorf("a mark on the end label: %q", string(row))
	}
}

// TestChartGeometry checks that a chart fills exactly its box and puts a rising line's ends in
// the bottom-left and top-right corners of the plot area.
func TestChartGeometry(t *testing.T) {
	x := []float64{0, 100}
	c := Chart{X0: 0, X1: 100, Curves: []Curve{{X: x, Y: []float64{1, 2}, Chars: asciigraph.DefaultCharSet}}}
	for _, size := range [][2]int{{30, 5}, {50, 12}, {PlotLeft + 3, 2}} {
		lines := c.Render(size[0], size[1], "empty")
		if len(lines) != size[1] {
			t.Fatalf("%v: %d lines", size, len(lines))
		}
		for _, l := range lines {
			if ansi.StringWidth(l) != size[0] {
				t.Fatalf("%v: line %q is %d wide", size, l, ansi.StringWidth(l))
			}
		}
	}
	lines := c.Render(30, 6, "empty")
	top, bottom := []rune(lines[0]), []rune(lines[len(lines)-1])
	if strings.TrimSpace(string(top[:PlotLeft-1])) != "2" || strings.TrimSpace(string(bottom[:PlotLeft-1])) != "1" {
		t.Errorf("y labels: %q / %q", string(top), string(bottom))
	}
	if bottom[PlotLeft] == ' ' || top[len(top)-1] == ' ' {
		t.Errorf("the line does not span the plot:\n%s", strings.Join(lines, "\n"))
	}
	none := Chart{X0: 0, X1: 1}.Render(30, 5, "nothing yet")
	if !strings.Contains(none[2], "nothing yet") {
		t.Errorf("empty chart: %q", none)
	}
}

func TestFitAndFrame(t *testing.T) {
	st := NewStyles(false)
	box := ansi.Strip(Frame("Title", []string{"a very long line that will not fit", "b"}, 12, 4, st, false))
	lines := strings.Split(box, "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines", len(lines))
	}
	for _, l := range lines {
		if ansi.StringWidth(l) != 12 {
			t.Errorf("line %q is %d wide", l, ansi.StringWidth(l))
		}
	}
	if !strings.HasPrefix(lines[0], "╭─ Title ") || !strings.HasSuffix(lines[1], "…│") {
		t.Errorf("frame:\n%s", box)
	}
	if s := Spread("left", "right", 12); s != "left   right" {
		t.Errorf("spread = %q", s)
	}
}

func TestJoin(t *testing.T) {
	a := "ab\ncd\nef"
	b := "X\nY"
	if got := HJoin(a, b); got != "abX\ncdY\nef " {
		t.Errorf("HJoin = %q", got)
	}
	if got := VJoin(a, b); got != a+"\n"+b {
		t.Errorf("VJoin = %q", got)
	}
}

// TestTickLabelsDiffer: a chart over a narrow range beside its values labels each row apart
// (0.5470 to 0.5475 used to read "0.547" on two rows and more).
func TestTickLabelsDiffer(t *testing.T) {
	c := Chart{X0: 0, X1: 10, Curves: []Curve{{X: []float64{0, 5, 10}, Y: []float64{0.5470, 0.5473, 0.5475}, Chars: CharsLine}}}
	seen := map[string]bool{}
	for _, l := range c.Render(40, 8, "") {
		label := strings.TrimSpace(strings.SplitN(l, "┤", 2)[0])
		label = strings.TrimSpace(strings.SplitN(label, "┼", 2)[0])
		if label == "" {
			continue
		}
		if seen[label] {
			t.Errorf("label %q twice:\n%s", label, strings.Join(c.Render(40, 8, ""), "\n"))
		}
		seen[label] = true
	}
}
