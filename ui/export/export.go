package export

import (
	"encoding/csv"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"slices"
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
	// TrainStep and TrainWall are the steps and training times (seconds) of the training
	// summaries, Train their run.Train numbers by JSON name.
	TrainStep, TrainWall []float64
	Train                map[string][]float64
	// EvalStep, EvalWall and Metric are the validation evaluations; MetricName names the metric
	// in eval.csv's column, MetricLabel in the plots.
	EvalStep, EvalWall, Metric []float64
	MetricName, MetricLabel    string
	// Refs are the reference lines of the validation plot, in the order drawn.
	Refs []Ref
	// Marks are the steps of the live changes.
	Marks []int
	// WallX draws the figures against the run's training time, as the console does after w.
	WallX bool
	// QHard and QSoft are the Q scatter the console shows (none before an evaluation), that of
	// the validation of step QStep.
	QHard, QSoft []float64
	QStep        int
	// Log and Smoothing are the console's display settings: the charts on a log scale, the
	// reward's moving-average weight.
	Log       Log
	Smoothing float64
}

// Log says which figures have a log y-axis.
type Log struct{ Reward, Val, Critic bool }

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

// Write writes train.csv, eval.csv, and the figures reward, eval, critic and, after an
// evaluation, qscatter, each as PNG and SVG; it returns the files written.
func Write(e Data) ([]string, error) {
	if err := os.MkdirAll(e.Dir, 0o755); err != nil {
		return nil, err
	}
	out := files{dir: e.Dir}
	header, cols := e.trainTable()
	out.csv("train.csv", header, cols)
	out.csv("eval.csv", []string{"step", "wall", "val_" + csvName(e.MetricName)}, [][]float64{e.EvalStep, e.EvalWall, e.Metric})
	out.figure("reward", e.rewardPlot, 8, 4)
	out.figure("eval", e.evalPlot, 8, 4)
	out.figure("critic", e.criticPlot, 8, 4)
	if len(e.QHard) > 0 {
		out.figure("qscatter", e.scatterPlot, 6, 5)
	}
	return out.paths, out.err
}

// figureFormats are the formats of every exported figure.
var figureFormats = []string{"png", "svg"}

// files writes the files of an export into dir, stopping at the first error.
type files struct {
	dir   string
	paths []string
	err   error
}

// write writes the file name with fn, unless an earlier file failed.
func (f *files) write(name string, fn func(path string) error) {
	if f.err != nil {
		return
	}
	path := filepath.Join(f.dir, name)
	if err := fn(path); err != nil {
		f.err = fmt.Errorf("%s: %v", name, err)
		return
	}
	f.paths = append(f.paths, path)
}

// csv writes columns of equal length under a header as the file name.
func (f *files) csv(name string, header []string, cols [][]float64) {
	f.write(name, func(p string) error { return writeCSV(p, header, cols) })
}

// figure draws the figure build makes and saves it as name.png and name.svg at w×h inches.
func (f *files) figure(name string, build func() (*plots.Figure, error), w, h float64) {
	if f.err != nil {
		return
	}
	fig, err := build()
	if err != nil {
		f.err = fmt.Errorf("%s: %v", name, err)
		return
	}
	for _, format := range figureFormats {
		f.write(name+"."+format, func(p string) error { return fig.Save(p, w, h) })
	}
}

