package ui

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"spg-tui/experiments"
	"spg-tui/run"
	"spg-tui/ui/draw"
	"spg-tui/ui/export"
)

// Update implements tea.Model.
func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.resize()
		return m, nil
	case tickMsg:
		m.poll()
		return m, tick()
	case quitReadyMsg:
		return m, tea.Quit
	case switchedMsg:
		return m, m.switched(msg)
	case exportedMsg:
		if msg.err != nil {
			m.fail("export: %v", msg.err)
		} else {
			m.info("exported %d files to %s", len(msg.files), export.Dir(msg.files))
		}
		return m, nil
	case tea.KeyPressMsg:
		return m, m.key(msg)
	case tea.MouseClickMsg:
		m.click(msg)
		return m, nil
	}
	// Other messages (the text inputs' cursor blinks) go to whoever is typing.
	switch {
	case m.dialog != nil:
		return m, m.dialog.update(msg)
	case m.params.editing:
		return m, m.params.Update(msg)
	case m.view == viewCompare && m.compare.typing():
		return m, m.compare.filterUpdate(msg)
	}
	return m, nil
}

// key handles a key press: the modal states first (quitting, the task dialog, typing a value,
// the help), then the key table.
func (m *model) key(k tea.KeyPressMsg) tea.Cmd {
	if k.String() == "ctrl+c" && m.quitting {
		return tea.Quit // a second ctrl+c does not wait for the checkpoint
	}
	if key.Matches(k, m.keys.Quit.Binding) && k.String() == "ctrl+c" {
		return m.quit()
	}
	switch {
	case m.quitting:
		return nil
	case m.dialog != nil:
		return m.dialogKey(k)
	case m.params.editing:
		return m.params.Update(k)
	case m.view == viewCompare && m.compare.typing():
		return m.compare.filterUpdate(k)
	case m.showHelp:
		switch {
		case key.Matches(k, m.keys.Quit.Binding):
			return m.quit()
		case key.Matches(k, m.keys.Help.Binding), k.String() == "esc":
			m.showHelp = false
		}
		return nil
	}
	if m.typeCount(k) {
		return nil
	}
	cmd, _ := m.dispatch(k)
	m.typedCount = 0 // a count applies to the key after it only
	return cmd
}

// showExperiment opens the ablation view on an experiment's results, read-only.
func (m *model) showExperiment(s experiments.Snapshot, dir string) {
	m.ablation.static, m.ablation.snap = dir, s
	m.view = viewAblation
}

// showCompare opens the compare view on runs.
func (m *model) showCompare(runs []*compareRun) {
	m.compare = newCompareView(m.ctx, runs)
	m.resize()
	m.view = viewCompare
}

// toggleView switches between the main view and the ablation view.
func (m *model) toggleView() {
	if m.view == viewAblation {
		m.view = viewMain
	} else {
		m.view = viewAblation
	}
}

// toggleCompare switches between the compare view and the main view of the first run.
func (m *model) toggleCompare() {
	if m.view == viewCompare {
		m.view = viewMain
	} else {
		m.view = viewCompare
	}
}

// toggleXAxis draws the curves against training time instead of steps, or back.
func (m *model) toggleXAxis() {
	m.ctx.wallX = !m.ctx.wallX
	m.ctx.displayVer++
	m.info("x-axis: %s", map[bool]string{true: "training time", false: "steps"}[m.ctx.wallX])
}

// toggle flips a switch of the run.
func (m *model) toggle(flag string) {
	it := itemNamed(flag)
	if !m.params.applies(it) {
		m.apply(m.params.notApplicable(it))
		return
	}
	m.apply(&change{item: it, on: m.params.value(it) == 0})
}

func itemNamed(name string) paramItem {
	for _, it := range paramItems {
		if it.name == name {
			return it
		}
	}
	panic("ui: no panel item " + name)
}

func (m *model) info(format string, args ...any) {
	m.msg = status{text: fmt.Sprintf(format, args...), at: time.Now()}
}

// note shows routine progress (a checkpoint written), which leaves any other message in the
// footer until its time is up: an answer to a key (L 10 → 11 from the next step) used to
// vanish under the next checkpoint within a second.
func (m *model) note(format string, args ...any) {
	if m.msg.text != "" && !m.msg.routine && time.Since(m.msg.at) <= statusTimeout {
		return
	}
	m.msg = status{text: fmt.Sprintf(format, args...), routine: true, at: time.Now()}
}

func (m *model) fail(format string, args ...any) {
	m.msg = status{text: fmt.Sprintf(format, args...), err: true, at: time.Now()}
}

