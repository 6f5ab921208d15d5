package experiments

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"spg-tui/run"
)

// mergedFiles are the files of a run a report reads; checkpoints stay in the shards.
var mergedFiles = []string{run.ConfigFile, run.MetricsFile, TestScoreFile, run.ResultFile}

// Merge builds the experiment directory out from the shards' directories: it checks that they
// are shards of one plan (same preset, version and runs), copies each run's configuration,
// metrics and test score and the test sets into out, and writes the report. It writes nothing
// when a shard is missing, unreadable or of another plan.
func Merge(out string, shards []string) error {
	if out == "" {
		return errors.New("--out is required (the merged experiment directory)")
	}
	if len(shards) == 0 {
		return errors.New("no shard directories to merge")
	}
	var first Manifest
	merged := map[string]ManifestRun{}
	from := map[string]string{} // run ID -> its directory
	for i, dir := range shards {
		m, err := ReadManifest(dir)
		if err != nil {
			return err
		}
		if m.Version != PresetVersion {
			return fmt.Errorf("%s: preset version %d, this spg-tui merges version %d", dir, m.Version, PresetVersion)
		}
		if i == 0 {
			first = m
		} else if err := first.compatible(m); err != nil {
			return fmt.Errorf("%s and %s are not shards of one experiment: %v", shards[0], dir, err)
		}
		for _, r := range m.Runs {
			merged[r.ID] = r
			from[r.ID] = m.runDir(dir, r.ID)
		}
	}
	all, err := first.plan(shards[0])
	if err != nil {
		return err
	}
	inPlan := map[string]bool{}
	for _, pl := range all {
		inPlan[pl.ID] = true
	}
	for id := range merged {
		if !inPlan[id] {
			return fmt.Errorf("%s: run %s is not in the plan", from[id], id)
		}
	}
	if abs(out) != "" {
		for _, dir := range shards {
			if abs(dir) == abs(out) {
				return fmt.Errorf("--out %s is one of the shards; merge into a new directory", out)
			}
		}
	}
	if old, err := ReadManifest(out); err == nil {
		if err := first.compatible(old); err != nil {
			return fmt.Errorf("%s holds another experiment: %v; use another --out", out, err)
		}
	} else if entries, rerr := os.ReadDir(out); rerr == nil && len(entries) > 0 {
		return fmt.Errorf("%s is not empty and holds no experiment; use another --out", out)
	}

	m := first
	m.Shard, m.RunsDir = "", RunsDir
	m.Runs = nil
	for _, r := range merged {
		m.Runs = append(m.Runs, r)
	}
	m.Runs = sortedRuns(m.Runs)
	for _, r := range m.Runs {
		dst := filepath.Join(out, RunsDir, r.ID)
		if err := os.MkdirAll(dst, 0o755); err != nil {
			return err
		}
		for _, name := range mergedFiles {
			if err := copyFile(filepath.Join(from[r.ID], name), filepath.Join(dst, name)); err != nil {
				return err
			}
		}
	}
	for _, dir := range shards {
		sets, _ := filepath.Glob(filepath.Join(dir, "testsets", "*.json"))
		for _, s := range sets {
			if err := os.MkdirAll(filepath.Join(out, "testsets"), 0o755); err != nil {
				return err
			}
			if err := copyFile(s, filepath.Join(out, "testsets", filepath.Base(s))); err != nil {
				return err
			}
		}
	}
	if err := run.WriteJSONAtomic(filepath.Join(out, ManifestFile), m); err != nil {
		return err
	}
	return WriteReport(out)
}

func abs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return ""
	}
	return a
}

// copyFile copies src to dst atomically; a missing src (a run that has not finished) is
// skipped.
func copyFile(src, dst string) error {
	f, err := os.Open(src)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	return run.WriteAtomic(dst, func(w io.Writer) error {
		_, err := io.Copy(w, f)
		return err
	})
}
