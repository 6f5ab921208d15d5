package ui

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"spg-tui/envs"
	"spg-tui/experiments"
	"spg-tui/run"
	"spg-tui/run/runlog"
)

// compareRun is one run of the compare view: its label, the engine that follows its
// metrics.jsonl, what its records have told so far, and how the view shows it.
type compareRun struct {
	label  string
	eng    *runlog.Replay
	data   *runData
	pinned bool
	hidden bool
	wall   float64 // the run's training time at its last record, in seconds
}

// openCompareRuns opens the runs in dirs: each run directory as itself, each experiment
// directory as those of its runs that have started, labelled by arm and seed. A run named twice
// (an experiment and a glob of its runs, a path and a symlink to it) is opened once.
func openCompareRuns(dirs []string) ([]*compareRun, error) {
	var runs []*compareRun
	var seen []os.FileInfo
	// add opens the run in dir under label, unless it is open already.
	add := func(dir, label string) error {
		st, err := os.Stat(dir)
		if err != nil {
			return err
		}
		if slices.ContainsFunc(seen, func(o os.FileInfo) bool { return os.SameFile(o, st) }) {
			return nil
		}
		seen = append(seen, st)
		r, err := runlog.Open(dir)
		if err != nil {
			return err
		}
		runs = append(runs, &compareRun{label: label, eng: r, data: newRunData()})
		return nil
	}
	for _, dir := range dirs {
		if !experiments.IsExperimentDir(dir) {
			if err := add(dir, filepath.Base(filepath.Clean(dir))); err != nil {
				return nil, err
			}
			continue
		}
		snap, _, err := experiments.ViewSnapshot(dir)
		if err != nil {
			return nil, fmt.Errorf("view %s: %v", dir, err)
		}
		for _, v := range snap.Variants {
			for _, rr := range v.Runs {
				if !runlog.Started(rr.Dir) {
					continue
				}
				if err := add(rr.Dir, fmt.Sprintf("%s s%d", v.Name, rr.Seed)); err != nil {
					return nil, err
				}
			}
		}
	}
	disambiguate(runs)
	return runs, nil
}

// ExpandViewDirs expands the globs among the directories tui --view names (a shell that did
// not), in order and without repeats (r/x, ./r/x and r/x/ are one directory). A glob keeps the directories it matches (not the files:
// runs/* next to runs/notes.txt) and is refused when it matches none; a named path that is no
// directory is refused.
func ExpandViewDirs(args []string) ([]string, error) {
	var dirs []string
	isDir := func(p string) bool {
		st, err := os.Stat(p)
		return err == nil && st.IsDir()
	}
	for _, a := range args {
		matches := []string{a}
		if strings.ContainsAny(a, "*?[") {
			m, err := filepath.Glob(a)
			if err != nil {
				return nil, fmt.Errorf("--view %s: %v", a, err)
			}
			matches = slices.DeleteFunc(m, func(p string) bool { return !isDir(p) })
			if len(matches) == 0 {
				return nil, fmt.Errorf("--view %s: no directory matches", a)
			}
		}
		for _, d := range matches {
			d = filepath.Clean(d)
			if !isDir(d) {
				return nil, fmt.Errorf("--view %s: not a run or experiment directory", d)
			}
			if !slices.Contains(dirs, d) {
				dirs = append(dirs, d)
			}
		}
	}
	return dirs, nil
}

// disambiguate labels runs of the same name by their parent directory as well.
func disambiguate(runs []*compareRun) {
	for _, r := range runs {
		same := slices.IndexFunc(runs, func(o *compareRun) bool { return o != r && o.label == r.label })
		if same >= 0 {
			r.label = filepath.Base(filepath.Dir(filepath.Clean(r.eng.Info().Dir))) + "/" + r.label
		}
	}
}

// poll takes the records the run's trainer has written since the last poll (all of them again
// after a resume rewrote the file); it reports whether anything changed.
func (r *compareRun) poll(max int) (bool, error) {
	n := 0
	restart, err := r.eng.Tail(max, func(rec run.Record) {
		r.data.add(rec)
		r.wall = math.Max(r.wall, rec.Wall)
		n++
	})
	if restart {
		r.data, r.wall = r.data.restarted(), 0
	}
	return n > 0 || restart, err
}

// metric is the run's validation metric.
func (r *compareRun) metric() envs.Metric {
	f, err := envs.FactsOf(r.eng.Config().Task)
	if err != nil {
		return envs.Metric{Name: r.data.eval.name, Maximize: true}
	}
	return f.Metric
}

// best is the run's best validation score, NaN before its first.
func (r *compareRun) best() float64 {
	v := r.data.eval.metric
	if len(v) == 0 {
		return math.NaN()
	}
	if r.metric().Maximize {
		return slices.Max(v)
	}
	return slices.Min(v)
}

// last is the run's latest validation score, NaN before its first.
func (r *compareRun) last() float64 {
	v := r.data.eval.metric
	if len(v) == 0 {
		return math.NaN()
	}
	return v[len(v)-1]
}

// rate is the run's mean training rate in steps per second.
func (r *compareRun) rate() float64 {
	if r.wall <= 0 {
		return 0
	}
	return float64(r.eng.Status().Step) / r.wall
}

// orPaper is a run's recipe: one recorded before recipes were is the paper's.
func orPaper(recipe string) string {
	if recipe == "" {
		return run.RecipePaper
	}
	return recipe
}
