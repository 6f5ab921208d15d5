package agent

import (
	"bytes"
	"reflect"
	"testing"

	"spg-tui/agent/device"
	"spg-tui/agent/learn"
	"spg-tui/envs"
	"spg-tui/run"
)

// TestLearningBeatsRandom trains the real SPG+Sequential learner on Sort-5 for 200 steps: the
// best policy must sort far better than a random permutation (Kendall tau about 0). Higher
// learning rates and a small network than the paper's make this take seconds; epsilon falls
// from 1 to its floor over the run.
func TestLearningBeatsRandom(t *testing.T) {
	if testing.Short() {
		t.Skip("trains for a few seconds")
	}
	cfg := run.DefaultConfig(envs.TaskSort, 5)
	cfg.Hidden, cfg.Batch, cfg.Steps = 32, 32, 200
	cfg.ActorLR, cfg.CriticLR = 1e-3, 1e-3
	cfg.TrainSize, cfg.ValSize, cfg.TestSize, cfg.Buffer = 6400, 200, 200, 20000
	cfg.EvalEvery, cfg.LogEvery, cfg.EpsDecay = 50, 50, 1
	dir := trainToEnd(t, cfg)
	var random, test float64
	for _, r := range readMetrics(t, dir) {
		if r.Event != nil && r.Event.Event == run.EventStart {
			random = r.Event.References["random"]
		}
		if r.Eval != nil {
			t.Logf("%s at step %d: Kendall tau %.3f", r.Eval.Split, r.Step, r.Eval.Metric)
			if r.Eval.Split == "test" {
				test = r.Eval.Metric
			}
		}
	}
	if test < random+0.6 {
		t.Errorf("after 200 steps the test Kendall tau is %.3f; random permutations score %.3f", test, random)
	}
}

// hookedLearner calls hook after every Update of the learner it wraps.
type hookedLearner struct {
	learn.Learner
	updates int
	hook    func(update int)
}

func (h *hookedLearner) Update(b *learn.Minibatch, hy learn.Hyper) (learn.StepStats, error) {
	st, err := h.Learner.Update(b, hy)
	h.updates++
	h.hook(h.updates)
	return st, err
}

// TestResumeIsExactWithTheRealLearner checks the resume contract on the SPG networks: a run
// stopped at step 13 (mid logging interval) and resumed ends bit-identical to an uninterrupted
// one: parameters, Adam state, buffer, generator and every logged loss.
func TestResumeIsExactWithTheRealLearner(t *testing.T) {
	for _, task := range []envs.Task{envs.TaskMWM, envs.TaskTSP} {
		cfg := tinyConfig(task, 4)
		cfg.Hidden, cfg.Steps, cfg.ActorLR, cfg.CriticLR = 16, 30, 1e-3, 1e-3
		want := summarise(t, trainToEnd(t, cfg))
		if got := summarise(t, stoppedAndResumed(t, cfg, 13)); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the resumed run differs from the uninterrupted one (params equal: %v; train records equal: %v)",
				task, bytes.Equal(got.params, want.params), reflect.DeepEqual(got.train, want.train))
		}
	}
}

// stoppedAndResumed trains cfg with the real learner (an on-policy one too) in a temporary
// directory, stops it at update u, resumes it to the end and returns the directory.
func stoppedAndResumed(t *testing.T, cfg run.Config, u int) string {
	t.Helper()
	dir := t.TempDir()
	var eng runRef
	hooked := func(c run.Spec, dev *device.Device) (learn.Learner, error) {
		l, err := learn.NewLearner(c, dev)
		if err != nil {
			return nil, err
		}
		hook := eng.at(u, (*trainer).Stop)
		if op, ok := l.(learn.OnPolicyLearner); ok { // the trainer tells them apart by this interface
			return &hookedOnPolicy{OnPolicyLearner: op, hook: hook}, nil
		}
		return &hookedLearner{Learner: l, hook: hook}, nil
	}
	s, err := startRun(cfg, dir, nil, hooked)
	if err != nil {
		t.Fatal(err)
	}
	eng.set(s)
	waitDone(t, s)
	if st := s.Status(); st.State != run.StateStopped || st.Step != u {
		t.Fatalf("%s: stopped run %+v, %v", cfg.Task, st, s.Err())
	}
	r, err := ResumeRun(dir, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	waitDone(t, r)
	if r.Err() != nil {
		t.Fatal(r.Err())
	}
	return dir
}
