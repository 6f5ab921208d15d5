package ui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/progress"
	"charm.land/lipgloss/v2"

	"spg-tui/run"
	"spg-tui/ui/draw"
)

// header is the two lines at the top: the run, its state and progress, where it runs, and the
// system figures (CPU, memory, the run directory's size, the GPU).
type header struct{ paneBase }

// stateBadge is the run state with a glyph, so that it reads without colour, and, for a view
// of a run trained live, who trains it (a part the header may leave out, rank 3).
func (h *header) stateBadge() []headerPart {
	st := h.ctx.st
	if h.ctx.readOnly {
		if h.ctx.writer > 0 {
			return []headerPart{{st.Warn.Render("◇ viewing, read-only"), 0},
				{st.Warn.Render(fmt.Sprintf("trained live by PID %d", h.ctx.writer)), 3}}
		}
		return []headerPart{{st.Dim.Render("◇ viewing, read-only") + st.Dim.Render(" · ") + h.runState(), 0}}
	}
	return []headerPart{{h.runState(), 0}}
}

// runState is the run's state with a glyph.
func (h *header) runState() string {
	st := h.ctx.st
	switch s := h.ctx.status.State; s {
	case run.StateTraining:
		return st.OK.Render("● training")
	case run.StatePaused:
		return st.Warn.Render("‖ paused")
	case run.StateStopped:
		return st.Dim.Render("■ stopped")
	case run.StateDone:
		return st.OK.Render("✔ done")
	case run.StateFailed:
		return st.Err.Render("✖ failed")
	default:
		return st.Dim.Render("◌ " + s.String())
	}
}

// headerPart is an item of the header's first line and its rank: a line too narrow for all of
// them drops the highest rank first, so that what a cut header keeps is chosen, not whatever
// comes first.
type headerPart struct {
	text string
	rank int
}

// View implements pane. The header changes with every step, so it is not cached.
func (h *header) View() string {
	c := h.ctx
	s := c.status
	title := c.info.Title
	if title == "" {
		title = "spg-tui"
	}
	sep := c.st.Dim.Render(" · ")
	// The title, the state, the step count and the test score are kept before the ETA, then the
	// rate and who trains a viewed run, then the epoch. Rate and ETA are shown while the run
	// trains only (for a view, while a process trains it): a paused or finished run has neither.
	parts := append([]headerPart{{c.st.Title.Render(title), 0}}, h.stateBadge()...)
	parts = append(parts, headerPart{fmt.Sprintf("epoch %.2f", s.Epoch), 4}, headerPart{fmt.Sprintf("step %s/%s", draw.FmtInt(s.Step), draw.FmtInt(s.TotalSteps)), 1})
	if t := c.data.test; t != nil && s.State == run.StateDone {
		// The run's result, kept before all but the step: the events pane may be too narrow for
		// it, or absent. (A done run resumed for more steps is scored again at its new end.)
		parts = append(parts, headerPart{c.st.OK.Render(fmt.Sprintf("test %s %.4g", metricLabel(t.MetricName), t.Metric)), 1})
	}
	if s.State == run.StateTraining || c.writer > 0 { // a view's run trains while its writer lives
		parts = append(parts, headerPart{fmt.Sprintf("%.1f steps/s", s.StepsPerSec), 3}, headerPart{"ETA " + draw.FmtDur(s.ETA), 2})
	}
	line1 := joinRanked(parts, sep, h.w)
	if s.Wait.What != "" && !s.Wait.Background {
		line1 = waitLine(c.st.Title.Render(title), s.Wait, c.waitLeft, h.w, c.st)
	}
	// The backend goes last: where the GPU is not used it says why at length, and a narrow
	// header cuts that before the run's directory.
	recipe := "recipe " + orDash(c.cfg.Recipe)
	if kind, _ := run.RecipeChoice(c.cfg); kind != "" {
		recipe += " on " + kind // its model chosen by the data, named in the title
	}
	details := []string{
		recipe,
		fmt.Sprintf("seed %d", c.info.Seed),
		"run " + orDash(c.info.Dir),
		"backend " + orDash(c.info.Backend),
	}
	if k := c.cfg.ValDecodes(); k > 1 {
		// Only when on, so that a run without sampling keeps its header.
		details = slices.Insert(details, 1, fmt.Sprintf("val sampled K %d", k))
	}
	if s.Dropped > 0 {
		details = append(details, c.st.Warn.Render(fmt.Sprintf("%d records skipped by the view", s.Dropped)))
	}
	line2 := c.st.Dim.Render(strings.Join(details, " · "))
	help := c.st.Dim.Render("? help")
	switch {
	case s.Wait.What != "" && s.Wait.Background:
		// A computation beside training (its references) shows its progress under the training's.
		line2 = waitLine("", s.Wait, c.waitLeft, h.w-lipgloss.Width(help)-1, c.st)
	case c.data.warning != "":
		// A damaged metrics line is told on its own line, whole, in place of the run's details.
		line2 = c.st.Warn.Render(c.data.warning)
	}
	// The system figures take the right end while there are any (the footer keeps ? help).
	right := sysLine(c.sys, line2, h.w, c.st)
	if right == "" {
		right = help
	}
	return draw.FitLine(line1, h.w) + "\n" + draw.Spread(line2, right, h.w)
}

