package ui

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/guptarohit/asciigraph"

	"spg-tui/experiments"
	"spg-tui/run"
	"spg-tui/ui/draw"
)

// Ablation settings rows.
const (
	rowAblation = iota
	rowSteps
	rowSeeds
	ablationRows
)

// The variants' glyphs, so that the curves differ without colour; bands are dotted.
var variantChars = []asciigraph.CharSet{draw.CharsLine, draw.CharsBullet, draw.CharsPlus,
	asciigraph.CreateCharSet("×"), asciigraph.CreateCharSet("◦")}

// ablationView runs one of the paper's ablations (package experiments) from the console: pick
// it, a step budget and a number of seeds, and it overlays the variants' validation curves with
// a band across seeds and tabulates each variant's best validation score. It also runs the
// experiment presets (spg-tui experiment) at a scale of the paper's budget, by the same runner,
// and writes their report when they end.
type ablationView struct {
	paneBase
	start   experiments.StartFunc
	baseDir string
	// started is told when the view has started an ablation (the model pauses the main run).
	started func()

	ablations []experiments.Ablation
	presets   []experiments.Preset
	// score scores a preset's runs on its test sets (agent's policy in the program).
	score experiments.Scorer
	scale float64
	// dir is the directory of the ablation or preset started last; finished carries a preset's
	// report's outcome.
	dir      string
	finished chan error
	sel      int
	choice   int
	steps    int
	seeds    int
	runner   *experiments.Runner
	snap     experiments.Snapshot
	// static is an experiment directory's results, shown read-only (tui --view DIR); "" when
	// the view runs ablations.
	static   string
	msg      string
	reported bool             // the end of the current ablation was announced
	ver      int              // local settings changes
	now      func() time.Time // names the ablation's directory
}

func newAblationView(ctx *programContext, start experiments.StartFunc, baseDir string, started func()) *ablationView {
	return &ablationView{paneBase: paneBase{ctx: ctx}, start: start, baseDir: baseDir, started: started,
		ablations: experiments.Builtin(), presets: experiments.Presets(), steps: 2000, seeds: 3, scale: 0.01, now: time.Now}
}

// preset returns the chosen preset, nil when the choice is an ablation.
func (v *ablationView) preset() *experiments.Preset {
	if v.choice < len(v.ablations) {
		return nil
	}
	return &v.presets[v.choice-len(v.ablations)]
}

// scales are the preset budgets the view steps through.
var scales = []float64{0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1}

func nextScale(s float64, up bool) float64 {
	i := slices.Index(scales, s)
	if up {
		return scales[min(i+1, len(scales)-1)]
	}
	return scales[max(i-1, 0)]
}

// Bindings implements pane: choose and run an ablation. They come before the console's other
// keys while the view is shown, and the help does not list them (the view shows them).
func (v *ablationView) Bindings() []binding {
	settled := func(f func()) func() tea.Cmd {
		return cmdless(func() {
			f()
			v.ver++
		})
	}
	return []binding{
		bind([]string{"up"}, "↑", "select setting", unlisted, settled(func() { v.sel = (v.sel - 1 + ablationRows) % ablationRows })),
		bind([]string{"down"}, "↓", "select setting", unlisted, settled(func() { v.sel = (v.sel + 1) % ablationRows })),
		bind([]string{"+", "=", "right"}, "+/→", "next value", unlisted, settled(func() { v.change(true) })),
		bind([]string{"-", "_", "left"}, "-/←", "previous value", unlisted, settled(func() { v.change(false) })),
		bind([]string{"enter"}, "enter", "start / stop", unlisted, cmdless(v.startOrStop)),
	}
}

// running reports whether an ablation is under way.
func (v *ablationView) running() bool {
	if v.runner == nil {
		return false
	}
	select {
	case <-v.runner.Done():
		return false
	default:
		return true
	}
}

