package experiments

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"spg-tui/run"
)

// mergedFile is a file of a run that a report reads (checkpoints stay in the shards), with
// the check its content must pass before it is copied.
type mergedFile struct {
	name  string
	check func([]byte) error
}

var mergedFiles = []mergedFile{
	{run.ConfigFile, decodesAs[run.Config]},
	{run.MetricsFile, func(b []byte) error { _, err := run.DecodeRecords(bytes.NewReader(b)); return err }},
	{TestScoreFile, decodesAs[TestScore]},
	{run.ResultFile, decodesAs[json.RawMessage]},
}

// decodesAs checks that b is the JSON of a T.
func decodesAs[T any](b []byte) error {
	var v T
	return json.Unmarshal(b, &v)
}

// mergeTempPrefix names the directory a merge writes before renaming it into place.
const mergeTempPrefix = ".merge-"

// Merged says what a merge wrote: Runs of the plan's Total runs.
type Merged struct{ Runs, Total int }

// Merge builds the experiment directory out from the shards' directories: it checks that they
// are shards of one plan (same preset, version and runs) that together hold every run of it
// (or, with partial, some of them: the report then says that it is partial), copies each run's
// configuration, metrics and test score and the test sets into out, and writes the report.
// Every file is checked as it is read, and an error names the shard's file at fault. out must
// not exist, be empty or hold an earlier merge of the plan, which is replaced: the merge is
// written beside it and swapped into place whole (run.TempDir.Replace), so that a failed or
// killed merge leaves out as it was or replaced, never missing.
func Merge(out string, shards []string, partial bool) (Merged, error) {
	if out == "" {
		return Merged{}, errors.New("--out is required (the merged experiment directory)")
	}
	if len(shards) == 0 {
		return Merged{}, errors.New("no shard directories to merge")
	}
	if err := run.CheckDirPath(out); err != nil {
		return Merged{}, err
	}
	if base := filepath.Base(filepath.Clean(out)); run.IsTempName(base, mergeTempPrefix) {
		return Merged{}, fmt.Errorf("--out %s: a name like %sN is a merge's temporary directory, which later merges beside it would read as left by a killed merge; use another name", out, mergeTempPrefix)
	}
	// A symbolic link to a directory is written through: the rename replaces its target.
	if real, err := filepath.EvalSymlinks(out); err == nil {
		out = real
	}
	if err := distinctShards(shards); err != nil {
		return Merged{}, err
	}
	var first Manifest
	merged := map[string]ManifestRun{}
	from := map[string]string{} // run ID -> its directory
	in := map[string]string{}   // run ID -> the input that holds it
	for i, dir := range shards {
		m, err := ReadManifest(dir)
		if err != nil {
			return Merged{}, err
		}
		if m.Version != PresetVersion {
			return Merged{}, fmt.Errorf("%s: preset version %d, this spg-tui merges version %d", dir, m.Version, PresetVersion)
		}
		if err := isShard(dir, m); err != nil {
			return Merged{}, err
		}
		if i == 0 {
			first = m
		} else if err := first.compatible(m); err != nil {
			return Merged{}, fmt.Errorf("%s and %s are not shards of one experiment: %v", shards[0], dir, err)
		}
		for _, r := range m.Runs {
			// A run held twice would be taken from whichever input came last: the report
			// would depend on the order of the arguments.
			if prev, ok := in[r.ID]; ok {
				return Merged{}, fmt.Errorf("%s and %s both hold run %s; give shards that split the plan (same --shard n, each i once)", prev, dir, r.ID)
			}
			merged[r.ID] = r
			in[r.ID] = dir
			from[r.ID] = m.runDir(dir, r.ID)
		}
	}
	all, err := first.plan(shards[0])
	if err != nil {
		return Merged{}, err
	}
	inPlan := map[string]bool{}
	for _, pl := range all {
		inPlan[pl.ID] = true
	}
	for id := range merged {
		if !inPlan[id] {
			return Merged{}, fmt.Errorf("%s: run %s is not in the plan", from[id], id)
		}
	}
	if len(merged) < len(all) && !partial {
		return Merged{}, fmt.Errorf("the shards hold %d of the plan's %d runs (%s); merge every shard, or give --partial for a report marked partial",
			len(merged), len(all), missingShards(all, merged, shards))
	}
	for _, dir := range shards {
		if abs(dir) == abs(out) || strings.HasPrefix(abs(dir), abs(out)+string(filepath.Separator)) {
			return Merged{}, fmt.Errorf("--out %s is or holds the shard %s; merge into a new directory", out, dir)
		}
	}
	replace, err := earlierMerge(out, first)
	if err != nil {
		return Merged{}, err
	}

	m := first
	m.Shard, m.RunsDir, m.MergedFrom = "", RunsDir, nil
	m.Runs = nil
	for _, r := range merged {
		m.Runs = append(m.Runs, r)
	}
	m.Runs = sortedRuns(m.Runs)
	for _, dir := range shards {
		m.MergedFrom = append(m.MergedFrom, abs(dir))
	}
	parent := filepath.Dir(filepath.Clean(out))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return Merged{}, err
	}
	if err := run.RemoveLeftovers(parent, mergeTempPrefix); err != nil {
		return Merged{}, err
	}
	tmp, err := run.NewTempDir(parent, mergeTempPrefix)
	if err != nil {
		return Merged{}, err
	}
	defer tmp.Discard()
	if err := writeMerge(tmp.Path, m, from, shards); err != nil {
		return Merged{}, err
	}
	if replace {
		err = tmp.Replace(out)
	} else {
		err = tmp.Commit(out)
	}
	return Merged{Runs: len(m.Runs), Total: len(all)}, err
}

