package export

import (
	"encoding/csv"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"spg-tui/plots"
	"spg-tui/ui/draw"
)

// Data is a copy of the visible curves, taken on the console's goroutine and written off it.
type Data struct {
	// Dir is the directory the files go into; Step the run's last step.
	Dir  string
	Step int
	// TrainStep are the steps of the training summaries, Train their run.Train numbers by JSON
	// name.
	TrainStep []float64
	Train     map[string][]float64
	// EvalStep and Metric are the validation evaluations; MetricName names the metric in
	// eval.csv's column, MetricLabel in the plots.
	EvalStep, Metric        []float64
	MetricName, MetricLabel string
	// Refs are the reference lines of the validation plot, in the order drawn.
	Refs []Ref
	// Marks are the steps of the live changes.
	Marks []int
	// QHard and QSoft are the latest evaluation's Q scatter (none before one).
	QHard, QSoft []float64
	// LogScale and Smoothing are the console's display settings: critic losses on a log scale,
	// the reward's moving-average weight.
	LogScale  bool
	Smoothing float64
}

// Ref is a reference line: a solver's value of the metric.
type Ref struct {
	Name  string
	Value float64
}

// Dir is the directory of the exported files.
func Dir(files []string) string {
	if len(files) == 0 {
		return "—"
	}
	return filepath.Dir(files[0])
}

// Write writes train.csv, eval.csv, reward.png, eval.png, critic.png and, after an
// evaluation, qscatter.png; it returns the files written.
func Write(e Data) ([]string, error) {
	if err := os.MkdirAll(e.Dir, 0o755); err != nil {
		return nil, err
	}
	var files []string
	write := func(name string, fn func(path string) error) error {
		path := filepath.Join(e.Dir, name)
		if err := fn(path); err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		files = append(files, path)
		return nil
	}
	header, cols := e.trainTable()
	steps := []error{
		write("train.csv", func(p string) error { return writeCSV(p, header, cols) }),
		write("eval.csv", func(p string) error {
			return writeCSV(p, []string{"step", "val_" + csvName(e.MetricName)}, [][]float64{e.EvalStep, e.Metric})
		}),
		write("reward.png", e.rewardPlot),
		write("eval.png", e.evalPlot),
		write("critic.png", e.criticPlot),
	}
	if len(e.QHard) > 0 {
		steps = append(steps, write("qscatter.png", e.scatterPlot))
	}
	for _, err := range steps {
		if err != nil {
			return files, err
		}
	}
	return files, nil
}

// trainColumns are the columns of train.csv after the step: each a run.Train number the
// console keeps, under its column name, followed by its moving average (the reward pane's
// smoothed curve) when ema is set. A new training metric is exported by one line here.
var trainColumns = []struct {
	series, column string
	ema            bool
}{
	{"reward_mean", "reward", true},
	{"critic_loss", "critic_loss", false},
	{"critic_hard", "critic_hard", false},
	{"critic_penalty", "critic_penalty", false},
}

// trainTable is train.csv's header and columns.
func (e Data) trainTable() ([]string, [][]float64) {
	header, cols := []string{"step"}, [][]float64{e.TrainStep}
	for _, c := range trainColumns {
		y := e.series(c.series)
		header, cols = append(header, c.column), append(cols, y)
		if c.ema {
			header, cols = append(header, c.column+"_ema"), append(cols, e.smoothed(y))
		}
	}
	return header, cols
}

// series is the run.Train number called name, one value per training summary (zeros when the
// records had none).
func (e Data) series(name string) []float64 {
	if y, ok := e.Train[name]; ok {
		return y
	}
	return make([]float64, len(e.TrainStep))
}

// smoothed is y's moving average at the console's smoothing.
func (e Data) smoothed(y []float64) []float64 {
	out := make([]float64, len(y))
	draw.Smooth(out, y, e.Smoothing)
	return out
}

func csvName(s string) string {
	if s == "" {
		return "metric"
	}
	return strings.NewReplacer(" ", "_", "-", "_").Replace(s)
}

