package experiments

import (
	"errors"
	"fmt"

	"spg-tui/envs"
	"spg-tui/envs/tsp"
	"spg-tui/run/stats"
)

// reportSizes lays out the sizes preset: per arm, the test metric at every size it was tested
// at, single and (when the experiment samples) sampled, beside the tour of the best solver
// known at that size for tsp.
func reportSizes(r *Results, w *reportWriter) error {
	w.linef("## One model for many sizes: test metric by test size")
	w.linef("")
	w.linef("Each run is trained at its arm's N and its selected checkpoint is tested on %d fresh instances at each size (dataset seed %d); cells are the mean across seeds of each seed's mean, ± sd. MWM is the optimality ratio against the Hungarian optimum (higher is better); TSP the mean tour length (lower is better), with its gap to the reference tour of the same instances.", TransferTestSize, TestSeed)
	w.linef("")
	tours, pending := false, false
	for i, a := range r.Preset.Arms {
		if len(a.TestSizes) == 0 || len(r.Arms[i]) == 0 {
			continue
		}
		facts := envs.MustFacts(a.Task)
		head, rule := "| "+a.Label+" |", "|---|"
		for _, n := range a.TestSizes {
			head += fmt.Sprintf(" N=%d |", n)
			rule += "---|"
		}
		w.linef("%s", head)
		w.linef("%s", rule)
		refs := map[int]float64{}
		if !facts.Metric.PerOptimum {
			tours = true
			row := "| reference tour |"
			for _, n := range a.TestSizes {
				set, err := w.sets.get(a.Task, n, envs.DefaultData(a.Task), TransferTestSize) // the runs' data: arms run on their default
				if errors.Is(err, errNotComputed) {
					row += " — |"
					pending = true
					continue
				}
				if err != nil {
					return err
				}
				name, v, ok := referenceTour(set)
				if !ok {
					row += " — |"
					continue
				}
				refs[n] = v
				w.number("sizes", a.Label+" · reference", fmt.Sprintf("N=%d", n), -1, name, v, set.Size)
				row += fmt.Sprintf(" %.4f (%s) |", v, name)
			}
			w.linef("%s", row)
		}
		for _, decode := range []string{"single", "sampled"} {
			if decode == "sampled" && r.Manifest.Sampling == nil {
				continue
			}
			title := "single decode"
			if decode == "sampled" {
				title = "sampled (" + r.Manifest.Sampling.String() + ")"
			}
			row := "| " + title + " |"
			for _, n := range a.TestSizes {
				var x []float64
				for _, sr := range r.Arms[i] {
					if v, ok := transferMean(sr.Test, a.Task, n, decode); ok {
						x = append(x, v)
						w.number("sizes", a.Label+" · "+decode, fmt.Sprintf("N=%d", n), -1, fmt.Sprintf("seed %d", sr.Seed), v, 1)
					}
				}
				s := w.summary("sizes", a.Label+" · "+decode, fmt.Sprintf("N=%d", n), x)
				cell := meanSD(s)
				if ref, ok := refs[n]; ok && s.N > 0 {
					cell += fmt.Sprintf(", gap %+.1f%%", 100*(s.Mean/ref-1))
				}
				row += " " + cell + " |"
			}
			w.linef("%s", row)
		}
		if r.Manifest.Sampling != nil {
			row := "| ms per instance, single / sampled |"
			for _, n := range a.TestSizes {
				var single, sampled []float64
				for _, sr := range r.Arms[i] {
					if t := transferScore(sr.Test, a.Task, n); t != nil && t.Sampled != nil {
						single, sampled = append(single, t.Sampled.SingleMS), append(sampled, t.Sampled.SampledMS)
					}
				}
				row += fmt.Sprintf(" %s / %s |", fmtNaN("%.1f", stats.Mean(single)), fmtNaN("%.1f", stats.Mean(sampled)))
			}
			w.linef("%s", row)
		}
		w.linef("")
	}
	if pending {
		w.linef("A dash in the reference row: not computed yet, the experiment having stopped before a run was scored at that size; the same command continues it.")
		w.linef("")
	}
	if tours {
		w.linef("Reference tours: `optimal` is Held-Karp's (N <= %d); `best known` is the shortest of 2-opt + or-opt from 8 nearest-neighbour starts and farthest insertion (`solve --solver 2opt-oropt`), not a proven optimum.", tsp.MaxHeldKarp)
		w.linef("")
	}
	return nil
}

// referenceTour is the mean reference tour of a tsp test set: Held-Karp's where it ran, else
// the best known (2-opt + or-opt restarts).
func referenceTour(set TestSet) (name string, mean float64, ok bool) {
	if v, ok := set.Solvers["exact"]; ok {
		return "optimal", v, true
	}
	v, ok := set.Solvers["2opt-oropt"]
	return "best known", v, ok
}

// transferScore is a run's score on the test set of size n, nil if it has none.
func transferScore(ts *TestScore, task envs.Task, n int) *TestScore {
	if ts == nil {
		return nil
	}
	want := TestSet{Task: task, N: n, Seed: TestSeed, Size: TransferTestSize}.Name()
	for i := range ts.Transfer {
		if ts.Transfer[i].Set == want {
			return &ts.Transfer[i]
		}
	}
	return nil
}

// transferMean is a run's mean test metric at size n with the decode ("single" or "sampled").
func transferMean(ts *TestScore, task envs.Task, n int, decode string) (float64, bool) {
	t := transferScore(ts, task, n)
	switch {
	case t == nil:
		return 0, false
	case decode == "sampled":
		if t.Sampled == nil {
			return 0, false
		}
		return t.Sampled.Mean, true
	}
	return t.Mean, true
}
