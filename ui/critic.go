package ui

import (
	"strings"

	"spg-tui/run"
)

// criticPane plots the critic loss and its two terms, MSE(r, Q(s,P)) and the penalty
// MSE(Q(s,P), Q(s,M)), optionally on a log scale. A critic-free model has no critic: the pane
// shows its moving-average reward baseline beside the training reward instead, marked "no
// critic".
type criticPane struct{ paneBase }

// View implements pane.
func (p *criticPane) View() string {
	d := p.ctx.data
	return p.cached([4]int{d.trainVer, d.eventVer, p.ctx.displayVer}, func() string {
		if !p.ctx.model.Kind.HasCritic() {
			return frame("Baseline · no critic", p.baselineBody(p.w-2, p.h-2), p.w, p.h, p.ctx.st, false)
		}
		return frame("Critic loss", p.body(p.w-2, p.h-2), p.w, p.h, p.ctx.st, false)
	})
}

// baselineBody plots a critic-free model's moving-average baseline and its training reward.
func (p *criticPane) baselineBody(w, h int) []string {
	if w < plotLeft+4 || h < 3 {
		return nil
	}
	d, st := p.ctx.data, p.ctx.st
	ax := p.ctx.xAxis()
	t := d.train
	ch := chart{x0: ax.x0, x1: ax.x1, axis: st.graphColor(colDimGray), curves: []curve{
		{x: ax.train, y: t.get("reward_mean"), chars: charsBullet, color: st.graphColor(colGreen)},
		{x: ax.train, y: t.get("baseline"), chars: charsLine, color: st.graphColor(colBlue)},
	}}
	legend := st.accent.Render("──") + " baseline (EMA)  " + st.fg(colGreen).Render("••") + " sampled reward"
	if p.ctx.model.Kind == run.KindUntrained {
		legend = st.dim.Render("no critic and no training: the untrained SPG policy")
	}
	lines := []string{legend}
	lines = append(lines, ch.render(w, h-2, "waiting for the first training summary…")...)
	return append(lines, axisRowUnit(w, ax.x0, ax.x1, ax.marks, ax.last, st))
}

func (p *criticPane) body(w, h int) []string {
	if w < plotLeft+4 || h < 3 {
		return nil
	}
	c, d, st := p.ctx, p.ctx.data, p.ctx.st
	ax := c.xAxis()
	t := d.train
	penalty, on := d.whileOn(run.FlagCriticPenalty, t.get("critic_penalty"), c.cfg.CriticPenalty)
	ch := chart{x0: ax.x0, x1: ax.x1, logY: c.logScale, axis: st.graphColor(colDimGray), curves: []curve{
		{x: ax.train, y: penalty, chars: charsPlus, color: st.graphColor(colPink)},
		{x: ax.train, y: t.get("critic_hard"), chars: charsBullet, color: st.graphColor(colGreen)},
		{x: ax.train, y: t.get("critic_loss"), chars: charsLine, color: st.graphColor(colBlue)},
	}}
	scale := "linear"
	if c.logScale {
		scale = "log"
	}
	pen := st.fg(colPink).Render("++") + " penalty  "
	if !on {
		pen = st.dim.Render("penalty off  ")
	}
	curves := st.accent.Render("──") + " total  " + st.fg(colGreen).Render("••") + " hard MSE  " + pen
	legend := firstFit(w, curves+st.dim.Render("("+scale+" scale)"), curves+st.dim.Render("("+scale+")"), strings.TrimSpace(curves))
	lines := []string{legend}
	lines = append(lines, ch.render(w, h-2, "waiting for the first training summary…")...)
	return append(lines, axisRowUnit(w, ax.x0, ax.x1, ax.marks, ax.last, st))
}
