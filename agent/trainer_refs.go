package agent

import (
	"fmt"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"spg-tui/agent/eval"
	"spg-tui/envs"
	"spg-tui/run"
)

// solveReferences solves a set's references: eval.SolveReference, or a stand-in in tests that
// holds the solve back.
var solveReferences = eval.SolveReference

// refSolve is the validation set's reference solve, run in a goroutine of its own while the
// run trains: training needs no references, only the validation's gap and the samples' optima
// do. The training goroutine takes its result at a step boundary (takeRefs).
type refSolve struct {
	done chan struct{} // closed when ref and err are set
	ref  *eval.Reference
	err  error

	mu    sync.Mutex
	notes []string // warnings for the training goroutine to emit
}

func (s *refSolve) note(msg string) {
	s.mu.Lock()
	s.notes = append(s.notes, msg)
	s.mu.Unlock()
}

func (s *refSolve) takeNotes() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.notes
	s.notes = nil
	return n
}

// setWait reports the long computation what of total units in the status, done of them by an
// earlier attempt ("" when it ends), and whether the run trains meanwhile. The count is set
// before the wait shows, so that no reader sees it jump from 0.
func (t *trainer) setWait(what string, total, done int, background bool) {
	t.waitDone.Store(int64(done))
	t.statusMu.Lock()
	t.status.Wait = run.Wait{What: what, Total: total, Start: done, Background: background}
	t.statusMu.Unlock()
}

// warn emits a warning event (from the training goroutine).
func (t *trainer) warn(msg string) { t.event(&run.Event{Event: run.EventWarning, Message: msg}) }

// newSet generates a split's dataset of size instances of env, featurised, and names the file
// of its references in the run directory.
func (t *trainer) newSet(env envs.Env, split envs.Split, size int) (*eval.Set, envs.Dataset, string) {
	ds := envs.Dataset{Env: env, Seed: envs.SplitSeed(t.cfg.Seed, split), Size: size}
	return eval.NewSet(split, ds, t.cfg.Facts), ds, filepath.Join(t.dir, run.CacheDir, eval.SplitName(split)+".json")
}

// openValidation generates the validation set and finds its references in a cache. When they
// must be solved, a metric scored against the optimum per instance (mwm's ratio) waits for
// them, as the first validation needs them (the Hungarian optima of 1,000 instances take a
// second at most); any other metric is the policy's own objective, and the solve goes on beside
// training (solveBeside), however long it takes (TSP-20's Held-Karp: minutes).
func (t *trainer) openValidation() error {
	if n := t.cfg.ValidationN(); n != t.cfg.N {
		env, err := envs.NewData(t.cfg.Task, n, t.cfg.Data)
		if err != nil {
			return err
		}
		t.valEnv = env
	}
	set, ds, path := t.newSet(t.valEnv, envs.Validation, t.cfg.ValSize)
	ref, err := eval.FindReference(path, t.valEnv, ds, set.Insts, true, t.warn)
	switch {
	case err != nil:
		return err
	case ref == nil && t.cfg.Facts.Metric.PerOptimum:
		if ref, err = t.solveRefs(envs.Validation, ds, set.Insts, path, true, false, t.warn); err != nil {
			return err
		}
	case ref == nil:
		t.refs = t.solveBeside(ds, set.Insts, path)
	}
	// Set once it can be scored: the checkpoint of a Stop during the solve probes the learner on it.
	set.Ref, t.val = ref, set
	return nil
}

// prepareTest generates the test set and loads or solves its references, waiting for them
// (interruptible by Stop). A task without an exact solver at the run's size has no optimum to
// compare with there, and gets none.
func (t *trainer) prepareTest() (*eval.Set, error) {
	set, ds, path := t.newSet(t.core.env, envs.Test, t.cfg.TestSize)
	if t.cfg.Facts.Exact(t.cfg.N) == "" {
		return set, nil
	}
	ref, err := eval.FindReference(path, t.core.env, ds, set.Insts, false, t.warn)
	if ref == nil && err == nil {
		ref, err = t.solveRefs(envs.Test, ds, set.Insts, path, false, false, t.warn)
	}
	set.Ref = ref
	return set, err
}