// joinRanked joins the parts with sep, leaving out the highest-ranked parts (the last of equal
// rank first) until the line fits in w columns; rank 0 is never left out.
func joinRanked(parts []headerPart, sep string, w int) string {
	for {
		texts := make([]string, len(parts))
		worst := -1
		for i, p := range parts {
			texts[i] = p.text
			if p.rank > 0 && (worst < 0 || p.rank >= parts[worst].rank) {
				worst = i
			}
		}
		line := strings.Join(texts, sep)
		if worst < 0 || lipgloss.Width(line) <= w {
			return line
		}
		parts = slices.Delete(slices.Clone(parts), worst, worst+1)
	}
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// waitLine is the header's line on a long computation: the title (none under the training's
// line), what it is, a progress bar (bubbles' progress, drawn at the fraction done), the count
// and, once its pace is known, the time left, in w columns.
func waitLine(title string, wait run.Wait, left time.Duration, w int, st draw.Styles) string {
	count := fmt.Sprintf(" %d/%d", wait.Done, wait.Total)
	if left > 0 {
		count += " · ETA " + draw.FmtDur(left)
	}
	what := st.Warn.Render("◌ "+wait.What) + " "
	head := what
	if title != "" {
		head = title + st.Dim.Render(" · ") + what
	}
	bw := w - lipgloss.Width(head) - lipgloss.Width(count)
	if bw < 10 {
		// A narrow screen keeps the bar rather than the run's title (the second line names the run).
		head = what
		bw = w - lipgloss.Width(head) - lipgloss.Width(count)
	}
	if bw < 10 {
		return head + count
	}
	opts := []progress.Option{progress.WithWidth(bw), progress.WithoutPercentage(), progress.WithFillCharacters('█', '░')}
	if st.Color {
		opts = append(opts, progress.WithColors(lipgloss.ANSIColor(draw.ColBlue)))
	}
	frac := 0.0
	if wait.Total > 0 {
		frac = float64(wait.Done) / float64(wait.Total)
	}
	return head + progress.New(opts...).ViewAs(frac) + count
}

// waitPace follows the run's long preparation to estimate the time it has left: from when the
// console first saw it and how far it was then, so that a view opened halfway is not misled.
type waitPace struct {
	what  string
	began time.Time
	done0 int
}

// left is the time the preparation w has left at now, from its pace since first seen; 0 while
// unknown (nothing done since) or when there is none.
func (p *waitPace) left(w run.Wait, now time.Time) time.Duration {
	if w.What != p.what || w.Done < p.done0 { // another wait, or the same one begun again
		*p = waitPace{what: w.What, began: now, done0: w.Done}
	}
	if w.What == "" || w.Done <= p.done0 || w.Done >= w.Total {
		return 0
	}
	return time.Duration(float64(now.Sub(p.began)) * float64(w.Total-w.Done) / float64(w.Done-p.done0))
}
