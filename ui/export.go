package ui

import (
	"encoding/csv"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"spg-tui/envs"
	"spg-tui/plots"
	"spg-tui/ui/draw"
)

// exportData is a copy of the visible curves, taken on the UI goroutine and written off it.
type exportData struct {
	dir              string
	step             int
	trainStep        []float64
	train            map[string][]float64 // run.Train numbers by JSON name
	evalStep, metric []float64
	metricName       string
	task             envs.Task
	refs             map[string]float64
	marks            []int
	qHard, qSoft     []float64
	logScale         bool
	smoothing        float64
}

// export writes the curves as CSV and PNG into <run>/export/step-<N>/, or, for a read-only view
// (which writes nothing into the run it shows), into exports/<run>/step-<N>/ in the working
// directory.
func (m *model) export() tea.Cmd {
	d := m.ctx.data
	if m.ctx.info.Dir == "" {
		m.fail("export: the run has no directory")
		return nil
	}
	root := filepath.Join(m.ctx.info.Dir, "export")
	if m.ctx.readOnly {
		root = filepath.Join("exports", filepath.Base(filepath.Clean(m.ctx.info.Dir)))
	}
	e := exportData{
		dir:  filepath.Join(root, fmt.Sprintf("step-%d", d.lastStep)),
		step: d.lastStep, smoothing: m.ctx.smoothing, logScale: m.ctx.logScale,
		trainStep: slices.Clone(d.train.step), train: map[string][]float64{},
		evalStep: slices.Clone(d.eval.step), metric: slices.Clone(d.eval.metric), metricName: d.eval.name,
		task: m.ctx.cfg.Task, refs: d.refs, marks: markSteps(d),
	}
	for name, v := range d.train.series {
		e.train[name] = slices.Clone(v)
	}
	if ev := d.latest; ev != nil {
		e.qHard, e.qSoft = slices.Clone(ev.QHardScatter), slices.Clone(ev.QSoftScatter)
	}
	m.info("exporting to %s…", e.dir)
	return func() tea.Msg {
		files, err := writeExport(e)
		return exportedMsg{files: files, err: err}
	}
}

// exportDir is the directory of the exported files.
func exportDir(files []string) string {
	if len(files) == 0 {
		return "—"
	}
	return filepath.Dir(files[0])
}

// writeExport writes train.csv, eval.csv, reward.png, eval.png, critic.png and, after an
// evaluation, qscatter.png; it returns the files written.
func writeExport(e exportData) ([]string, error) {
	if err := os.MkdirAll(e.dir, 0o755); err != nil {
		return nil, err
	}
	var files []string
	write := func(name string, fn func(path string) error) error {
		path := filepath.Join(e.dir, name)
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
			return writeCSV(p, []string{"step", "val_" + csvName(e.metricName)}, [][]float64{e.evalStep, e.metric})
		}),
		write("reward.png", e.rewardPlot),
		write("eval.png", e.evalPlot),
		write("critic.png", e.criticPlot),
	}
	if len(e.qHard) > 0 {
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
func (e exportData) trainTable() ([]string, [][]float64) {
	header, cols := []string{"step"}, [][]float64{e.trainStep}
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
func (e exportData) series(name string) []float64 {
	if y, ok := e.train[name]; ok {
		return y
	}
	return make([]float64, len(e.trainStep))
}

// smoothed is y's moving average at the console's smoothing.
func (e exportData) smoothed(y []float64) []float64 {
	out := make([]float64, len(y))
	draw.Smooth(out, y, e.smoothing)
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
func (e exportData) addMarks(f *plots.Figure) error {
	xs := make([]float64, len(e.marks))
	for i, s := range e.marks {
		xs[i] = float64(s)
	}
	return f.VLines(xs, rgb(draw.ColYellow), []float64{1, 2})
}

func (e exportData) rewardPlot(path string) error {
	f := plots.New(plots.Labels{Title: fmt.Sprintf("Train reward (EMA %.2f)", e.smoothing), X: "step"})
	y := e.series("reward_mean")
	if err := addAll(f, line("raw", e.trainStep, y, draw.ColGray, nil), line("EMA", e.trainStep, e.smoothed(y), draw.ColBlue, nil)); err != nil {
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

func (e exportData) evalPlot(path string) error {
	f := plots.New(plots.Labels{Title: "Validation " + metricLabel(e.metricName), X: "step"})
	if err := f.Line(line("val "+metricLabel(e.metricName), e.evalStep, e.metric, draw.ColOrange, nil)); err != nil {
		return err
	}
	x1 := float64(max(e.step, 1))
	for i, r := range drawnRefs(e.task, e.refs) {
		ref := line(r, []float64{0, x1}, []float64{e.refs[r], e.refs[r]}, draw.ColGray, refDashes[i%len(refDashes)])
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

func (e exportData) criticPlot(path string) error {
	f := plots.New(plots.Labels{Title: "Critic loss", X: "step"})
	if e.logScale {
		f.LogY()
	}
	if err := addAll(f,
		line("total", e.trainStep, e.series("critic_loss"), draw.ColBlue, nil),
		line("hard MSE", e.trainStep, e.series("critic_hard"), draw.ColGreen, nil),
		line("penalty", e.trainStep, e.series("critic_penalty"), draw.ColPink, nil),
	); err != nil {
		return err
	}
	if err := e.addMarks(f); err != nil {
		return err
	}
	return f.SavePNG(path, 8, 4)
}

func (e exportData) scatterPlot(path string) error {
	f := plots.New(plots.Labels{Title: fmt.Sprintf("Q(s,M) against Q(s,P), step %d", e.step), X: "hard Q(s,P)", Y: "soft Q(s,M)"})
	if err := f.Scatter(plots.Scatter{X: e.qHard, Y: e.qSoft, Color: rgb(draw.ColBlue), Filled: true}); err != nil {
		return err
	}
	xlo, xhi, ylo, yhi := f.Range()
	lo, hi := min(xlo, ylo), max(xhi, yhi)
	if err := f.Line(line("y = x", []float64{lo, hi}, []float64{lo, hi}, draw.ColGray, refDashes[0])); err != nil {
		return err
	}
	return f.SavePNG(path, 5, 5)
}
