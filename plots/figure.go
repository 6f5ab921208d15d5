package plots

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Figure is one chart being drawn. Elements are drawn in the order they are added, and each
// widens the axes to hold it, so a call that reads the axes (Range) sees what was added so far.
// The legend, when a line has a label, is drawn beside the data area on the right, never over
// the curves.
type Figure struct {
	p       *plot.Plot
	logY    bool
	entries int // the legend's entries
}

// Labels are a figure's title and axis labels.
type Labels struct{ Title, X, Y string }

// New starts a figure with its labels.
func New(l Labels) *Figure {
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = l.Title, l.X, l.Y
	return &Figure{p: p}
}

// LogY puts the y axis on a log scale; the lines added after it leave out their points at or
// below zero, which a log axis cannot show.
func (f *Figure) LogY() {
	f.p.Y.Scale = plot.LogScale{}
	f.p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	f.logY = true
}

// StepTicks labels the x axis in whole steps (see stepTicks).
func (f *Figure) StepTicks() { f.p.X.Tick.Marker = stepTicks{} }

// Range is the data's extent on both axes so far.
func (f *Figure) Range() (xmin, xmax, ymin, ymax float64) {
	return f.p.X.Min, f.p.X.Max, f.p.Y.Min, f.p.Y.Max
}

// Line is a polyline: its points, its legend entry (none when Label is empty), colour, width
// (gonum's default when 0) and dash pattern (solid when empty).
type Line struct {
	Label  string
	X, Y   []float64
	Color  color.Color
	Width  float64
	Dashes []float64
}

// Line adds l; a line with no point to show adds nothing.
func (f *Figure) Line(l Line) error {
	pts := make(plotter.XYs, 0, len(l.X))
	for i := range l.X {
		if f.logY && !(l.Y[i] > 0) {
			continue
		}
		pts = append(pts, plotter.XY{X: l.X[i], Y: l.Y[i]})
	}
	if len(pts) == 0 {
		return nil
	}
	pl, err := plotter.NewLine(pts)
	if err != nil {
		return err
	}
	if l.Color != nil {
		pl.Color = l.Color
	}
	if l.Width > 0 {
		pl.Width = vg.Points(l.Width)
	}
	pl.Dashes = lengths(l.Dashes)
	f.p.Add(pl)
	if l.Label != "" {
		f.p.Legend.Add(l.Label, pl)
		f.entries++
	}
	return nil
}

// Note adds a legend entry of text alone (a reference line outside the axes' range).
func (f *Figure) Note(text string) {
	f.p.Legend.Add(text)
	f.entries++
}

// dashStyles tell the lines of a figure apart without colour, in points: solid, dashed,
// dotted, dash-dot, long dashes.
var dashStyles = [][]float64{nil, {6, 3}, {1.5, 2.5}, {7, 2.5, 1.5, 2.5}, {12, 4}}

// Dashes is the dash pattern of a figure's i-th line: solid first, then dashed, dotted,
// dash-dotted and long-dashed, again from solid after five.
func Dashes(i int) []float64 { return dashStyles[i%len(dashStyles)] }

// VLines draws a vertical line at each of xs across the y range so far, unlabelled.
func (f *Figure) VLines(xs []float64, c color.Color, dashes []float64) error {
	lo, hi := f.p.Y.Min, f.p.Y.Max
	for _, x := range xs {
		if err := f.Line(Line{X: []float64{x, x}, Y: []float64{lo, hi}, Color: c, Dashes: dashes}); err != nil {
			return err
		}
	}
	return nil
}

// Band fills the region between lo and hi over x with c, without an outline.
func (f *Figure) Band(x, lo, hi []float64, c color.Color) error {
	poly := make(plotter.XYs, 0, 2*len(x))
	for i := range x {
		poly = append(poly, plotter.XY{X: x[i], Y: lo[i]})
	}
	for i := len(x) - 1; i >= 0; i-- {
		poly = append(poly, plotter.XY{X: x[i], Y: hi[i]})
	}
	pg, err := plotter.NewPolygon(poly)
	if err != nil {
		return err
	}
	pg.Color = c
	pg.LineStyle.Width = 0
	f.p.Add(pg)
	return nil
}

