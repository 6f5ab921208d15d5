package ui

import (
	"fmt"

	"charm.land/bubbles/v2/progress"
	"charm.land/lipgloss/v2"

	"spg-tui/run"
)

// waitLine is the header's first line while the run is in a long preparation: the title, what
// it waits for, a progress bar (bubbles' progress, drawn at the fraction done) and the count, in
// w columns.
func waitLine(title string, wait run.Wait, w int, st styles) string {
	count := fmt.Sprintf(" %d/%d", wait.Done, wait.Total)
	what := st.warn.Render("◌ "+wait.What) + " "
	head := title + st.dim.Render(" · ") + what
	bw := w - lipgloss.Width(head) - len(count)
	if bw < 10 {
		// A narrow screen keeps the bar rather than the run's title (the second line names the run).
		head = what
		bw = w - lipgloss.Width(head) - len(count)
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