// writeMerge writes the merged experiment m into the new directory dir: the files of each run
// (from holds their directories), the shards' test sets, the manifest and the report.
func writeMerge(dir string, m Manifest, from map[string]string, shards []string) error {
	for _, r := range m.Runs {
		dst := filepath.Join(dir, RunsDir, r.ID)
		if err := os.MkdirAll(dst, 0o755); err != nil {
			return err
		}
		for _, f := range mergedFiles {
			if err := copyChecked(filepath.Join(from[r.ID], f.name), filepath.Join(dst, f.name), f.check); err != nil {
				return err
			}
		}
	}
	for _, shard := range shards {
		sets, _ := filepath.Glob(filepath.Join(shard, "testsets", "*.json"))
		for _, s := range sets {
			if err := os.MkdirAll(filepath.Join(dir, "testsets"), 0o755); err != nil {
				return err
			}
			if err := copyChecked(s, filepath.Join(dir, "testsets", filepath.Base(s)), decodesAs[TestSet]); err != nil {
				return err
			}
		}
	}
	if err := run.WriteJSONAtomic(filepath.Join(dir, ManifestFile), m); err != nil {
		return err
	}
	return WriteReport(dir)
}

// isShard refuses an input dir (with manifest m) that is not a shard: a whole experiment has its
// report already, and a merge's runs are those of its shards, which would count twice.
func isShard(dir string, m Manifest) error {
	switch {
	case m.MergedFrom != nil:
		return fmt.Errorf("%s is a merge, not a shard; merge the shards it was made from", dir)
	case m.Shard == "":
		return fmt.Errorf("%s is a whole experiment (run without --shard), not a shard; its report is its own", dir)
	}
	return nil
}

// earlierMerge reports whether out holds an earlier merge of plan m (to be replaced), and
// refuses any other content.
func earlierMerge(out string, m Manifest) (bool, error) {
	old, err := ReadManifest(out)
	if err == nil {
		if err := m.compatible(old); err != nil {
			return false, fmt.Errorf("%s holds another experiment: %v; use another --out", out, err)
		}
		if old.MergedFrom == nil {
			return false, fmt.Errorf("%s holds this experiment's runs, not a merge of them; merge into a new directory", out)
		}
		return true, nil
	}
	if entries, rerr := os.ReadDir(out); rerr == nil && len(entries) > 0 {
		return false, fmt.Errorf("%s is not empty and holds no experiment; use another --out", out)
	}
	return false, nil
}

// distinctShards refuses a shard directory given twice, under any path: its runs would count
// once, and the merge would name a shard it lacks instead.
func distinctShards(shards []string) error {
	seen := make([]os.FileInfo, len(shards))
	for i, dir := range shards {
		fi, err := os.Stat(dir)
		if err != nil {
			continue // ReadManifest names what is wrong with it
		}
		for j, prev := range seen[:i] {
			switch {
			case prev == nil || !os.SameFile(prev, fi):
			case shards[j] == dir:
				return fmt.Errorf("%s: the same shard directory given twice; give each shard once", dir)
			default:
				return fmt.Errorf("%s and %s: the same shard directory given twice; give each shard once", shards[j], dir)
			}
		}
		seen[i] = fi
	}
	return nil
}

// missingShards says which shards hold the runs of all that merged lacks: "shard 1/2" when
// the shards given split the plan alike, else the first missing run.
func missingShards(all []Planned, merged map[string]ManifestRun, shards []string) string {
	n := 0
	for _, dir := range shards {
		m, _ := ReadManifest(dir)
		sh, err := ParseShard(m.Shard)
		if err != nil || (n != 0 && sh.N != n) {
			n = -1
			break
		}
		n = sh.N
	}
	var names []string
	for i, pl := range all {
		if _, ok := merged[pl.ID]; ok {
			continue
		}
		if n < 1 {
			return "run " + pl.ID + " is missing"
		}
		if name := fmt.Sprintf("%d/%d", i%n, n); !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	if len(names) == 1 {
		return "shard " + names[0] + " is missing"
	}
	return "shards " + strings.Join(names, ", ") + " are missing"
}

func abs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return a
}

// copyChecked copies src to dst if its content passes check; an error names src. A missing
// src (a run that has not finished) is skipped.
func copyChecked(src, dst string, check func([]byte) error) error {
	b, err := run.ReadFileBounded(src, run.MaxJSONBytes)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := check(b); err != nil {
		return fmt.Errorf("%s: %v", src, err)
	}
	return run.WriteAtomic(dst, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}
