package ui

// eventsPane lists the latest events: evaluations, live changes, checkpoints.
type eventsPane struct{ paneBase }

// View implements pane.
func (p *eventsPane) View() string {
	d := p.ctx.data
	return p.cached([4]int{d.eventVer, d.evalVer}, func() string {
		n := max(p.h-2, 0)
		ev := d.events[max(len(d.events)-n, 0):]
		lines := make([]string, len(ev))
		for i, e := range ev {
			lines[i] = p.ctx.st.dim.Render(e[:9]) + e[9:]
		}
		return frame("Events", lines, p.w, p.h, p.ctx.st, false)
	})
}
