// Package experiments runs sets of training configurations side by side, by one mechanism: a
// Batch of runs grouped into variants, trained a few at a time by a Runner. The console's
// ablations are Plans expanded into a batch; the paper's reproductions are Presets (sort, mwm,
// tsp, penalty, tau, exploration), expanded into runs named by their configuration, optionally
// sharded, each scored once on its table's fixed test set, and reported as markdown, CSV and
// figures, from one directory or from merged shards.
package experiments

import (
	"fmt"

	"spg-tui/run"
)

// Variant is one configuration of an ablation: the base configuration changed by Apply.
type Variant struct {
	Name  string
	Apply func(c *run.Config)
}

// Ablation is a named set of variants compared on the same base configuration.
type Ablation struct {
	Name     string // short identifier, used in directory names
	Title    string // what the comparison shows
	Variants []Variant
}

// Builtin returns the paper's ablations (its Section 4.1), in the order the console lists them:
//   - critic-penalty: the critic loss with and without the penalty MSE(Q(s,P), Q(s,M));
//   - tau: the Sinkhorn temperature in {1, 0.5, 0.1, 0.05, 0.01};
//   - exploration: epsilon-greedy with 2-exchange from epsilon = 1, decaying "by 95%" or "by 90%"
//     per epoch, against no exploration.
//
// The paper's decay "by 95% and 90% after every epoch" is read as the schedule of its Table 3
// ("epsilon-decay 5%/epoch") in run.Config's linear-per-epoch form: epsilon falls by
// EpsDecay = 1 - 0.95 = 0.05, or 1 - 0.90 = 0.10, per epoch, down to EpsEnd (0.01).
func Builtin() []Ablation {
	taus := []float64{1, 0.5, 0.1, 0.05, 0.01}
	tau := Ablation{Name: "tau", Title: "Sinkhorn temperature tau"}
	for _, t := range taus {
		tau.Variants = append(tau.Variants, Variant{
			Name:  fmt.Sprintf("tau=%g", t),
			Apply: func(c *run.Config) { c.Tau = t },
		})
	}
	decay := func(d float64) func(c *run.Config) {
		return func(c *run.Config) { c.Exploration, c.EpsStart, c.EpsDecay = true, 1, d }
	}
	return []Ablation{
		{Name: "critic-penalty", Title: "critic penalty on vs off", Variants: []Variant{
			{Name: "penalty on", Apply: func(c *run.Config) { c.CriticPenalty = true }},
			{Name: "penalty off", Apply: func(c *run.Config) { c.CriticPenalty = false }},
		}},
		tau,
		{Name: "exploration", Title: "epsilon-greedy exploration", Variants: []Variant{
			{Name: "eps 1, decay 0.95", Apply: decay(0.05)},
			{Name: "eps 1, decay 0.90", Apply: decay(0.10)},
			{Name: "no exploration", Apply: func(c *run.Config) { c.Exploration = false }},
		}},
	}
}

// Lookup returns the built-in ablation with the given name.
func Lookup(name string) (Ablation, bool) {
	for _, a := range Builtin() {
		if a.Name == name {
			return a, true
		}
	}
	return Ablation{}, false
}
