package ui

import (
	"slices"
	"strings"
	"testing"

	"spg-tui/envs"
	"spg-tui/run"
)

// TestCriticPaneWithoutPenalty: a run trained without the critic penalty (TSP-20 best) draws no
// penalty curve (it used to draw the recorded term, which then set the scale), and its legend
// says the penalty is off; a run that switched it off draws it up to the switch.
func TestCriticPaneWithoutPenalty(t *testing.T) {
	m := fixture(t, envs.TaskMWM, 10, 120, 36)
	d := m.ctx.data
	pen := d.train.get("critic_penalty")
	for i := range pen {
		pen[i] = 5.79 // far above the losses minimised, as an unused penalty term gets
	}
	d.sets = slices.DeleteFunc(d.sets, func(s setMark) bool { return s.param == run.FlagCriticPenalty })
	m.ctx.cfg.CriticPenalty = false
	m.ctx.displayVer++
	got := strip(m.critic.View())
	if strings.Contains(got, "+") || strings.Contains(got, "5.79") || !strings.Contains(got, "penalty off") {
		t.Errorf("penalty off throughout:\n%s", got)
	}

	d.sets = append(d.sets, setMark{step: 300, param: run.FlagCriticPenalty, old: 1, new: 0})
	m.ctx.displayVer++
	got = strip(m.critic.View())
	if !strings.Contains(got, "++ penalty") || !strings.Contains(got, "5.79") {
		t.Errorf("penalty on until step 300:\n%s", got)
	}
	y, on := d.whileOn(run.FlagCriticPenalty, pen, false)
	for i, s := range d.train.step {
		if (s <= 300) != (y[i] == 5.79) {
			t.Errorf("step %g: %g (on %v)", s, y[i], on)
			break
		}
	}
}
