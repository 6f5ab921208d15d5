package experiments

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"spg-tui/envs"
	"spg-tui/run"
)

// ManifestFile describes an experiment directory: which preset, plan and shard its runs are.
const ManifestFile = "experiment.json"

// manifestFormat marks an experiment directory's manifest.
const manifestFormat = "spg-tui experiment"

// Manifest is the content of ManifestFile.
type Manifest struct {
	Format  string            `json:"format"`
	Version int               `json:"version"`
	Preset  string            `json:"preset"`
	Seeds   int               `json:"seeds"`
	Scale   float64           `json:"scale"`
	Models  []string          `json:"models,omitempty"`
	Flags   map[string]string `json:"flags,omitempty"`
	// Plan identifies every shard's runs together; Total counts them.
	Plan  string `json:"plan"`
	Total int    `json:"total"`
	// Shard is "i/n" for a shard's directory, "" for the whole plan.
	Shard string `json:"shard,omitempty"`
	// RunsDir is where the runs are, one directory per run ID: relative to the experiment
	// directory (its runs/ by default), or absolute; several experiments may share one, and
	// with it the runs they have in common.
	RunsDir string `json:"runs_dir"`
	// Runs are this directory's runs.
	Runs []ManifestRun `json:"runs"`
	// Sampling is the sampled decode every run is also scored with; nil for the single decode
	// only.
	Sampling *run.Decoding `json:"sampling,omitempty"`
	// MergedFrom are the shards' directories of a merge (absolute), nil for a directory that
	// trained its runs.
	MergedFrom []string `json:"merged_from,omitempty"`
}

// runDir is the directory of run id of the experiment in dir.
func (m Manifest) runDir(dir, id string) string {
	if filepath.IsAbs(m.RunsDir) {
		return filepath.Join(m.RunsDir, id)
	}
	return filepath.Join(dir, m.RunsDir, id)
}

// ManifestRun is one run of a manifest.
type ManifestRun struct {
	ID   string `json:"id"`
	Arm  int    `json:"arm"`
	Seed uint64 `json:"seed"`
}

// RunsDir is the default place of an experiment directory's runs, and where merge puts them.
const RunsDir = "runs"

// maxManifestBytes bounds a manifest read back: the largest plan (MaxSeeds seeds of every arm
// of a preset) writes a few MB.
const maxManifestBytes = 64 << 20

// ReadManifest reads the manifest of the experiment directory dir.
func ReadManifest(dir string) (Manifest, error) {
	var m Manifest
	if err := run.ReadJSONBounded(filepath.Join(dir, ManifestFile), maxManifestBytes, &m); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return m, fmt.Errorf("%s is not an experiment directory (no %s)", dir, ManifestFile)
		}
		return m, err
	}
	if m.Format != manifestFormat {
		return m, fmt.Errorf("%s: not an experiment manifest", filepath.Join(dir, ManifestFile))
	}
	if m.RunsDir == "" { // written before runs could live elsewhere
		m.RunsDir = RunsDir
	}
	return m, nil
}

// IsExperimentDir reports whether dir holds an experiment (its manifest).
func IsExperimentDir(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, ManifestFile))
	return err == nil
}

// compatible returns an error naming the first way b's plan differs from a's.
func (a Manifest) compatible(b Manifest) error {
	switch {
	case a.Preset != b.Preset:
		return fmt.Errorf("preset %s vs %s", a.Preset, b.Preset)
	case a.Version != b.Version:
		return fmt.Errorf("preset version %d vs %d (made by different spg-tui versions)", a.Version, b.Version)
	case a.Plan != b.Plan && a.Seeds == b.Seeds && a.Scale == b.Scale && slices.Equal(a.Models, b.Models) && maps.Equal(a.Flags, b.Flags):
		return errors.New("plans differ: one was made by another spg-tui version, whose preset planned other runs for the same options")
	case a.Plan != b.Plan:
		return fmt.Errorf("plans differ (seeds %d vs %d, scale %g vs %g, or models or training flags)", a.Seeds, b.Seeds, a.Scale, b.Scale)
	case samplingName(a.Sampling) != samplingName(b.Sampling):
		return fmt.Errorf("test decodes differ (%s vs %s%s)", samplingName(a.Sampling), samplingName(b.Sampling), unitsOnly(a.Sampling, b.Sampling))
	}
	return nil
}

// options are the options the manifest was made with (its overrides read back), with seeds
// seeds (0: the manifest's).
func (m Manifest) options(seeds int) (Options, error) {
	ov, err := ReadOverrides(m.Flags)
	if seeds == 0 {
		seeds = m.Seeds
	}
	return Options{Preset: m.Preset, Seeds: seeds, Scale: m.Scale, Models: m.Models, Overrides: ov}, err
}

// plan expands the manifest's options again and checks that they give its plan: a directory
// made by a version whose presets differ is refused.
func (m Manifest) plan(dir string) ([]Planned, error) {
	o, err := m.options(0)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", dir, err)
	}
	_, all, err := Expand(o)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", dir, err)
	}
	if planHash(m.Preset, all) == m.Plan {
		return all, nil
	}
	if legacy := withEarlierData(all); planHash(m.Preset, legacy) == m.Plan {
		return legacy, nil
	}
	return nil, fmt.Errorf("%s: plan %s is not this spg-tui's plan of the same options (made by another version)", dir, m.Plan)
}

// withEarlierData is the plan runs as made before tasks named a default data spec: each run on
// its task's default data (sort's range) instead of "", the data those runs trained on, and
// named for it.
func withEarlierData(runs []Planned) []Planned {
	out := make([]Planned, len(runs))
	for i, r := range runs {
		if d := envs.DefaultData(r.Config.Task); d != "" && r.Config.Data == d {
			r.Config.Data = ""
			r.ID = RunID(r.Config)
		}
		out[i] = r
	}
	return out
}

// unitsOnly names the noise's units when they are all that differs between two samplings, as
// between a directory made before --gumbel-noise (absolute) and the same command now (relative),
// which the names alone leave to be spotted.
func unitsOnly(a, b *run.Decoding) string {
	if a == nil || b == nil || a.Units() == b.Units() {
		return ""
	}
	c := *b
	c.Noise = a.Units()
	if samplingName(a) != samplingName(&c) {
		return ""
	}
	return fmt.Sprintf(": --gumbel-noise %s vs %s", a.Units(), b.Units())
}

// samplingName names an experiment's test decodes: "single decode only", or the sampling.
func samplingName(s *run.Decoding) string {
	if s == nil {
		return "single decode only"
	}
	return fmt.Sprintf("single and sampled, %s, seed %d", *s, s.Seed)
}
