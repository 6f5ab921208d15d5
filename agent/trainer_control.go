package agent

import (
	"errors"

	"spg-tui/agent/eval"
	"spg-tui/run"
)

// change is a live change accepted by Set, waiting for the next step boundary.
type change struct {
	param string
	value float64
}

// errEnded refuses requests to a run that is over.
var errEnded = errors.New("the run has ended")

// signal wakes the training goroutine if it sleeps in a pause; callers hold t.mu.
func (t *trainer) signal() {
	select {
	case t.wake <- struct{}{}:
	default:
	}
}

// Pause holds training at the next step boundary.
func (t *trainer) Pause() {
	t.mu.Lock()
	t.paused = true
	t.signal()
	t.mu.Unlock()
}

// Resume releases a pause.
func (t *trainer) Resume() {
	t.mu.Lock()
	t.paused = false
	t.signal()
	t.mu.Unlock()
}

// Checkpoint asks for checkpoints/last at the next step boundary (at once when paused).
func (t *trainer) Checkpoint() {
	t.mu.Lock()
	t.ckptReq = true
	t.signal()
	t.mu.Unlock()
}

// Stop asks the run to checkpoint and end.
func (t *trainer) Stop() {
	t.stopFlag.Store(true)
	t.mu.Lock()
	t.stopReq = true
	t.signal()
	t.mu.Unlock()
}

// Set validates a live change at once, against the configuration with every accepted change
// (run.Change), and queues it for the next step boundary.
func (t *trainer) Set(param string, value float64) error {
	step := t.Status().Step
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ended {
		return errEnded
	}
	cand, _, err := run.Change(t.pending, param, value, step)
	if err != nil {
		return err
	}
	t.pending = cand
	t.changes = append(t.changes, change{param, value})
	t.signal()
	return nil
}

// apply puts a queued change into force and logs it as a set event. A new epsilon re-anchors
// the schedule: it decays linearly from the value at this step.
func (t *trainer) apply(c change) {
	p, _ := run.ParamNamed(c.param) // validated by request
	old := p.Get(&t.cfg.Config, t.step)
	p.Set(&t.cfg.Config, c.value, t.step)
	t.dirty = true
	t.event(&run.Event{Event: run.EventSet, Param: c.param, Old: old, New: c.value})
}

// boundary serves the requests made since the last step: live changes, checkpoint, pause and
// stop; it also takes the references solved beside training. While paused it sleeps until the
// next request or the end of that solve. It reports whether the run must stop
// (after its stop checkpoint has been written).
func (t *trainer) boundary() (stop bool, err error) {
	for {
		// References solved beside training are taken here (a Stop's end of their solve is the
		// Stop's, served below).
		if err := t.takeRefs(false); err != nil && !errors.Is(err, eval.ErrStopped) {
			return false, err
		}
		t.mu.Lock()
		changes := t.changes
		t.changes = nil
		paused, stopReq, ckpt := t.paused, t.stopReq, t.ckptReq
		t.ckptReq = false
		t.mu.Unlock()

		for _, c := range changes {
			t.apply(c)
		}
		if len(changes) > 0 {
			// Only the epsilon anchor can differ, and only once no change waits.
			t.mu.Lock()
			if len(t.changes) == 0 {
				t.pending = t.cfg.Config
			}
			t.mu.Unlock()
		}
		if stopReq {
			return true, t.stopNow()
		}
		if ckpt {
			if err := t.checkpointLast(); err != nil {
				return false, err
			}
		}
		if t.ioErr != nil {
			return false, t.ioErr
		}
		if !paused {
			if t.Status().State == run.StatePaused {
				t.clock.start()
				t.setState(run.StateTraining)
				t.event(&run.Event{Event: run.EventResume})
			}
			return false, nil
		}
		if t.Status().State != run.StatePaused {
			t.clock.stop()
			// The pause is on disk before Status reports it, so a reader that sees "paused"
			// sees the run's files at rest.
			t.event(&run.Event{Event: run.EventPause})
			t.setState(run.StatePaused)
		}
		<-t.wake
	}
}
