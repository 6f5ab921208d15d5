package ui

import (
	"path/filepath"
	"strings"
	"testing"

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
		Flags: map[string]string{"val-size": "10", "test-size": "10"}}
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