// trainColumns are the columns of train.csv after the step and the training time: each a
// run.Train number the console keeps, under its column name, followed by its moving average
// (the reward pane's smoothed curve) when ema is set. A new training metric is exported by one
// line here.
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
	header, cols := []string{"step", "wall"}, [][]float64{e.TrainStep, e.TrainWall}
	for _, c := range trainColumns {
		y := e.series(c.series)
		header, cols = append(header, c.column), append(cols, y)
		if c.ema {
			header, cols = append(header, c.column+"_ema"), append(cols, smooth(y, e.Smoothing))
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

// xAxis is a figure's x-axis as the console draws it: the steps, or the training time.
type xAxis struct {
	Label string
	// Train and Eval are the x of the training summaries and of the validations.
	Train, Eval []float64
}

// Axis labels of the figures.
const (
	stepsLabel = "step"
	timeLabel  = "training time (s)"
)

// axis is the figures' x-axis: training time in seconds after w, else steps.
func (e Data) axis() xAxis {
	if e.WallX {
		return xAxis{Label: timeLabel, Train: e.TrainWall, Eval: e.EvalWall}
	}
	return xAxis{Label: stepsLabel, Train: e.TrainStep, Eval: e.EvalStep}
}

// markX are the x of the live changes on the figures' axis: their steps, or the training
// time of the first summary at or after each (where the console marks them).
func (e Data) markX() []float64 {
	var xs []float64
	for _, s := range e.Marks {
		if !e.WallX {
			xs = append(xs, float64(s))
			continue
		}
		if i, _ := slices.BinarySearch(e.TrainStep, float64(s)); i < len(e.TrainWall) {
			xs = append(xs, e.TrainWall[i])
		}
	}
	return xs
}

func csvName(s string) string {
	if s == "" {
		return "metric"
	}
	return strings.NewReplacer(" ", "_", "-", "_").Replace(s)
}

// writeCSV writes columns of equal length under a header.
func writeCSV(path string, header []string, cols [][]float64) error {
	return writeRows(path, header, len(cols[0]), func(i int, row []string) {
		for j, c := range cols {
			row[j] = strconv.FormatFloat(c[i], 'g', -1, 64)
		}
	})
}

// writeRows writes n rows under a header, each filled in by fill.
func writeRows(path string, header []string, n int, fill func(i int, row []string)) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	w.Write(header)
	row := make([]string, len(header))
	for i := range n {
		fill(i, row)
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

// newFigure is a figure against the export's x-axis, on a log scale when logY.
func (e Data) newFigure(title string, logY bool) *plots.Figure {
	f := plots.New(plots.Labels{Title: title, X: e.axis().Label})
	if logY {
		f.LogY()
	}
	return f
}

// addMarks draws the live changes as vertical dotted lines across the y range so far.
func (e Data) addMarks(f *plots.Figure) error {
	return f.VLines(e.markX(), rgb(draw.ColYellow), []float64{1, 2})
}

func (e Data) rewardPlot() (*plots.Figure, error) {
	f := e.newFigure(fmt.Sprintf("Train reward (EMA %.2f)", e.Smoothing), e.Log.Reward)
	y, x := e.series("reward_mean"), e.axis().Train
	if err := addAll(f, line("raw", x, y, draw.ColGray, plots.Dashes(2)), line("EMA", x, smooth(y, e.Smoothing), draw.ColBlue, nil)); err != nil {
		return nil, err
	}
	return f, e.addMarks(f)
}

// refDashes tell the reference lines apart, in points.
var refDashes = [][]float64{{6, 3}, {2, 2}, {8, 2, 2, 2}}

// evalPlot draws the validation metric with the references inside its range, as the console
// does; those outside it are named in the legend with where they are.
func (e Data) evalPlot() (*plots.Figure, error) {
	f := e.newFigure("Validation "+e.MetricLabel, e.Log.Val)
	ax := e.axis()
	if err := f.Line(line("val "+e.MetricLabel, ax.Eval, e.Metric, draw.ColOrange, nil)); err != nil {
		return nil, err
	}
	x0, x1, lo, hi := f.Range()
	if len(ax.Eval) == 0 {
		x0, x1, lo, hi = 0, 1, math.Inf(-1), math.Inf(1)
	}
	for i, r := range e.Refs {
		switch {
		case r.Value > hi:
			f.Note(fmt.Sprintf("%s %s (above)", r.Name, draw.FmtNum(r.Value)))
		case r.Value < lo:
			f.Note(fmt.Sprintf("%s %s (below)", r.Name, draw.FmtNum(r.Value)))
		default:
			ref := line(r.Name, []float64{x0, x1}, []float64{r.Value, r.Value}, draw.ColGray, refDashes[i%len(refDashes)])
			if err := f.Line(ref); err != nil {
				return nil, err
			}
		}
	}
	return f, e.addMarks(f)
}

func (e Data) criticPlot() (*plots.Figure, error) {
	f := e.newFigure("Critic loss", e.Log.Critic)
	x := e.axis().Train
	if err := addAll(f,
		line("total", x, e.series("critic_loss"), draw.ColBlue, plots.Dashes(0)),
		line("hard MSE", x, e.series("critic_hard"), draw.ColGreen, plots.Dashes(1)),
		line("penalty", x, e.series("critic_penalty"), draw.ColPink, plots.Dashes(2)),
	); err != nil {
		return nil, err
	}
	return f, e.addMarks(f)
}

func (e Data) scatterPlot() (*plots.Figure, error) {
	f := plots.New(plots.Labels{Title: fmt.Sprintf("Q(s,M) against Q(s,P), step %d", e.QStep), X: "hard Q(s,P)", Y: "soft Q(s,M)"})
	if err := f.Scatter(plots.Scatter{X: e.QHard, Y: e.QSoft, Color: rgb(draw.ColBlue), Filled: true}); err != nil {
		return nil, err
	}
	xlo, xhi, ylo, yhi := f.Range()
	lo, hi := min(xlo, ylo), max(xhi, yhi)
	return f, f.Line(line("y = x", []float64{lo, hi}, []float64{lo, hi}, draw.ColGray, refDashes[0]))
}
