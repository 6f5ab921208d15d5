package cmdutil

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"spg-tui/run"
)

// WaitReportEvery is how often train reports a long preparation; one beside training (the
// validation references of a run that trains meanwhile, minutes at TSP-20) is reported
// backgroundReportRatio times less often, between the training's own lines.
const (
	WaitReportEvery       = 3 * time.Second
	backgroundReportRatio = 10
)

// waitReportDue reports whether a line on w is due sinceLast after the last one (0: none yet).
func waitReportDue(w run.Wait, sinceLast, period time.Duration) bool {
	if w.Background {
		period *= backgroundReportRatio
	}
	return sinceLast == 0 || sinceLast >= period
}

// waitLine is a line on a run's long preparation, "" when there is none.
func waitLine(w run.Wait, since time.Duration) string {
	if w.What == "" {
		return ""
	}
	pct := 0.0
	if w.Total > 0 {
		pct = 100 * float64(w.Done) / float64(w.Total)
	}
	s := fmt.Sprintf("%s: %d/%d (%.0f%%), %s so far", w.What, w.Done, w.Total, pct, since.Round(time.Second))
	if w.Done > w.Start && w.Done < w.Total {
		// The pace is this attempt's: the units an earlier one did took none of since.
		left := time.Duration(float64(since) * float64(w.Total-w.Done) / float64(w.Done-w.Start))
		s += fmt.Sprintf(", about %s left", left.Round(time.Second))
	}
	return s
}

// ReportWaits prints a line to w every period while eng is in a long preparation (solving its
// references), so that a long wait never looks like a hang; the function it returns stops it.
func ReportWaits(eng run.Engine, w io.Writer, cmd string, period time.Duration) (stop func()) {
	quit, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(period)
		defer tick.Stop()
		var what string
		var began, last time.Time
		for {
			select {
			case <-quit:
				return
			case <-eng.Done():
				return
			case now := <-tick.C:
				st := eng.Status().Wait
				if st.What != what {
					what, began, last = st.What, now.Add(-period), time.Time{}
				}
				sinceLast := time.Duration(0)
				if !last.IsZero() {
					sinceLast = now.Sub(last)
				}
				if line := waitLine(st, now.Sub(began)); line != "" && waitReportDue(st, sinceLast, period) {
					fmt.Fprintf(w, "%s: %s\n", cmd, line)
					last = now
				}
			}
		}
	}()
	return func() { close(quit); <-finished }
}

// largeCheckpoint is the size from which reading a checkpoint (its replay buffer, mostly) takes
// long enough to be announced.
const largeCheckpoint = 100 << 20

// NoteCheckpointLoad says, before a resume reads it, how large the run's checkpoint is when it is
// large; nothing for a small one or none (which the resume reports).
func NoteCheckpointLoad(w io.Writer, cmd, dir string) {
	path := filepath.Join(dir, run.LastCheckpoint)
	if fi, err := os.Stat(path); err == nil && fi.Size() >= largeCheckpoint {
		fmt.Fprintf(w, "%s: loading %s (%.1f MB)\n", cmd, path, float64(fi.Size())/1e6)
	}
}
