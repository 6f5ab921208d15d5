package draw

import (
	"strings"

	"charm.land/lipgloss/v2"
	ntc "github.com/NimbleMarkets/ntcharts/v2/canvas"
	"github.com/NimbleMarkets/ntcharts/v2/canvas/graph"
	"github.com/NimbleMarkets/ntcharts/v2/canvas/runes"
)

// Canvas is a braille drawing surface of w×h terminal cells, 2w×4h dots, in layers. A cell shows
// the dots of every layer, in the style of the topmost layer that has a dot in it. Each layer
// is an ntcharts graph.BrailleGrid, which maps data points onto its dots and encodes them; the
// layering, the marks and the lines are ours: ntcharts' canvas draws one style per cell without
// combining layers, and its graph.GetLinePoints walks some slopes through other dots than the
// Bresenham line below, which would change the sample pane's golden screens.
type Canvas struct {
	W, H   int // the size in cells
	grids  []*graph.BrailleGrid
	styles []lipgloss.Style
	// The data window mapped onto the dots; y grows upwards. window maps it.
	x0, x1, y0, y1 float64
	window         *graph.BrailleGrid
}

// NewCanvas is an empty canvas of w×h cells over the data window [x0, x1]×[y0, y1].
func NewCanvas(w, h int, x0, x1, y0, y1 float64) *Canvas {
	w, h = max(w, 0), max(h, 0)
	return &Canvas{W: w, H: h, x0: x0, x1: x1, y0: y0, y1: y1, window: graph.NewBrailleGrid(w, h, x0, x1, y0, y1)}
}

// Layer adds a layer drawn in st above the others and returns its index.
func (c *Canvas) Layer(st lipgloss.Style) int {
	c.grids = append(c.grids, graph.NewBrailleGrid(c.W, c.H, c.x0, c.x1, c.y0, c.y1))
	c.styles = append(c.styles, st)
	return len(c.grids) - 1
}

// dot maps a data point to dot coordinates (column, row from the top).
func (c *Canvas) dot(x, y float64) (int, int) {
	p := c.window.GridPoint(ntc.Float64Point{X: x, Y: y})
	return p.X, p.Y
}

// Point sets the dot of data point (x, y) in layer l; points outside the window are dropped.
func (c *Canvas) Point(l int, x, y float64) {
	col, row := c.dot(x, y)
	c.grids[l].Set(ntc.Point{X: col, Y: row})
}

// Mark draws a small plus (shape '+') or a 2×2 block (any other shape) centred on (x, y), so that
// two kinds of points differ without colour.
func (c *Canvas) Mark(l int, x, y float64, shape byte) {
	col, row := c.dot(x, y)
	g := c.grids[l]
	if shape == '+' {
		g.Set(ntc.Point{X: col, Y: row})
		g.Set(ntc.Point{X: col - 1, Y: row})
		g.Set(ntc.Point{X: col + 1, Y: row})
		g.Set(ntc.Point{X: col, Y: row - 1})
		g.Set(ntc.Point{X: col, Y: row + 1})
		return
	}
	g.Set(ntc.Point{X: col, Y: row})
	g.Set(ntc.Point{X: col + 1, Y: row})
	g.Set(ntc.Point{X: col, Y: row + 1})
	g.Set(ntc.Point{X: col + 1, Y: row + 1})
}

// Line draws the segment between two data points in layer l (Bresenham).
func (c *Canvas) Line(l int, xa, ya, xb, yb float64) {
	x0, y0 := c.dot(xa, ya)
	x1, y1 := c.dot(xb, yb)
	dx, dy := abs(x1-x0), -abs(y1-y0)
	sx, sy := sign(x1-x0), sign(y1-y0)
	err := dx + dy
	g := c.grids[l]
	for {
		g.Set(ntc.Point{X: x0, Y: y0})
		if x0 == x1 && y0 == y1 {
			return
		}
		e2 := 2 * err
		if e2 >= dy {
			err += dy
			x0 += sx
		}
		if e2 <= dx {
			err += dx
			y0 += sy
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// Rows renders the canvas as h styled lines of w cells; empty cells are spaces.
func (c *Canvas) Rows() []string {
	pats := make([][][]rune, len(c.grids))
	for i, g := range c.grids {
		pats[i] = g.BraillePatterns()
	}
	out := make([]string, c.H)
	var b strings.Builder
	for y := range c.H {
		b.Reset()
		for x := range c.W {
			r, top := rune(runes.BrailleBlockOffset), -1
			for i := range pats {
				p := pats[i][y][x]
				if p != runes.BrailleBlockOffset {
					r, top = runes.CombineBraillePatterns(r, p), i
				}
			}
			if top < 0 {
				b.WriteByte(' ')
				continue
			}
			b.WriteString(c.styles[top].Render(string(r)))
		}
		out[y] = b.String()
	}
	return out
}
