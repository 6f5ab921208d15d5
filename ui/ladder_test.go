package ui

import (
	"math"
	"testing"
)

func TestLadderStep(t *testing.T) {
	cases := []struct {
		v        float64
		up, down float64
	}{
		{0.05, 0.1, 0.02}, {1e-5, 2e-5, 5e-6}, {0.07, 0.1, 0.05}, {1, 2, 0.5}, {2000, 5000, 1000}, {2e-4, 5e-4, 1e-4},
	}
	for _, c := range cases {
		if got := ladderStep(c.v, true); got != c.up {
			t.Errorf("ladderStep(%g, up) = %g, want %g", c.v, got, c.up)
		}
		if got := ladderStep(c.v, false); got != c.down {
			t.Errorf("ladderStep(%g, down) = %g, want %g", c.v, got, c.down)
		}
	}
}

func TestLadderStepDegenerate(t *testing.T) {
	for _, v := range []float64{0, -1, math.Inf(1), math.NaN()} {
		if got := ladderStep(v, true); !math.IsNaN(got) {
			t.Errorf("ladderStep(%g) = %g, want NaN", v, got)
		}
	}
}
