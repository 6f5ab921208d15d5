package ui

import (
	"fmt"
	"testing"

	"spg-tui/envs"
	"spg-tui/run"
)

// TestGoldenMPane draws the soft permutation M of the shown sample, switched to with m, on the
// full screen at the two sizes the console is tried at, and the pane of a tsp run.
func TestGoldenMPane(t *testing.T) {
	for _, c := range []struct {
		name string
		w, h int
	}{{"screen_mpane_120x36", 120, 36}, {"screen_mpane_80x24", 80, 24}} {
		m := fixture(t, envs.TaskMWM, 10, c.w, c.h)
		press(m, "m")
		golden(t, c.name, screen(m))
	}
	m := fixture(t, envs.TaskTSP, 10, 120, 36)
	press(m, "m", "right")
	golden(t, "pane_mpane_tsp", strip(m.sample.View()))
}

// TestMShade checks the heatmap's bands at their edges.
func TestMShade(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want rune
	}{{0, '·'}, {0.049, '·'}, {0.05, '░'}, {0.249, '░'}, {0.25, '▒'}, {0.5, '▓'}, {0.75, '█'}, {1, '█'}} {
		if got := mShade(c.v); got != c.want {
			t.Errorf("mShade(%g) = %c, want %c", c.v, got, c.want)
		}
	}
}

// TestGoldenWaitHeader draws the header of a run solving its references: a progress bar
// with the count in place of the training numbers.
func TestGoldenWaitHeader(t *testing.T) {
	for _, w := range []int{120, 80} {
		m := fixture(t, envs.TaskTSP, 10, w, 36)
		m.ctx.status.Wait = run.Wait{What: "solving the references of the validation set", Done: 250, Total: 1000}
		golden(t, fmt.Sprintf("pane_header_wait_%d", w), strip(m.header.View()))
	}
}
