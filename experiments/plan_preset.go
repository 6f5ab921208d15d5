package experiments

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"fmt"
	"math"
	"slices"
	"strings"

	"spg-tui/run"
)

// Options are the choices a preset is run with.
type Options struct {
	Preset string
	// Seeds is the number of runs per arm, seeds 1..Seeds (the paper's 10 by default).
	Seeds int
	// Scale is the fraction of the paper's budget, in (0, 1]: it shrinks the training set (so an
	// epoch, the paper's unit of budget and of evaluation, is Scale times as many steps) and the
	// learning-rate decay interval with it, so every schedule keeps its shape.
	Scale float64
	// Models restricts the preset to some of its models; empty runs them all.
	Models []string
	// Overrides are the training settings given every run.
	Overrides Overrides
	// Shard selects a slice of the runs; the zero Shard is all of them.
	Shard Shard
	// RunsDir is where the runs go, one directory per run ID ("" for the experiment
	// directory's runs/): experiments given the same one share their common runs.
	RunsDir string
	// Sampling, when set, scores every run's test sets with this sampled decode too.
	Sampling *run.Decoding
}

// Planned is one run of a preset: an arm with a seed.
type Planned struct {
	// ID names the run by its full configuration: runs of the same configuration, in this
	// preset or another, share it and its directory.
	ID     string
	Arm    int
	Seed   uint64
	Config run.Config
}

// experimentFlags are set by the experiment itself, never by a training flag.
var experimentFlags = []string{"task", "n", "seed", "steps", "epochs", "model"}

// Expand checks the options and returns the preset and all its runs (every shard's), arm by arm
// and seed by seed. Every error is one line naming the problem.
func Expand(o Options) (Preset, []Planned, error) {
	p, err := PresetNamed(o.Preset)
	if err != nil {
		return p, nil, err
	}
	switch {
	case o.Seeds < 1 || o.Seeds > run.MaxSeeds:
		return p, nil, fmt.Errorf("--seeds %d: must be in [1, %d]", o.Seeds, run.MaxSeeds)
	case !(o.Scale > 0 && o.Scale <= 1):
		return p, nil, fmt.Errorf("--scale %g: must be in (0, 1]", o.Scale)
	}
	for name := range o.Overrides.Choices.Given {
		if slices.Contains(experimentFlags, name) {
			return p, nil, fmt.Errorf("--%s: the preset sets it (use --scale for the budget, --seeds for the seeds, --model to choose models)", name)
		}
		if slices.Contains(p.Varies, name) {
			return p, nil, fmt.Errorf("--%s: preset %s varies it itself", name, p.Name)
		}
	}
	models := p.Models()
	for _, m := range o.Models {
		if slices.Contains(models, m) {
			continue
		}
		if reg, err := run.ModelNamed(m); err == nil {
			return p, nil, fmt.Errorf("--model %s: not in preset %s, whose models are %s (%s learns %s)", m, p.Name, strings.Join(models, ", "), m, taskNames(reg))
		}
		return p, nil, fmt.Errorf("--model %s: not in preset %s, whose models are %s", m, p.Name, strings.Join(models, ", "))
	}
	if err := checkScale(p, o); err != nil {
		return p, nil, err
	}
	var out []Planned
	for ai, a := range p.Arms {
		if !planned(a, o) {
			continue
		}
		for k := range o.Seeds {
			c, err := armConfig(p, a, uint64(k+1), o)
			if err != nil {
				return p, nil, err
			}
			out = append(out, Planned{ID: RunID(c), Arm: ai, Seed: c.Seed, Config: c})
		}
	}
	return p, out, nil
}

func taskNames(m run.Model) string {
	tasks := m.Tasks()
	s := make([]string, len(tasks))
	for i, t := range tasks {
		s[i] = string(t)
	}
	return strings.Join(s, ", ")
}

// planned reports whether arm a is among the runs of o (its model chosen, or all models).
func planned(a Arm, o Options) bool {
	return len(o.Models) == 0 || slices.Contains(o.Models, a.Model)
}

// armConfig is the configuration of arm a with seed seed: the paper's settings for its model,
// the arm's change, the training flags given, the scale, the budget and one validation per
// epoch (as the paper evaluates after every pass over the training set; an arm budgeted in
// Steps, which it trains at every scale, keeps its configuration's validation and
// learning-rate decay intervals).
func armConfig(p Preset, a Arm, seed uint64, o Options) (run.Config, error) {
	c, err := armBase(p, a, o)
	if err != nil {
		return run.Config{}, err
	}
	for _, q := range scaledOf(&c, a, o) {
		*q.v = int(math.Round(float64(*q.v) * o.Scale))
	}
	if !o.Overrides.given("eval-every") && a.Steps == 0 {
		c.EvalEvery = c.StepsPerEpoch()
	}
	c.Seed = seed
	c.Steps = armSteps(a, c.StepsPerEpoch())
	if err := c.Validate(); err != nil {
		return run.Config{}, fmt.Errorf("%s: %v", a.Label, err)
	}
	return c, nil
}

