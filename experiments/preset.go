package experiments

import (
	"fmt"
	"slices"
	"strings"

	"spg-tui/envs"
	"spg-tui/run"
)

// PresetVersion changes whenever a preset's runs or its report change meaning; shards of
// different versions are not merged.
const PresetVersion = 1

// Arm is one line of a preset: a model on a task and size, on the paper's settings changed by
// Apply, trained once per seed for Epochs epochs.
type Arm struct {
	// Label names the arm in tables and legends: "SPG+Matching · MWM-15", "tau=0.1".
	Label string
	Model string
	Task  envs.Task
	N     int
	// Epochs is the paper's budget; arms of an untrained model (SPG+Random) train a single
	// step, so that their selected checkpoint is the untrained policy.
	Epochs float64
	// Steps, when set, is the arm's budget in steps instead of Epochs, at every scale; the arm
	// then keeps its configuration's validation interval.
	Steps int
	// Apply changes the paper's configuration (an ablation's variable); nil keeps it.
	Apply func(c *run.Config)
	// TestSizes are the sizes the run's selected policy is also tested at (a model that runs at
	// any N), TransferTestSize instances each; none for a table at the trained size only.
	TestSizes []int
}

// Preset is a reproduction of some of the paper's tables and figures: its arms, and the report
// built from their runs.
type Preset struct {
	Name string
	// Reproduces says which of the paper's tables and figures it lays out.
	Reproduces string
	Arms       []Arm
	// Varies are the training flags the preset sets itself (its ablation's variable); they
	// cannot be given on the command line.
	Varies []string
	// report lays out the tables and figures from the runs' results.
	report func(r *Results, w *reportWriter) error
}

// Models are the distinct models of the preset's arms, in order.
func (p Preset) Models() []string {
	var out []string
	for _, a := range p.Arms {
		if !slices.Contains(out, a.Model) {
			out = append(out, a.Model)
		}
	}
	return out
}

// CostSteps is the preset's total training steps at the paper's budget (scale 1) for seeds
// seeds.
func (p Preset) CostSteps(seeds int) int {
	total := 0
	for _, a := range p.Arms {
		total += seeds * armSteps(a, run.DefaultConfig(a.Task, a.N).StepsPerEpoch())
	}
	return total
}

// armSteps is the arm's budget at spe steps per epoch.
func armSteps(a Arm, spe int) int {
	if m, err := run.ModelNamed(a.Model); err == nil && m.Kind == run.KindUntrained {
		return 1
	}
	if a.Steps > 0 {
		return a.Steps
	}
	return max(1, int(a.Epochs*float64(spe)+0.5))
}

// PresetNamed returns the preset called name.
func PresetNamed(name string) (Preset, error) {
	for _, p := range Presets() {
		if p.Name == name {
			return p, nil
		}
	}
	return Preset{}, fmt.Errorf("unknown preset %q (want %s)", name, strings.Join(PresetNames(), ", "))
}

// PresetNames lists the presets' names.
func PresetNames() []string {
	var out []string
	for _, p := range Presets() {
		out = append(out, p.Name)
	}
	return out
}
