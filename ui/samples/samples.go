// Package samples draws a validation sample of each task in the console's sample pane: an
// instance with a solution, its legend and its score against the optimum. Each task's drawer is
// one file that registers itself from init (Register); the console asks For its run's task. A
// task without a drawer is shown by its score line alone.
package samples

import (
	"strings"

	"charm.land/lipgloss/v2"

	"spg-tui/envs"
	"spg-tui/run"
	"spg-tui/ui/draw"
)

// Look is how a drawing is styled: the console's styles, the style of the solution's lines (the
// policy's or the optimal one's) and which of the two is drawn ("policy", "optimal").
type Look struct {
	St    draw.Styles
	Line  lipgloss.Style
	Which string
}

// Drawer draws the samples of one task.
type Drawer struct {
	// Draw draws s's instance with the solution perm in w x h cells, and its legend.
	Draw func(s run.Sample, perm []int, look Look, w, h int) (drawing []string, legend string)
	// Score words the policy's objective against the optimum's, longest first: a narrow pane
	// takes the first that fits, the last keeps the score alone.
	Score func(s run.Sample) []string
}

// drawers holds each task's drawer, by task name.
var drawers = map[envs.Task]Drawer{}

// Register makes the console draw task's samples with d; a task's drawer calls it once, from
// init. It panics on a task registered twice or a drawer missing a part. It returns the function
// that removes the drawer again, for a test that adds a task for its own duration.
func Register(task envs.Task, d Drawer) (unregister func()) {
	if _, dup := drawers[task]; dup {
		panic("samples: task " + string(task) + " has two drawers")
	}
	if d.Draw == nil || d.Score == nil {
		panic("samples: the drawer of task " + string(task) + " is missing a part")
	}
	drawers[task] = d
	return func() { delete(drawers, task) }
}

// For returns task's drawer, and whether it has one.
func For(task envs.Task) (Drawer, bool) {
	d, ok := drawers[task]
	return d, ok
}

// square returns a canvas over the unit square with square dots, centred in w columns: a cell
// holds 2×4 dots and is about twice as tall as wide, so 2 columns per row keep the aspect.
func square(w, h int) (c *draw.Canvas, indent int) {
	ch := min(h, w/2)
	cw := 2 * ch
	return draw.NewCanvas(cw, ch, 0, 1, 0, 1), (w - cw) / 2
}

func indentRows(rows []string, n int) []string {
	pad := strings.Repeat(" ", max(n, 0))
	for i := range rows {
		rows[i] = pad + rows[i]
	}
	return rows
}
