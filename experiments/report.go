package experiments

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"spg-tui/envs"
	"spg-tui/run"
	"spg-tui/run/stats"
)

// The report files of an experiment directory.
const (
	ReportFile  = "report.md"
	ResultsFile = "results.csv"
)

// SeedResult is one run of an arm as its directory holds it.
type SeedResult struct {
	ID     string
	Dir    string
	Seed   uint64
	Config run.Config
	// Evals are the validation evaluations, in step order.
	Evals []run.Record
	// Test is the score on the table's test set, nil before the run finished.
	Test *TestScore
	// ResumedEarly are the steps at which the run resumed from an early checkpoint, without its
	// replay buffer: from the first on, its numbers differ from an uninterrupted run's.
	ResumedEarly []int
}

// Results are an experiment directory's runs, by arm of its preset.
type Results struct {
	Preset   Preset
	Manifest Manifest
	Arms     [][]SeedResult
}

// LoadResults reads the experiment in dir: its manifest and every run's configuration,
// validation curve and test score.
func LoadResults(dir string) (*Results, error) {
	m, err := ReadManifest(dir)
	if err != nil {
		return nil, err
	}
	p, err := PresetNamed(m.Preset)
	if err != nil {
		return nil, err
	}
	if m.Version != PresetVersion {
		return nil, fmt.Errorf("%s: preset version %d, this spg-tui reads version %d", dir, m.Version, PresetVersion)
	}
	// The configurations come from the plan, not from the runs' directories: a run that never
	// started has none, and an engine need not write one.
	all, err := m.plan(dir)
	if err != nil {
		return nil, err
	}
	configs := map[string]Planned{}
	for _, pl := range all {
		configs[pl.ID] = pl
	}
	r := &Results{Preset: p, Manifest: m, Arms: make([][]SeedResult, len(p.Arms))}
	for _, mr := range sortedRuns(m.Runs) {
		pl, ok := configs[mr.ID]
		if !ok || pl.Arm != mr.Arm {
			return nil, fmt.Errorf("%s: run %s is not in the plan", dir, mr.ID)
		}
		rd := m.runDir(dir, mr.ID)
		sr := SeedResult{ID: mr.ID, Dir: rd, Seed: mr.Seed, Config: pl.Config}
		recs, err := run.ReadRecords(filepath.Join(rd, run.MetricsFile))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		for _, rec := range recs {
			if rec.Kind == run.KindEval && rec.Eval != nil && rec.Split == "val" {
				sr.Evals = append(sr.Evals, rec)
			}
			if rec.Kind == run.KindEvent && rec.Event != nil && rec.Event.Event == run.EventStart && rec.Event.ResumedEarly {
				sr.ResumedEarly = append(sr.ResumedEarly, rec.Step)
			}
		}
		var ts TestScore
		if err := run.ReadJSON(filepath.Join(rd, TestScoreFile), &ts); err == nil {
			sr.Test = &ts
		} else if !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		r.Arms[mr.Arm] = append(r.Arms[mr.Arm], sr)
	}
	return r, nil
}

// armCell summarises arm's per-seed mean test metrics (recording each seed's and the summary
// in results.csv) as a table cell: see cell. An arm that is not in the plan (-1, or no runs) is
// "not run"; one whose runs have not all been scored says how many have.
func (r *Results) armCell(w *reportWriter, output, row, column string, arm int, stat, paper string) string {
	planned := 0
	if arm >= 0 {
		planned = len(r.Arms[arm])
	}
	if paper == "" {
		paper = "—"
	}
	if planned == 0 {
		return "not run · paper " + paper
	}
	var x []float64
	for _, s := range r.Arms[arm] {
		if s.Test != nil {
			x = append(x, s.Test.Mean)
			w.number(output, row, column, -1, fmt.Sprintf("seed %d", s.Seed), s.Test.Mean, 1)
		}
	}
	if len(x) == 0 {
		return fmt.Sprintf("not finished (0 of %d seeds) · paper %s", planned, paper)
	}
	c := cell(w.summary(output, row, column, x), stat, paper)
	if len(x) < planned {
		c = strings.Replace(c, fmt.Sprintf("(n %d", len(x)), fmt.Sprintf("(n %d of %d seeds", len(x), planned), 1)
	}
	return c
}

// armOf returns the index of the preset's arm of model on n, -1 if there is none.
func (r *Results) armOf(model string, n int) int {
	for i, a := range r.Preset.Arms {
		if a.Model == model && a.N == n {
			return i
		}
	}
	return -1
}

// WriteReport builds report.md, results.csv and the figures of the experiment in dir from
// what its runs hold, each file written atomically.
func WriteReport(dir string) error { return writeReport(dir, false) }

