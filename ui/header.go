package ui

import (
	"fmt"
	"slices"
	"strings"

	"spg-tui/run"
)

// header is the two lines at the top: the run, its state and progress, and where it runs.
type header struct{ paneBase }

// stateBadge is the run state with a glyph, so that it reads without colour.
func (h *header) stateBadge() string {
	st := h.ctx.st
	if h.ctx.readOnly {
		if h.ctx.writer > 0 {
			return st.warn.Render(fmt.Sprintf("◇ viewing, read-only · trained live by PID %d", h.ctx.writer))
		}
		return st.dim.Render("◇ viewing, read-only") + st.dim.Render(" · ") + h.runState()
	}
	return h.runState()
}

// runState is the run's state with a glyph.
func (h *header) runState() string {
	st := h.ctx.st
	switch s := h.ctx.status.State; s {
	case run.StateTraining:
		return st.ok.Render("● training")
	case run.StatePaused:
		return st.warn.Render("‖ paused")
	case run.StateStopped:
		return st.dim.Render("■ stopped")
	case run.StateDone:
		return st.ok.Render("✔ done")
	case run.StateFailed:
		return st.err.Render("✖ failed")
	default:
		return st.dim.Render("◌ " + s.String())
	}
}

// View implements pane. The header changes with every step, so it is not cached.
func (h *header) View() string {
	c := h.ctx
	s := c.status
	title := c.info.Title
	if title == "" {
		title = "spg-tui"
	}
	sep := c.st.dim.Render(" · ")
	line1 := strings.Join([]string{
		c.st.title.Render(title),
		h.stateBadge(),
		fmt.Sprintf("epoch %.2f", s.Epoch),
		fmt.Sprintf("step %s/%s", fmtInt(s.Step), fmtInt(s.TotalSteps)),
		fmt.Sprintf("%.1f steps/s", s.StepsPerSec),
		"ETA " + fmtDur(s.ETA),
	}, sep)
	if s.Wait.What != "" {
		line1 = waitLine(c.st.title.Render(title), s.Wait, h.w, c.st)
	}
	parts := []string{
		"recipe " + orDash(c.cfg.Recipe),
		"backend " + orDash(c.info.Backend),
		fmt.Sprintf("seed %d", c.info.Seed),
		"run " + orDash(c.info.Dir),
	}
	if k := c.cfg.ValDecodes(); k > 1 {
		// Only when on, so that a run without sampling keeps its header.
		parts = slices.Insert(parts, 1, fmt.Sprintf("val sampled K %d", k))
	}
	if s.Dropped > 0 {
		parts = append(parts, c.st.warn.Render(fmt.Sprintf("%d records skipped by the view", s.Dropped)))
	}
	line2 := c.st.dim.Render(strings.Join(parts, " · "))
	if c.data.warning != "" {
		// A damaged metrics line is told on its own line, whole, in place of the run's details.
		line2 = c.st.warn.Render(c.data.warning)
	}
	return fitLine(line1, h.w) + "\n" + spread(line2, c.st.dim.Render("? help"), h.w)
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
