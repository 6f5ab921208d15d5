package agent

import (
	"fmt"
	"math"
	"testing"

	"spg-tui/envs"
	"spg-tui/experiments/enginetest"
	"spg-tui/run"
)

// The trainer and the scripted engine accept and refuse the same live changes with the same
// words: both validate through run.Change.
func TestEnginesValidateAlike(t *testing.T) {
	cfg := tinyConfig(envs.TaskSort, 5)
	cfg.Steps = 1_000_000
	tr := mustStart(t, cfg, t.TempDir(), fakeOpts{})
	sc, err := enginetest.New(cfg, "", enginetest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []run.Engine{tr, sc} {
		e.Pause()
		t.Cleanup(func() { e.Stop(); <-e.Done() })
	}
	cases := []struct {
		param string
		v     float64
	}{
		{run.ParamSinkhornIters, 2.5}, {run.ParamSinkhornIters, 0}, {run.ParamSinkhornIters, 7},
		{run.ParamSinkhornIters, math.MaxInt32 + 1}, {run.ParamTau, -1}, {run.ParamTau, math.Inf(1)},
		{run.ParamEpsilon, 1.5}, {run.ParamEpsEnd, 0.5}, {run.ParamActorLR, 0}, {"nope", 1},
	}
	for _, c := range cases {
		a, b := tr.Set(c.param, c.v), sc.Set(c.param, c.v)
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("%s %g: trainer says %v, scripted engine %v", c.param, c.v, a, b)
		}
	}
	if a, b := tr.SetFlag("nope", true), sc.SetFlag("nope", true); a == nil || fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("unknown switch: trainer %v, scripted %v", a, b)
	}
	if got, want := tr.Config().SinkhornIters, sc.Config().SinkhornIters; got != 7 || want != 7 {
		t.Errorf("L = %d (trainer), %d (scripted), want 7", got, want)
	}
}
