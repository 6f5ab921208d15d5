package ui

import (
	"strings"
	"testing"

	"spg-tui/envs"
)

// TestXAxisTrainingTime: w draws the main view's curves against the run's training time, its
// axis labelled by a duration, and back against steps.
func TestXAxisTrainingTime(t *testing.T) {
	m := fixture(t, envs.TaskMWM, 10, 120, 36)
	d := m.ctx.data
	for i := range d.train.wall {
		d.train.wall[i] = float64(i+1) * 3 // 40 summaries, 3 s apart: 2 minutes in all
	}
	for i := range d.eval.wall {
		d.eval.wall[i] = d.eval.step[i] * 0.3
	}
	press(m, "w")
	ax := m.ctx.xAxis()
	if ax.X1 != 120 || &ax.Train[0] != &d.train.wall[0] {
		t.Errorf("training-time axis up to %g, want 120", ax.X1)
	}
	if r := strip(m.reward.View()); !strings.Contains(r, "2m00s") || strings.Contains(r, "400 steps") {
		t.Errorf("the reward pane's axis is not in training time:\n%s", r)
	}
	press(m, "w")
	if r := strip(m.reward.View()); !strings.Contains(r, "400 steps") {
		t.Errorf("w did not switch back to steps:\n%s", r)
	}
}
