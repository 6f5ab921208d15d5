package agent

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"spg-tui/agent/learn"
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
		{run.FlagExploration, 0.5}, {run.FlagCriticPenalty, 0},
	}
	for _, c := range cases {
		a, b := tr.Set(c.param, c.v), sc.Set(c.param, c.v)
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("%s %g: trainer says %v, scripted engine %v", c.param, c.v, a, b)
		}
	}
	if got, want := tr.Config().SinkhornIters, sc.Config().SinkhornIters; got != 7 || want != 7 {
		t.Errorf("L = %d (trainer), %d (scripted), want 7", got, want)
	}
}

// The live-parameter contract, for every model and parameter: a change the engine accepts
// alters the hyperparameters of the next step (the only way a learner sees a live value), and a
// parameter the model does not read is refused.
func TestLiveParamsReachTheNextStep(t *testing.T) {
	// flip is a switch's other position.
	flip := func(name string) func(c *run.Config, t int) float64 {
		p, _ := run.ParamNamed(name)
		return func(c *run.Config, t int) float64 { return 1 - p.Get(c, t) }
	}
	// changed is a valid new value of each parameter that the step of cfg at t must see.
	changed := map[string]func(c *run.Config, t int) float64{
		run.ParamTau:           func(c *run.Config, _ int) float64 { return 2 * c.Tau },
		run.ParamSinkhornIters: func(c *run.Config, _ int) float64 { return float64(c.SinkhornIters + 1) },
		run.ParamEpsilon:       func(c *run.Config, t int) float64 { return c.Epsilon(t) / 2 },
		// Above the schedule's value at t, so that the floor takes over.
		run.ParamEpsEnd:       func(c *run.Config, t int) float64 { return (c.Epsilon(t) + c.EpsStart) / 2 },
		run.ParamEpsDecay:     func(c *run.Config, _ int) float64 { return 2 * c.EpsDecay },
		run.ParamActorLR:      func(c *run.Config, _ int) float64 { return 2 * c.ActorLR },
		run.ParamCriticLR:     func(c *run.Config, _ int) float64 { return 2 * c.CriticLR },
		run.FlagCriticPenalty: flip(run.FlagCriticPenalty),
		run.FlagExploration:   flip(run.FlagExploration),
		// Read by the validations, not by the steps.
		run.ParamValSamples: func(c *run.Config, _ int) float64 { return float64(c.ValDecodes() + 3) },
	}
	for _, p := range run.Params {
		if changed[p.Name] == nil {
			t.Fatalf("%s: no new value in the table", p.Name)
		}
	}
	for _, m := range run.Models {
		cfg := run.DefaultConfig(m.Tasks()[0], 10)
		cfg.Model = m.Name
		if m.Defaults != nil {
			m.Defaults(&cfg)
		}
		// Past the critic's warm-up, amid epsilon's decay.
		step := cfg.CriticWarmup + cfg.StepsPerEpoch()
		for _, p := range run.Params {
			next, _, err := run.Change(cfg, p.Name, changed[p.Name](&cfg, step), step)
			switch {
			case !p.AppliesTo(m.Kind):
				if err == nil || !strings.Contains(err.Error(), "does not apply to "+m.Title) {
					t.Errorf("%s on %s: %v, want a refusal", p.Name, m.Name, err)
				}
			case err != nil:
				t.Errorf("%s on %s refused: %v", p.Name, m.Name, err)
			case p.Name == run.ParamValSamples:
				if next.ValDecodes() != cfg.ValDecodes()+3 {
					t.Errorf("%s on %s: the validations' K is %d", p.Name, m.Name, next.ValDecodes())
				}
			case learn.HyperAt(&run.Spec{Config: next, Entry: m}, step) == learn.HyperAt(&run.Spec{Config: cfg, Entry: m}, step):
				t.Errorf("%s on %s: the next step's hyperparameters did not change: %+v", p.Name, m.Name, learn.HyperAt(&run.Spec{Config: next, Entry: m}, step))
			}
		}
	}
}

// The engines themselves, the trainer and the scripted one, refuse a parameter the run's model
// does not read, in one line, and keep the old value; the ones it reads are accepted.
func TestEngineRefusesParamsOfOtherModels(t *testing.T) {
	cfg := tinyConfig(envs.TaskSort, 5)
	cfg.Model, cfg.Hidden, cfg.Steps = "pn-ac", 4, 1_000_000
	tr, err := startRun(cfg, t.TempDir(), nil, learn.NewLearner)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := enginetest.New(cfg, "", enginetest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []run.Engine{tr, sc} {
		e.Pause()
		t.Cleanup(func() { e.Stop(); <-e.Done() })
		for _, name := range []string{run.ParamTau, run.ParamCriticLR, run.FlagExploration} {
			err := e.Set(name, 1)
			if want := name + " does not apply to PN-AC (critic-free)"; err == nil || err.Error() != want {
				t.Errorf("%s: Set(%s) = %v, want %q", e.Info().Backend, name, err, want)
			}
		}
		if c := e.Config(); c.Tau != cfg.Tau || c.CriticLR != cfg.CriticLR || !c.Exploration {
			t.Errorf("%s: refused changes altered the config: %+v", e.Info().Backend, c)
		}
		if err := e.Set(run.ParamActorLR, 0.01); err != nil {
			t.Errorf("%s: actor-lr refused: %v", e.Info().Backend, err)
		}
	}
}
