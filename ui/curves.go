package ui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/lipgloss/v2"

	"spg-tui/envs"
	"spg-tui/run"
	"spg-tui/ui/draw"
)

// rewardPane plots the training reward (raw and smoothed) and, below it, the validation metric
// with the task's reference lines; live changes are marked under both. With the cursor on, its
// title reads both at the cursor's step.
type rewardPane struct {
	paneBase
	areas []chartArea // where the last rendering drew its charts
}

// View implements pane.
func (p *rewardPane) View() string {
	d := p.ctx.data
	return p.cached([4]int{d.trainVer, d.evalVer, d.eventVer, p.ctx.displayVer}, func() string {
		body := p.body(p.w-2, p.h-2)
		return draw.Frame(p.title(), body, p.w, p.h, p.ctx.st, false)
	})
}

// title is "Reward", with the cursor's readout when it is on.
func (p *rewardPane) title() string {
	c := p.ctx
	if !c.cursor.on {
		return "Reward"
	}
	reward := c.data.train.get("reward_mean")
	smoothed := make([]float64, len(reward))
	draw.Smooth(smoothed, reward, c.smoothing)
	i, step, val := c.trainAtCursor(), draw.FmtInt(c.cursor.step), c.evalReadout()
	r, ema := valueAt(reward, i), valueAt(smoothed, i)
	return readout("Reward", true, p.w,
		fmt.Sprintf("step %s · reward %s · EMA %s · %s", step, r, ema, val),
		fmt.Sprintf("step %s · reward %s · %s", step, r, val),
		fmt.Sprintf("%s · reward %s · %s", step, r, val),
		fmt.Sprintf("%s · %s · %s", step, r, val))
}

// xRange is the step range of the run's curves so far.
func xRange(d *runData) (float64, float64) {
	return 0, float64(max(d.lastStep, 1))
}

// markSteps are the steps of the live changes.
func markSteps(d *runData) []int {
	out := make([]int, len(d.sets))
	for i, s := range d.sets {
		out[i] = s.step
	}
	return out
}

func (p *rewardPane) body(w, h int) []string {
	if w < draw.PlotLeft+4 || h < 3 {
		return nil
	}
	c, d, st := p.ctx, p.ctx.data, p.ctx.st
	ax := c.xAxis()
	x0, x1 := ax.X0, ax.X1
	rows := h - 1 // the axis row
	withEval := rows >= 6
	hTrain := rows - 1
	if withEval {
		hTrain = (rows - 2) / 2
	}

	reward := d.train.get("reward_mean")
	smoothed := make([]float64, len(reward))
	draw.Smooth(smoothed, reward, c.smoothing)
	train := draw.Chart{X0: x0, X1: x1, LogY: c.logScale.has(chartReward), Cursor: ax.Cursor, Axis: st.GraphColor(draw.ColDimGray), Curves: []draw.Curve{
		{X: ax.Train, Y: reward, Chars: draw.CharsDots, Color: st.GraphColor(draw.ColGray)},
		{X: ax.Train, Y: smoothed, Chars: draw.CharsLine, Color: st.GraphColor(draw.ColBlue)},
	}}
	last := ""
	if n := len(smoothed); n > 0 {
		last = "last " + draw.FmtNum(smoothed[n-1])
	}
	// A narrow pane shortens the legend rather than cutting its latest value.
	legend := firstFit(w,
		strings.TrimSpace(fmt.Sprintf("train reward  %s raw  %s EMA %.2f  %s", st.Dim.Render("··"), st.Accent.Render("──"), c.smoothing, last)),
		strings.TrimSpace(fmt.Sprintf("reward %s raw %s EMA %.2f %s", st.Dim.Render("··"), st.Accent.Render("──"), c.smoothing, last)),
		strings.TrimSpace(fmt.Sprintf("reward %s EMA %.2f %s", st.Accent.Render("──"), c.smoothing, last)))
	if train.LogY {
		legend = withLog(legend, w, st)
	}
	lines := []string{legend}
	p.areas = []chartArea{{chart: chartReward, legend: 0, top: 1, bottom: 1 + hTrain, x0: x0, x1: x1}}
	lines = append(lines, train.Render(w, hTrain, "waiting for the first training summary…")...)

	if withEval {
		name := metricLabel(d.eval.name)
		ev := draw.Chart{X0: x0, X1: x1, LogY: c.logScale.has(chartVal), Cursor: ax.Cursor, Axis: st.GraphColor(draw.ColDimGray), Curves: []draw.Curve{
			{X: ax.Eval, Y: d.eval.metric, Chars: draw.CharsLine, Color: st.GraphColor(draw.ColOrange)},
		}}
		var refLegend []string
		lo, hi, ranged := ev.YRange(w)
		for _, r := range drawnRefs(c.facts, d.refs) {
			v := d.refs[r]
			ev.HLines = append(ev.HLines, draw.HLine{Y: v, Color: st.GraphColor(draw.ColGray)})
			// A reference outside the data's range is not drawn: its legend says where it is.
			where := ""
			switch {
			case ranged && v > hi:
				where = "↑"
			case ranged && v < lo:
				where = "↓"
			}
			refLegend = append(refLegend, st.Dim.Render("╌ "+r+" "+draw.FmtNum(v)+where))
		}
		value := ""
		if n := len(d.eval.metric); n > 0 {
			value = " " + draw.FmtNum(d.eval.metric[n-1])
		}
		legend := "val " + name + "  " + st.Fg(draw.ColOrange).Render("──") + value
		refs := strings.Join(refLegend, " ")
		hEval := rows - 2 - hTrain
		if refs != "" && hEval <= 3 && lipgloss.Width(legend)+2+lipgloss.Width(refs) > w {
			// The references must share a line too narrow for both: the metric's short name
			// leaves more of them readable.
			legend = "val " + shortMetric(d.eval.name) + " " + st.Fg(draw.ColOrange).Render("──") + value
		}
		if ev.LogY {
			legend = withLog(legend, w, st)
		}
		lines = append(lines, legend)
		legendRow := len(lines) - 1
		if refs != "" {
			// The references share the legend's line when they fit or when the chart has no
			// row to spare, else they take their own.
			if lipgloss.Width(legend)+2+lipgloss.Width(refs) <= w || hEval <= 3 {
				lines[len(lines)-1] += "  " + refs
			} else {
				lines = append(lines, refs)
				hEval--
			}
		}
		p.areas = append(p.areas, chartArea{chart: chartVal, legend: legendRow, top: len(lines), bottom: len(lines) + hEval + 1, x0: x0, x1: x1})
		lines = append(lines, ev.Render(w, hEval, "waiting for the first evaluation…")...)
	} else {
		p.areas[0].bottom++ // the axis row
	}
	return append(lines, ax.Row(w, st))
}

