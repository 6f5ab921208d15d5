package agent

import (
	"testing"

	"spg-tui/agent/eval"
	"spg-tui/agent/learn"
	"spg-tui/envs"
	"spg-tui/run"
)

// TestOneResolvePerStart: a run's start, its resume to the end (the test of its best checkpoint
// included), a bench, and loading a policy to solve with at its size and another each resolve
// their configuration once (run.Resolves) and hand the Spec down to the learner, the loop and
// the start record. NewLearner used to resolve it again, the start record's device name twice
// more, the test once more and a policy at another size once more. The console and
// experiments start runs through StartRun.
func TestOneResolvePerStart(t *testing.T) {
	cfg := tinyConfig(envs.TaskMWM, 5)
	cfg.Model, cfg.Critic = run.ModelPairwise, run.CriticBilinear // it runs at any n
	cfg.Steps = 100_000                                           // stopped once it has started
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
	stopped := 0 // the step the start stops at
	once("a start", func() error {
		e, err := startRun(cfg, dir, nil, learn.NewLearner)
		if err != nil {
			return err
		}
		for r := range e.Records() { // up to the start record, written once the learner is built
			if r.Event != nil && r.Event.Event == run.EventStart {
				break
			}
		}
		e.Stop()
		waitDone(t, e)
		stopped = e.Status().Step
		return e.Err()
	})
	once("a resume trained to its end", func() error {
		e, err := resumeRun(dir, stopped+cfg.EvalEvery+1, nil, learn.NewLearner)
		if err != nil {
			return err
		}
		waitDone(t, e)
		if s := e.Status(); s.State != run.StateDone {
			t.Errorf("the resumed run ended %s", s.State)
		}
		return e.Err()
	})
	once("a bench", func() error {
		_, err := bench(cfg, BenchOptions{Steps: 1}, nil, learn.NewLearner)
		return err
	})
	once("loading a policy and solving with it at its size and another", func() error {
		p, err := eval.LoadPolicy(dir, nil)
		for _, n := range []int{cfg.N, cfg.N + 2} {
			if err != nil {
				return err
			}
			var env envs.Env
			if env, err = envs.New(cfg.Task, n); err == nil {
				ds := envs.Dataset{Env: env, Seed: 3, Size: 2}
				_, err = p.Solve(env, []envs.Instance{ds.At(0), ds.At(1)})
			}
		}
		return err
	})
}