// poll refreshes the results when the runner has moved; it reports whether the ablation has
// just ended.
func (v *ablationView) poll() (ended bool) {
	if v.runner == nil {
		return false
	}
	if v.runner.Version() != v.snap.Version {
		v.snap = v.runner.Snapshot()
	}
	select {
	case err := <-v.finished:
		v.finished = nil
		v.ver++
		if err != nil {
			v.msg = "experiment: " + err.Error()
		} else {
			v.msg = "report written: " + filepath.Join(v.dir, experiments.ReportFile)
		}
	default:
	}
	if !v.reported && !v.running() {
		v.reported = true
		v.snap = v.runner.Snapshot()
		return true
	}
	return false
}

// change steps the selected setting, unless an ablation is running.
func (v *ablationView) change(up bool) {
	if v.static != "" {
		v.msg = "read-only: this shows the experiment in " + v.static
		return
	}
	if v.running() {
		v.msg = "stop the ablation (enter) to change its settings"
		return
	}
	d := -1
	if up {
		d = 1
	}
	switch v.sel {
	case rowAblation:
		k := len(v.ablations) + len(v.presets)
		v.choice = (v.choice + d + k) % k
	case rowSteps:
		if v.preset() != nil {
			v.scale = nextScale(v.scale, up)
			break
		}
		v.steps = stepBudget(v.steps, up)
	case rowSeeds:
		v.seeds = max(1, min(v.seeds+d, 10))
	}
}

// stepBudget moves an ablation's step budget one rung along the 1-2-5 ladder, held to
// [1, run.MaxSteps]: 1 - stays 1 (it used to go to 0, then to the least int64, which + never
// left), and the most a run may have + stays there.
func stepBudget(steps int, up bool) int {
	next := ladderStep(float64(steps), up)
	if math.IsNaN(next) || next < 1 {
		return 1
	}
	return int(min(math.Round(next), run.MaxSteps))
}

// startOrStop stops the running ablation, or starts the chosen one.
func (v *ablationView) startOrStop() {
	if v.static != "" {
		v.msg = "read-only: this shows the experiment in " + v.static
		return
	}
	if v.running() {
		v.runner.Stop()
		v.msg = "stopping: every run writes a checkpoint"
		v.ver++
		return
	}
	if v.launch() {
		v.started()
	}
}

// launchPreset starts the chosen preset at the chosen scale and seeds, in a fresh directory; its
// report is written when it ends.
func (v *ablationView) launchPreset(p *experiments.Preset) bool {
	v.ver++
	if v.score == nil {
		v.msg = "cannot start: no test-set scorer"
		return false
	}
	dir := filepath.Join(v.baseDir, "experiment-"+p.Name+"-"+v.now().Format("20060102-150405"))
	pr, err := experiments.Prepare(experiments.Options{Preset: p.Name, Seeds: v.seeds, Scale: v.scale}, dir)
	if err != nil {
		v.msg = "cannot start: " + err.Error()
		return false
	}
	r, err := pr.Start(experiments.Machine{Start: v.start, Score: v.score, Jobs: experiments.DefaultParallel})
	if err != nil {
		v.msg = "cannot start: " + err.Error()
		return false
	}
	done := make(chan error, 1)
	go func() { done <- pr.Finish(r) }()
	v.runner, v.snap, v.reported, v.dir, v.finished = r, r.Snapshot(), false, dir, done
	v.msg = ""
	return true
}

// launch starts the chosen ablation on the current run's configuration, in a fresh directory.
func (v *ablationView) launch() bool {
	if p := v.preset(); p != nil {
		return v.launchPreset(p)
	}
	a := v.ablations[v.choice]
	plan := experiments.Plan{
		Base: v.ctx.cfg, Ablation: a, Steps: v.steps, Seeds: v.seeds,
		EvalEvery: max(1, v.steps/20),
		Dir:       filepath.Join(v.baseDir, "ablation-"+a.Name+"-"+v.now().Format("20060102-150405")),
	}
	r, err := experiments.Start(plan, v.start)
	v.ver++
	if err != nil {
		v.msg = "cannot start: " + err.Error()
		return false
	}
	v.runner, v.snap, v.reported, v.dir, v.finished = r, r.Snapshot(), false, plan.Dir, nil
	v.msg = ""
	return true
}