// withLog marks a chart's legend as drawn on a log scale, where the pane has room.
func withLog(legend string, w int, st draw.Styles) string {
	return firstFit(w, legend+st.Dim.Render("  (log)"), legend)
}

// drawnRefs are the references drawn as lines, those of the task's envs.Facts.Plotted the run
// has (random, greedy or nearest neighbour, optimal); the other baselines stay in the event log.
// A task this build does not know (f nil) draws none.
func drawnRefs(f *envs.Facts, refs map[string]float64) []string {
	if f == nil {
		return nil
	}
	var out []string
	for _, name := range refNames(refs) {
		if f.Plots(name) {
			out = append(out, name)
		}
	}
	return out
}

// refNames lists the reference names in a stable order: by value.
func refNames(refs map[string]float64) []string {
	names := make([]string, 0, len(refs))
	for k := range refs {
		names = append(names, k)
	}
	slices.SortFunc(names, func(a, b string) int {
		if refs[a] != refs[b] {
			if refs[a] < refs[b] {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	return names
}

// firstFit is the first of texts that fits in w columns, or the last (cut by the pane) if none.
func firstFit(w int, texts ...string) string {
	for _, t := range texts {
		if lipgloss.Width(t) <= w {
			return t
		}
	}
	return texts[len(texts)-1]
}

// criticPane plots the critic loss and its two terms, MSE(r, Q(s,P)) and the penalty
// MSE(Q(s,P), Q(s,M)), optionally on a log scale. A critic-free model has no critic: the pane
// shows its moving-average reward baseline beside the training reward instead, marked "no
// critic". With the cursor on, its title reads the curves at the cursor's step.
type criticPane struct {
	paneBase
	areas []chartArea // where the last rendering drew its chart
}

// View implements pane.
func (p *criticPane) View() string {
	d := p.ctx.data
	return p.cached([4]int{d.trainVer, d.eventVer, p.ctx.displayVer}, func() string {
		c := p.ctx
		t, i, step := c.data.train, c.trainAtCursor(), draw.FmtInt(c.cursor.step)
		if !c.model.Kind.HasCritic() {
			title := readout("Baseline · no critic", c.cursor.on, p.w,
				fmt.Sprintf("step %s · baseline %s · reward %s", step, valueAt(t.get("baseline"), i), valueAt(t.get("reward_mean"), i)),
				fmt.Sprintf("step %s · baseline %s", step, valueAt(t.get("baseline"), i)),
				fmt.Sprintf("%s · %s", step, valueAt(t.get("baseline"), i)))
			return draw.Frame(title, p.baselineBody(p.w-2, p.h-2), p.w, p.h, c.st, false)
		}
		penalty, _ := d.whileOn(run.FlagCriticPenalty, t.get("critic_penalty"), c.cfg.CriticPenalty)
		pen := valueAt(penalty, i)
		if pen == "—" && i >= 0 {
			pen = "off"
		}
		total := valueAt(t.get("critic_loss"), i)
		title := readout("Critic loss", c.cursor.on, p.w,
			fmt.Sprintf("step %s · total %s · hard %s · penalty %s", step, total, valueAt(t.get("critic_hard"), i), pen),
			fmt.Sprintf("step %s · total %s · penalty %s", step, total, pen),
			fmt.Sprintf("%s · total %s · penalty %s", step, total, pen),
			fmt.Sprintf("%s · %s", step, total))
		return draw.Frame(title, p.body(p.w-2, p.h-2), p.w, p.h, c.st, false)
	})
}

// baselineBody plots a critic-free model's moving-average baseline and its training reward.
func (p *criticPane) baselineBody(w, h int) []string {
	if w < draw.PlotLeft+4 || h < 3 {
		return nil
	}
	d, st := p.ctx.data, p.ctx.st
	ax := p.ctx.xAxis()
	t := d.train
	ch := draw.Chart{X0: ax.X0, X1: ax.X1, LogY: p.ctx.logScale.has(chartCritic), Cursor: ax.Cursor, Axis: st.GraphColor(draw.ColDimGray), Curves: []draw.Curve{
		{X: ax.Train, Y: t.get("reward_mean"), Chars: draw.CharsBullet, Color: st.GraphColor(draw.ColGreen)},
		{X: ax.Train, Y: t.get("baseline"), Chars: draw.CharsLine, Color: st.GraphColor(draw.ColBlue)},
	}}
	legend := st.Accent.Render("──") + " baseline (EMA)  " + st.Fg(draw.ColGreen).Render("••") + " sampled reward"
	if p.ctx.model.Kind == run.KindUntrained {
		legend = st.Dim.Render("no critic and no training: the untrained SPG policy")
	}
	if ch.LogY {
		legend = withLog(legend, w, st)
	}
	lines := []string{legend}
	p.areas = []chartArea{{chart: chartCritic, legend: 0, top: 1, bottom: h, x0: ax.X0, x1: ax.X1}}
	lines = append(lines, ch.Render(w, h-2, "waiting for the first training summary…")...)
	return append(lines, ax.Row(w, st))
}

func (p *criticPane) body(w, h int) []string {
	if w < draw.PlotLeft+4 || h < 3 {
		return nil
	}
	c, d, st := p.ctx, p.ctx.data, p.ctx.st
	ax := c.xAxis()
	t := d.train
	penalty, on := d.whileOn(run.FlagCriticPenalty, t.get("critic_penalty"), c.cfg.CriticPenalty)
	ch := draw.Chart{X0: ax.X0, X1: ax.X1, LogY: c.logScale.has(chartCritic), Cursor: ax.Cursor, Axis: st.GraphColor(draw.ColDimGray), Curves: []draw.Curve{
		{X: ax.Train, Y: penalty, Chars: draw.CharsPlus, Color: st.GraphColor(draw.ColPink)},
		{X: ax.Train, Y: t.get("critic_hard"), Chars: draw.CharsBullet, Color: st.GraphColor(draw.ColGreen)},
		{X: ax.Train, Y: t.get("critic_loss"), Chars: draw.CharsLine, Color: st.GraphColor(draw.ColBlue)},
	}}
	scale := "linear"
	if ch.LogY {
		scale = "log"
	}
	pen := st.Fg(draw.ColPink).Render("++") + " penalty  "
	if !on {
		pen = st.Dim.Render("penalty off  ")
	}
	curves := st.Accent.Render("──") + " total  " + st.Fg(draw.ColGreen).Render("••") + " hard MSE  " + pen
	legend := firstFit(w, curves+st.Dim.Render("("+scale+" scale)"), curves+st.Dim.Render("("+scale+")"), strings.TrimSpace(curves))
	lines := []string{legend}
	p.areas = []chartArea{{chart: chartCritic, legend: 0, top: 1, bottom: h, x0: ax.X0, x1: ax.X1}}
	lines = append(lines, ch.Render(w, h-2, "waiting for the first training summary…")...)
	return append(lines, ax.Row(w, st))
}
