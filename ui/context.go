package ui

import (
	"time"

	"spg-tui/run"
)

// programContext is the state every component reads. The root model owns it and refreshes it
// on every tick; components hold a pointer and never write to it.
type programContext struct {
	st       styles
	info     run.RunInfo
	cfg      run.Config
	model    run.Model // cfg's model, resolved when the run is attached
	status   run.Status
	readOnly bool // a run opened with --view: nothing can be changed
	data     *runData
	// writer is the PID of the process training a viewed run, 0 when none does.
	writer int
	// waitLeft is the estimated time left of the run's long preparation (status.Wait), 0 while
	// unknown.
	waitLeft time.Duration

	// Display settings, changed from the parameter panel.
	smoothing  float64 // EMA weight of the reward curve
	logScale   bool    // critic losses on a log scale
	wallX      bool    // curves against training time, not steps
	displayVer int
}

// renderKey identifies what a pane's cached rendering was drawn from: the versions of the data
// it shows and its size.
type renderKey struct {
	v    [4]int
	w, h int
}

// viewCache keeps a pane's last rendering, so that a pane is redrawn only when its data or size
// changed.
type viewCache struct {
	key   renderKey
	s     string
	valid bool
}

func (c *viewCache) get(k renderKey, draw func() string) string {
	if !c.valid || c.key != k {
		c.key, c.s, c.valid = k, draw(), true
	}
	return c.s
}