// writeReport is WriteReport; with cachedOnly, test sets and their references not yet on disk
// are left out of the report rather than computed.
func writeReport(dir string, cachedOnly bool) error {
	r, err := LoadResults(dir)
	if err != nil {
		return err
	}
	w := &reportWriter{dir: dir, sets: newTestSets(dir, warnStderr)}
	w.sets.cachedOnly = cachedOnly
	m := r.Manifest
	scored := 0
	for _, arm := range r.Arms {
		for _, s := range arm {
			if s.Test != nil {
				scored++
			}
		}
	}
	w.linef("# spg-tui experiment `%s`", r.Preset.Name)
	w.linef("")
	w.linef("Reproduces %s.", r.Preset.Reproduces)
	w.linef("")
	w.linef("Scale %g of the paper's budget, %d seeds per arm, %d of %d runs finished and scored (preset version %d, plan %s).", m.Scale, m.Seeds, scored, m.Total, m.Version, m.Plan)
	if len(m.Models) > 0 {
		w.linef("Models restricted to %s.", strings.Join(m.Models, ", "))
	}
	if len(m.Flags) > 0 {
		var fl []string
		for _, k := range sortedKeys(m.Flags) {
			fl = append(fl, "--"+k+"="+m.Flags[k])
		}
		w.linef("Training flags: %s.", strings.Join(fl, " "))
	}
	if m.Sampling != nil {
		w.linef("Test sets decoded twice: the single decode and the sampled decode (%s, noise seed %d).", *m.Sampling, m.Sampling.Seed)
	}
	w.linef("")
	if len(m.Runs) < m.Total {
		w.linef("**Partial merge:** the shards merged (with `--partial`) hold %d of the plan's %d runs; the others are in no table, figure or results.csv line.", len(m.Runs), m.Total)
		w.linef("")
	}
	w.protocol(r)
	w.resumedEarly(r)
	if err := r.Preset.report(r, w); err != nil {
		return err
	}
	w.samplingSection(r)
	return w.flush()
}

// protocol states the protocol and how it differs from the paper's.
func (w *reportWriter) protocol(r *Results) {
	m := r.Manifest
	val, test := envs.DefaultValSize, envs.DefaultTestSize
	every := "once per epoch"
	for _, arm := range r.Arms {
		for _, s := range arm {
			val, test = s.Config.ValSize, s.Config.TestSize
			if s.Config.EvalEvery != s.Config.StepsPerEpoch() {
				every = fmt.Sprintf("every %d steps", s.Config.EvalEvery)
			}
		}
	}
	w.linef("## Protocol, and what differs from the paper")
	w.linef("")
	w.linef("- Each run validates its deterministic policy %s on its own %d validation instances; the best validation score selects its checkpoint, which is scored once on the table's test set. The paper instead reports the best of its per-epoch test scores, which favours it slightly.", every, val)
	w.linef("- One fixed test set per table (dataset seed %d, %d instances, none of them trained or validated on): every model and seed is scored on the same instances.", TestSeed, test)
	w.linef("- Curves are measured on each run's validation set (the paper plots the test set's), once per epoch; bands are Student t confidence intervals of the mean across seeds.")
	stepArms := slices.ContainsFunc(r.Preset.Arms, func(a Arm) bool { return a.Steps > 0 })
	switch {
	case m.Scale < 1 && stepArms:
		w.linef("- Budget: the runs are budgeted in steps, which they train at every scale on their own learning-rate schedule; the scale, %g, shrinks their training set to %g × 500,000 instances, so they see %g of its data.", m.Scale, m.Scale, m.Scale)
	case m.Scale < 1:
		w.linef("- Budget: %g of the paper's. The training set shrinks to %g × 500,000 instances and an epoch, a pass over it in whole batches, with it, so the epoch schedules (epsilon decay, one validation per epoch) and the learning-rate decay interval (5,000 steps × %g) keep their shape; the runs see %g of the paper's data. Numbers at a scale below 1 are not the paper's experiment and are expected to fall short of its figures.", m.Scale, m.Scale, m.Scale, m.Scale)
	}
	w.stepsLine(r)
	if m.Seeds != 10 {
		w.linef("- %d seeds per arm where the paper has 10.", m.Seeds)
	}
	w.linef("")
}

