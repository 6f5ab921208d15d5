package experiments

import (
	"math"
	"os"
	"path/filepath"

	"spg-tui/envs"
	"spg-tui/run"
)

// ViewSnapshot describes the experiment in dir as a runner's Snapshot, for the console to show
// read-only: each arm's validation curves across seeds with their band, and its best scores.
// First is the directory of its first run that has a metrics file, which the console's main
// view replays ("" when no run has one).
func ViewSnapshot(dir string) (s Snapshot, first string, err error) {
	r, err := LoadResults(dir)
	if err != nil {
		return s, "", err
	}
	s = Snapshot{Ablation: r.Preset.Name, Title: "experiment " + r.Preset.Name + " (read-only)",
		Seeds: r.Manifest.Seeds, Total: r.Manifest.Total, Version: 1}
	for i, arm := range r.Arms {
		if len(arm) == 0 {
			continue
		}
		a := r.Preset.Arms[i]
		facts := envs.MustFacts(a.Task)
		s.Maximize, s.MetricName = facts.Metric.Maximize, facts.Metric.Name
		v := VariantResult{Name: a.Label}
		var bests []float64
		for _, sr := range arm {
			res := RunResult{Seed: sr.Seed, Dir: sr.Dir, Phase: Pending, Total: sr.Config.Steps}
			for _, e := range sr.Evals {
				res.Evals = append(res.Evals, EvalPoint{Step: e.Step, Metric: e.Metric})
				res.Step = max(res.Step, e.Step)
			}
			if sr.Test != nil {
				res.Phase, res.Step = Finished, sr.Config.Steps
				s.Finished++
			}
			res.Best = best(res.Evals, s.Maximize)
			if !math.IsNaN(res.Best) {
				bests = append(bests, res.Best)
			}
			if _, err := os.Stat(filepath.Join(res.Dir, run.MetricsFile)); err == nil && first == "" {
				first = res.Dir
			}
			s.Steps = max(s.Steps, sr.Config.Steps)
			v.Runs = append(v.Runs, res)
		}
		v.Curve = Aggregate(v.Runs)
		v.Best = band(0, bests)
		s.Variants = append(s.Variants, v)
	}
	return s, first, nil
}
