package ui

import (
	"regexp"
	"strings"
	"testing"

	"spg-tui/envs"
)

// TestTaskSwitchSaysHowLong: the confirmation of a task switch tells the new run's length
// before y starts it (gm 10 best used to start 19,530 steps without a word), and for TSP-20
// the exact references it solves while it trains.
func TestTaskSwitchSaysHowLong(t *testing.T) {
	for _, c := range []struct {
		typed string
		want  []string
	}{
		{"gm 10 best", []string{"It trains 1,000 steps", "the header shows its ETA once it does"}},
		{"tsp 20 best", []string{"It trains 2,000 steps", "trains at once, solving its validation set's exact references", "TSP-20: minutes"}},
		{"mwm 10", []string{"It trains 10,000 steps (100 epochs), about 1m21s at this run's 123.4 steps/s."}},
	} {
		m := fixture(t, envs.TaskMWM, 10, 120, 36)
		press(m, "t")
		for range 20 {
			press(m, "backspace")
		}
		press(m, strings.Split(c.typed, "")...)
		press(m, "enter")
		if m.dialog == nil || !m.dialog.confirming {
			t.Fatalf("%s: not confirming: %+v", c.typed, m.dialog)
		}
		sc := screen(m)
		for _, want := range c.want {
			if !strings.Contains(sc, want) {
				t.Errorf("%s: the confirmation lacks %q:\n%s", c.typed, want, sc)
			}
		}
		if c.typed == "tsp 20 best" {
			// The new run's directory is named by the clock.
			golden(t, "screen_task_confirm_tsp20", regexp.MustCompile(`tsp20-\d{8}-\d{6}`).ReplaceAllString(sc, "tsp20-YYYYMMDD-hhmmss"))
		}
	}
}

// TestTaskSwitchTypedReplaces: what a user types after t is the task, not an addition to the
// current one (the dialog was prefilled, so "tsp 20 best" read "mwm 10 papertsp 20 best");
// an empty Enter takes the current task, shown as the placeholder.
func TestTaskSwitchTypedReplaces(t *testing.T) {
	m := fixture(t, envs.TaskMWM, 10, 120, 36)
	press(m, "t")
	press(m, strings.Split("tsp 20 best", "")...)
	press(m, "enter")
	if m.dialog == nil || !m.dialog.confirming || m.dialog.cfg.Task != envs.TaskTSP || m.dialog.cfg.N != 20 {
		t.Fatalf("typing tsp 20 best after t: %+v\n%s", m.dialog, screen(m))
	}
	m = fixture(t, envs.TaskMWM, 10, 120, 36)
	press(m, "t", "enter")
	if m.dialog == nil || !m.dialog.confirming || m.dialog.cfg.Task != envs.TaskMWM || m.dialog.cfg.N != 10 {
		t.Fatalf("an empty enter: %+v\n%s", m.dialog, screen(m))
	}
}
