package experiments

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"spg-tui/envs"
	"spg-tui/run"
	"spg-tui/run/stats"
)

// modelTable lays out a table as the paper's: a row per model, a column per size, each cell
// the per-seed mean test metric summarised by stat ("mean ± sd", "median" or "mean").
func modelTable(r *Results, w *reportWriter, output, caption string, task envs.Task, models []string, sizes []int, stat string, paper map[string]map[int]string) {
	name := envs.MustFacts(task).Name
	w.linef("## %s", caption)
	w.linef("")
	head := "| |"
	rule := "|---|"
	for _, n := range sizes {
		head += fmt.Sprintf(" N=%d |", n)
		rule += "---|"
	}
	w.linef("%s", head)
	w.linef("%s", rule)
	for _, m := range models {
		row := "| " + modelTitle(m) + " |"
		for _, n := range sizes {
			row += " " + r.armCell(w, output, modelTitle(m), fmt.Sprintf("%s-%d", name, n), r.armOf(m, n), stat, paper[m][n]) + " |"
		}
		w.linef("%s", row)
	}
	w.linef("")
	w.linef("Each seed's number is the mean %s of its selected checkpoint over the test set's instances; the cell is the %s of those numbers across seeds.", envs.MustFacts(task).Metric.Label, stat)
	w.linef("")
}

func reportSort(r *Results, w *reportWriter) error {
	models, sizes := []string{run.ModelPNAC, run.ModelSequential}, []int{20, 50}
	modelTable(r, w, "table1", "Table 1: mean Kendall tau on the sorting task (test set)", envs.TaskSort,
		models, sizes, "mean ± sd", paperSort)
	w.linef("## Learning curves (not in the paper)")
	w.linef("")
	for _, n := range sizes {
		metricFigure(r, w, envs.TaskSort, n, models)
	}
	return nil
}

// metricFigure plots the validation metric of the models on task at size n across seeds.
func metricFigure(r *Results, w *reportWriter, task envs.Task, n int, models []string) {
	var ss []series
	for _, m := range models {
		if arm := r.armOf(m, n); arm >= 0 && len(r.Arms[arm]) > 0 {
			ss = append(ss, series{Label: modelTitle(m), Curve: curveOf(r.Arms[arm], func(rec run.Record) float64 { return rec.Metric })})
		}
	}
	facts := envs.MustFacts(task)
	out := fmt.Sprintf("curve-%s%d", task, n)
	w.recordCurves(out, ss)
	w.bandFigure(out+".png", fmt.Sprintf("%s-%d: validation %s", facts.Name, n, facts.Metric.Label), facts.Metric.Label, ss, true)
}

func reportMWM(r *Results, w *reportWriter) error {
	sizes := []int{15, 20, 25}
	modelTable(r, w, "table2", "Table 2: median optimality ratio on the MWM test set", envs.TaskMWM,
		[]string{run.ModelPNACMatching, run.ModelACMatching, run.ModelRandom, run.ModelMatching}, sizes, "median", paperMWM)
	w.linef("## Figure 4: SPG+Matching and AC+Matching reward curves")
	w.linef("")
	for _, n := range sizes {
		var ss []series
		for _, m := range []string{run.ModelMatching, run.ModelACMatching} {
			if arm := r.armOf(m, n); arm >= 0 {
				ss = append(ss, series{Label: modelTitle(m), Curve: curveOf(r.Arms[arm], evalReward)})
			}
		}
		out := fmt.Sprintf("figure4-mwm%d", n)
		w.recordCurves(out, ss)
		w.bandFigure(out+".png", fmt.Sprintf("MWM-%d: validation reward", n), "mean reward (matched distance / N)", ss, true)
	}
	return nil
}

