package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"spg-tui/envs"
	"spg-tui/experiments"
	"spg-tui/experiments/enginetest"
	"spg-tui/run"
)

// identityScore solves every instance with the identity permutation.
func identityScore(_ string, env envs.Env, insts []envs.Instance) ([]envs.Solution, int, error) {
	sols := make([]envs.Solution, len(insts))
	for i, inst := range insts {
		p := make([]int, env.N())
		for j := range p {
			p[j] = j
		}
		sols[i] = envs.Solution{Index: i, Perm: p, Objective: env.Objective(inst, p)}
	}
	return sols, 1, nil
}

// tui --view on an experiment directory opens on its curves across seeds, read-only.
func TestViewExperiment(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "exp")
	o := experiments.Options{Preset: "tau", Seeds: 2, Scale: 0.001,
		Overrides: tinySets()}
	pr, err := experiments.Prepare(o, dir)
	if err != nil {
		t.Fatal(err)
	}
	// The real engine writes config.json, which a replay reads; the scripted one does not.
	start := func(c run.Config, d string) (run.Engine, error) {
		if _, err := run.PrepareDir(d, c); err != nil {
			return nil, err
		}
		return enginetest.Start(c, d)
	}
	if err := pr.Run(experiments.Machine{Start: start, Score: identityScore, Jobs: 2}); err != nil {
		t.Fatal(err)
	}
	opts := Options{View: dir}
	snap, expDir, err := opts.openExperiment()
	if err != nil || snap == nil || expDir != dir || filepath.Dir(filepath.Dir(opts.View)) != dir {
		t.Fatalf("openExperiment: %v, %v, %q, view %q", snap, err, expDir, opts.View)
	}
	eng, readOnly, err := opts.open()
	if err != nil || !readOnly {
		t.Fatalf("open: %v, read-only %v", err, readOnly)
	}
	m := newTestModel(eng, 120, 36)
	m.showExperiment(*snap, expDir)
	sc := screen(m)
	for _, want := range []string{"experiment tau (read-only)", "10 of 10 runs finished", "tau=1", "tau=0.01",
		"68% CI of the mean over n = 2 seeds"} {
		if !strings.Contains(sc, want) {
			t.Errorf("the experiment view lacks %q:\n%s", want, sc)
		}
	}
	press(m, "enter")
	if !strings.Contains(screen(m), "read-only") || m.ablation.runner != nil {
		t.Error("enter started something in a read-only experiment view")
	}
	press(m, "a")
	if m.view != viewMain {
		t.Error("a did not go back to the replayed run")
	}
}

// The ablation view runs an experiment preset by the same runner and writes its report.
func TestAblationViewRunsPreset(t *testing.T) {
	m := fixture(t, envs.TaskMWM, 6, 120, 36)
	m.ablation.baseDir = t.TempDir()
	m.ablation.score = identityScore
	press(m, "a")
	v := m.ablation
	// Past the three ablations and the sort, mwm, tsp and penalty presets to tau; scale 0.001,
	// 2 seeds.
	for range 7 {
		press(m, "right")
	}
	press(m, "down", "-", "-", "-", "down", "-")
	if p := v.preset(); p == nil || p.Name != "tau" || v.scale != 0.001 || v.seeds != 2 {
		t.Fatalf("choice %d, scale %g, seeds %d", v.choice, v.scale, v.seeds)
	}
	sc := screen(m)
	if !strings.Contains(sc, "preset tau (the paper's settings)") || !strings.Contains(sc, "scale 0.001") {
		t.Errorf("the view does not show the preset:\n%s", sc)
	}
	press(m, "enter")
	if v.runner == nil {
		t.Fatalf("enter did not start the preset: %q", v.msg)
	}
	deadline := time.Now().Add(60 * time.Second)
	for v.finished != nil && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		m.poll()
	}
	if !strings.Contains(v.msg, "report written") {
		t.Fatalf("message %q", v.msg)
	}
	if _, err := os.Stat(filepath.Join(v.dir, experiments.ReportFile)); err != nil {
		t.Error(err)
	}
	if v.snap.Finished != 10 || len(v.snap.Variants) != 5 {
		t.Errorf("%d runs finished in %d variants", v.snap.Finished, len(v.snap.Variants))
	}
}

// tinySets are the overrides of an experiment's tiny validation and test sets.
func tinySets() experiments.Overrides {
	o, err := experiments.ReadOverrides(map[string]string{"val-size": "10", "test-size": "10"})
	if err != nil {
		panic(err)
	}
	return o
}
