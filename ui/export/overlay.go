package export

import (
	"fmt"
	"os"
	"strconv"

	"spg-tui/plots"
	"spg-tui/ui/draw"
)

// Overlay is what the compare view's e key exports: every run's curves, and the figures of the
// runs it draws overlaid.
type Overlay struct {
	// Dir is the directory the files go into.
	Dir string
	// WallX draws the figures against the runs' training time, as the view does after w.
	WallX bool
	// Smoothing is the reward's moving-average weight; MetricLabel names the drawn runs' metric.
	Smoothing   float64
	MetricLabel string
	Runs        []OverlayRun
}

// OverlayRun is one run of an Overlay.
type OverlayRun struct {
	Label, Dir string
	// Drawn runs are in the figures; the others only in the CSV.
	Drawn bool
	// Style is the run's colour (a 256-colour index, as on the screen) and dash pattern index.
	Color, Style int
	// MetricName names the run's metric in the CSV.
	MetricName                   string
	TrainStep, TrainWall, Reward []float64
	EvalStep, EvalWall, Metric   []float64
}

// WriteOverlay writes curves.csv (every run's validation metric, reward and its moving
// average, one row a point) and the overlays val and reward of the drawn runs, each as PNG and
// SVG; it returns the files written.
func WriteOverlay(o Overlay) ([]string, error) {
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return nil, err
	}
	out := files{dir: o.Dir}
	out.write("curves.csv", o.writeCurves)
	out.figure("val", func() (*plots.Figure, error) { return o.figure("Validation "+o.MetricLabel, true) }, 8, 4.5)
	out.figure("reward", func() (*plots.Figure, error) {
		return o.figure(fmt.Sprintf("Train reward (EMA %.2f)", o.Smoothing), false)
	}, 8, 4.5)
	return out.paths, out.err
}

// curvePoint is a row of curves.csv.
type curvePoint struct {
	run               *OverlayRun
	series            string
	step, wall, value float64
}

// writeCurves writes curves.csv: run, dir, series, step, wall, value.
func (o Overlay) writeCurves(path string) error {
	var rows []curvePoint
	for i := range o.Runs {
		r := &o.Runs[i]
		for j := range r.EvalStep {
			rows = append(rows, curvePoint{r, "val_" + csvName(r.MetricName), r.EvalStep[j], r.EvalWall[j], r.Metric[j]})
		}
		ema := smooth(r.Reward, o.Smoothing)
		for j := range r.TrainStep {
			rows = append(rows, curvePoint{r, "reward", r.TrainStep[j], r.TrainWall[j], r.Reward[j]},
				curvePoint{r, "reward_ema", r.TrainStep[j], r.TrainWall[j], ema[j]})
		}
	}
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	return writeRows(path, []string{"run", "dir", "series", "step", "wall", "value"}, len(rows), func(i int, row []string) {
		p := rows[i]
		row[0], row[1], row[2], row[3], row[4], row[5] = p.run.Label, p.run.Dir, p.series, num(p.step), num(p.wall), num(p.value)
	})
}

// figure overlays the drawn runs' validation metric (val) or smoothed reward, each in its
// colour and dashes, against steps or training time.
func (o Overlay) figure(title string, val bool) (*plots.Figure, error) {
	xl := stepsLabel
	if o.WallX {
		xl = timeLabel
	}
	f := plots.New(plots.Labels{Title: title, X: xl})
	for _, r := range o.Runs {
		if !r.Drawn {
			continue
		}
		x, y := r.EvalStep, r.Metric
		if o.WallX {
			x = r.EvalWall
		}
		if !val {
			x, y = r.TrainStep, smooth(r.Reward, o.Smoothing)
			if o.WallX {
				x = r.TrainWall
			}
		}
		if err := f.Line(line(r.Label, x, y, r.Color, plots.Dashes(r.Style))); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// smooth is y's moving average with weight alpha, as the console draws it.
func smooth(y []float64, alpha float64) []float64 {
	out := make([]float64, len(y))
	draw.Smooth(out, y, alpha)
	return out
}
