package experiments

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"spg-tui/envs"
	"spg-tui/run"
)

// fakeSample solves each instance with a permutation drawn from the run's ID and the sampling's
// seed, so that a run samples the same wherever it is scored.
func fakeSample(dir string, env envs.Env, insts []envs.Instance, s run.Decoding) ([]envs.Solution, error) {
	sols, _, err := fakeScore(filepath.Join(dir, "sampled", strings.Repeat("x", int(s.Seed))), env, insts)
	return sols, err
}

func samplingMachine() Machine {
	mc := machine()
	mc.Sample = fakeSample
	return mc
}

// decodeRows are the lines of results.csv that give the test metrics of the sampling table
// (its times are measured, so they differ between processes).
func decodeRows(csv []byte) string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(csv))
	for sc.Scan() {
		if l := sc.Text(); strings.HasPrefix(l, "sampling,") && !strings.Contains(l, "_ms_per_instance") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestSampledScoresSideBySide checks that an experiment with a sampled decode scores every run
// both ways and reports them side by side, that two shards merged report the same numbers as
// one process, and that a directory or a shard of another decoding is refused.
func TestSampledScoresSideBySide(t *testing.T) {
	base := t.TempDir()
	s := &run.Decoding{Samples: 4, GumbelScale: 0.003, Augment: true, Seed: 2}
	o := tinyOptions("penalty", 2)
	o.Sampling = s
	one := filepath.Join(base, "one")
	pr, err := Prepare(o, one)
	if err != nil {
		t.Fatal(err)
	}
	if err := pr.Run(samplingMachine()); err != nil {
		t.Fatal(err)
	}
	res, err := LoadResults(one)
	if err != nil {
		t.Fatal(err)
	}
	for _, arm := range res.Arms {
		for _, sr := range arm {
			if sr.Test == nil || sr.Test.Sampled == nil || sr.Test.Sampled.Sampling != *s || len(sr.Test.Sampled.Metric) != 20 {
				t.Fatalf("run %s: test score %+v, want a sampled score of 20 instances with %+v", sr.ID, sr.Test, *s)
			}
		}
	}
	report := string(read(t, filepath.Join(one, ReportFile)))
	for _, want := range []string{"## Single and sampled decodes on the test set", "| arm | single decode | sampled (K = 4, x8, gumbel-scale 0.003) |", "noise seed 2"} {
		if !strings.Contains(report, want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	csv := read(t, filepath.Join(one, ResultsFile))
	for _, want := range []string{"sampling,penalty on,single,,seed 2,", "sampling,penalty on,sampled,,mean,", "sampling,penalty off,sampled_ms_per_instance,,seed 1,"} {
		if !bytes.Contains(csv, []byte(want)) {
			t.Errorf("results.csv has no line starting %q", want)
		}
	}

	var shards []string
	for i := range 2 {
		so := o
		so.Shard = Shard{I: i, N: 2}
		dir := filepath.Join(base, "shard"+itoa(i))
		pr, err := Prepare(so, dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := pr.Run(samplingMachine()); err != nil {
			t.Fatal(err)
		}
		shards = append(shards, dir)
	}
	merged := filepath.Join(base, "merged")
	if _, err := Merge(merged, shards, false); err != nil {
		t.Fatal(err)
	}
	if a, b := decodeRows(csv), decodeRows(read(t, filepath.Join(merged, ResultsFile))); a != b || a == "" {
		t.Errorf("the sampling table differs between one process and two shards merged:\n%s\n---\n%s", a, b)
	}

	single := tinyOptions("penalty", 2)
	single.Shard = Shard{I: 1, N: 2}
	plain := filepath.Join(base, "plain")
	runPreset(t, single, plain)
	if _, err := Merge(filepath.Join(base, "bad"), []string{shards[0], plain}, false); err == nil || !strings.Contains(err.Error(), "test decodes differ") {
		t.Errorf("merge of a sampled and a single-decode shard: %v", err)
	}
	other := o
	other.Sampling = &run.Decoding{Samples: 8, GumbelScale: 0.003, Augment: true, Seed: 2}
	if _, err := Prepare(other, one); err == nil || !strings.Contains(err.Error(), "test decodes differ") {
		t.Errorf("another sampling in the same directory: %v", err)
	}
	relative := *s
	relative.Noise = run.NoiseRelative
	other.Sampling = &relative
	if _, err := Prepare(other, one); err == nil || !strings.Contains(err.Error(), "seed 2: --gumbel-noise absolute vs relative)") {
		t.Errorf("relative noise in a directory sampled with absolute noise: %v", err)
	}
}

// TestOldManifestSampling checks that manifests already on disk read into run.Decoding: one
// written before noise could be relative (no gumbel_noise) reads as absolute noise, one written
// since as relative, and both write back the JSON they were read from.
func TestOldManifestSampling(t *testing.T) {
	for _, c := range []struct {
		sampling, units, name string
		want                  run.Decoding
	}{
		{`{"samples":16,"gumbel_scale":0.003,"augment":true,"seed":1}`, run.NoiseAbsolute, "K = 16, x8, gumbel-scale 0.003",
			run.Decoding{Samples: 16, GumbelScale: 0.003, Augment: true, Seed: 1}},
		{`{"samples":16,"gumbel_scale":12,"gumbel_noise":"relative","augment":false,"seed":2}`, run.NoiseRelative, "K = 16, gumbel-scale 12 relative",
			run.Decoding{Samples: 16, GumbelScale: 12, Noise: run.NoiseRelative, Seed: 2}},
	} {
		dir := t.TempDir()
		old := `{"format":"spg-tui experiment","version":1,"preset":"tau","seeds":1,"scale":0.01,"plan":"p","total":0,"runs_dir":"runs","runs":[],"sampling":` + c.sampling + `}`
		if err := os.WriteFile(filepath.Join(dir, ManifestFile), []byte(old), 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := ReadManifest(dir)
		if err != nil {
			t.Fatal(err)
		}
		if m.Sampling == nil || *m.Sampling != c.want || m.Sampling.Units() != c.units || m.Sampling.String() != c.name {
			t.Errorf("sampling %s read as %+v (units %s, named %q)", c.sampling, m.Sampling, m.Sampling.Units(), m.Sampling)
		}
		if b, err := json.Marshal(m.Sampling); err != nil || string(b) != c.sampling {
			t.Errorf("sampling %s written back as %s, %v", c.sampling, b, err)
		}
	}
}

// TestSizesPresetTestsEverySize checks that the sizes preset scores each run's selected policy
// at every test size, single and sampled, and reports them by size.
func TestSizesPresetTestsEverySize(t *testing.T) {
	dir := t.TempDir()
	o := Options{Preset: "sizes", Seeds: 1, Scale: 0.001, Models: []string{run.ModelPairwise},
		Overrides: mustOverrides(map[string]string{"val-size": "10", "test-size": "20", "log-every": "100", "eval-every": "500"}),
		Sampling:  &run.Decoding{Samples: 2, GumbelScale: 0.003, Seed: 1}}
	pr, err := Prepare(o, dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := pr.Mine[0].Config; got.Recipe != run.RecipeBest || got.Steps != 1000 || got.N != 20 {
		t.Errorf("the MWM arm trains %s for %d steps at n = %d, want best for 1000 at 20", got.Recipe, got.Steps, got.N)
	}
	if err := pr.Run(samplingMachine()); err != nil {
		t.Fatal(err)
	}
	res, err := LoadResults(dir)
	if err != nil {
		t.Fatal(err)
	}
	ts := res.Arms[0][0].Test
	if ts == nil || len(ts.Transfer) != len(transferSizes) {
		t.Fatalf("test score %+v: want one transfer score per size %v", ts, transferSizes)
	}
	for i, n := range transferSizes {
		tr := ts.Transfer[i]
		want := TestSet{Task: envs.TaskMWM, N: n, Seed: TestSeed, Size: TransferTestSize}.Name()
		if tr.Set != want || len(tr.Metric) != TransferTestSize || tr.Sampled == nil {
			t.Errorf("transfer %d: set %s with %d instances (sampled %v), want %s, sampled", i, tr.Set, len(tr.Metric), tr.Sampled != nil, want)
		}
	}
	report := string(read(t, filepath.Join(dir, ReportFile)))
	for _, want := range []string{"| SPG+Pairwise · MWM-20 | N=10 | N=20 | N=50 | N=100 |", "| sampled (K = 2, gumbel-scale 0.003) |",
		"validates its deterministic policy every 500 steps", "| ms per instance, single / sampled |",
		"the runs are budgeted in steps, which they train at every scale"} {
		if !strings.Contains(report, want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	if strings.Contains(report, "learning-rate decay interval (5,000 steps") {
		t.Error("report.md says the step-budgeted runs' learning-rate schedule shrinks with the scale")
	}
	if csv := read(t, filepath.Join(dir, ResultsFile)); !bytes.Contains(csv, []byte("sizes,SPG+Pairwise · MWM-20 · single,N=100,,seed 1,")) {
		t.Error("results.csv has no single-decode score at N = 100")
	}
}
