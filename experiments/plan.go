package experiments

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"spg-tui/run"
)

// DefaultParallel is how many runs a Runner trains at once unless told otherwise: two, since
// each trainer already uses a core's worth of BLAS and the reference machine has two.
const DefaultParallel = 2

// Plan is an ablation to run: every variant with every seed, each for Steps steps.
type Plan struct {
	Base     run.Config
	Ablation Ablation
	// Steps is the step budget of each run; Seeds the number of runs per variant, with seeds
	// Base.Seed, Base.Seed+1, ...
	Steps int
	Seeds int
	// EvalEvery is each run's evaluation interval; 0 keeps Base.EvalEvery.
	EvalEvery int
	// Dir is where the runs go: Dir/<variant>/seed-<seed>.
	Dir string
	// Parallel is how many runs train at once; 0 means DefaultParallel.
	Parallel int
}

// Run is one training run of a plan or a batch.
type Run struct {
	Variant int // index into Plan.Ablation.Variants, or Batch.Variants
	Seed    uint64
	Config  run.Config
	Dir     string
	// Trained marks a run that reached its budget in an earlier session: the runner reads its
	// evaluations from its metrics file instead of training it.
	Trained bool
}

// Runs expands the plan, variant by variant and seed by seed, and validates every
// configuration.
func (p Plan) Runs() ([]Run, error) {
	switch {
	case len(p.Ablation.Variants) == 0:
		return nil, errors.New("experiments: the ablation has no variants")
	case p.Steps < 1:
		return nil, fmt.Errorf("experiments: steps %d: must be >= 1", p.Steps)
	case p.Seeds < 1 || p.Seeds > run.MaxSeeds:
		return nil, fmt.Errorf("experiments: seeds %d: must be in [1, %d]", p.Seeds, run.MaxSeeds)
	case p.Dir == "":
		return nil, errors.New("experiments: no directory for the runs")
	}
	var runs []Run
	for vi, v := range p.Ablation.Variants {
		for k := range p.Seeds {
			c := p.Base
			v.Apply(&c)
			c.Steps = p.Steps
			c.Seed = p.Base.Seed + uint64(k)
			if p.EvalEvery > 0 {
				c.EvalEvery = p.EvalEvery
			}
			if err := c.Validate(); err != nil {
				return nil, fmt.Errorf("experiments: variant %q: %v", v.Name, err)
			}
			dir := filepath.Join(p.Dir, slug(v.Name), fmt.Sprintf("seed-%d", c.Seed))
			runs = append(runs, Run{Variant: vi, Seed: c.Seed, Config: c, Dir: dir})
		}
	}
	return runs, nil
}

// slug turns a variant name into a directory name: "eps 1, decay 0.95" -> "eps-1-decay-0.95".
func slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.'
		switch {
		case ok:
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}
