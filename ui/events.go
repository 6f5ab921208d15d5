package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"spg-tui/ui/draw"
)

// eventsPane lists the latest events: evaluations, live changes, checkpoints. An event longer
// than the pane is wrapped under its text rather than cut, so that the test score at the end
// ("done: test optimality ratio …") is read whole.
type eventsPane struct{ paneBase }

// eventIndent is the width of an event line's step column, under which its text continues.
const eventIndent = 9

// View implements pane.
func (p *eventsPane) View() string {
	d := p.ctx.data
	return p.cached([4]int{d.eventVer, d.evalVer}, func() string {
		n, w := max(p.h-2, 0), p.w-2
		var lines []string
		// The latest events that fit, each wrapped, newest last.
		for i := len(d.events) - 1; i >= 0 && len(lines) < n; i-- {
			lines = append(p.wrapEvent(d.events[i], w), lines...)
		}
		if len(lines) > n {
			lines = lines[len(lines)-n:]
		}
		return draw.Frame("Events", lines, p.w, p.h, p.ctx.st, false)
	})
}

// wrapEvent is event e (its step column, then its text) in lines of w columns, the text's
// continuations under the text.
func (p *eventsPane) wrapEvent(e string, w int) []string {
	step, text := e[:eventIndent], e[eventIndent:]
	tw := w - eventIndent
	if tw < 8 {
		return []string{p.ctx.st.Dim.Render(step) + text}
	}
	parts := strings.Split(ansi.Wrap(text, tw, " "), "\n")
	out := []string{p.ctx.st.Dim.Render(step) + parts[0]}
	for _, l := range parts[1:] {
		out = append(out, strings.Repeat(" ", eventIndent)+l)
	}
	return out
}
