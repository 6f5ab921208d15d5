package ui

// criticPane plots the critic loss and its two terms, MSE(r, Q(s,P)) and the penalty
// MSE(Q(s,P), Q(s,M)), optionally on a log scale.
type criticPane struct{ paneBase }

// View implements pane.
func (p *criticPane) View() string {
	d := p.ctx.data
	return p.cached([4]int{d.trainVer, d.eventVer, p.ctx.displayVer}, func() string {
		return frame("Critic loss", p.body(p.w-2, p.h-2), p.w, p.h, p.ctx.st, false)
	})
}

func (p *criticPane) body(w, h int) []string {
	if w < plotLeft+4 || h < 3 {
		return nil
	}
	c, d, st := p.ctx, p.ctx.data, p.ctx.st
	x0, x1 := xRange(d)
	t := d.train
	ch := chart{x0: x0, x1: x1, logY: c.logScale, axis: st.graphColor(colDimGray), curves: []curve{
		{x: t.step, y: t.get("critic_penalty"), chars: charsPlus, color: st.graphColor(colPink)},
		{x: t.step, y: t.get("critic_hard"), chars: charsBullet, color: st.graphColor(colGreen)},
		{x: t.step, y: t.get("critic_loss"), chars: charsLine, color: st.graphColor(colBlue)},
	}}
	scale := "linear"
	if c.logScale {
		scale = "log"
	}
	legend := st.accent.Render("──") + " total  " + st.fg(colGreen).Render("••") + " hard MSE  " +
		st.fg(colPink).Render("++") + " penalty  " + st.dim.Render("("+scale+" scale)")
	lines := []string{legend}
	lines = append(lines, ch.render(w, h-2, "waiting for the first training summary…")...)
	return append(lines, axisRow(w, x0, x1, markSteps(d), st))
}