func reportTSP(r *Results, w *reportWriter) error {
	w.linef("## The TSP-20 table: mean tour length on the test set")
	w.linef("")
	w.linef("| | avg. tour length |")
	w.linef("|---|---|")
	set, err := w.sets.get(envs.TaskTSP, 20, "", r.testSize(envs.TaskTSP, 20))
	if err != nil && !errors.Is(err, errNotComputed) {
		return err
	}
	solverTitle := map[string]string{"exact": "Optimal (Held-Karp)", "christofides": "Christofides", "2opt": "2-opt (nearest neighbour + 2-opt)", "farthest": "Farthest insertion", "nn": "Nearest neighbour"}
	row := func(name, ours, paper string) {
		if paper == "" {
			paper = "—"
		}
		w.linef("| %s | %s · paper %s |", name, ours, paper)
	}
	for _, s := range []string{"exact", "christofides", "2opt", "farthest", "nn"} {
		v, ok := set.Solvers[s]
		if !ok {
			continue
		}
		w.number("tsp20", solverTitle[s], "TSP-20", -1, "mean", v, set.Size)
		row(solverTitle[s], fmt.Sprintf("**%.3f** (deterministic, %d instances)", v, set.Size), paperTSP[s])
	}
	for _, m := range []string{run.ModelPNAC, run.ModelSequential} {
		c := r.armCell(w, "tsp20", modelTitle(m), "TSP-20", r.armOf(m, 20), "mean", paperTSP[m])
		w.linef("| %s | %s |", modelTitle(m), c)
	}
	w.linef("")
	if errors.Is(err, errNotComputed) {
		w.linef("The classical solvers' rows are not computed yet: the experiment stopped before a run was scored; the same command continues it.")
		w.linef("")
	}
	w.linef("The paper's table also lists Kool et al. (3.84), which spg-tui does not implement. Its solver numbers are quoted from Bello et al. and Kool et al. on their own test sets; ours are on this table's test set.")
	w.linef("")
	w.linef("## Learning curves (not in the paper)")
	w.linef("")
	metricFigure(r, w, envs.TaskTSP, 20, []string{run.ModelPNAC, run.ModelSequential})
	return nil
}

// testSize is the test-set size of the runs of task at n (the default when none ran).
func (r *Results) testSize(task envs.Task, n int) int {
	for _, arm := range r.Arms {
		for _, s := range arm {
			if s.Config.Task == task && s.Config.N == n && s.Config.TestSize > 0 {
				return s.Config.TestSize
			}
		}
	}
	return envs.DefaultTestSize
}

// armCurves are the reward curves of every arm of an ablation preset.
func armCurves(r *Results) []series {
	var ss []series
	for i, a := range r.Preset.Arms {
		ss = append(ss, series{Label: a.Label, Curve: curveOf(r.Arms[i], evalReward)})
	}
	return ss
}

// armTestTable is a row per arm with its test optimality ratio across seeds.
func armTestTable(r *Results, w *reportWriter, output string) {
	w.linef("| configuration | test optimality ratio, mean over seeds |")
	w.linef("|---|---|")
	for i, a := range r.Preset.Arms {
		w.linef("| %s | %s |", a.Label, strings.TrimSuffix(r.armCell(w, output, a.Label, "MWM-10", i, "mean", ""), " · paper —"))
	}
	w.linef("")
}

func reportPenalty(r *Results, w *reportWriter) error {
	w.linef("## Figure 3a: reward with and without the critic penalty, MWM-10")
	w.linef("")
	ss := armCurves(r)
	w.recordCurves("figure3a", ss)
	w.bandFigure("figure3a.png", "MWM-10: critic penalty on vs off", "mean validation reward", ss, true)
	armTestTable(r, w, "penalty-test")
	w.linef("## Figure 2: hard vs soft Q of 100 fixed states")
	w.linef("")
	w.linef("The scatter is the first seed's; the table gives the correlation and the mean |soft − hard| gap over all seeds (mean across seeds, n seeds).")
	w.linef("")
	w.linef("| configuration | epoch | r(hard, soft) | mean abs(soft − hard) | n |")
	w.linef("|---|---|---|---|---|")
	var panels []scatterPanel
	for i := len(r.Preset.Arms) - 1; i >= 0; i-- { // the paper's top row is without the penalty
		a := r.Preset.Arms[i]
		for _, epoch := range []int{5, 10, 15, 20} {
			var rs, gaps []float64
			for k, s := range r.Arms[i] {
				e := evalAtEpoch(s, epoch)
				if e == nil || len(e.QHardScatter) == 0 {
					continue
				}
				rs = append(rs, stats.Correlation(e.QHardScatter, e.QSoftScatter))
				var g float64
				for j := range e.QHardScatter {
					g += math.Abs(e.QSoftScatter[j] - e.QHardScatter[j])
				}
				gaps = append(gaps, g/float64(len(e.QHardScatter)))
				if k == 0 {
					panels = append(panels, scatterPanel{Title: fmt.Sprintf("%s, epoch %d", a.Label, epoch), Hard: e.QHardScatter, Soft: e.QSoftScatter})
				}
			}
			col := fmt.Sprintf("epoch %d", epoch)
			w.summary("figure2-r", a.Label, col, rs)
			w.summary("figure2-gap", a.Label, col, gaps)
			w.linef("| %s | %d | %s | %s | %d |", a.Label, epoch, fmtNaN("%.3f", stats.Mean(rs)), fmtNaN("%.4f", stats.Mean(gaps)), len(rs))
		}
	}
	w.linef("")
	if len(panels) > 0 {
		w.scatterFigure("figure2.png", "hard vs soft Q, MWM-10", panels, 4)
	}
	w.linef("The paper shows the soft Q-values diverging from the hard ones without the penalty (top row) and following y = x with it (bottom row).")
	w.linef("")
	return nil
}

