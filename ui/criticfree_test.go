package ui

import (
	"strings"
	"testing"

	"spg-tui/envs"
)

// A critic-free model's console has no critic panes: the Q scatter says so, and the critic-loss
// pane shows the moving-average baseline instead, marked "no critic"; an SPG model's console
// keeps both.
func TestCriticFreePanes(t *testing.T) {
	for _, c := range []struct {
		model string
		task  envs.Task
		want  []string
		not   []string
	}{
		{"pn-ac", envs.TaskSort, []string{"no critic: no Q values", "Baseline · no critic", "baseline (EMA)"}, []string{"Critic loss"}},
		{"spg-random", envs.TaskMWM, []string{"no critic: no Q values", "no critic and no training"}, []string{"Critic loss"}},
		{"spg-matching", envs.TaskMWM, []string{"Critic loss", "Q scatter"}, []string{"no critic"}},
	} {
		cfg := tinyConfig(c.task, 6)
		cfg.Model = c.model
		e, _ := runScripted(t, cfg, t.TempDir())
		m := newTestModel(e, 120, 36)
		m.poll()
		sc := screen(m)
		for _, w := range c.want {
			if !strings.Contains(sc, w) {
				t.Errorf("%s: the console lacks %q:\n%s", c.model, w, sc)
			}
		}
		for _, w := range c.not {
			if strings.Contains(sc, w) {
				t.Errorf("%s: the console shows %q:\n%s", c.model, w, sc)
			}
		}
		// The first row (tau) applies to SPG only: a critic-free model refuses a change to it.
		m.msg = status{}
		press(m, "+")
		free := c.model != "spg-matching"
		if free != (m.msg.err && strings.Contains(m.msg.text, "does not apply")) {
			t.Errorf("%s: + on tau: %+v", c.model, m.msg)
		}
		// So do the penalty and exploration keys.
		for _, k := range []string{"p", "x"} {
			m.msg = status{}
			press(m, k)
			if free != (m.msg.err && strings.Contains(m.msg.text, "does not apply")) {
				t.Errorf("%s: %s: %+v", c.model, k, m.msg)
			}
		}
	}
}
