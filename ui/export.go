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
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"spg-tui/envs"
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

// export writes the curves as CSV and PNG into <run>/export/step-<N>/, or, from a read-only
// view, which writes nothing into the run it shows, into <run>-export/step-<N>/ beside it.
func (m *model) export() tea.Cmd {
	d := m.ctx.data
	if m.ctx.info.Dir == "" {
		m.fail("export: the run has no directory")
		return nil
	}
	root := filepath.Join(m.ctx.info.Dir, "export")
	if m.ctx.readOnly {
		run := filepath.Clean(m.ctx.info.Dir)
		root = filepath.Join(filepath.Dir(run), filepath.Base(run)+"-export")
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
	smooth(out, y, e.smoothing)
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

func xys(x, y []float64, logY bool) plotter.XYs {
	out := make(plotter.XYs, 0, len(x))
	for i := range x {
		if logY && !(y[i] > 0) {
			continue // a log axis cannot show zero
		}
		out = append(out, plotter.XY{X: x[i], Y: y[i]})
	}
	return out
}

func rgb(c int) color.Color {
	palette := map[int]color.RGBA{
		colBlue: {0, 175, 255, 255}, colOrange: {255, 175, 0, 255}, colPink: {215, 95, 215, 255},
		colGreen: {135, 215, 135, 255}, colGray: {128, 128, 128, 255}, colYellow: {255, 215, 95, 255},
	}
	return palette[c]
}

// addLine adds a line to p, dashed when dashes are given, with a legend entry.
func addLine(p *plot.Plot, name string, pts plotter.XYs, c int, dashes []vg.Length) error {
	if len(pts) == 0 {
		return nil
	}
	l, err := plotter.NewLine(pts)
	if err != nil {
		return err
	}
	l.Color, l.Dashes = rgb(c), dashes
	p.Add(l)
	p.Legend.Add(name, l)
	return nil
}

// addMarks draws the live changes as vertical dotted lines between lo and hi.
func (e exportData) addMarks(p *plot.Plot, lo, hi float64) error {
	for _, s := range e.marks {
		l, err := plotter.NewLine(plotter.XYs{{X: float64(s), Y: lo}, {X: float64(s), Y: hi}})
		if err != nil {
			return err
		}
		l.Color, l.Dashes = rgb(colYellow), []vg.Length{vg.Points(1), vg.Points(2)}
		p.Add(l)
	}
	return nil
}

func (e exportData) rewardPlot(path string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Train reward (EMA %.2f)", e.smoothing)
	p.X.Label.Text = "step"
	for _, err := range []error{
		addLine(p, "raw", xys(e.trainStep, e.series("reward_mean"), false), colGray, nil),
		addLine(p, "EMA", xys(e.trainStep, e.smoothed(e.series("reward_mean")), false), colBlue, nil),
	} {
		if err != nil {
			return err
		}
	}
	p.Legend.Top = true
	if err := e.addMarks(p, p.Y.Min, p.Y.Max); err != nil {
		return err
	}
	return p.Save(8*vg.Inch, 4*vg.Inch, path)
}

// refDashes tell the reference lines apart.
var refDashes = [][]vg.Length{{vg.Points(6), vg.Points(3)}, {vg.Points(2), vg.Points(2)}, {vg.Points(8), vg.Points(2), vg.Points(2), vg.Points(2)}}

func (e exportData) evalPlot(path string) error {
	p := plot.New()
	p.Title.Text = "Validation " + metricLabel(e.metricName)
	p.X.Label.Text = "step"
	if err := addLine(p, "val "+metricLabel(e.metricName), xys(e.evalStep, e.metric, false), colOrange, nil); err != nil {
		return err
	}
	x1 := float64(max(e.step, 1))
	for i, r := range drawnRefs(e.task, e.refs) {
		pts := plotter.XYs{{X: 0, Y: e.refs[r]}, {X: x1, Y: e.refs[r]}}
		if err := addLine(p, r, pts, colGray, refDashes[i%len(refDashes)]); err != nil {
			return err
		}
	}
	p.Legend.Top, p.Legend.Left = true, true
	if err := e.addMarks(p, p.Y.Min, p.Y.Max); err != nil {
		return err
	}
	return p.Save(8*vg.Inch, 4*vg.Inch, path)
}

func (e exportData) criticPlot(path string) error {
	p := plot.New()
	p.Title.Text = "Critic loss"
	p.X.Label.Text = "step"
	if e.logScale {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	for _, err := range []error{
		addLine(p, "total", xys(e.trainStep, e.series("critic_loss"), e.logScale), colBlue, nil),
		addLine(p, "hard MSE", xys(e.trainStep, e.series("critic_hard"), e.logScale), colGreen, nil),
		addLine(p, "penalty", xys(e.trainStep, e.series("critic_penalty"), e.logScale), colPink, nil),
	} {
		if err != nil {
			return err
		}
	}
	if err := e.addMarks(p, p.Y.Min, p.Y.Max); err != nil {
		return err
	}
	return p.Save(8*vg.Inch, 4*vg.Inch, path)
}

func (e exportData) scatterPlot(path string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Q(s,M) against Q(s,P), step %d", e.step)
	p.X.Label.Text = "hard Q(s,P)"
	p.Y.Label.Text = "soft Q(s,M)"
	pts := xys(e.qHard, e.qSoft, false)
	s, err := plotter.NewScatter(pts)
	if err != nil {
		return err
	}
	s.GlyphStyle.Color, s.GlyphStyle.Shape = rgb(colBlue), draw.CircleGlyph{}
	p.Add(s)
	lo, hi := p.X.Min, p.X.Max
	lo, hi = min(lo, p.Y.Min), max(hi, p.Y.Max)
	if err := addLine(p, "y = x", plotter.XYs{{X: lo, Y: lo}, {X: hi, Y: hi}}, colGray, refDashes[0]); err != nil {
		return err
	}
	return p.Save(5*vg.Inch, 5*vg.Inch, path)
}