// evalAtEpoch is the seed's validation evaluation at the end of the given epoch, nil if it has
// none.
func evalAtEpoch(s SeedResult, epoch int) *run.Record {
	want := epoch * s.Config.StepsPerEpoch()
	for i := range s.Evals {
		if s.Evals[i].Step == want {
			return &s.Evals[i]
		}
	}
	return nil
}

func reportTau(r *Results, w *reportWriter) error {
	w.linef("## Figure 3b: reward for several Sinkhorn temperatures tau, MWM-10")
	w.linef("")
	ss := armCurves(r)
	w.recordCurves("figure3b", ss)
	w.bandFigure("figure3b.png", "MWM-10: Sinkhorn temperature tau", "mean validation reward", ss, false)
	armTestTable(r, w, "tau-test")
	w.linef("The paper finds higher reward for smaller tau, with diminishing returns below 0.05.")
	w.linef("")
	return nil
}

func reportExploration(r *Results, w *reportWriter) error {
	w.linef("## Exploration study, MWM-10")
	w.linef("")
	ss := armCurves(r)
	w.recordCurves("exploration", ss)
	w.bandFigure("exploration.png", "MWM-10: epsilon-greedy exploration", "mean validation reward", ss, false)
	armTestTable(r, w, "exploration-test")
	final := make([][]float64, len(r.Preset.Arms))
	for i := range r.Preset.Arms {
		for _, s := range r.Arms[i] {
			if len(s.Evals) > 0 && s.Test != nil {
				final[i] = append(final[i], s.Evals[len(s.Evals)-1].EvalReward)
			}
		}
		w.summary("exploration-final-reward", r.Preset.Arms[i].Label, "MWM-10", final[i])
	}
	none := len(r.Preset.Arms) - 1 // the last variant is "no exploration"
	w.linef("F-test of the final validation rewards' variances (one-sided: does no exploration vary more?):")
	w.linef("")
	w.linef("| exploration | variance of final reward | F = var(none) / var(this) | N1, N2 | p | paper |")
	w.linef("|---|---|---|---|---|---|")
	for i := range none {
		t := stats.VarianceRatio(final[none], final[i])
		w.number("exploration-ftest", r.Preset.Arms[i].Label, "F", -1, "F", t.F, t.N1)
		w.number("exploration-ftest", r.Preset.Arms[i].Label, "p", -1, "p", t.P, t.N2)
		paper := "—"
		if i == 0 {
			paper = paperExplorationF
		}
		w.linef("| %s | %s | %s | %d, %d | %s | %s |", r.Preset.Arms[i].Label, fmtNaN("%.3g", variance(final[i])),
			fmtNaN("%.3f", t.F), t.N1, t.N2, fmtNaN("%.3f", t.P), paper)
	}
	w.linef("")
	w.linef("No exploration: variance %s over %d seeds.", fmtNaN("%.3g", variance(final[none])), len(final[none]))
	w.linef("")
	return nil
}

func variance(x []float64) float64 {
	if len(x) < 2 {
		return math.NaN()
	}
	s := stats.StdDev(x)
	return s * s
}
