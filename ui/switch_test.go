package ui

import (
	"reflect"
	"testing"
	"time"

	"spg-tui/cmd/trainflags"
	"spg-tui/experiments/enginetest"
)

// TestTaskSwitchResolvesAsTui checks that a switch to another task or recipe starts the run that
// tui with that task, size and recipe starts (the run's seed kept), not one with values kept from
// the run it replaces (best's mwm validates every 50 steps, best's tsp every 250), while the same
// task and recipe keep the live hyperparameters.
func TestTaskSwitchResolvesAsTui(t *testing.T) {
	cur, err := trainflags.ResolveFlags(ConsoleConfig(), "--seed", "3")
	if err != nil {
		t.Fatal(err)
	}
	cur.Tau = 0.1 // a live change
	e, err := enginetest.New(cur, t.TempDir(), enginetest.Options{StepDelay: time.Millisecond, Buffer: 1 << 14})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Stop(); <-e.Done() })
	for _, c := range []struct {
		typed string
		flags []string // tui's flags for the same run; nil: the live run at the new size
	}{
		{"tsp 20 best", []string{"--task", "tsp", "--n", "20", "--recipe", "best", "--seed", "3"}},
		{"mwm 10 paper", []string{"--task", "mwm", "--n", "10", "--recipe", "paper", "--seed", "3"}},
		{"sort 20", []string{"--task", "sort", "--n", "20", "--recipe", "best", "--seed", "3"}},
		{"mwm 12 best", nil},
	} {
		m := newTestModel(e, 120, 36)
		press(m, "t")
		for _, k := range c.typed {
			press(m, string(k))
		}
		press(m, "enter")
		if m.dialog == nil || !m.dialog.confirming {
			t.Fatalf("%s not offered:\n%s", c.typed, screen(m))
		}
		got := m.dialog.cfg
		if c.flags == nil {
			if got.Tau != cur.Tau || got.EvalEvery != cur.EvalEvery || got.N != 12 {
				t.Errorf("%s: tau %g, eval every %d, n %d; want the live run's %g and %d at n 12", c.typed, got.Tau, got.EvalEvery, got.N, cur.Tau, cur.EvalEvery)
			}
			continue
		}
		want, err := trainflags.ResolveFlags(ConsoleConfig(), c.flags...)
		if err != nil {
			t.Fatal(err)
		}
		if got.EvalEvery != want.EvalEvery || got.Tau != want.Tau {
			t.Errorf("%s: validates every %d steps at tau %g, want tui's %d at %g", c.typed, got.EvalEvery, got.Tau, want.EvalEvery, want.Tau)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: starts\n%+v\nwant tui %v's\n%+v", c.typed, got, c.flags, want)
		}
	}
}
