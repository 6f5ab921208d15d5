package agent

import (
	"errors"
	"sync/atomic"

	"spg-tui/agent/eval"
	"spg-tui/agent/learn"
)

// stoppable is a learner whose Act fails with ErrStopped once stop is set, so that an
// evaluation (which acts evalChunk instances at a time) ends within one chunk of a Stop
// instead of scoring a whole validation or test set first.
type stoppable struct {
	learn.Learner
	stop *atomic.Bool
}

func (s stoppable) Act(states []float32, b int, h learn.Hyper, m []float32) error {
	if s.stop.Load() {
		return eval.ErrStopped
	}
	return s.Learner.Act(states, b, h, m)
}

// Scores implements Scorer for a learner that has Sinkhorn scores, so that a sampled
// validation can be cut short too.
func (s stoppable) Scores(states []float32, b int, h learn.Hyper, x, m []float32) error {
	if s.stop.Load() {
		return eval.ErrStopped
	}
	sc, ok := s.Learner.(eval.Scorer)
	if !ok {
		return eval.ErrNoScores
	}
	return sc.Scores(states, b, h, x, m)
}

// interruptible is the run's learner for evaluations that a Stop may cut short.
func (t *trainer) interruptible() learn.Learner { return stoppable{t.core.learner, &t.stopFlag} }

// validateInterrupted runs the validation of the current step if a Stop cut it short before the
// checkpoint the run resumed from, so that a resumed run has every validation an uninterrupted
// one has. It reports whether a Stop ended the run again.
func (t *trainer) validateInterrupted() (stopped bool, err error) {
	due := t.step > 0 && (t.step%t.cfg.EvalEvery == 0 || t.step == t.cfg.Steps)
	if !due || t.lastEval >= t.step {
		return false, nil
	}
	return t.stopOnStopped(t.validate())
}

// stopOnStopped ends the run with its stop checkpoint when err is ErrStopped.
func (t *trainer) stopOnStopped(err error) (stopped bool, _ error) {
	if errors.Is(err, eval.ErrStopped) {
		return true, t.stopNow()
	}
	return false, err
}
