package experiments

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"spg-tui/run"
	"spg-tui/run/stats"
)

// curvePoint is a metric across seeds at one step, with its 68% and 95% confidence intervals
// of the mean.
type curvePoint struct {
	Step       int
	N          int
	Mean       float64
	Lo68, Hi68 float64
	Lo95, Hi95 float64
}

// curveOf aggregates a value of the seeds' validation evaluations at every step some seed was
// evaluated.
func curveOf(seeds []SeedResult, value func(run.Record) float64) []curvePoint {
	at := map[int][]float64{}
	for _, s := range seeds {
		for _, e := range s.Evals {
			at[e.Step] = append(at[e.Step], value(e))
		}
	}
	steps := mapIntKeys(at)
	out := make([]curvePoint, len(steps))
	for i, st := range steps {
		s := stats.Summarize(at[st])
		out[i] = curvePoint{Step: st, N: s.N, Mean: s.Mean, Lo68: s.CI68Lo, Hi68: s.CI68Hi, Lo95: s.CI95Lo, Hi95: s.CI95Hi}
	}
	return out
}

func mapIntKeys[V any](m map[int]V) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func evalReward(r run.Record) float64 { return r.EvalReward }

// series is one labelled curve of a figure.
type series struct {
	Label string
	Curve []curvePoint
}

// recordCurves writes each series' points to results.csv under output.
func (w *reportWriter) recordCurves(output string, ss []series) {
	for _, s := range ss {
		for _, p := range s.Curve {
			w.number(output, s.Label, "", p.Step, "mean", p.Mean, p.N)
			w.number(output, s.Label, "", p.Step, "ci68_lo", p.Lo68, p.N)
			w.number(output, s.Label, "", p.Step, "ci68_hi", p.Hi68, p.N)
			w.number(output, s.Label, "", p.Step, "ci95_lo", p.Lo95, p.N)
			w.number(output, s.Label, "", p.Step, "ci95_hi", p.Hi95, p.N)
		}
	}
}

// palette colours the series of a figure.
var palette = []color.RGBA{
	{R: 31, G: 119, B: 180, A: 255}, {R: 214, G: 39, B: 40, A: 255}, {R: 44, G: 160, B: 44, A: 255},
	{R: 255, G: 127, B: 14, A: 255}, {R: 148, G: 103, B: 189, A: 255},
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

func faded(c color.RGBA, alpha uint8) color.Color {
	// Premultiplied, as color.RGBA requires.
	f := func(v uint8) uint8 { return uint8(int(v) * int(alpha) / 255) }
	return color.RGBA{R: f(c.R), G: f(c.G), B: f(c.B), A: alpha}
}

// bandFigure plots the series' means with their 68% (and, if with95, 95%) bands, and adds it to
// the report as name.
func (w *reportWriter) bandFigure(name, title, ylabel string, ss []series, with95 bool) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "training steps"
	p.X.Tick.Marker = stepTicks{}
	p.Y.Label.Text = ylabel
	p.Legend.Top = true
	p.Legend.Left = false
	for i, s := range ss {
		if len(s.Curve) == 0 {
			continue
		}
		col := palette[i%len(palette)]
		bands := []struct {
			lo, hi func(curvePoint) float64
			alpha  uint8
		}{{func(c curvePoint) float64 { return c.Lo68 }, func(c curvePoint) float64 { return c.Hi68 }, 90}}
		if with95 {
			bands = append([]struct {
				lo, hi func(curvePoint) float64
				alpha  uint8
			}{{func(c curvePoint) float64 { return c.Lo95 }, func(c curvePoint) float64 { return c.Hi95 }, 45}}, bands...)
		}
		for _, b := range bands {
			var poly plotter.XYs
			for _, c := range s.Curve {
				poly = append(poly, plotter.XY{X: float64(c.Step), Y: b.lo(c)})
			}
			for j := len(s.Curve) - 1; j >= 0; j-- {
				poly = append(poly, plotter.XY{X: float64(s.Curve[j].Step), Y: b.hi(s.Curve[j])})
			}
			if pg, err := plotter.NewPolygon(poly); err == nil {
				pg.Color = faded(col, b.alpha)
				pg.LineStyle.Width = 0
				p.Add(pg)
			}
		}
		var pts plotter.XYs
		for _, c := range s.Curve {
			pts = append(pts, plotter.XY{X: float64(c.Step), Y: c.Mean})
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			continue
		}
		l.Color, l.Width = col, vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("%s (n %d)", s.Label, s.Curve[len(s.Curve)-1].N), l)
	}
	bandText := "band: 68% CI of the mean across seeds (Student t)"
	if with95 {
		bandText = "bands: 68% (dark) and 95% (light) CI of the mean across seeds (Student t)"
	}
	p.X.Label.Text += " · " + bandText
	w.figures = append(w.figures, figure{name: name, write: func(out io.Writer) error {
		wt, err := p.WriterTo(8*vg.Inch, 4.5*vg.Inch, "png")
		if err != nil {
			return err
		}
		_, err = wt.WriteTo(out)
		return err
	}})
	w.linef("![%s](%s)", title, name)
	w.linef("")
}

// scatterPanel is one panel of a scatter grid: hard Q against soft Q of the fixed states.
type scatterPanel struct {
	Title      string
	Hard, Soft []float64
}

// scatterFigure lays the panels out in rows of cols, each with y = x, and adds it as name.
func (w *reportWriter) scatterFigure(name, title string, panels []scatterPanel, cols int) {
	rows := (len(panels) + cols - 1) / cols
	plots := make([][]*plot.Plot, rows)
	for r := range plots {
		plots[r] = make([]*plot.Plot, cols)
	}
	for i, pn := range panels {
		p := plot.New()
		p.Title.Text = pn.Title
		p.X.Label.Text = "hard Q(s,P)"
		p.Y.Label.Text = "soft Q(s,M)"
		pts := make(plotter.XYs, len(pn.Hard))
		lo, hi := 0.0, 0.0
		for j := range pn.Hard {
			pts[j] = plotter.XY{X: pn.Hard[j], Y: pn.Soft[j]}
			if j == 0 {
				lo, hi = pn.Hard[j], pn.Hard[j]
			}
			lo = min(lo, pn.Hard[j], pn.Soft[j])
			hi = max(hi, pn.Hard[j], pn.Soft[j])
		}
		if s, err := plotter.NewScatter(pts); err == nil {
			s.GlyphStyle.Radius = vg.Points(1.5)
			s.GlyphStyle.Color = palette[0]
			p.Add(s)
		}
		if l, err := plotter.NewLine(plotter.XYs{{X: lo, Y: lo}, {X: hi, Y: hi}}); err == nil {
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
			p.Add(l)
		}
		plots[i/cols][i%cols] = p
	}
	w.figures = append(w.figures, figure{name: name, write: func(out io.Writer) error {
		width, height := vg.Length(cols)*3*vg.Inch, vg.Length(rows)*3*vg.Inch
		img := vgimg.PngCanvas{Canvas: vgimg.New(width, height)}
		tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter * 2, PadY: vg.Millimeter * 2}
		canvases := plot.Align(plots, tiles, draw.New(img))
		for r := range plots {
			for c := range plots[r] {
				if plots[r][c] != nil {
					plots[r][c].Draw(canvases[r][c])
				}
			}
		}
		_, err := img.WriteTo(out)
		return err
	}})
	w.linef("![%s](%s)", title, name)
	w.linef("")
}
