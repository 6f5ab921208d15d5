package run

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Names of the live parameters and switches (Engine.Set).
const (
	ParamTau           = "tau"
	ParamSinkhornIters = "sinkhorn-iters"
	ParamEpsilon       = "epsilon"
	ParamEpsEnd        = "eps-end"
	ParamEpsDecay      = "eps-decay"
	ParamActorLR       = "actor-lr"
	ParamCriticLR      = "critic-lr"
	FlagCriticPenalty  = "critic-penalty"
	FlagExploration    = "exploration"
	ParamValSamples    = "val-samples"
)

// ParamKind is what values a live parameter takes and how the console steps it.
type ParamKind int

// The kinds of live parameters.
const (
	Ladder ParamKind = iota // a positive number, stepped along the 1-2-5 ladder
	Whole                   // a whole number, stepped by 1
	Linear                  // a number, stepped by Param.Step
	Switch                  // on (1) or off (0)
	Unit                    // a fraction in [0, 1], stepped along the 1-2-5 ladder and down to 0
)

// Param is a parameter that can change while a run trains. Its valid range is that of its
// Config field, which Config.Validate checks: Change validates the whole configuration with
// the new value in it, the one validation every engine uses. A learner sees the value in force
// only through the hyperparameters of each step, never through a copy of the configuration.
type Param struct {
	// Name is how Engine.Set, set events and metrics.jsonl name it.
	Name string
	// Label is its row in the console's parameter panel; "" keeps it out of the panel.
	Label string
	// Short names it in event lines (Name when empty).
	Short string
	Kind  ParamKind
	// Step is a Linear parameter's step.
	Step float64
	// Get reads the value in force at step from c.
	Get func(c *Config, step int) float64
	// Set writes v into c as a change made at step.
	Set func(c *Config, v float64, step int)
	// Kinds are the kinds of models that read it; Change refuses it for the others.
	Kinds []ModelKind
}

// spgOnly is the kinds that read a parameter of the critic, the Sinkhorn layer or exploration.
var spgOnly = []ModelKind{KindSPG}

// Params lists the live parameters, in the order of the console's panel.
var Params = []Param{
	{Name: ParamTau, Label: "tau", Kind: Ladder,
		Get:   func(c *Config, _ int) float64 { return c.Tau },
		Set:   func(c *Config, v float64, _ int) { c.Tau = v },
		Kinds: spgOnly},
	{Name: ParamSinkhornIters, Label: "L (Sinkhorn)", Kind: Whole,
		Get:   func(c *Config, _ int) float64 { return float64(c.SinkhornIters) },
		Set:   func(c *Config, v float64, _ int) { c.SinkhornIters = int(v) },
		Kinds: spgOnly},
	// Epsilon is the schedule's value at the step; a change re-anchors the schedule there, so
	// that it decays linearly from the new value. A value below the schedule's floor lowers the
	// floor to it (epsilon then stays there): the panel shows epsilon, not its floor, so a
	// value it shows as valid is never refused for eps-end. Whether it is used is the
	// exploration switch's business.
	{Name: ParamEpsilon, Label: "epsilon", Kind: Unit,
		Get: func(c *Config, step int) float64 { return c.Epsilon(step) },
		Set: func(c *Config, v float64, step int) {
			c.EpsStart, c.EpsAnchor = v, step
			if v < c.EpsEnd {
				c.EpsEnd = v
			}
		},
		Kinds: spgOnly},
	{Name: ParamActorLR, Label: "actor LR", Kind: Ladder,
		Get:   func(c *Config, _ int) float64 { return c.ActorLR },
		Set:   func(c *Config, v float64, _ int) { c.ActorLR = v },
		Kinds: []ModelKind{KindSPG, KindCriticFree}},
	{Name: ParamCriticLR, Label: "critic LR", Kind: Ladder,
		Get:   func(c *Config, _ int) float64 { return c.CriticLR },
		Set:   func(c *Config, v float64, _ int) { c.CriticLR = v },
		Kinds: spgOnly},
	{Name: FlagCriticPenalty, Label: "critic penalty", Short: "penalty", Kind: Switch,
		Get:   func(c *Config, _ int) float64 { return b2f(c.CriticPenalty) },
		Set:   func(c *Config, v float64, _ int) { c.CriticPenalty = v != 0 },
		Kinds: spgOnly},
	{Name: FlagExploration, Label: "exploration", Kind: Switch,
		Get:   func(c *Config, _ int) float64 { return b2f(c.Exploration) },
		Set:   func(c *Config, v float64, _ int) { c.Exploration = v != 0 },
		Kinds: spgOnly},
	// The validations' sampled decode (1: the single decode only), read by the trainer's
	// validations rather than by the steps.
	{Name: ParamValSamples, Label: "val samples K", Short: "val K", Kind: Whole,
		Get:   func(c *Config, _ int) float64 { return float64(c.ValDecodes()) },
		Set:   func(c *Config, v float64, _ int) { c.setValSamples(int(v)) },
		Kinds: spgOnly},
	{Name: ParamEpsEnd, Kind: Linear, Step: 0.01,
		Get:   func(c *Config, _ int) float64 { return c.EpsEnd },
		Set:   func(c *Config, v float64, _ int) { c.EpsEnd = v },
		Kinds: spgOnly},
	{Name: ParamEpsDecay, Kind: Linear, Step: 0.01,
		Get:   func(c *Config, _ int) float64 { return c.EpsDecay },
		Set:   func(c *Config, v float64, _ int) { c.EpsDecay = v },
		Kinds: spgOnly},
}

