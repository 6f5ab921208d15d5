package experiments

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"spg-tui/envs"
	"spg-tui/run"
)

// Machine is what an experiment trains and scores with, and where it reports progress.
type Machine struct {
	// Start starts (or, in a directory holding its checkpoint, continues) a run: agent.StartRun
	// in the program, a scripted engine in tests.
	Start StartFunc
	// Score solves a table's test set with a run's selected checkpoint; Sample, with the
	// sampled decode of an experiment that samples.
	Score  Scorer
	Sample SampleScorer
	// Jobs is how many runs train at once (at least 1).
	Jobs int
	// Progress receives a line per finished run and a summary every Every.
	Progress io.Writer
	Every    time.Duration
	// Stop, when closed, asks every live run to checkpoint and end.
	Stop <-chan struct{}
}

// Prepared is a preset ready to run: its checked options and its runs.
type Prepared struct {
	Preset   Preset
	Options  Options
	All      []Planned // every shard's runs
	Mine     []Planned // this shard's
	Manifest Manifest
	Dir      string
}

// Prepare checks the options against the preset and the directory dir, writing nothing: an
// experiment directory may only be reused by the same plan and shard. The runs go to
// Options.RunsDir, dir/runs by default.
func Prepare(o Options, dir string) (*Prepared, error) {
	p, all, err := Expand(o)
	if err != nil {
		return nil, err
	}
	if dir == "" {
		return nil, fmt.Errorf("--out is required (the experiment directory)")
	}
	if err := run.CheckDirPath(dir); err != nil {
		return nil, err
	}
	if base := filepath.Base(filepath.Clean(dir)); run.IsTempName(base, experimentTempPrefix) {
		return nil, fmt.Errorf("--out %s: a name like %sN is a new experiment directory's temporary name, which experiments started beside it would read as left by a killed one; use another name", dir, experimentTempPrefix)
	}
	mine := o.Shard.Of(all)
	m := Manifest{Format: manifestFormat, Version: PresetVersion, Preset: p.Name, Seeds: o.Seeds,
		Scale: o.Scale, Models: o.Models, Flags: o.Overrides.Text, Plan: planHash(p.Name, all), Total: len(all),
		Shard: o.Shard.String(), RunsDir: RunsDir, Sampling: o.Sampling}
	if o.RunsDir != "" {
		if err := run.CheckDirPath(o.RunsDir); err != nil {
			return nil, fmt.Errorf("--runs: %v", err)
		}
		abs, err := filepath.Abs(o.RunsDir)
		if err != nil {
			return nil, fmt.Errorf("--runs %s: %v", o.RunsDir, err)
		}
		m.RunsDir = abs
	}
	for _, r := range mine {
		m.Runs = append(m.Runs, ManifestRun{ID: r.ID, Arm: r.Arm, Seed: r.Seed})
	}
	old, err := ReadManifest(dir)
	if err != nil {
		if entries, rerr := os.ReadDir(dir); rerr == nil && len(entries) > 0 {
			// A new experiment directory appears whole, manifest and all (makeDir): one that
			// another experiment made between the two reads holds its manifest by now.
			if old, err = ReadManifest(dir); err != nil {
				return nil, fmt.Errorf("%s is not empty and holds no experiment; use another --out", dir)
			}
		}
	}
	if err == nil {
		if err := sameExperiment(dir, old, m); err != nil {
			return nil, err
		}
	}
	return &Prepared{Preset: p, Options: o, All: all, Mine: mine, Manifest: m, Dir: dir}, nil
}

// sameExperiment refuses the directory dir, holding the experiment old, for the experiment m.
func sameExperiment(dir string, old, m Manifest) error {
	if err := old.compatible(m); err != nil {
		return fmt.Errorf("%s holds another experiment: %v; use another --out", dir, err)
	}
	if old.RunsDir != m.RunsDir {
		return fmt.Errorf("%s keeps its runs in %s, not %s; use another --out", dir, old.RunsDir, m.RunsDir)
	}
	if old.Shard != m.Shard {
		return fmt.Errorf("%s holds shard %q of this experiment, not %q; use another --out", dir, old.Shard, m.Shard)
	}
	return nil
}

