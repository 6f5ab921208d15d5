package experiments

import (
	"math"
	"slices"

	"spg-tui/run"
	"spg-tui/run/stats"
)

// CILevel is the confidence level of the bands drawn across seeds: 68%, as in the paper's
// Figure 3.
const CILevel = 0.68

// Band is the mean of a metric across seeds with its CILevel Student t confidence interval for
// the mean; Lo == Hi == Mean when N < 2.
type Band struct {
	Step         int
	Mean, Lo, Hi float64
	N            int
}

// RunResult is the state of one run of a plan.
type RunResult struct {
	Seed  uint64
	Dir   string
	Phase Phase
	Step  int // steps completed
	// Start is the step this process took the run up at (its checkpoint's when resumed, Total
	// when trained in an earlier session): Step - Start were trained here.
	Start int
	Total int
	Evals []EvalPoint
	// Best is the run's best validation metric (the largest, or the smallest for a metric that
	// is minimised); NaN before its first evaluation.
	Best float64
	Err  error
	// Wait is the long preparation the live run is in (What is "" when none).
	Wait run.Wait
	// Elsewhere reports that another process holds the run (an experiment sharing it), which
	// this one waits for.
	Elsewhere bool
}

// VariantResult gathers the runs of one variant.
type VariantResult struct {
	Name string
	Runs []RunResult
	// Curve is the validation metric across seeds at every evaluated step.
	Curve []Band
	// Best summarises the runs' best validation metrics (Step is 0).
	Best Band
}

// Snapshot is a consistent copy of a runner's results.
type Snapshot struct {
	Ablation   string
	Title      string
	Steps      int
	Seeds      int
	MetricName string
	// Maximize reports whether a larger metric is better.
	Maximize bool
	Variants []VariantResult
	// Finished counts the runs that have ended, of Total.
	Finished, Total int
	Version         uint64
}

// Snapshot returns the results so far.
func (r *Runner) Snapshot() Snapshot {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := Snapshot{Ablation: r.batch.Name, Title: r.batch.Title, Steps: r.batch.Steps,
		Seeds: r.batch.Seeds, MetricName: r.metric, Maximize: r.maximize, Total: len(r.runs),
		Version: r.version}
	for _, name := range r.batch.Variants {
		s.Variants = append(s.Variants, VariantResult{Name: name})
	}
	for i, run := range r.runs {
		st := r.state[i]
		res := RunResult{Seed: run.Seed, Dir: run.Dir, Phase: st.phase, Step: st.step, Start: st.start,
			Total: run.Config.Steps, Evals: slices.Clone(st.evals), Err: st.err, Elsewhere: st.elsewhere}
		if st.engine != nil {
			es := st.engine.Status()
			res.Step, res.Wait = max(res.Step, es.Step), es.Wait
		}
		res.Best = best(res.Evals, r.maximize)
		if st.phase != Pending && st.phase != Running {
			s.Finished++
		}
		v := &s.Variants[run.Variant]
		v.Runs = append(v.Runs, res)
	}
	for i := range s.Variants {
		v := &s.Variants[i]
		v.Curve = Aggregate(v.Runs)
		var bests []float64
		for _, run := range v.Runs {
			if !math.IsNaN(run.Best) {
				bests = append(bests, run.Best)
			}
		}
		v.Best = band(0, bests)
	}
	return s
}

// best is the largest metric of evals, or the smallest when !maximize; NaN if there is none.
func best(evals []EvalPoint, maximize bool) float64 {
	b := math.NaN()
	for _, e := range evals {
		if math.IsNaN(b) || maximize && e.Metric > b || !maximize && e.Metric < b {
			b = e.Metric
		}
	}
	return b
}

// Aggregate is the across-seed band at every step where at least one run was evaluated, in step
// order; each band is over the runs evaluated at exactly that step.
func Aggregate(runs []RunResult) []Band {
	at := map[int][]float64{}
	for _, run := range runs {
		for _, e := range run.Evals {
			at[e.Step] = append(at[e.Step], e.Metric)
		}
	}
	steps := make([]int, 0, len(at))
	for s := range at {
		steps = append(steps, s)
	}
	slices.Sort(steps)
	out := make([]Band, len(steps))
	for i, s := range steps {
		out[i] = band(s, at[s])
	}
	return out
}

func band(step int, x []float64) Band {
	if len(x) == 0 {
		nan := math.NaN()
		return Band{Step: step, Mean: nan, Lo: nan, Hi: nan}
	}
	lo, hi := stats.CI(x, CILevel)
	return Band{Step: step, Mean: stats.Mean(x), Lo: lo, Hi: hi, N: len(x)}
}