// Scatter is a set of points drawn as glyphs: filled discs when Filled, else gonum's rings;
// Radius is gonum's default when 0.
type Scatter struct {
	X, Y   []float64
	Color  color.Color
	Radius float64
	Filled bool
}

// Scatter adds s.
func (f *Figure) Scatter(s Scatter) error {
	pts := make(plotter.XYs, len(s.X))
	for i := range s.X {
		pts[i] = plotter.XY{X: s.X[i], Y: s.Y[i]}
	}
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return err
	}
	if s.Radius > 0 {
		sc.GlyphStyle.Radius = vg.Points(s.Radius)
	}
	sc.GlyphStyle.Color = s.Color
	if s.Filled {
		sc.GlyphStyle.Shape = draw.CircleGlyph{}
	}
	f.p.Add(sc)
	return nil
}

// WritePNG encodes the figure at w×h inches as a PNG.
func (f *Figure) WritePNG(out io.Writer, w, h float64) error { return f.Write(out, w, h, "png") }

// Write encodes the figure at w×h inches in format: "png", "svg" or "pdf".
func (f *Figure) Write(out io.Writer, w, h float64, format string) error {
	c, err := draw.NewFormattedCanvas(vg.Length(w)*vg.Inch, vg.Length(h)*vg.Inch, format)
	if err != nil {
		return err
	}
	f.draw(draw.New(c))
	_, err = c.WriteTo(out)
	return err
}

// Save writes the figure at w×h inches to the file at path, in the format its extension
// names (.png, .svg or .pdf).
func (f *Figure) Save(path string, w, h float64) error {
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	switch format {
	case "png", "svg", "pdf":
	default:
		return fmt.Errorf("%s: a figure is saved as .png, .svg or .pdf", path)
	}
	file, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := f.Write(file, w, h, format); err != nil {
		file.Close()
		return err
	}
	return file.Close()
}

// legendGap is the space between the data area and the legend beside it.
const legendGap = 4 * vg.Millimeter

// draw draws the figure on c: the plot, narrowed to leave the legend its width on the right,
// and the legend there, its top level with the data area's.
func (f *Figure) draw(c draw.Canvas) {
	if f.entries == 0 {
		f.p.Draw(c)
		return
	}
	leg := f.p.Legend
	f.p.Legend = plot.NewLegend()
	defer func() { f.p.Legend = leg }()
	r := leg.Rectangle(c)
	width := r.Max.X - r.Min.X + legendGap
	// A legend wider than half the figure is given half and cut at the edge.
	width = min(width, (c.Max.X-c.Min.X)/2)
	pc := draw.Crop(c, 0, -width, 0, 0)
	f.p.Draw(pc)
	data := f.p.DataCanvas(pc)
	lc := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
		Min: vg.Point{X: pc.Max.X + legendGap, Y: data.Min.Y},
		Max: vg.Point{X: c.Max.X, Y: data.Max.Y},
	}}
	leg.Top, leg.Left = true, true
	leg.Draw(lc)
}

func lengths(points []float64) []vg.Length {
	if len(points) == 0 {
		return nil
	}
	out := make([]vg.Length, len(points))
	for i, p := range points {
		out[i] = vg.Points(p)
	}
	return out
}

// stepTicks are gonum's default ticks labelled as whole steps: a range such as 3 to 240 gets
// "25.00", "125.00" from the default; a tick between two steps keeps no label.
type stepTicks struct{}

// Ticks implements plot.Ticker.
func (stepTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(lo, hi)
	for i, t := range ts {
		switch {
		case t.Label == "":
		case t.Value != math.Trunc(t.Value):
			ts[i].Label = ""
		default:
			ts[i].Label = strconv.FormatFloat(t.Value, 'f', 0, 64)
		}
	}
	return ts
}
