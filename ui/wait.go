package ui

import (
	"fmt"
	"time"

	"charm.land/bubbles/v2/progress"
	"charm.land/lipgloss/v2"

	"spg-tui/run"
)

// waitLine is the header's first line while the run is in a long preparation: the title, what
// it waits for, a progress bar (bubbles' progress, drawn at the fraction done), the count and,
// once its pace is known, the time left, in w columns.
func waitLine(title string, wait run.Wait, left time.Duration, w int, st styles) string {
	count := fmt.Sprintf(" %d/%d", wait.Done, wait.Total)
	if left > 0 {
		count += " · ETA " + fmtDur(left)
	}
	what := st.warn.Render("◌ "+wait.What) + " "
	head := title + st.dim.Render(" · ") + what
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
	if st.color {
		opts = append(opts, progress.WithColors(lipgloss.ANSIColor(colBlue)))
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
