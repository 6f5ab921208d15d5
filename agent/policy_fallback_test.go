package agent

import (
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"spg-tui/agent/device"
	"spg-tui/agent/eval"
	"spg-tui/agent/learn"
	"spg-tui/envs"
	"spg-tui/run"
)

// TestStoppedBeforeFirstValidationLoads: a run stopped before its first validation has no best
// checkpoint, and eval of its directory used to fail ("open …/checkpoints/best: no such file or
// directory"); its last checkpoint stands in, and the policy says so.
func TestStoppedBeforeFirstValidationLoads(t *testing.T) {
	dir := t.TempDir()
	cfg := tinyConfig(envs.TaskTSP, 5)
	cfg.ValSize = 600 // three chunks of the evaluation: a Stop during the first ends it
	var ref runRef
	var once sync.Once
	stopOnAct := func(c run.Spec, dev *device.Device) (learn.Learner, error) {
		l, err := learn.NewLearner(c, dev)
		return actHook{l, func() {
			once.Do(func() {
				for ref.p.Load() == nil {
					runtime.Gosched()
				}
				ref.p.Load().Stop()
			})
		}}, err
	}
	e, err := startRun(cfg, dir, nil, stopOnAct)
	if err != nil {
		t.Fatal(err)
	}
	ref.set(e)
	waitDone(t, e)
	if s := e.Status(); s.State != run.StateStopped || s.Step != 0 || e.Err() != nil {
		t.Fatalf("status %+v, %v", s, e.Err())
	}
	for _, r := range readMetrics(t, dir) {
		if r.Kind == run.KindEval {
			t.Fatalf("the run validated before its stop: %+v", r.Eval)
		}
	}
	p, err := eval.LoadPolicy(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Step() != 0 || !strings.Contains(p.Note(), "stopped before its first validation") || !strings.Contains(p.Note(), run.LastCheckpoint) {
		t.Errorf("policy at step %d, note %q", p.Step(), p.Note())
	}
	// A run that has a best checkpoint is read from it, with no note.
	done := trainToEnd(t, cfg)
	if p, err := eval.LoadPolicy(done, nil); err != nil || p.Note() != "" {
		t.Errorf("a finished run: %v, note %q", err, p.Note())
	}
	if _, err := eval.LoadPolicy(filepath.Join(t.TempDir(), "none"), nil); err == nil {
		t.Error("a directory that does not exist was loaded")
	}
}

// actHook is a learner that calls act at the start of every Act (a training step's or an
// evaluation chunk's).
type actHook struct {
	learn.Learner
	act func()
}

func (a actHook) Act(states []float32, b int, h learn.Hyper, m []float32) error {
	a.act()
	return a.Learner.Act(states, b, h, m)
}
