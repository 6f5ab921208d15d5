package cmdutil

import (
	"testing"
	"time"

	"spg-tui/run"
)

func TestWaitLine(t *testing.T) {
	for _, c := range []struct {
		w     run.Wait
		since time.Duration
		want  string
	}{
		{run.Wait{}, time.Second, ""},
		{run.Wait{What: "solving the references of the validation set", Done: 0, Total: 1000}, 3 * time.Second,
			"solving the references of the validation set: 0/1000 (0%), 3s so far"},
		{run.Wait{What: "solving", Done: 250, Total: 1000}, 6 * time.Second, "solving: 250/1000 (25%), 6s so far, about 18s left"},
		// Continued from 200 kept by a stopped attempt: the pace is of the 50 solved since.
		{run.Wait{What: "solving", Done: 250, Total: 1000, Start: 200}, 6 * time.Second, "solving: 250/1000 (25%), 6s so far, about 1m30s left"},
		{run.Wait{What: "solving", Done: 200, Total: 1000, Start: 200}, 3 * time.Second, "solving: 200/1000 (20%), 3s so far"},
	} {
		if got := waitLine(c.w, c.since); got != c.want {
			t.Errorf("waitLine(%+v, %s) = %q, want %q", c.w, c.since, got, c.want)
		}
	}
}

// TestWaitReportDue: the references solved beside training used to be reported every 3 s for
// minutes between the training's lines; they are reported every 30 s, a wait the run is held by
// every 3 s.
func TestWaitReportDue(t *testing.T) {
	for _, c := range []struct {
		background bool
		sinceLast  time.Duration
		want       bool
	}{
		{false, 0, true}, {false, 3 * time.Second, true},
		{true, 0, true}, {true, 3 * time.Second, false}, {true, 27 * time.Second, false}, {true, 30 * time.Second, true},
	} {
		w := run.Wait{What: "solving", Total: 10, Background: c.background}
		if got := waitReportDue(w, c.sinceLast, WaitReportEvery); got != c.want {
			t.Errorf("background %v, %s after the last line: due %v, want %v", c.background, c.sinceLast, got, c.want)
		}
	}
}