// ParamNamed returns the live parameter called name.
func ParamNamed(name string) (Param, bool) {
	for _, p := range Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// AppliesTo reports whether models of kind k read the parameter.
func (p Param) AppliesTo(k ModelKind) bool { return slices.Contains(p.Kinds, k) }

// ShortName is how event lines name the parameter.
func (p Param) ShortName() string {
	if p.Short != "" {
		return p.Short
	}
	return p.Name
}

// Change returns c with the live parameter name set to v by a change at step, and the value it
// replaces; a switch takes 1 for on and 0 for off. An unknown name, a parameter c's model does
// not read, a value the field cannot hold (a fraction for a whole number, anything but 0 or 1
// for a switch) or a configuration that no longer validates is refused with an error naming
// the parameter.
func Change(c Config, name string, v float64, step int) (Config, float64, error) {
	p, ok := ParamNamed(name)
	if !ok {
		return c, 0, fmt.Errorf("unknown parameter %q", name)
	}
	if m := ModelOf(c); !p.AppliesTo(m.Kind) {
		return c, 0, fmt.Errorf("%s does not apply to %s (%s)", name, m.Title, m.Kind)
	}
	switch {
	case p.Kind == Whole && (v != math.Trunc(v) || v < 1 || v > math.MaxInt32):
		return c, 0, fmt.Errorf("%s %g: must be a whole number >= 1", name, v)
	case p.Kind == Switch && v != 0 && v != 1:
		return c, 0, fmt.Errorf("%s %g: must be 0 (off) or 1 (on)", name, v)
	}
	next := c
	old := p.Get(&next, step)
	p.Set(&next, v, step)
	if err := next.Validate(); err != nil {
		return c, 0, invalidChange(name, v, err)
	}
	return next, old, nil
}

// invalidChange names the parameter and value of a change the configuration refuses by err, once:
// a check that names the same value ("eps-start 2: must be in [0, 1]" for epsilon 2) gives only
// its reason, and the caller says that the change was refused.
func invalidChange(name string, v float64, err error) error {
	msg := err.Error()
	if field, reason, ok := strings.Cut(msg, ": "); ok {
		if f := strings.Fields(field); len(f) == 2 && (f[1] == fmt.Sprint(v) || f[1] == strconv.FormatFloat(v, 'f', -1, 64)) {
			msg = reason
		}
	}
	return fmt.Errorf("%s %g: %s", name, v, msg)
}

func b2f(on bool) float64 {
	if on {
		return 1
	}
	return 0
}
