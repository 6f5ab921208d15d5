package learn

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gorgonia.org/tensor"

	"spg-tui/agent/nets"
	"spg-tui/envs"
	"spg-tui/run"
)

// spg-gm-logstep is spg-gm with its consensus steps read as exp(50 theta): from the same seed its
// untrained actor gives spg-gm's M exactly (theta 0, step 1), and with theta = ln(4)/50 it
// gives spg-gm's M at step 4, the same parameters otherwise.
func TestGraphMatchingLogStepReadsStepsOnALogScale(t *testing.T) {
	const b, n, h = 3, 7, 6
	gm, logStep := testArch(t, run.ModelGM, envs.TaskGM, n, h), testArch(t, run.ModelGMLogStep, envs.TaskGM, n, h)
	init := func(a nets.Arch) (*nets.Params, *nets.Params) {
		rng := rand.New(rand.NewPCG(87, 88))
		return nets.NewParams(a.ActorSpecs(), tensor.Float64, rng), nets.NewParams(a.CriticSpecs(), tensor.Float64, rng)
	}
	ap, cp := init(gm)
	apLog, cpLog := init(logStep)
	x := gmStates(rand.New(rand.NewPCG(89, 90)), b, n)
	act := tensor.New(tensor.WithShape(b, n, n), tensor.Of(tensor.Float64))
	same := func(what string) {
		t.Helper()
		m, _ := runGM(t, gm, ap, cp, x, act)
		mLog, _ := runGM(t, logStep, apLog, cpLog, x, act)
		for i := range m {
			if math.Abs(m[i]-mLog[i]) > 1e-9 {
				t.Fatalf("%s: M[%d] %g (spg-gm) and %g (spg-gm-logstep)", what, i, m[i], mLog[i])
			}
		}
	}
	same("untrained")
	steps := 0
	for i, s := range ap.Specs {
		if strings.HasPrefix(s.Name, "cons") {
			ap.Vals[i].Float64s()[0] = 4
			apLog.Vals[i].Float64s()[0] = math.Log(4) / 50
			steps++
		}
	}
	if steps != 8 {
		t.Fatalf("%d consensus steps, want 8", steps)
	}
	same("step 4")
}

// spg-gm-logstep's critic loss and actor loss, its log-scale steps included, against central
// differences in float64; the steps are kept near 1 (theta within 0.004 of 0), where the
// consensus is as cold as the model's own. The seed is spg-gm's check's: from (91, 92) both
// models' mp3 gradients, of size 5e-8, missed the central differences by 2-5e-5 relative,
// spg-gm's as much as spg-gm-logstep's.
func TestGraphMatchingLogStepGradients(t *testing.T) {
	a := testArch(t, run.ModelGMLogStep, envs.TaskGM, checkN, checkH)
	rng := rand.New(rand.NewPCG(81, 82))
	ap, cp := randParams(a.ActorSpecs(), rng), randParams(a.CriticSpecs(), rng)
	for i, s := range ap.Specs {
		if strings.HasPrefix(s.Name, "cons") {
			ap.Vals[i].Float64s()[0] *= 0.02
		}
	}
	tb := newToyBatch(a, envs.TaskMWM, checkB, checkN, rng)
	tb.x = gmStates(rng, checkB, checkN)
	checkCriticLoss(t, a, cp, tb, 1)
	t.Logf("%d actor tensors checked", checkActorLoss(t, a, ap, cp, tb, 1e-5))
}
