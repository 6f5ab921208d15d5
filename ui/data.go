package ui

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"spg-tui/envs"
	"spg-tui/run"
	"spg-tui/ui/draw"
)

// maxEvents is how many event lines the console keeps.
const maxEvents = 200

// setMark is a live change, drawn on the curves at the step it took effect.
type setMark struct {
	step     int
	param    string
	old, new float64
	// line is the change's line in the events, which a later change of the same parameter at
	// the same step replaces.
	line string
}

// trainSeries holds the training summaries: the steps, and each number of run.Train by its
// JSON name (run.Train.EachSeries), one entry per record.
type trainSeries struct {
	step   []float64
	wall   []float64 // the run's training time at each, in seconds
	series map[string][]float64
}

// get returns the series of the number called name.
func (t *trainSeries) get(name string) []float64 { return t.series[name] }

// evalSeries holds the validation evaluations, one entry per record.
type evalSeries struct {
	step, metric []float64
	wall         []float64 // the run's training time at each, in seconds
	name         string
}

// runData is everything the console has learned of the run from its records. Each group has a
// version counter that grows when it changes, so that panes redraw only then.
type runData struct {
	train trainSeries
	eval  evalSeries
	// vals are the validations kept whole (Q scatter and samples) for the panes that show one:
	// the latest, or the one at the step cursor.
	vals       valHistory
	curvesOnly bool // keeps no validation whole (a run of the compare view)
	test       *run.Eval
	refs       map[string]float64
	sets       []setMark
	events     []string
	lastStep   int
	// checkpointLine is the events' line of the latest checkpoint, which the next replaces.
	checkpointLine string
	// warning is the latest warning event's message (damaged lines skipped by a view).
	warning string
	// mHist is the samples' soft-permutation summary at each validation evaluation.
	mHist []mPoint

	trainVer, evalVer, eventVer int
}

func newRunData() *runData { return &runData{} }

// restarted is empty data whose versions are past d's, so that no pane keeps a rendering of d.
func (d *runData) restarted() *runData {
	return &runData{trainVer: d.trainVer + 1, evalVer: d.evalVer + 1, eventVer: d.eventVer + 1, curvesOnly: d.curvesOnly}
}

// add takes one record into the data.
func (d *runData) add(r run.Record) {
	d.lastStep = max(d.lastStep, r.Step)
	switch {
	case r.Kind == run.KindTrain && r.Train != nil:
		t := &d.train
		t.step = append(t.step, float64(r.Step))
		t.wall = append(t.wall, r.Wall)
		if t.series == nil {
			t.series = map[string][]float64{}
		}
		r.Train.EachSeries(func(name string, v float64) { t.series[name] = append(t.series[name], v) })
		d.trainVer++
	case r.Kind == run.KindEval && r.Eval != nil:
		if r.Split != "val" {
			d.test = r.Eval
			d.logf(r.Step, "%s %s %.4g", r.Split, shortMetric(r.MetricName), r.Metric)
			return
		}
		d.eval.step = append(d.eval.step, float64(r.Step))
		d.eval.wall = append(d.eval.wall, r.Wall)
		d.eval.metric = append(d.eval.metric, r.Metric)
		d.eval.name = r.MetricName
		if !d.curvesOnly {
			d.vals.add(r.Step, r.Eval)
		}
		d.addMHistory(r.Step, r.Samples)
		best := ""
		if r.Best {
			best = " ★"
		}
		d.logf(r.Step, "val %s %.4g%s", shortMetric(r.MetricName), r.Metric, best)
		if s := r.Sampled; s != nil {
			d.logf(r.Step, "val K%d %s %.4g", s.Samples, shortMetric(r.MetricName), s.Metric)
		}
		d.evalVer++
	case r.Kind == run.KindEvent && r.Event != nil:
		d.addEvent(r.Step, r.Event)
	}
}

func (d *runData) addEvent(step int, e *run.Event) {
	switch e.Event {
	case run.EventStart:
		d.refs = e.References
		if e.Device != "" {
			d.logf(step, "start on %s", e.Device)
		} else {
			d.logf(step, "start")
		}
	case run.EventReferences:
		// Solved while the run trained: the reference lines appear, and the kept validations
		// made before them (the latest, and those the step cursor shows) get their gaps and
		// their samples' optima.
		d.refs = e.References
		if e.Fill != nil {
			d.vals.fill(e.Fill)
			d.evalVer++
		}
		d.logf(step, "references solved")
	case run.EventSet:
		d.addSet(step, e)
	case run.EventCheckpoint:
		d.logCheckpoint(step, e.Message)
	case run.EventWarning:
		d.warning = e.Message
		d.logf(step, "warning: %s", e.Message)
	default:
		msg := e.Event
		if e.Message != "" {
			msg += ": " + e.Message
		}
		d.logf(step, "%s", msg)
	}
	d.eventVer++
}

