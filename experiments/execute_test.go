package experiments

import (
	"bytes"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"spg-tui/envs"
	"spg-tui/experiments/enginetest"
	"spg-tui/run"
)

// fakeScore solves each instance with a permutation drawn from the run's ID (its directory's
// name), so that a run scores the same wherever it is scored.
func fakeScore(dir string, env envs.Env, insts []envs.Instance) ([]envs.Solution, int, error) {
	h := fnv.New64a()
	h.Write([]byte(filepath.Base(dir)))
	rng := rand.New(rand.NewPCG(h.Sum64(), 1))
	sols := make([]envs.Solution, len(insts))
	for i, inst := range insts {
		p := rng.Perm(env.N())
		sols[i] = envs.Solution{Index: i, Perm: p, Objective: env.Objective(inst, p)}
	}
	return sols, 3, nil
}

// tinyOptions is a preset at a budget the scripted engine runs in moments: 0.001 of the
// training set (an epoch of 3 steps, 60 steps per run), small validation and test sets.
func tinyOptions(preset string, seeds int) Options {
	return Options{Preset: preset, Seeds: seeds, Scale: 0.001,
		Overrides: mustOverrides(map[string]string{"val-size": "10", "test-size": "20", "log-every": "3"})}
}

func machine() Machine { return Machine{Start: enginetest.Start, Score: fakeScore, Jobs: 2} }

