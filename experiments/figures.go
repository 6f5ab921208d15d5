package experiments

import (
	"fmt"
	"image/color"
	"io"
	"slices"

	"spg-tui/plots"
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

func faded(c color.RGBA, alpha uint8) color.Color {
	// Premultiplied, as color.RGBA requires.
	f := func(v uint8) uint8 { return uint8(int(v) * int(alpha) / 255) }
	return color.RGBA{R: f(c.R), G: f(c.G), B: f(c.B), A: alpha}
}

// ciBand is one confidence band of a curve: its bounds and how opaque it is drawn.
type ciBand struct {
	lo, hi func(curvePoint) float64
	alpha  uint8
}

var (
	band68 = ciBand{func(c curvePoint) float64 { return c.Lo68 }, func(c curvePoint) float64 { return c.Hi68 }, 90}
	band95 = ciBand{func(c curvePoint) float64 { return c.Lo95 }, func(c curvePoint) float64 { return c.Hi95 }, 45}
)

// bandFigure plots the series' means with their 68% (and, if with95, 95%) bands, and adds it to
// the report as name.
func (w *reportWriter) bandFigure(name, title, ylabel string, ss []series, with95 bool) {
	bandText := "band: 68% CI of the mean across seeds (Student t)"
	bands := []ciBand{band68}
	if with95 {
		bandText = "bands: 68% (dark) and 95% (light) CI of the mean across seeds (Student t)"
		bands = []ciBand{band95, band68}
	}
	f := plots.New(plots.Labels{Title: title, X: "training steps · " + bandText, Y: ylabel})
	f.StepTicks()
	for i, s := range ss {
		if len(s.Curve) == 0 {
			continue
		}
		col := palette[i%len(palette)]
		x, mean := make([]float64, len(s.Curve)), make([]float64, len(s.Curve))
		for j, c := range s.Curve {
			x[j], mean[j] = float64(c.Step), c.Mean
		}
		for _, b := range bands {
			lo, hi := make([]float64, len(s.Curve)), make([]float64, len(s.Curve))
			for j, c := range s.Curve {
				lo[j], hi[j] = b.lo(c), b.hi(c)
			}
			// A band that cannot be drawn (a NaN bound) is left out; the mean is still drawn.
			_ = f.Band(x, lo, hi, faded(col, b.alpha))
		}
		label := fmt.Sprintf("%s (n %d)", s.Label, s.Curve[len(s.Curve)-1].N)
		// A mean that cannot be drawn is left out of the figure and its legend. Each mean has its
		// own dashes as well as its colour: one that runs on another (penalty on and off in
		// figure3a) still shows.
		_ = f.Line(plots.Line{Label: label, X: x, Y: mean, Color: col, Width: 1.5, Dashes: plots.Dashes(i)})
	}
	w.figures = append(w.figures, figure{name: name, write: func(out io.Writer) error { return f.WritePNG(out, 8, 4.5) }})
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
	figs := make([][]*plots.Figure, rows)
	for r := range figs {
		figs[r] = make([]*plots.Figure, cols)
	}
	for i, pn := range panels {
		f := plots.New(plots.Labels{Title: pn.Title, X: "hard Q(s,P)", Y: "soft Q(s,M)"})
		lo, hi := 0.0, 0.0
		for j := range pn.Hard {
			if j == 0 {
				lo, hi = pn.Hard[j], pn.Hard[j]
			}
			lo = min(lo, pn.Hard[j], pn.Soft[j])
			hi = max(hi, pn.Hard[j], pn.Soft[j])
		}
		// A panel whose points cannot be drawn (NaN) keeps its axes and its y = x.
		_ = f.Scatter(plots.Scatter{X: pn.Hard, Y: pn.Soft, Color: palette[0], Radius: 1.5})
		_ = f.Line(plots.Line{X: []float64{lo, hi}, Y: []float64{lo, hi}, Dashes: []float64{4, 2}})
		figs[i/cols][i%cols] = f
	}
	w.figures = append(w.figures, figure{name: name, write: func(out io.Writer) error {
		return plots.WriteGrid(out, figs, rows, cols, 3)
	}})
	w.linef("![%s](%s)", title, name)
	w.linef("")
}
