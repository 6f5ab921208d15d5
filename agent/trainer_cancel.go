package agent

import (
	"errors"
	"sync/atomic"
)

// stoppable is a learner whose Act fails with errStopped once stop is set, so that an
// evaluation (which acts evalChunk instances at a time) ends within one chunk of a Stop
// instead of scoring a whole validation or test set first.
type stoppable struct {
	Learner
	stop *atomic.Bool
}

func (s stoppable) Act(states []float32, b int, h Hyper, m []float32) error {
	if s.stop.Load() {
		return errStopped
	}
	return s.Learner.Act(states, b, h, m)
}

// Scores implements scorer for a learner that has Sinkhorn scores, so that a sampled
// validation can be cut short too.
func (s stoppable) Scores(states []float32, b int, h Hyper, x, m []float32) error {
	if s.stop.Load() {
		return errStopped
	}
	sc, ok := s.Learner.(scorer)
	if !ok {
		return errNoScores
	}
	return sc.Scores(states, b, h, x, m)
}

// interruptible is the run's learner for evaluations that a Stop may cut short.
func (t *trainer) interruptible() Learner { return stoppable{t.core.learner, &t.stopFlag} }

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

// stopOnStopped ends the run with its stop checkpoint when err is errStopped.
func (t *trainer) stopOnStopped(err error) (stopped bool, _ error) {
	if errors.Is(err, errStopped) {
		return true, t.stopNow()
	}
	return false, err
}