// View implements pane.
func (v *ablationView) View() string {
	return v.cached([4]int{int(v.snap.Version), v.ver}, func() string {
		return draw.Frame("Ablations", v.body(v.w-2, v.h-2), v.w, v.h, v.ctx.st, true)
	})
}

func (v *ablationView) body(w, h int) []string {
	st := v.ctx.st
	p := v.preset()
	title, budget, budgetValue := "", "steps", draw.FmtInt(v.steps)
	var variants []string
	if p != nil {
		title, budget, budgetValue = "preset "+p.Name+" (the paper's settings)", "scale", fmt.Sprintf("%g", v.scale)
		for _, a := range p.Arms {
			variants = append(variants, a.Label)
		}
	} else {
		a := v.ablations[v.choice]
		title = a.Title
		for _, vr := range a.Variants {
			variants = append(variants, vr.Name)
		}
	}
	row := func(i int, label, value string) string {
		s := label + " " + value
		if i == v.sel {
			return st.Sel.Render("› " + s)
		}
		return "  " + s
	}
	action := "enter starts"
	if v.running() {
		action = "enter stops"
	}
	lines := []string{
		row(rowAblation, "ablation", "‹ "+title+" ›") + "   " + row(rowSteps, budget, budgetValue) + "   " + row(rowSeeds, "seeds", itoa(v.seeds)),
		st.Dim.Render(fmt.Sprintf("↑/↓ select · +/- change · %s · a back · runs %d at a time on this machine", action, experiments.DefaultParallel)),
	}
	if v.msg != "" {
		lines = append(lines, st.Warn.Render(v.msg))
	}
	s := v.snap
	if v.static != "" {
		lines = lines[1:2]
		lines[0] = st.Dim.Render("a back to the replayed run · read-only")
		if v.msg != "" {
			lines = append(lines, st.Warn.Render(v.msg))
		}
		lines = append(lines, fmt.Sprintf("%s · %d of %d runs finished · in %s", s.Title, s.Finished, s.Total, v.static))
		return v.results(lines, s, h, w)
	}
	if v.runner == nil {
		if p != nil {
			lines = append(lines, "", "Reproduces "+p.Reproduces+".", "", "Arms:")
			for _, name := range variants {
				lines = append(lines, "  • "+name)
			}
			lines = append(lines, "", st.Dim.Render("Each arm trains for the scale times the paper's budget once per seed, on the paper's settings;"),
				st.Dim.Render("the report (report.md, results.csv, figures) is written when all have ended (spg-tui experiment)."))
			return lines
		}
		lines = append(lines, "", "Variants of "+title+":")
		for _, name := range variants {
			lines = append(lines, "  • "+name)
		}
		lines = append(lines, "", st.Dim.Render("Each variant trains for the step budget once per seed, from the current run's configuration."))
		return lines
	}
	lines = append(lines, fmt.Sprintf("%s · %d of %d runs ended · in %s", s.Title, s.Finished, s.Total, filepath.Base(v.dir)))
	return v.results(lines, s, h, w)
}

// results appends the curves, their legend and the table of best scores to lines.
func (v *ablationView) results(lines []string, s experiments.Snapshot, h, w int) []string {
	st := v.ctx.st
	tableH := len(s.Variants) + 2
	chartH := h - len(lines) - tableH - 3
	if chartH >= 4 {
		lines = append(lines, v.legend(s)...)
		lines = append(lines, v.chart(s).Render(w, chartH, "waiting for the first evaluations…")...)
		lines = append(lines, draw.AxisRow(w, 0, float64(s.Steps), nil, st))
	}
	return append(lines, v.table(s)...)
}

