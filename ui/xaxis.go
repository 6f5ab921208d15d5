package ui

import (
	"slices"
	"time"
)

// xAxis is what the main view's charts are drawn against: the steps, or the run's training
// time (the w key switches).
type xAxis struct {
	train, eval []float64 // the x of each training summary and each validation
	x0, x1      float64
	marks       []int // the live changes
	last        func(float64) string
}

// stepsLabel and timeLabel write the last value of an x-axis.
func stepsLabel(x float64) string { return fmtInt(int(x)) + " steps" }
func timeLabel(x float64) string  { return fmtDur(time.Duration(x * float64(time.Second))) }

// xAxis is the x-axis of the run's curves as the display settings choose it.
func (c *programContext) xAxis() xAxis {
	d := c.data
	if !c.wallX {
		x0, x1 := xRange(d)
		return xAxis{train: d.train.step, eval: d.eval.step, x0: x0, x1: x1, marks: markSteps(d), last: stepsLabel}
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
	return xAxis{train: d.train.wall, eval: d.eval.wall, x1: x1, marks: marks, last: timeLabel}
}
