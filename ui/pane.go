package ui

import (
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"spg-tui/envs"
	"spg-tui/run"
	"spg-tui/ui/draw"
)

// pane is one part of the console's screen: the header, a chart, the sample viewer, the
// parameter panel, the events, the ablation view. The root model sizes the panes, routes the
// messages meant for one to its Update, finds their keys in their bindings and lays their views
// out.
type pane interface {
	SetSize(w, h int)
	// Update takes a message routed to the pane (the parameter panel's typing) and returns a
	// command, if any.
	Update(msg tea.Msg) tea.Cmd
	View() string
	// Bindings are the pane's keys and what each does.
	Bindings() []binding
}

// paneBase is what every pane embeds: the program context it reads, its size and the cache of
// its last rendering. Its Update and Bindings do nothing, for panes that only draw.
type paneBase struct {
	ctx   *programContext
	w, h  int
	cache viewCache
}

// SetSize implements pane.
func (b *paneBase) SetSize(w, h int) { b.w, b.h = w, h }

// Update implements pane: a pane that takes no messages ignores them.
func (b *paneBase) Update(tea.Msg) tea.Cmd { return nil }

// Bindings implements pane: a pane without keys has none.
func (b *paneBase) Bindings() []binding { return nil }

// cached returns the pane's last rendering if versions and the size are those it was drawn
// for, and draws it again otherwise.
func (b *paneBase) cached(versions [4]int, draw func() string) string {
	return b.cache.get(renderKey{v: versions, w: b.w, h: b.h}, draw)
}

// Every pane of the console is a pane.
var _ = []pane{(*header)(nil), (*rewardPane)(nil), (*criticPane)(nil), (*scatterPane)(nil),
	(*samplePane)(nil), (*paramsPane)(nil), (*eventsPane)(nil), (*ablationView)(nil)}

// programContext is the state every component reads. The root model owns it and refreshes it
// on every tick; components hold a pointer and never write to it.
type programContext struct {
	st    draw.Styles
	info  run.RunInfo
	cfg   run.Config
	model run.Model // cfg's model, resolved when the run is attached
	// facts are cfg's task's, resolved when the run is attached; nil for a task this build
	// does not know (a run directory written by another version).
	facts    *envs.Facts
	status   run.Status
	readOnly bool // a run opened with --view: nothing can be changed
	data     *runData
	// writer is the PID of the process training a viewed run, 0 when none does.
	writer int
	// waitLeft is the estimated time left of the run's long preparation (status.Wait), 0 while
	// unknown.
	waitLeft time.Duration
	// sys are the system figures the header tells.
	sys sysFigures

	// Display settings, changed from the parameter panel and the cursor keys; displayVer grows
	// with every change.
	smoothing  float64  // EMA weight of the reward curve
	logScale   chartSet // the charts drawn on a log scale
	wallX      bool     // curves against training time, not steps
	cursor     stepCursor
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

// xAxis is the x-axis of the run's curves as the display settings choose it.
func (c *programContext) xAxis() draw.XAxis {
	d := c.data
	if !c.wallX {
		x0, x1 := xRange(d)
		return draw.XAxis{Train: d.train.step, Eval: d.eval.step, X0: x0, X1: x1, Marks: markSteps(d), Last: draw.StepsLabel, Cursor: c.cursorMark()}
	}
	x1 := 1.0
	for _, w := range [][]float64{d.train.wall, d.eval.wall} {
		if n := len(w); n > 0 {
			x1 = max(x1, w[n-1])
		}
	}
	// A live change is marked at the training time of the first summary at or after its step.
	var marks []int
	for _, s := range markSteps(d) {
		if i, _ := slices.BinarySearch(d.train.step, float64(s)); i < len(d.train.wall) {
			marks = append(marks, int(d.train.wall[i]))
		}
	}
	return draw.XAxis{Train: d.train.wall, Eval: d.eval.wall, X1: x1, Marks: marks, Last: draw.TimeLabel, Cursor: c.cursorMark()}
}