// chart overlays the variants' mean validation curves and their bands.
func (v *ablationView) chart(s experiments.Snapshot) draw.Chart {
	st := v.ctx.st
	c := draw.Chart{X0: 0, X1: float64(max(s.Steps, 1)), Axis: st.GraphColor(draw.ColDimGray)}
	var means []draw.Curve
	for i, vr := range s.Variants {
		col := st.GraphColor(draw.SeriesColors[i%len(draw.SeriesColors)])
		x := make([]float64, len(vr.Curve))
		mean, lo, hi := make([]float64, len(x)), make([]float64, len(x)), make([]float64, len(x))
		for j, b := range vr.Curve {
			x[j], mean[j], lo[j], hi[j] = float64(b.Step), b.Mean, b.Lo, b.Hi
		}
		if s.Seeds > 1 {
			c.Curves = append(c.Curves, draw.Curve{X: x, Y: lo, Chars: draw.CharsDots, Color: col},
				draw.Curve{X: x, Y: hi, Chars: draw.CharsDots, Color: col})
		}
		means = append(means, draw.Curve{X: x, Y: mean, Chars: variantChars[i%len(variantChars)], Color: col})
	}
	c.Curves = append(c.Curves, means...)
	return c
}

// legend names the variants' curves and says what the band is.
func (v *ablationView) legend(s experiments.Snapshot) []string {
	st := v.ctx.st
	var parts []string
	for i, vr := range s.Variants {
		g := variantChars[i%len(variantChars)].Horizontal
		parts = append(parts, st.Fg(draw.SeriesColors[i%len(draw.SeriesColors)]).Render(g+g)+" "+vr.Name)
	}
	band := "one seed: no band"
	if s.Seeds > 1 {
		band = fmt.Sprintf("·· band: %d%% CI of the mean over n = %d seeds (Student t)", int(experiments.CILevel*100), s.Seeds)
	}
	return []string{"val " + metricLabel(s.MetricName) + "  " + strings.Join(parts, "  "), st.Dim.Render(band)}
}

// table gives each variant's best validation score across seeds and its progress.
func (v *ablationView) table(s experiments.Snapshot) []string {
	st := v.ctx.st
	best := "highest"
	if !s.Maximize {
		best = "lowest"
	}
	col := "best val " + metricLabel(s.MetricName) + " (" + best + ")"
	cw := max(len(col), 26)
	// The name column fits the longest name: an experiment's labels ("PN-AC+Matching · MWM-15")
	// are longer than the console's ablation variants.
	nw := 20
	for _, vr := range s.Variants {
		nw = max(nw, utf8.RuneCountInString(vr.Name))
	}
	row := func(name, score, seeds, progress string) string {
		return fmt.Sprintf("%-*s %-*s  %-6s %s", nw, name, cw, score, seeds, progress)
	}
	lines := []string{st.Bold.Render(row("configuration", col, "seeds", "progress"))}
	for _, vr := range s.Variants {
		score := formatBand(vr.Best)
		done, steps, total := 0, 0, 0
		state := ""
		for _, r := range vr.Runs {
			steps += r.Step
			total += r.Total
			if r.Phase != experiments.Pending && r.Phase != experiments.Running {
				done++
			}
			if r.Phase == experiments.Failed {
				state = st.Err.Render(" failed: " + errText(r.Err))
			}
		}
		pct := 0.0
		if total > 0 {
			pct = 100 * float64(steps) / float64(total)
		}
		lines = append(lines, row(vr.Name, score, fmt.Sprintf("%d/%d", done, len(vr.Runs)), fmt.Sprintf("%3.0f%%%s", math.Floor(pct), state)))
	}
	return append(lines, st.Dim.Render(fmt.Sprintf("[lo, hi]: %d%% CI of the mean of the seeds' best scores", int(experiments.CILevel*100))))
}

// formatBand is "mean [lo, hi]", the mean alone for one seed, "—" for none.
func formatBand(b experiments.Band) string {
	switch {
	case b.N == 0:
		return "—"
	case b.N == 1:
		return fmt.Sprintf("%.4f", b.Mean)
	}
	return fmt.Sprintf("%.4f [%.4f, %.4f]", b.Mean, b.Lo, b.Hi)
}

func errText(err error) string {
	if err == nil {
		return "unknown error"
	}
	return err.Error()
}