// solveRefs solves the references of a split's set into path, showing its progress in the
// status (background: while the run trains) and continuing from the instances an earlier
// attempt kept; a Stop ends it with eval.ErrStopped.
func (t *trainer) solveRefs(split envs.Split, ds envs.Dataset, insts []envs.Instance, path string, baselines, background bool,
	note func(string)) (*eval.Reference, error) {
	began := time.Now()
	begin := func(solved int) {
		if solved > 0 {
			t.log.Printf("%d of the %d references of the %s set were solved by an earlier attempt: solving the rest", solved, ds.Size, split)
		}
		t.setWait(fmt.Sprintf("solving the references of the %s set", split), ds.Size, solved, background)
	}
	var width func() int
	if background {
		width = t.solveWidth
	}
	ref, err := solveReferences(path, ds.Env, ds, insts, baselines, &t.stopFlag, begin, &t.waitDone, note, width)
	t.setWait("", 0, 0, false)
	if d := time.Since(began); err == nil && d > time.Second {
		t.log.Printf("reference solutions of the %s set (%d instances) took %s", split, ds.Size, d.Round(time.Millisecond))
	}
	return ref, err
}

// solveWidth is how many references the solve beside training works on at a time: half the
// cores while the run trains, so that its steps keep most of their pace (on two cores a solve on
// both slowed TSP-20's steps threefold), and every core while the run waits for it or is
// paused.
func (t *trainer) solveWidth() int {
	all := runtime.GOMAXPROCS(0)
	if t.waiting.Load() || t.Status().State == run.StatePaused {
		return all
	}
	return max(1, all/2)
}

// solveBeside starts the validation set's reference solve in a goroutine of its own; when it
// ends it wakes a paused run, which takes the references at once.
func (t *trainer) solveBeside(ds envs.Dataset, insts []envs.Instance, path string) *refSolve {
	s := &refSolve{done: make(chan struct{})}
	go func() {
		s.ref, s.err = t.solveRefs(envs.Validation, ds, insts, path, true, true, s.note)
		close(s.done)
		t.mu.Lock()
		t.signal()
		t.mu.Unlock()
	}()
	return s
}

// takeRefs emits the warnings of the solve beside training and, once it has ended, gives the
// validation set its references and sends the references event, which completes the validations
// made before them. With wait it waits for the end (a Stop ends the solve with
// eval.ErrStopped). Without a solve under way it does nothing.
func (t *trainer) takeRefs(wait bool) error {
	s := t.refs
	if s == nil {
		return nil
	}
	if wait {
		t.waiting.Store(true)
		<-s.done
		t.waiting.Store(false)
	}
	for _, msg := range s.takeNotes() {
		t.warn(msg)
	}
	select {
	case <-s.done:
	default:
		return nil
	}
	t.refs = nil
	if s.err != nil {
		return s.err
	}
	t.val.Ref = s.ref
	t.referencesReady()
	return nil
}

// referencesReady sends the references event: the validation set's references and what the
// validations made before them lack.
func (t *trainer) referencesReady() {
	t.event(&run.Event{Event: run.EventReferences, Message: "the references of the validation set are solved",
		References: t.val.Ref.References, Fill: eval.FillOf(t.val, t.val.Ref)})
	t.unfilled = false
}

// endRefs stops a solve still under way when the run ends (a failure, a Stop) and waits for it,
// so that nothing writes the run directory after the run; its last warnings go to train.log.
func (t *trainer) endRefs() {
	s := t.refs
	if s == nil {
		return
	}
	t.stopFlag.Store(true)
	<-s.done
	for _, msg := range s.takeNotes() {
		t.log.Printf("warning: %s", msg)
	}
	t.refs = nil
}

// unfilled reports whether history holds a validation made before its references that no
// later references event completes.
func unfilled(history []run.Record) bool {
	pending := false
	for _, r := range history {
		switch {
		case r.Kind == run.KindEval && r.Eval != nil && r.RefsPending:
			pending = true
		case r.Kind == run.KindEvent && r.Event != nil && r.Event.Event == run.EventReferences:
			pending = false
		}
	}
	return pending
}