// resumedEarly lists the runs that resumed from an early checkpoint, whose numbers are not
// those an uninterrupted run gives, and records each resume in results.csv (value 1 at its step).
func (w *reportWriter) resumedEarly(r *Results) {
	var lines []string
	for arm, runs := range r.Arms {
		for _, s := range runs {
			if len(s.ResumedEarly) == 0 {
				continue
			}
			steps := make([]string, len(s.ResumedEarly))
			for i, step := range s.ResumedEarly {
				steps[i] = strconv.Itoa(step)
				w.number("resumed-without-replay", r.Preset.Arms[arm].Label, s.ID, step, fmt.Sprintf("seed %d", s.Seed), 1, 1)
			}
			lines = append(lines, fmt.Sprintf("- `%s` (%s, seed %d): at step %s", s.ID, r.Preset.Arms[arm].Label, s.Seed, strings.Join(steps, ", ")))
		}
	}
	if len(lines) == 0 {
		return
	}
	w.linef("## Runs resumed without their replay buffer")
	w.linef("")
	w.linef("These runs were stopped without a checkpoint (killed) before their first full one and continued from an early checkpoint, which holds no replay buffer: they refilled an empty buffer, so their numbers below differ from those an uninterrupted run gives. Train them again from scratch (delete their directories) to get those.")
	w.linef("")
	for _, l := range lines {
		w.linef("%s", l)
	}
	w.linef("")
}

// reportWriter gathers report.md, results.csv and the figures, and writes them at the end.
type reportWriter struct {
	dir string
	// sets are the experiment's test sets, with the classical solvers' references.
	sets    *testSets
	md      bytes.Buffer
	rows    [][]string
	figures []figure
}

// figure is a PNG to write: its file name and its encoder.
type figure struct {
	name  string
	write func(w io.Writer) error
}

func (w *reportWriter) linef(format string, args ...any) {
	fmt.Fprintf(&w.md, format+"\n", args...)
}

// number records one number of the report in results.csv.
func (w *reportWriter) number(output, row, column string, step int, statistic string, value float64, n int) {
	st := ""
	if step >= 0 {
		st = strconv.Itoa(step)
	}
	w.rows = append(w.rows, []string{output, row, column, st, statistic, strconv.FormatFloat(value, 'g', 10, 64), strconv.Itoa(n)})
}

// summary records a sample's summary (mean, sd, median, 95% CI) and returns it.
func (w *reportWriter) summary(output, row, column string, x []float64) stats.Summary {
	s := stats.Summarize(x)
	if s.N > 0 {
		w.number(output, row, column, -1, "mean", s.Mean, s.N)
		w.number(output, row, column, -1, "sd", s.Std, s.N)
		w.number(output, row, column, -1, "median", s.Median, s.N)
		w.number(output, row, column, -1, "ci95_lo", s.CI95Lo, s.N)
		w.number(output, row, column, -1, "ci95_hi", s.CI95Hi, s.N)
	}
	return s
}

// flush writes the files, each atomically.
func (w *reportWriter) flush() error {
	for _, f := range w.figures {
		if err := run.WriteAtomic(filepath.Join(w.dir, f.name), f.write); err != nil {
			return fmt.Errorf("%s: %v", f.name, err)
		}
	}
	err := run.WriteAtomic(filepath.Join(w.dir, ResultsFile), func(out io.Writer) error {
		cw := csv.NewWriter(out)
		cw.Write([]string{"output", "row", "column", "step", "statistic", "value", "n"})
		cw.WriteAll(w.rows)
		return cw.Error()
	})
	if err != nil {
		return err
	}
	return run.WriteAtomic(filepath.Join(w.dir, ReportFile), func(out io.Writer) error {
		_, err := out.Write(w.md.Bytes())
		return err
	})
}

// cell is a table cell of a non-empty sample: ours as stat says ("mean ± sd", "median" or
// "mean"), with n and the 95% CI of the mean across seeds, and the paper's number.
func cell(s stats.Summary, stat, paper string) string {
	var ours string
	switch stat {
	case "mean ± sd":
		ours = fmt.Sprintf("**%.3f ± %.3f**", s.Mean, s.Std)
	case "median":
		ours = fmt.Sprintf("**%.3f**", s.Median)
	default:
		ours = fmt.Sprintf("**%.3f**", s.Mean)
	}
	if s.N > 1 {
		ours += fmt.Sprintf(" (n %d, 95%% CI of the mean [%.3f, %.3f])", s.N, s.CI95Lo, s.CI95Hi)
	} else {
		ours += " (n 1)"
	}
	return ours + " · paper " + paper
}

func sortedKeys(m map[string]string) []string {
	keys := mapKeys(m)
	slices.Sort(keys)
	return keys
}

// fmtNaN formats x, "—" for NaN.
func fmtNaN(format string, x float64) string {
	if math.IsNaN(x) {
		return "—"
	}
	return fmt.Sprintf(format, x)
}

// warnStderr tells a warning met while writing a report on standard error, in one line: the
// report is written at the end of a command (experiment, merge) whose terminal is the user's.
func warnStderr(msg string) { fmt.Fprintf(os.Stderr, "warning: %s\n", msg) }