// experimentTempPrefix names the directory a new experiment directory is written in before it
// is renamed into place.
const experimentTempPrefix = ".experiment-"

// makeDir makes the experiment directory with its manifest. A new one appears whole, manifest
// and all (written beside it and renamed into place), so that an experiment started at the
// same moment never finds it without one; where that one made it first, it must hold this
// experiment.
func (pr *Prepared) makeDir() error {
	if _, err := ReadManifest(pr.Dir); err != nil {
		// A symbolic link to an empty directory is written through: the rename fills its target.
		dir := pr.Dir
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			dir = real
		}
		parent := filepath.Dir(filepath.Clean(dir))
		if err := os.MkdirAll(parent, 0o755); err != nil {
			return err
		}
		if err := run.RemoveLeftovers(parent, experimentTempPrefix); err != nil {
			return err
		}
		tmp, err := run.NewTempDir(parent, experimentTempPrefix)
		if err != nil {
			return err
		}
		defer tmp.Discard()
		if err := run.WriteJSONAtomic(filepath.Join(tmp.Path, ManifestFile), pr.Manifest); err != nil {
			return err
		}
		if err := tmp.Commit(dir); err != nil {
			old, rerr := ReadManifest(pr.Dir)
			if rerr != nil {
				return err
			}
			if err := sameExperiment(pr.Dir, old, pr.Manifest); err != nil {
				return err
			}
		}
	}
	if err := os.MkdirAll(pr.Manifest.runDir(pr.Dir, ""), 0o755); err != nil {
		return err
	}
	return run.WriteJSONAtomic(filepath.Join(pr.Dir, ManifestFile), pr.Manifest)
}

// Run trains this shard's runs (continuing unfinished ones from their checkpoints, skipping
// finished ones), scores each on its table's test set and, for a whole plan, writes the report.
// It returns an error when a run failed; the report then shows what finished.
func (pr *Prepared) Run(mc Machine) error {
	r, err := pr.Start(mc)
	if err != nil {
		return err
	}
	pr.follow(r, mc)
	return pr.Finish(r)
}

// Start writes the manifest and begins training in the background; Finish, once the runner is
// done, writes the report.
func (pr *Prepared) Start(mc Machine) (*Runner, error) {
	if err := pr.makeDir(); err != nil {
		return nil, err
	}
	sets := newTestSets(pr.Dir, func(msg string) {
		if mc.Progress != nil {
			fmt.Fprintf(mc.Progress, "experiment %s: warning: %s\n", pr.Preset.Name, msg)
		}
	})
	b := Batch{Name: pr.Preset.Name, Title: pr.Preset.Reproduces, Seeds: pr.Options.Seeds, Parallel: max(1, mc.Jobs)}
	arms := map[int]int{} // preset arm -> batch variant
	var armOf []int       // batch variant -> preset arm
	for _, r := range pr.Mine {
		if _, ok := arms[r.Arm]; !ok {
			arms[r.Arm] = len(b.Variants)
			armOf = append(armOf, r.Arm)
			b.Variants = append(b.Variants, pr.Preset.Arms[r.Arm].Label)
		}
		dir := pr.Manifest.runDir(pr.Dir, r.ID)
		b.Runs = append(b.Runs, Run{Variant: arms[r.Arm], Seed: r.Seed, Config: r.Config, Dir: dir, Trained: trained(dir, r.Config)})
		b.Steps = max(b.Steps, r.Config.Steps)
		b.Maximize = envs.MustFacts(r.Config.Task).Metric.Maximize
	}
	b.After = func(r Run) error {
		sc := scoring{score: mc.Score, sample: mc.Sample}
		// Only SPG actors end in a Sinkhorn layer to sample from; the others keep their
		// single decode.
		if run.ModelOf(r.Config).Kind == run.KindSPG {
			sc.sampling = pr.Manifest.Sampling
		}
		var err error
		if sc.set, err = sets.get(r.Config.Task, r.Config.N, r.Config.Data, r.Config.TestSize); err != nil {
			return err
		}
		for _, n := range pr.Preset.Arms[armOf[r.Variant]].TestSizes {
			set, err := sets.get(r.Config.Task, n, r.Config.Data, TransferTestSize)
			if err != nil {
				return err
			}
			sc.transfer = append(sc.transfer, set)
		}
		ts, err := scoreLocked(r.Dir, sc)
		if err != nil {
			return err
		}
		if ts != nil && mc.Progress != nil {
			// The arm and seed first: the directory's name is the configuration's, shared between presets.
			fmt.Fprintf(mc.Progress, "experiment %s: %s seed %d (%s): test %s %.4f%s (checkpoint of step %d)\n", pr.Preset.Name,
				pr.Preset.Arms[armOf[r.Variant]].Label, r.Seed, filepath.Base(r.Dir), ts.MetricName, ts.Mean, sampledNote(ts), ts.Step)
		}
		return nil
	}
	return StartBatch(b, mc.Start)
}

