package agent

import (
	"testing"

	"spg-tui/agent/eval"
	"spg-tui/agent/learn"
	"spg-tui/envs"
	"spg-tui/run"
)

// TestOneResolvePerStart: a run's start, its resume, a bench and loading a policy to solve with
// it each resolve their configuration once (run.Resolves) and hand the Spec down to the
// learner, the loop and the start record. NewLearner used to resolve it again, and the start
// record's device name a third time. The console and experiments start runs through StartRun.
func TestOneResolvePerStart(t *testing.T) {
	cfg := tinyConfig(envs.TaskMWM, 5)
	cfg.Steps = 100_000 // stopped once it has started
	dir := t.TempDir()
	once := func(what string, do func() error) {
		t.Helper()
		before := run.Resolves()
		if err := do(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if n := run.Resolves() - before; n != 1 {
			t.Errorf("%s resolved its configuration %d times, want once", what, n)
		}
	}
	// started counts up to the run's start record, written once the learner is built, and its
	// stop.
	started := func(open func() (*trainer, error)) func() error {
		return func() error {
			e, err := open()
			if err != nil {
				return err
			}
			for r := range e.Records() {
				if r.Event != nil && r.Event.Event == run.EventStart {
					break
				}
			}
			e.Stop()
			waitDone(t, e)
			return e.Err()
		}
	}
	once("a start", started(func() (*trainer, error) { return startRun(cfg, dir, nil, learn.NewLearner) }))
	once("a resume", started(func() (*trainer, error) { return resumeRun(dir, 0, nil, learn.NewLearner) }))
	once("a bench", func() error {
		_, err := bench(cfg, 1, nil, learn.NewLearner)
		return err
	})
	env, err := envs.New(cfg.Task, cfg.N)
	if err != nil {
		t.Fatal(err)
	}
	ds := envs.Dataset{Env: env, Seed: 3, Size: 4}
	insts := []envs.Instance{ds.At(0), ds.At(1), ds.At(2), ds.At(3)}
	once("loading a policy and solving with it", func() error {
		p, err := eval.LoadPolicy(dir, nil)
		if err == nil {
			_, err = p.Solve(env, insts)
		}
		return err
	})
}
