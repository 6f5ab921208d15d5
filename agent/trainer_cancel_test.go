package agent

import (
	"spg-tui/run"
	"testing"

	"spg-tui/envs"
)

// TestStopCutsValidationShort requests a stop during a step that ends at a validation of a
// large validation set: the run must stop without scoring it (it used to finish the whole
// evaluation first), and the resume must run that validation, so the records match an
// uninterrupted run's.
func TestStopCutsValidationShort(t *testing.T) {
	cfg := tinyConfig(envs.TaskSort, 5)
	cfg.ValSize = 5000
	dir := t.TempDir()
	var ref runRef
	e := mustStart(t, cfg, dir, fakeOpts{hook: ref.at(cfg.EvalEvery*2, (*trainer).Stop)})
	ref.set(e)
	waitDone(t, e)
	if s := e.Status(); s.State != run.StateStopped || s.Step != cfg.EvalEvery*2 || e.Err() != nil {
		t.Fatalf("status %+v, %v", s, e.Err())
	}
	for _, r := range readMetrics(t, dir) {
		if r.Eval != nil && r.Step == cfg.EvalEvery*2 {
			t.Fatalf("the stop waited for the validation at step %d", r.Step)
		}
	}
	r, err := resumeRun(dir, 0, nil, fakeFactory(fakeOpts{}))
	if err != nil {
		t.Fatal(err)
	}
	waitDone(t, r)
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
	whole := t.TempDir()
	waitDone(t, mustStart(t, cfg, whole, fakeOpts{}))
	evals := func(dir string) (steps []int) {
		for _, r := range readMetrics(t, dir) {
			if r.Eval != nil {
				steps = append(steps, r.Step)
			}
		}
		return steps
	}
	got, want := evals(dir), evals(whole)
	if len(got) != len(want) {
		t.Fatalf("evaluations at %v, uninterrupted %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("evaluations at %v, uninterrupted %v", got, want)
		}
	}
}