// armBase is arm a's configuration before the scale, the seed and the budget: the paper's
// settings for its model, the arm's change and the training flags given.
func armBase(p Preset, a Arm, o Options) (run.Config, error) {
	m, err := run.ModelNamed(a.Model)
	if err != nil {
		return run.Config{}, fmt.Errorf("preset %s needs model %s, which this build does not have (--model %s runs the others)",
			p.Name, a.Model, strings.Join(registeredOf(p), ","))
	}
	if !m.Supports(a.Task) {
		return run.Config{}, fmt.Errorf("model %s does not learn %s (it learns %s)", a.Model, a.Task, taskNames(m))
	}
	c := run.DefaultConfig(a.Task, a.N)
	c.Model = m.Name
	if m.Defaults != nil {
		m.Defaults(&c)
	}
	if a.Apply != nil {
		a.Apply(&c)
	}
	if err := o.Overrides.apply(&c); err != nil {
		return run.Config{}, err
	}
	return c, nil
}

// scaled is a field of a run's configuration that --scale shrinks, and the least it may become.
type scaled struct {
	v     *int
	least int
	// what, unit and leastText name the field, its unit and its least for the refusal of a
	// scale too small: "training set", "instances", "one batch (128)".
	what, unit, leastText string
}

// scaledOf lists the fields of c, arm a's base configuration, that the scale shrinks: the
// training set unless --train-size is given, and for an arm budgeted in epochs the
// learning-rate decay interval and anneal unless --lr-decay-every is given.
func scaledOf(c *run.Config, a Arm, o Options) []scaled {
	var out []scaled
	if !o.Overrides.given("train-size") {
		out = append(out, scaled{&c.TrainSize, c.Batch, "training set", "instances", fmt.Sprintf("one batch (%d)", c.Batch)})
	}
	if !o.Overrides.given("lr-decay-every") && a.Steps == 0 {
		out = append(out, scaled{&c.LRDecayEvery, 1, "learning-rate decay interval", "steps", "one step"})
		if c.LRAnnealFrom > 0 {
			out = append(out, scaled{&c.LRAnnealFrom, 1, "anneal start", "steps", "one step"},
				scaled{&c.LRAnnealEvery, 1, "anneal interval", "steps", "one step"})
		}
	}
	return out
}

// checkScale refuses, in one line, a scale below the least at which every planned arm keeps its
// shape: below it a scaled field would fall under its least (the training set under one batch,
// an interval under one step), and clamping it there would train another budget than the scale
// says while the report described the scaled one.
func checkScale(p Preset, o Options) error {
	least, why := 0.0, ""
	for _, a := range p.Arms {
		if !planned(a, o) {
			continue
		}
		c, err := armBase(p, a, o)
		if err != nil {
			return err
		}
		for _, q := range scaledOf(&c, a, o) {
			if s := float64(q.least) / float64(*q.v); s > least {
				least = s
				why = fmt.Sprintf("the %s of arm %q (%d %s at scale 1) would be under %s", q.what, a.Label, *q.v, q.unit, q.leastText)
			}
		}
	}
	if o.Scale < least {
		return fmt.Errorf("--scale %g: must be at least %g for preset %s: below it %s, and the runs would not keep their shape", o.Scale, least, p.Name, why)
	}
	return nil
}

// registeredOf lists the preset's models this build has.
func registeredOf(p Preset) []string {
	var out []string
	for _, m := range p.Models() {
		if _, err := run.ModelNamed(m); err == nil {
			out = append(out, m)
		}
	}
	return out
}

func mapKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// RunID names a configuration: model, task, size and seed for people, and a hash of the whole
// configuration so that two configurations never share a directory.
func RunID(c run.Config) string {
	data, err := json.Marshal(c)
	if err != nil {
		panic("experiments: " + err.Error()) // a Config always marshals
	}
	sum := sha256.Sum256(data)
	return fmt.Sprintf("%s-%s%d-seed%d-%s", c.Model, c.Task, c.N, c.Seed, hex.EncodeToString(sum[:6]))
}

// planHash identifies a whole plan (every shard's runs), so that only shards of one plan merge.
func planHash(preset string, runs []Planned) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s %d\n", preset, PresetVersion)
	for _, r := range runs {
		fmt.Fprintln(h, r.ID, r.Arm)
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// Shard is the i-th of n disjoint slices of a plan's runs (0 <= I < N); the zero Shard, like
// 0/1, is the whole plan.
type Shard struct{ I, N int }

// ParseShard reads "i/n".
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	var sh Shard
	if ok {
		_, err1 := fmt.Sscan(a, &sh.I)
		_, err2 := fmt.Sscan(b, &sh.N)
		ok = err1 == nil && err2 == nil && fmt.Sprintf("%d/%d", sh.I, sh.N) == s
	}
	if !ok || sh.N < 1 || sh.I < 0 || sh.I >= sh.N {
		return Shard{}, fmt.Errorf("--shard %q: want i/n with 0 <= i < n (e.g. 0/4)", s)
	}
	return sh, nil
}

// String is "i/n", "" for the whole plan.
func (s Shard) String() string {
	if s.N <= 1 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.I, s.N)
}

// Of returns the shard's runs: every n-th run from the i-th, so that each shard gets a share of
// every arm (arms differ in cost).
func (s Shard) Of(runs []Planned) []Planned {
	if s.N <= 1 {
		return runs
	}
	var out []Planned
	for i, r := range runs {
		if i%s.N == s.I {
			out = append(out, r)
		}
	}
	return out
}
