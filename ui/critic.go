package ui

import (
	"strings"

	"spg-tui/run"
	"spg-tui/ui/draw"
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
			return draw.Frame("Baseline · no critic", p.baselineBody(p.w-2, p.h-2), p.w, p.h, p.ctx.st, false)
		}
		return draw.Frame("Critic loss", p.body(p.w-2, p.h-2), p.w, p.h, p.ctx.st, false)
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
	ch := draw.Chart{X0: ax.X0, X1: ax.X1, Axis: st.GraphColor(draw.ColDimGray), Curves: []draw.Curve{
		{X: ax.Train, Y: t.get("reward_mean"), Chars: draw.CharsBullet, Color: st.GraphColor(draw.ColGreen)},
		{X: ax.Train, Y: t.get("baseline"), Chars: draw.CharsLine, Color: st.GraphColor(draw.ColBlue)},
	}}
	legend := st.Accent.Render("──") + " baseline (EMA)  " + st.Fg(draw.ColGreen).Render("••") + " sampled reward"
	if p.ctx.model.Kind == run.KindUntrained {
		legend = st.Dim.Render("no critic and no training: the untrained SPG policy")
	}
	lines := []string{legend}
	lines = append(lines, ch.Render(w, h-2, "waiting for the first training summary…")...)
	return append(lines, draw.AxisRowUnit(w, ax.X0, ax.X1, ax.Marks, ax.Last, st))
}

func (p *criticPane) body(w, h int) []string {
	if w < draw.PlotLeft+4 || h < 3 {
		return nil
	}
	c, d, st := p.ctx, p.ctx.data, p.ctx.st
	ax := c.xAxis()
	t := d.train
	penalty, on := d.whileOn(run.FlagCriticPenalty, t.get("critic_penalty"), c.cfg.CriticPenalty)
	ch := draw.Chart{X0: ax.X0, X1: ax.X1, LogY: c.logScale, Axis: st.GraphColor(draw.ColDimGray), Curves: []draw.Curve{
		{X: ax.Train, Y: penalty, Chars: draw.CharsPlus, Color: st.GraphColor(draw.ColPink)},
		{X: ax.Train, Y: t.get("critic_hard"), Chars: draw.CharsBullet, Color: st.GraphColor(draw.ColGreen)},
		{X: ax.Train, Y: t.get("critic_loss"), Chars: draw.CharsLine, Color: st.GraphColor(draw.ColBlue)},
	}}
	scale := "linear"
	if c.logScale {
		scale = "log"
	}
	pen := st.Fg(draw.ColPink).Render("++") + " penalty  "
	if !on {
		pen = st.Dim.Render("penalty off  ")
	}
	curves := st.Accent.Render("──") + " total  " + st.Fg(draw.ColGreen).Render("••") + " hard MSE  " + pen
	legend := firstFit(w, curves+st.Dim.Render("("+scale+" scale)"), curves+st.Dim.Render("("+scale+")"), strings.TrimSpace(curves))
	lines := []string{legend}
	lines = append(lines, ch.Render(w, h-2, "waiting for the first training summary…")...)
	return append(lines, draw.AxisRowUnit(w, ax.X0, ax.X1, ax.Marks, ax.Last, st))
}
