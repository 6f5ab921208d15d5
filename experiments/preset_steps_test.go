package experiments

import (
	"math"
	"testing"
)

// TestStepArmsKeepTheirSchedule: an arm budgeted in steps (the sizes preset's) trains its steps
// at every scale, so it keeps its learning-rate decay interval too, as it keeps its validation
// interval. The interval used to shrink with --scale while the steps did not: at scale 0.002 the
// MWM arm halved its rates every step and ended at an actor rate of 1.9e-305.
func TestStepArmsKeepTheirSchedule(t *testing.T) {
	p, full, err := Expand(Options{Preset: "sizes", Seeds: 1, Scale: 1})
	if err != nil {
		t.Fatal(err)
	}
	_, small, err := Expand(Options{Preset: "sizes", Seeds: 1, Scale: 0.002})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range small {
		c, want := r.Config, full[i].Config
		a := p.Arms[r.Arm]
		if c.Steps != a.Steps || c.LRDecayEvery != want.LRDecayEvery || c.EvalEvery != want.EvalEvery {
			t.Errorf("%s at scale 0.002: %d steps, lr decay every %d, eval every %d; want %d, %d, %d as at scale 1",
				a.Label, c.Steps, c.LRDecayEvery, c.EvalEvery, a.Steps, want.LRDecayEvery, want.EvalEvery)
		}
		if c.TrainSize >= want.TrainSize {
			t.Errorf("%s: training set %d at scale 0.002, %d at 1: the scale should shrink it", a.Label, c.TrainSize, want.TrainSize)
		}
		if lr := c.ActorLR * math.Pow(c.LRDecay, float64(c.Steps/c.LRDecayEvery)); lr < 1e-8 {
			t.Errorf("%s: actor rate %g at its last step", a.Label, lr)
		}
	}
}