// writeCSV writes columns of equal length under a header.
func writeCSV(path string, header []string, cols [][]float64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	w.Write(header)
	row := make([]string, len(cols))
	for i := range cols[0] {
		for j, c := range cols {
			row[j] = strconv.FormatFloat(c[i], 'g', -1, 64)
		}
		w.Write(row)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func rgb(c int) color.Color {
	palette := map[int]color.RGBA{
		draw.ColBlue: {0, 175, 255, 255}, draw.ColOrange: {255, 175, 0, 255}, draw.ColPink: {215, 95, 215, 255},
		draw.ColGreen: {135, 215, 135, 255}, draw.ColGray: {128, 128, 128, 255}, draw.ColYellow: {255, 215, 95, 255},
	}
	return palette[c]
}

// line is a labelled curve of colour c.
func line(label string, x, y []float64, c int, dashes []float64) plots.Line {
	return plots.Line{Label: label, X: x, Y: y, Color: rgb(c), Dashes: dashes}
}

// addAll adds the lines to f in order, stopping at the first error.
func addAll(f *plots.Figure, lines ...plots.Line) error {
	for _, l := range lines {
		if err := f.Line(l); err != nil {
			return err
		}
	}
	return nil
}

// addMarks draws the live changes as vertical dotted lines across the y range so far.
func (e Data) addMarks(f *plots.Figure) error {
	xs := make([]float64, len(e.Marks))
	for i, s := range e.Marks {
		xs[i] = float64(s)
	}
	return f.VLines(xs, rgb(draw.ColYellow), []float64{1, 2})
}

func (e Data) rewardPlot(path string) error {
	f := plots.New(plots.Labels{Title: fmt.Sprintf("Train reward (EMA %.2f)", e.Smoothing), X: "step"})
	y := e.series("reward_mean")
	if err := addAll(f, line("raw", e.TrainStep, y, draw.ColGray, nil), line("EMA", e.TrainStep, e.smoothed(y), draw.ColBlue, nil)); err != nil {
		return err
	}
	f.Legend(true, false)
	if err := e.addMarks(f); err != nil {
		return err
	}
	return f.SavePNG(path, 8, 4)
}

// refDashes tell the reference lines apart, in points.
var refDashes = [][]float64{{6, 3}, {2, 2}, {8, 2, 2, 2}}

func (e Data) evalPlot(path string) error {
	f := plots.New(plots.Labels{Title: "Validation " + e.MetricLabel, X: "step"})
	if err := f.Line(line("val "+e.MetricLabel, e.EvalStep, e.Metric, draw.ColOrange, nil)); err != nil {
		return err
	}
	x1 := float64(max(e.Step, 1))
	for i, r := range e.Refs {
		ref := line(r.Name, []float64{0, x1}, []float64{r.Value, r.Value}, draw.ColGray, refDashes[i%len(refDashes)])
		if err := f.Line(ref); err != nil {
			return err
		}
	}
	f.Legend(true, true)
	if err := e.addMarks(f); err != nil {
		return err
	}
	return f.SavePNG(path, 8, 4)
}

func (e Data) criticPlot(path string) error {
	f := plots.New(plots.Labels{Title: "Critic loss", X: "step"})
	if e.LogScale {
		f.LogY()
	}
	if err := addAll(f,
		line("total", e.TrainStep, e.series("critic_loss"), draw.ColBlue, nil),
		line("hard MSE", e.TrainStep, e.series("critic_hard"), draw.ColGreen, nil),
		line("penalty", e.TrainStep, e.series("critic_penalty"), draw.ColPink, nil),
	); err != nil {
		return err
	}
	if err := e.addMarks(f); err != nil {
		return err
	}
	return f.SavePNG(path, 8, 4)
}

func (e Data) scatterPlot(path string) error {
	f := plots.New(plots.Labels{Title: fmt.Sprintf("Q(s,M) against Q(s,P), step %d", e.Step), X: "hard Q(s,P)", Y: "soft Q(s,M)"})
	if err := f.Scatter(plots.Scatter{X: e.QHard, Y: e.QSoft, Color: rgb(draw.ColBlue), Filled: true}); err != nil {
		return err
	}
	xlo, xhi, ylo, yhi := f.Range()
	lo, hi := min(xlo, ylo), max(xhi, yhi)
	if err := f.Line(line("y = x", []float64{lo, hi}, []float64{lo, hi}, draw.ColGray, refDashes[0])); err != nil {
		return err
	}
	return f.SavePNG(path, 5, 5)
}
