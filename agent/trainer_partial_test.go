package agent

import (
	"reflect"
	"slices"
	"testing"

	"spg-tui/envs"
	"spg-tui/run"
)

// TestShortRunSummarisesItsTraining checks that a run shorter than its log interval (4 steps,
// logging every 5) writes one training summary, at its last step, of the steps it trained: the
// console's reward and critic panes waited for one until the run was done and after.
func TestShortRunSummarisesItsTraining(t *testing.T) {
	cfg := tinyConfig(envs.TaskMWM, 5)
	cfg.Steps = 4
	dir := t.TempDir()
	waitDone(t, mustStart(t, cfg, dir, fakeOpts{}))
	s := summarise(t, dir)
	if !slices.Equal(s.trainSteps, []int{4}) {
		t.Fatalf("training summaries at steps %v, want one at the last step, 4", s.trainSteps)
	}
	if s.train[0].RewardMean <= 0 || s.train[0].CriticLoss == 0 {
		t.Errorf("the summary holds no training: %+v", s.train[0])
	}
}

// TestContinuedPartialIntervalIsExact finishes a run at step 18 (logging every 5, validating
// every 10), then continues it to 40: beside the records of its last step (its partial
// summary, validation and test), its records are the uninterrupted run's, the summary at step
// 20 included (the interval stayed open across the end).
func TestContinuedPartialIntervalIsExact(t *testing.T) {
	cfg := tinyConfig(envs.TaskMWM, 5)
	straight := t.TempDir()
	waitDone(t, mustStart(t, cfg, straight, fakeOpts{}))
	want := summarise(t, straight)

	dir := t.TempDir()
	short := cfg
	short.Steps = 18
	waitDone(t, mustStart(t, short, dir, fakeOpts{}))
	if s := summarise(t, dir); !slices.Contains(s.trainSteps, 18) {
		t.Fatalf("the run of 18 steps summarised steps %v, not its last", s.trainSteps)
	}
	r, err := resumeRun(dir, 40, nil, fakeFactory(fakeOpts{}))
	if err != nil {
		t.Fatal(err)
	}
	waitDone(t, r)
	if r.Err() != nil || r.Status().State != run.StateDone {
		t.Fatalf("continued run: %v, %+v", r.Err(), r.Status())
	}
	got := summarise(t, dir)
	i := slices.Index(got.trainSteps, 18)
	got.train, got.trainSteps = slices.Delete(got.train, i, i+1), slices.Delete(got.trainSteps, i, i+1)
	for i := len(got.evals) - 1; i >= 0; i-- {
		if got.evalSteps[i] == 18 {
			got.evals, got.evalSteps = slices.Delete(got.evals, i, i+1), slices.Delete(got.evalSteps, i, i+1)
		}
	}
	if !reflect.DeepEqual(got.trainSteps, want.trainSteps) || !reflect.DeepEqual(got.train, want.train) {
		t.Errorf("training summaries at %v differ from the uninterrupted run's at %v", got.trainSteps, want.trainSteps)
	}
	if !reflect.DeepEqual(got, want) {
		t.Error("finished at 18 and continued to 40: differs from the uninterrupted run")
	}
}
