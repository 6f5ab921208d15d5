package agent

import (
	"bytes"
	"path/filepath"
	"reflect"
	"testing"

	"spg-tui/agent/checkpoint"
	"spg-tui/agent/eval"
	"spg-tui/agent/learn"
	"spg-tui/envs"
	"spg-tui/run"
)

// TestValidationAtAnotherSize: with --val-n the validations score instances of that size, and the
// best checkpoint is the one whose policy scores best there: its own score at that size, computed
// here apart from the run, is the best validation's.
func TestValidationAtAnotherSize(t *testing.T) {
	const valN = 11
	cfg := tinyConfig(envs.TaskTSP, 6)
	cfg.Model, cfg.Critic, cfg.ValN, cfg.Steps = run.ModelSuccessor, run.CriticBilinear, valN, 30
	dir := trainToEnd(t, cfg)
	var best *run.Eval
	vals, metrics := 0, map[float64]bool{}
	for _, r := range readMetrics(t, dir) {
		if r.Kind != run.KindEval || r.Eval.Split != "val" {
			continue
		}
		vals++
		metrics[r.Eval.Metric] = true
		for _, s := range r.Eval.Samples {
			if len(s.Instance.Points) != valN || len(s.Perm) != valN || s.M != nil {
				t.Fatalf("step %d: a sample of %d points, a tour of %d, M of %d, want %d, %d and none",
					r.Step, len(s.Instance.Points), len(s.Perm), len(s.M), valN, valN)
			}
		}
		if r.Eval.Best {
			best = r.Eval
		}
	}
	if vals < 3 || best == nil || len(metrics) < 2 {
		t.Fatalf("%d validations scoring %d values (a best: %v): want the policy's progress seen at n = %d", vals, len(metrics), best != nil, valN)
	}

	ck, err := checkpoint.Open(filepath.Join(dir, run.BestCheckpoint))
	if err != nil {
		t.Fatal(err)
	}
	defer ck.Close()
	spec, err := run.Resolve(ck.Header.Config)
	if err != nil {
		t.Fatal(err)
	}
	l, err := eval.SizedLearner(spec, nil, ck.Learner, valN)
	if err != nil {
		t.Fatal(err)
	}
	env, err := envs.NewData(cfg.Task, valN, spec.Data)
	if err != nil {
		t.Fatal(err)
	}
	set := eval.NewSet(envs.Validation, envs.Dataset{Env: env, Seed: envs.SplitSeed(cfg.Seed, envs.Validation), Size: cfg.ValSize}, spec.Facts)
	got, err := eval.Evaluate(l, env, set, learn.HyperAt(&spec, ck.Header.Step), false)
	if err != nil {
		t.Fatal(err)
	}
	if got.Metric != best.Metric {
		t.Fatalf("the best checkpoint (step %d) scores %v at n = %d, its validation said %v", ck.Header.Step, got.Metric, valN, best.Metric)
	}
}

// TestValidationAtAnotherSizeResumes: a run that validates at another size (here with the exact
// references of mwm's metric at that size) resumes exactly, the validating networks rebuilt.
func TestValidationAtAnotherSizeResumes(t *testing.T) {
	cfg := tinyConfig(envs.TaskMWM, 5)
	cfg.Model, cfg.Critic, cfg.ValN, cfg.Steps = run.ModelPairwise, run.CriticBilinear, 8, 30
	want := summarise(t, trainToEnd(t, cfg))
	if got := summarise(t, stoppedAndResumed(t, cfg, 13)); !reflect.DeepEqual(got, want) {
		t.Errorf("the resumed run differs from the uninterrupted one (params equal: %v; evals equal: %v)",
			bytes.Equal(got.params, want.params), reflect.DeepEqual(got.evals, want.evals))
	}
	if len(want.evals) == 0 || len(want.evals[0].Samples) == 0 || len(want.evals[0].Samples[0].Perm) != 8 {
		t.Fatalf("the validations are not at n = 8: %+v", want.evals)
	}
}