// addSet takes a live change. Changes of one parameter at one step (+ and - pressed while
// paused, when the step stands still) are one change, from the first old value to the last new
// one, with one mark and one line, so that they do not push the older events out one by one.
func (d *runData) addSet(step int, e *run.Event) {
	mark := setMark{step: step, param: e.Param, old: e.Old, new: e.New}
	for i := len(d.sets) - 1; i >= 0 && d.sets[i].step == step; i-- {
		if d.sets[i].param == e.Param {
			mark.old = d.sets[i].old
			d.dropLine(d.sets[i].line)
			d.sets = slices.Delete(d.sets, i, i+1)
			break
		}
	}
	d.logf(step, "set %s", describeSet(e.Param, mark.old, mark.new))
	mark.line = d.events[len(d.events)-1]
	d.sets = append(d.sets, mark)
}

// whileOn is the training series y (one entry per summary) where the switch name was on at the
// summary's step, NaN where it was off, and whether it was on at any; now is the switch's value
// in force. A change at step s applies from the step after s, so the summary of step s still
// had the old value. (The trainer records the critic penalty's term whether or not it trains
// with it; drawn while off, it would set the scale of a loss that is not minimised.)
func (d *runData) whileOn(name string, y []float64, now bool) ([]float64, bool) {
	out := make([]float64, len(y))
	anyOn := false
	for i, v := range y {
		on := now
		for _, s := range d.sets {
			if s.param == name && float64(s.step) >= d.train.step[i] {
				on = s.old != 0
				break
			}
		}
		out[i] = math.NaN()
		if on {
			out[i], anyOn = v, true
		}
	}
	return out, anyOn
}

// shortMetric abbreviates a metric name for the event list (envs.Metric.Short).
func shortMetric(name string) string {
	if m, ok := envs.MetricNamed(name); ok {
		return m.Short
	}
	return name
}

// metricLabel is a metric name for display (envs.Metric.Label): "optimality ratio".
func metricLabel(name string) string {
	if m, ok := envs.MetricNamed(name); ok {
		return m.Label
	}
	if name == "" {
		return "metric"
	}
	return strings.ReplaceAll(name, "_", " ")
}

// describeSet is "tau 0.05 → 0.1", or "critic penalty on → off" for a switch, the parameter
// named as the panel names it.
func describeSet(param string, old, new float64) string {
	if p, ok := run.ParamNamed(param); ok && p.Kind == run.Switch {
		return fmt.Sprintf("%s %s → %s", paramLabel(param), onOff(old != 0), onOff(new != 0))
	}
	return fmt.Sprintf("%s %s → %s", paramLabel(param), draw.FmtNum(old), draw.FmtNum(new))
}

// paramLabel is how the console names a live parameter: its panel row ("L (Sinkhorn)", not
// sinkhorn-iters), so that an event or a refusal names what is on screen.
func paramLabel(name string) string {
	if p, ok := run.ParamNamed(name); ok && p.Label != "" {
		return p.Label
	}
	return name
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func (d *runData) logf(step int, format string, args ...any) {
	d.events = append(d.events, fmt.Sprintf("%*s  ", eventIndent-2, draw.FmtInt(step))+fmt.Sprintf(format, args...))
	if len(d.events) > maxEvents {
		d.events = slices.Delete(d.events, 0, len(d.events)-maxEvents)
	}
	d.eventVer++
}

// logCheckpoint logs a checkpoint in one short line that replaces the previous checkpoint's, so
// that the checkpoints written every few hundred steps never fill the events.
func (d *runData) logCheckpoint(step int, msg string) {
	d.dropLine(d.checkpointLine)
	what := "checkpoint written"
	if strings.Contains(msg, "early") {
		what += " (early, without the buffer)"
	}
	d.logf(step, "%s", what)
	d.checkpointLine = d.events[len(d.events)-1]
}

// dropLine removes line from the events, if it is still there.
func (d *runData) dropLine(line string) {
	if i := slices.Index(d.events, line); line != "" && i >= 0 {
		d.events = slices.Delete(d.events, i, i+1)
	}
}