// apply carries out a change asked for by the panel (or by p and x). The engine validates it
// at once; a refused value is reported and the old one stays.
func (m *model) apply(ch *change) {
	if ch == nil {
		return
	}
	it := ch.item
	old := m.params.value(it)
	switch {
	case ch.err != nil:
		m.fail("%v (kept %s)", ch.err, formatValue(it, old))
		return
	case it.name == displaySmoothing:
		if !(ch.value >= 0 && ch.value <= 0.99) {
			m.fail("smoothing %s: must be in [0, 0.99] (kept %s)", draw.FmtNum(ch.value), formatValue(it, old))
			return
		}
		m.ctx.smoothing = ch.value
		m.ctx.displayVer++
		m.info("smoothing %s", formatValue(it, ch.value))
		return
	case it.name == displayLogScale:
		m.setLogScale(chartSet(ch.value))
		return
	case m.ctx.readOnly:
		m.refuseReadOnly(it.label + " changes the run")
		return
	case m.ctx.status.State == run.StateDone:
		m.fail("the run is done: %s", m.afterDone())
		return
	}
	v := ch.value
	if it.kind == run.Switch {
		v = b2f(ch.on)
	}
	if err := m.engine.Set(it.name, v); err != nil {
		// The engine names the parameter as run.Params does; the footer names it as the panel.
		msg := err.Error()
		if rest, ok := strings.CutPrefix(msg, it.name+" "); ok {
			msg = it.label + " " + rest
		}
		m.fail("refused: %s (kept %s)", msg, formatValue(it, old))
		return
	}
	m.params.pending[it.name] = v
	if it.kind == run.Switch {
		m.info("%s %s from the next step", it.label, onOff(ch.on))
	} else {
		m.info("%s %s → %s from the next step", it.label, formatValue(it, old), formatValue(it, ch.value))
	}
}

// togglePause pauses or resumes the run, and continues a finished one (continueRun).
func (m *model) togglePause() tea.Cmd {
	switch m.ctx.status.State {
	case run.StatePaused:
		m.engine.Resume()
		m.info("resumed")
	case run.StateTraining, run.StateStarting:
		m.engine.Pause()
		m.info("pausing at the next step (space resumes)")
	case run.StateDone:
		return m.continueRun()
	default:
		m.fail("the run is %s", m.ctx.status.State)
	}
	return nil
}

// pauseForAblation holds the main run while ablation runs use the cores.
func (m *model) pauseForAblation() {
	if !m.ctx.readOnly && m.ctx.status.State == run.StateTraining {
		m.engine.Pause()
		m.info("ablation started; the main run is paused (space resumes it)")
		return
	}
	m.info("ablation started")
}

func (m *model) checkpoint() {
	m.engine.Checkpoint()
	m.info("checkpoint requested: written at the next step boundary")
	m.msg.routine = true // the checkpoint's own note answers it
}

// quit checkpoints and stops the trainers, then ends the program; it gives up waiting after
// stopTimeout.
func (m *model) quit() tea.Cmd {
	if m.quitting {
		return nil
	}
	m.quitting = true
	if m.switching {
		// The new run is starting; it is stopped as soon as it has (see switched).
		m.info("waiting for the new run to start, then stopping it…")
		return nil
	}
	m.info("stopping: writing a checkpoint…")
	eng, runner := m.engine, m.ablation.runner
	return func() tea.Msg {
		stopAll(eng, runner, stopTimeout)
		return quitReadyMsg{}
	}
}

// stopAll stops the engine and the ablation runner, if any, and waits for both up to timeout.
func stopAll(eng run.Engine, runner *experiments.Runner, timeout time.Duration) {
	deadline := time.After(timeout)
	if eng != nil {
		eng.Stop()
	}
	if runner != nil {
		runner.Stop()
	}
	if eng != nil {
		select {
		case <-eng.Done():
		case <-deadline:
			return
		}
	}
	if runner != nil {
		select {
		case <-runner.Done():
		case <-deadline:
		}
	}
}

// export writes the curves as CSV and the figures as PNG and SVG into <run>/export/step-<N>/,
// or, for a read-only view (which writes nothing into the run it shows), into
// exports/<run>/step-<N>/ in the working directory. The figures are what the console shows:
// against steps or training time, on the charts' scales, the Q scatter of the validation shown.
func (m *model) export() tea.Cmd {
	c, d := m.ctx, m.ctx.data
	if c.info.Dir == "" {
		m.fail("export: the run has no directory")
		return nil
	}
	root := filepath.Join(c.info.Dir, "export")
	if c.readOnly {
		root = filepath.Join(exportsDir, filepath.Base(filepath.Clean(c.info.Dir)))
	}
	e := export.Data{
		Dir:  filepath.Join(root, fmt.Sprintf("step-%d", d.lastStep)),
		Step: d.lastStep, Smoothing: c.smoothing, WallX: c.wallX,
		Log:       export.Log{Reward: c.logScale.has(chartReward), Val: c.logScale.has(chartVal), Critic: c.logScale.has(chartCritic)},
		TrainStep: slices.Clone(d.train.step), TrainWall: slices.Clone(d.train.wall), Train: map[string][]float64{},
		EvalStep: slices.Clone(d.eval.step), EvalWall: slices.Clone(d.eval.wall), Metric: slices.Clone(d.eval.metric),
		MetricName: d.eval.name, MetricLabel: metricLabel(d.eval.name), Marks: markSteps(d),
	}
	for name, v := range d.train.series {
		e.Train[name] = slices.Clone(v)
	}
	for _, r := range drawnRefs(c.facts, d.refs) {
		e.Refs = append(e.Refs, export.Ref{Name: r, Value: d.refs[r]})
	}
	if ev, step := c.shownVal(); ev != nil {
		e.QHard, e.QSoft, e.QStep = slices.Clone(ev.QHardScatter), slices.Clone(ev.QSoftScatter), step
	}
	return m.exporting(e.Dir, func() ([]string, error) { return export.Write(e) })
}

// exportsDir is where read-only views export, in the working directory.
const exportsDir = "exports"

// exporting says that an export into dir has begun and runs write off the console's goroutine.
func (m *model) exporting(dir string, write func() ([]string, error)) tea.Cmd {
	m.info("exporting to %s…", dir)
	return func() tea.Msg {
		files, err := write()
		return exportedMsg{files: files, err: err}
	}
}