func runPreset(t *testing.T, o Options, dir string) {
	t.Helper()
	pr, err := Prepare(o, dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := pr.Run(machine()); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Two shards merged give the same report, numbers and figures as one process.
func TestShardsMergeAsOne(t *testing.T) {
	base := t.TempDir()
	one := filepath.Join(base, "one")
	runPreset(t, tinyOptions("penalty", 3), one)
	var shards []string
	for i := range 2 {
		o := tinyOptions("penalty", 3)
		o.Shard = Shard{I: i, N: 2}
		dir := filepath.Join(base, "shard"+itoa(i))
		runPreset(t, o, dir)
		if _, err := os.Stat(filepath.Join(dir, ReportFile)); err == nil {
			t.Errorf("shard %d wrote a report", i)
		}
		shards = append(shards, dir)
	}
	merged := filepath.Join(base, "merged")
	if _, err := Merge(merged, shards, false); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{ResultsFile, ReportFile} {
		a, b := read(t, filepath.Join(one, f)), read(t, filepath.Join(merged, f))
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between one process and two shards merged:\n%s\n---\n%s", f, a, b)
		}
	}
	csv := string(read(t, filepath.Join(one, ResultsFile)))
	// Both arms, three seeds each, a test score per seed, curves with both bands, Figure 2's
	// correlations at epochs 5 to 20.
	for _, want := range []string{"penalty-test,penalty on,MWM-10,,seed 3,", "penalty-test,penalty off,MWM-10,,mean,",
		"figure3a,penalty on,,60,ci95_hi,", "figure2-r,penalty off,epoch 20,,mean,"} {
		if !strings.Contains(csv, want) {
			t.Errorf("results.csv has no line starting %q", want)
		}
	}
	for _, png := range []string{"figure3a.png", "figure2.png"} {
		if b := read(t, filepath.Join(one, png)); !bytes.HasPrefix(b, []byte("\x89PNG")) {
			t.Errorf("%s is not a PNG", png)
		}
	}
	// Merging shards of another plan is refused, writing nothing.
	other := tinyOptions("penalty", 2)
	other.Shard = Shard{I: 0, N: 2}
	odir := filepath.Join(base, "other")
	runPreset(t, other, odir)
	bad := filepath.Join(base, "bad")
	_, err := Merge(bad, []string{shards[0], odir}, false)
	if err == nil || !strings.Contains(err.Error(), "not shards of one experiment") {
		t.Errorf("merge of two plans: %v", err)
	}
	if _, serr := os.Stat(bad); serr == nil {
		t.Error("a refused merge wrote its directory")
	}
}

// Running a preset again skips its finished runs; a directory of another preset is refused.
func TestRerunSkipsFinished(t *testing.T) {
	dir := t.TempDir()
	o := tinyOptions("exploration", 2)
	runPreset(t, o, dir)
	before := read(t, filepath.Join(dir, ResultsFile))
	pr, err := Prepare(o, dir)
	if err != nil {
		t.Fatal(err)
	}
	started := 0
	mc := machine()
	mc.Start = func(c run.Config, d string) (run.Engine, error) {
		started++
		return enginetest.Start(c, d)
	}
	if err := pr.Run(mc); err != nil {
		t.Fatal(err)
	}
	if started != 0 {
		t.Errorf("%d finished runs trained again", started)
	}
	if after := read(t, filepath.Join(dir, ResultsFile)); !bytes.Equal(before, after) {
		t.Error("the report changed on a re-run")
	}
	report := string(read(t, filepath.Join(dir, ReportFile)))
	if !strings.Contains(report, "| eps 1, decay 0.95 |") || !strings.Contains(report, "F = 4.402") {
		t.Errorf("the exploration report lacks its F-test table:\n%s", report)
	}
	if _, err := Prepare(tinyOptions("tau", 2), dir); err == nil || !strings.Contains(err.Error(), "holds another experiment") {
		t.Errorf("another preset into the same directory: %v", err)
	}
}

// The sort table, with only SPG+Sequential run: its cells are filled, PN-AC's say "not run".
func TestSortTable(t *testing.T) {
	dir := t.TempDir()
	o := tinyOptions("sort", 2)
	o.Models = []string{"spg-sequential"}
	runPreset(t, o, dir)
	report := string(read(t, filepath.Join(dir, ReportFile)))
	for _, want := range []string{"| PN-AC | not run · paper 1.0 ± 0 | not run · paper 0.998 ± 0.001 |", "| SPG+Sequential | **", "paper 0.984 ± 0.006 |"} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
}

// Presets given one runs directory share their common runs: the tau preset's tau = 0.05 arm is
// the penalty preset's penalty-on arm, trained once.
func TestPresetsShareRunsDir(t *testing.T) {
	base := t.TempDir()
	runs := filepath.Join(base, "runs")
	pen := tinyOptions("penalty", 2)
	pen.RunsDir = runs
	runPreset(t, pen, filepath.Join(base, "penalty"))
	tau := tinyOptions("tau", 2)
	tau.RunsDir = runs
	pr, err := Prepare(tau, filepath.Join(base, "tau"))
	if err != nil {
		t.Fatal(err)
	}
	var started []string
	mc := machine()
	mc.Jobs = 1
	mc.Start = func(c run.Config, d string) (run.Engine, error) {
		started = append(started, filepath.Base(d))
		return enginetest.Start(c, d)
	}
	if err := pr.Run(mc); err != nil {
		t.Fatal(err)
	}
	if len(started) != 8 {
		t.Errorf("tau trained %d runs, want 8 (10 less the 2 penalty-on runs it shares): %v", len(started), started)
	}
	for _, s := range started {
		if strings.Contains(s, RunID(pr.Mine[6].Config)) {
			t.Errorf("the shared run %s trained again", s)
		}
	}
	report := string(read(t, filepath.Join(base, "tau", ReportFile)))
	if !strings.Contains(report, "| tau=0.05 | **") {
		t.Errorf("the tau report lacks its shared arm:\n%s", report)
	}
}

// The TSP table sets the solvers' mean tours on the table's test set beside the models.
func TestTSPTable(t *testing.T) {
	dir := t.TempDir()
	o := tinyOptions("tsp", 1)
	o.Overrides = mustOverrides(map[string]string{"val-size": "10", "test-size": "4", "log-every": "3"})
	o.Models = []string{"spg-sequential"}
	runPreset(t, o, dir)
	env, _ := envs.New(envs.TaskTSP, 20)
	ds := envs.Dataset{Env: env, Seed: envs.SplitSeed(TestSeed, envs.Test), Size: 4}
	insts := []envs.Instance{ds.At(0), ds.At(1), ds.At(2), ds.At(3)}
	csv := string(read(t, filepath.Join(dir, ResultsFile)))
	for solver, row := range map[string]string{"exact": "Optimal (Held-Karp)", "christofides": "Christofides", "nn": "Nearest neighbour"} {
		sols, err := envs.SolveAll(env, solver, insts, 1)
		if err != nil {
			t.Fatal(err)
		}
		var sum float64
		for _, s := range sols {
			sum += s.Objective
		}
		want := "tsp20," + row + ",TSP-20,,mean," + strconv.FormatFloat(sum/4, 'g', 10, 64) + ",4"
		if !strings.Contains(csv, want) {
			t.Errorf("results.csv lacks %q", want)
		}
	}
	if !strings.Contains(csv, "tsp20,SPG+Sequential,TSP-20,,seed 1,") {
		t.Error("results.csv lacks the SPG+Sequential seed")
	}
}

// Shards made by another version of the presets are not merged.
func TestMergeRefusesOtherVersion(t *testing.T) {
	base := t.TempDir()
	a, b := runPenaltyShards(t, base)
	m, err := ReadManifest(b)
	if err != nil {
		t.Fatal(err)
	}
	m.Version = PresetVersion + 1
	if err := run.WriteJSONAtomic(filepath.Join(b, ManifestFile), m); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(base, "out")
	if _, err := Merge(out, []string{a, b}, false); err == nil || !strings.Contains(err.Error(), "preset version") {
		t.Errorf("merge across versions: %v", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused merge wrote its directory")
	}
}

// TestProgressRateCountsStepsTrainedHere measures the rate on the steps this process trained:
// a run finished in an earlier session and a resumed run's checkpointed steps count as done but
// not as trained, or a continued experiment would promise an ETA of seconds.
func TestProgressRateCountsStepsTrainedHere(t *testing.T) {
	s := Snapshot{Variants: []VariantResult{{Runs: []RunResult{
		{Phase: Finished, Step: 1000, Start: 1000, Total: 1000},
		{Phase: Running, Step: 600, Start: 500, Total: 1000},
		{Phase: Pending, Total: 1000},
	}}}}
	p := progressOf(s)
	if p.steps != 1600 || p.fresh != 100 || p.total != 3000 || p.done != 1 {
		t.Fatalf("progress %+v: want steps 1600, fresh 100, total 3000, done 1", p)
	}
	got := progressLine("mwm", p, 10*time.Second)
	want := "experiment mwm: 1/3 runs done, steps 1600/3000, 10.0 steps/s, ETA 2m20s"
	if got != want {
		t.Errorf("progress line\ngot  %q\nwant %q", got, want)
	}
}

// TestProgressLineTellsPreparingRuns checks that runs solving their references are counted in
// the progress line, with the instances solved so far.
func TestProgressLineTellsPreparingRuns(t *testing.T) {
	s := Snapshot{Variants: []VariantResult{{Runs: []RunResult{
		{Phase: Running, Total: 1000, Wait: run.Wait{What: "solving", Done: 300, Total: 1000}},
		{Phase: Running, Total: 1000, Wait: run.Wait{What: "solving", Done: 40, Total: 1000}},
		{Phase: Running, Step: 10, Total: 1000},
	}}}}
	got := progressLine("tsp", progressOf(s), 10*time.Second)
	want := "experiment tsp: 0/3 runs done, steps 10/3000, 2 preparing (references 340/2000), 1.0 steps/s, ETA 49m50s"
	if got != want {
		t.Errorf("progress line\ngot  %q\nwant %q", got, want)
	}
}

// An experiment started while another one starts in the same directory never finds it
// without its manifest ("is not empty and holds no experiment"): the directory appears whole.
func TestExperimentStartedTogether(t *testing.T) {
	base := t.TempDir()
	o := tinyOptions("penalty", 1)
	for i := range 2 { // the old window (the directory made, then its manifest) failed at once
		dir := filepath.Join(base, itoa(i))
		done := make(chan error)
		go func() {
			pr, err := Prepare(o, dir)
			if err == nil {
				err = pr.Run(machine())
			}
			done <- err
		}()
		for running := true; running; {
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
				running = false
			default:
				if _, err := Prepare(o, dir); err != nil {
					t.Fatalf("prepared while another experiment starts: %v", err)
				}
			}
		}
		noLeftovers(t, base)
		if left, _ := filepath.Glob(filepath.Join(base, experimentTempPrefix+"*")); len(left) > 0 {
			t.Errorf("left %v", left)
		}
	}
}

// An --out that is a symbolic link to an empty directory is written through, as before the
// directory appeared whole.
func TestExperimentIntoALink(t *testing.T) {
	base := t.TempDir()
	target, link := filepath.Join(base, "target"), filepath.Join(base, "link")
	if os.Mkdir(target, 0o755) != nil || os.Symlink("target", link) != nil {
		t.Fatal("making the fixtures")
	}
	runPreset(t, tinyOptions("penalty", 1), link)
	if _, err := os.Stat(filepath.Join(target, ReportFile)); err != nil {
		t.Errorf("the link's target has no report: %v", err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link is no longer a link: %v", err)
	}
}
