package run

import (
	"strings"
	"testing"

	"spg-tui/envs"
)

func TestChange(t *testing.T) {
	c := DefaultConfig(envs.TaskMWM, 10)
	for _, tc := range []struct {
		name string
		v    float64
		bad  string // "" when accepted
	}{
		{ParamTau, 0.1, ""}, {ParamTau, 0, "tau 0: must be in [0.0001, 10000]"},
		{ParamSinkhornIters, 20, ""}, {ParamSinkhornIters, 2.5, "must be a whole number >= 1"},
		{ParamSinkhornIters, 0, "must be a whole number >= 1"}, {ParamSinkhornIters, 1e12, "must be a whole number >= 1"},
		{ParamEpsilon, 0.5, ""}, {ParamEpsilon, -0.1, "epsilon -0.1: must be in [0, 1]"},
		{ParamEpsilon, 0, ""}, {ParamEpsilon, 0.001, ""}, // below eps-end 0.01: the floor follows
		{ParamEpsEnd, 0.9, ""}, {ParamEpsEnd, 2, "eps-end"},
		{ParamEpsDecay, 0.1, ""}, {ParamActorLR, 1e-3, ""}, {ParamCriticLR, -1, "critic-lr"},
		{FlagCriticPenalty, 0, ""}, {FlagExploration, 0.5, "must be 0 (off) or 1 (on)"},
		{"nope", 1, `unknown parameter "nope"`},
	} {
		next, _, err := Change(c, tc.name, tc.v, 7)
		switch {
		case tc.bad == "" && err != nil:
			t.Errorf("%s %g refused: %v", tc.name, tc.v, err)
		case tc.bad != "" && (err == nil || !strings.Contains(err.Error(), tc.bad)):
			t.Errorf("%s %g: error %v, want one with %q", tc.name, tc.v, err, tc.bad)
		case tc.bad != "" && strings.Contains(err.Error(), "refused"):
			t.Errorf("%s %g: error %q says refused (its caller does)", tc.name, tc.v, err)
		case tc.bad != "" && next != c:
			t.Errorf("%s %g: a refused change altered the config", tc.name, tc.v)
		case tc.bad == "":
			p, _ := ParamNamed(tc.name)
			if got := p.Get(&next, 7); got != tc.v {
				t.Errorf("%s: reads %g after a change to %g", tc.name, got, tc.v)
			}
		}
	}
	// Epsilon re-anchors the schedule at the step of the change; the old value is the
	// schedule's there.
	next, old, err := Change(c, ParamEpsilon, 0.5, 7)
	if err != nil || next.EpsStart != 0.5 || next.EpsAnchor != 7 || old != c.Epsilon(7) {
		t.Errorf("epsilon change: %+v, old %g, %v", next, old, err)
	}
	// A value below the floor lowers the floor: epsilon then holds at it.
	if next, _, err := Change(c, ParamEpsilon, 0, 7); err != nil || next.EpsEnd != 0 || next.Epsilon(7+10*c.StepsPerEpoch()) != 0 {
		t.Errorf("epsilon 0 below eps-end %g: eps-end %g, %v", c.EpsEnd, next.EpsEnd, err)
	}
	if next, old, err := Change(c, FlagExploration, 0, 0); err != nil || next.Exploration || old != 1 {
		t.Errorf("exploration off: %v, old %g, %v", next.Exploration, old, err)
	}
}

// A parameter is changed only for the kinds of models it lists, and refused for the others in
// one line naming it and the model.
func TestChangeRefusesOtherModels(t *testing.T) {
	for _, m := range Models {
		c := DefaultConfig(m.Tasks()[0], 10)
		c.Model = m.Name
		if m.Defaults != nil {
			m.Defaults(&c)
		}
		for _, p := range Params {
			v := p.Get(&c, 0)
			_, _, err := Change(c, p.Name, v, 0)
			switch {
			case p.AppliesTo(m.Kind) && err != nil:
				t.Errorf("%s on %s refused: %v", p.Name, m.Name, err)
			case !p.AppliesTo(m.Kind) && (err == nil || err.Error() != p.Name+" does not apply to "+m.Title+" ("+m.Kind.String()+")"):
				t.Errorf("%s on %s: %v, want a refusal", p.Name, m.Name, err)
			}
		}
	}
}

// The panel shows the parameters with a label, every name is distinct, and each reads back
// what it writes.
func TestParamsTable(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range Params {
		if seen[p.Name] {
			t.Errorf("%s listed twice", p.Name)
		}
		seen[p.Name] = true
		c := DefaultConfig(envs.TaskSort, 10)
		v := 1.0
		if p.Kind == Switch {
			v = 0
		}
		p.Set(&c, v, 3)
		if got := p.Get(&c, 3); got != v {
			t.Errorf("%s: wrote %g, read %g", p.Name, v, got)
		}
	}
}

func TestModels(t *testing.T) {
	for _, tc := range []struct {
		task  envs.Task
		model string
		title string
	}{{envs.TaskMWM, "spg-matching", "SPG+Matching · MWM-20"}, {envs.TaskTSP, "spg-sequential", "SPG+Sequential · TSP-20"}, {envs.TaskSort, "spg-sequential", "SPG+Sequential · Sort-20"}} {
		c := DefaultConfig(tc.task, 20)
		if c.Model != tc.model || DefaultModel(tc.task) != tc.model {
			t.Errorf("%s: default model %q", tc.task, c.Model)
		}
		if got := Title(c); got != tc.title {
			t.Errorf("Title = %q, want %q", got, tc.title)
		}
	}
	c := DefaultConfig(envs.TaskSort, 20)
	c.Model = "spg-matching"
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "does not learn sort") {
		t.Errorf("SPG+Matching on sort: %v", err)
	}
	c.Model = "nope"
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), `unknown model "nope"`) {
		t.Errorf("unknown model: %v", err)
	}
}

// A config.json written before models were named gets its task's default model.
func TestConfigWithoutModel(t *testing.T) {
	dir := t.TempDir()
	if err := WriteJSONAtomic(dir+"/"+ConfigFile, map[string]any{"task": "tsp", "n": 5}); err != nil {
		t.Fatal(err)
	}
	c, err := ReadRunConfig(dir)
	if err != nil || c.Model != "spg-sequential" {
		t.Errorf("model %q, %v", c.Model, err)
	}
}
