package ui

import (
	"math"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/NimbleMarkets/ntcharts/canvas/runes"
)

// canvas is a braille drawing surface of w×h terminal cells, 2w×4h dots, in layers. A cell shows
// the dots of every layer, in the style of the topmost layer that has a dot in it. The dot
// grids and their encoding are ntcharts' runes.PatternDotsGrid: that package has no imports, so
// it brings in neither Bubble Tea v1 nor Lip Gloss v1 (see the report in README).
type canvas struct {
	w, h   int
	grids  []*runes.PatternDotsGrid
	styles []lipgloss.Style
	// The data window mapped onto the dots; y grows upwards.
	x0, x1, y0, y1 float64
}

func newCanvas(w, h int, x0, x1, y0, y1 float64) *canvas {
	return &canvas{w: max(w, 0), h: max(h, 0), x0: x0, x1: x1, y0: y0, y1: y1}
}

// layer adds a layer drawn in st above the others and returns its index.
func (c *canvas) layer(st lipgloss.Style) int {
	c.grids = append(c.grids, runes.NewPatternDotsGrid(2*c.w, 4*c.h))
	c.styles = append(c.styles, st)
	return len(c.grids) - 1
}

// dot maps a data point to dot coordinates (column, row from the top).
func (c *canvas) dot(x, y float64) (int, int) {
	dx, dy := 2*c.w-1, 4*c.h-1
	col := int(math.Round((x - c.x0) / (c.x1 - c.x0) * float64(dx)))
	row := int(math.Round((c.y1 - y) / (c.y1 - c.y0) * float64(dy)))
	return col, row
}

// point sets the dot of data point (x, y) in layer l; points outside the window are dropped.
func (c *canvas) point(l int, x, y float64) {
	col, row := c.dot(x, y)
	c.grids[l].Set(col, row)
}

// mark draws a small plus (shape '+') or a 2×2 block (any other shape) centred on (x, y), so that
// two kinds of points differ without colour.
func (c *canvas) mark(l int, x, y float64, shape byte) {
	col, row := c.dot(x, y)
	g := c.grids[l]
	if shape == '+' {
		g.Set(col, row)
		g.Set(col-1, row)
		g.Set(col+1, row)
		g.Set(col, row-1)
		g.Set(col, row+1)
		return
	}
	g.Set(col, row)
	g.Set(col+1, row)
	g.Set(col, row+1)
	g.Set(col+1, row+1)
}

// line draws the segment between two data points in layer l (Bresenham).
func (c *canvas) line(l int, xa, ya, xb, yb float64) {
	x0, y0 := c.dot(xa, ya)
	x1, y1 := c.dot(xb, yb)
	dx, dy := abs(x1-x0), -abs(y1-y0)
	sx, sy := sign(x1-x0), sign(y1-y0)
	err := dx + dy
	g := c.grids[l]
	for {
		g.Set(x0, y0)
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

// rows renders the canvas as h styled lines of w cells; empty cells are spaces.
func (c *canvas) rows() []string {
	pats := make([][][]rune, len(c.grids))
	for i, g := range c.grids {
		pats[i] = g.BraillePatterns()
	}
	out := make([]string, c.h)
	var b strings.Builder
	for y := range c.h {
		b.Reset()
		for x := range c.w {
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