// sampledNote is ", sampled 0.9978 (K = 16, x8, gumbel-scale 0.003)" for a score with a sampled
// decode, else "".
func sampledNote(ts *TestScore) string {
	if ts.Sampled == nil {
		return ""
	}
	return fmt.Sprintf(", sampled %.4f (%s)", ts.Sampled.Mean, ts.Sampled.Sampling)
}

// ErrStopped is what Finish returns, wrapped, when every run that did not finish was stopped
// (Machine.Stop) or never started, none failed: running the same command again continues them.
var ErrStopped = errors.New("stopped")

// Finish writes the report of a whole plan once r is done, and returns an error naming the
// first run that failed, if any, else one wrapping ErrStopped if a run did not finish.
func (pr *Prepared) Finish(r *Runner) error {
	<-r.Done()
	s := r.Snapshot()
	var failed, unfinished []string
	for _, v := range s.Variants {
		for _, r := range v.Runs {
			switch {
			case r.Phase == Finished:
			case r.Err != nil:
				failed = append(failed, fmt.Sprintf("%s (%s: %v)", filepath.Base(r.Dir), r.Phase, r.Err))
			case r.Phase == Failed:
				failed = append(failed, fmt.Sprintf("%s (%s)", filepath.Base(r.Dir), r.Phase))
			default:
				unfinished = append(unfinished, fmt.Sprintf("%s (%s)", filepath.Base(r.Dir), r.Phase))
			}
		}
	}
	if pr.Manifest.Shard == "" {
		// A stop must end promptly: the report then reads only the references already computed.
		if err := writeReport(pr.Dir, len(unfinished) > 0); err != nil {
			return err
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d runs did not finish: %s", len(failed)+len(unfinished), s.Total, failed[0])
	}
	if len(unfinished) > 0 {
		return fmt.Errorf("%w with %d of %d runs unfinished", ErrStopped, len(unfinished), s.Total)
	}
	return nil
}

// trained reports whether the run in dir reached its budget in an earlier session: it has its
// test score, or the engine's result of a run of cfg.Steps.
func trained(dir string, cfg run.Config) bool {
	if _, err := os.Stat(filepath.Join(dir, TestScoreFile)); err == nil {
		return true
	}
	var res struct {
		Step int `json:"step"`
	}
	return run.ReadJSON(filepath.Join(dir, run.ResultFile), &res) == nil && res.Step == cfg.Steps
}

// waitReportEvery is how often follow reports while a run is in a long preparation.
const waitReportEvery = 3 * time.Second

// follow waits for the runner, printing progress every mc.Every, or every waitReportEvery while
// a run solves its references, and stopping it on mc.Stop. The first line comes after
// waitReportEvery, so that the command is never silent for long after its plan line.
func (pr *Prepared) follow(r *Runner, mc Machine) {
	every := mc.Every
	if every <= 0 {
		every = 30 * time.Second
	}
	tick := time.NewTicker(min(every, waitReportEvery))
	defer tick.Stop()
	start := time.Now()
	var last time.Time // no line yet
	stop := mc.Stop
	for {
		select {
		case <-r.Done():
			if mc.Progress != nil {
				fmt.Fprintln(mc.Progress, progressLine(pr.Preset.Name, progressOf(r.Snapshot()), time.Since(start)))
			}
			return
		case <-stop:
			r.Stop()
			stop = nil
			if mc.Progress != nil {
				fmt.Fprintf(mc.Progress, "experiment %s: stopping: every live run writes a checkpoint; the same command continues\n", pr.Preset.Name)
			}
		case now := <-tick.C:
			p := progressOf(r.Snapshot())
			if mc.Progress != nil && (last.IsZero() || now.Sub(last) >= every || p.waiting > 0) {
				fmt.Fprintln(mc.Progress, progressLine(pr.Preset.Name, p, time.Since(start)))
				last = now
			}
		}
	}
}

// progress counts a batch's runs and steps; fresh counts the steps trained by this process,
// which the rate is measured on (runs finished or checkpointed earlier would inflate it).
type progress struct {
	done, failed, runs  int
	steps, fresh, total int
	// waiting runs are solving references: waitDone of waitTotal instances.
	waiting, waitDone, waitTotal int
	// elsewhere runs are held by another process.
	elsewhere int
}

func progressOf(s Snapshot) progress {
	var p progress
	for _, v := range s.Variants {
		for _, r := range v.Runs {
			p.runs++
			p.steps += min(r.Step, r.Total)
			p.fresh += max(0, min(r.Step, r.Total)-r.Start)
			p.total += r.Total
			if r.Elsewhere {
				p.elsewhere++
			}
			if r.Wait.What != "" {
				p.waiting++
				p.waitDone += r.Wait.Done
				p.waitTotal += r.Wait.Total
			}
			switch r.Phase {
			case Finished:
				p.done++
			case Failed:
				p.failed++
			}
		}
	}
	return p
}

// progressLine is "experiment sort: 3/12 runs done, steps 2,340/9,372, 41.2 steps/s, ETA 2m50s".
func progressLine(name string, now progress, elapsed time.Duration) string {
	s := fmt.Sprintf("experiment %s: %d/%d runs done", name, now.done, now.runs)
	if now.failed > 0 {
		s += fmt.Sprintf(" (%d failed)", now.failed)
	}
	s += fmt.Sprintf(", steps %d/%d", now.steps, now.total)
	if now.waiting > 0 {
		s += fmt.Sprintf(", %d preparing (references %d/%d)", now.waiting, now.waitDone, now.waitTotal)
	}
	if now.elsewhere > 0 {
		s += fmt.Sprintf(", %d waiting for another process that trains them", now.elsewhere)
	}
	rate := float64(now.fresh) / elapsed.Seconds()
	if rate > 0 && now.steps < now.total {
		eta := time.Duration(float64(now.total-now.steps) / rate * float64(time.Second))
		s += fmt.Sprintf(", %.1f steps/s, ETA %s", rate, eta.Round(time.Second))
	}
	return s
}

// sortedRuns orders manifest runs by arm, then seed.
func sortedRuns(runs []ManifestRun) []ManifestRun {
	out := slices.Clone(runs)
	slices.SortFunc(out, func(a, b ManifestRun) int {
		if a.Arm != b.Arm {
			return a.Arm - b.Arm
		}
		return int(a.Seed) - int(b.Seed)
	})
	return out
}
