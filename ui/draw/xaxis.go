package draw

import "time"

// XAxis is what the main view's charts are drawn against: the steps, or the run's training
// time (the w key switches).
type XAxis struct {
	Train, Eval []float64 // the x of each training summary and each validation
	X0, X1      float64
	Marks       []int // the live changes
	Last        func(float64) string
	// Cursor is the step cursor on this axis.
	Cursor Cursor
}

// StepsLabel writes the last value of an x-axis of steps.
func StepsLabel(x float64) string { return FmtInt(int(x)) + " steps" }

// TimeLabel writes the last value of an x-axis of training time, in seconds.
func TimeLabel(x float64) string { return FmtDur(time.Duration(x * float64(time.Second))) }

// Row is the line under a chart drawn against a (see AxisRowUnit), with the cursor marked.
func (a XAxis) Row(w int, st Styles) string {
	return axisRow(w, a.X0, a.X1, a.Marks, a.Last, a.Cursor, st)
}
