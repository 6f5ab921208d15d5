package agent

import (
	"errors"
	"fmt"
	"math"
)

// change is a live change accepted by Set or SetFlag, waiting for the next step boundary.
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

// Set validates a live change at once and queues it for the next step boundary.
func (t *trainer) Set(param string, value float64) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ended {
		return errEnded
	}
	cand := t.pending
	switch param {
	case ParamTau:
		cand.Tau = value
	case ParamSinkhornIters:
		if value != math.Trunc(value) || value < 1 || value > math.MaxInt32 {
			return fmt.Errorf("%s %g: must be a whole number >= 1", param, value)
		}
		cand.SinkhornIters = int(value)
	case ParamEpsilon:
		cand.EpsStart = value
	case ParamEpsEnd:
		cand.EpsEnd = value
	case ParamEpsDecay:
		cand.EpsDecay = value
	case ParamActorLR:
		cand.ActorLR = value
	case ParamCriticLR:
		cand.CriticLR = value
	default:
		return fmt.Errorf("unknown parameter %q", param)
	}
	if err := cand.Validate(); err != nil {
		return fmt.Errorf("%s %g refused: %v", param, value, err)
	}
	t.pending = cand
	t.changes = append(t.changes, change{param, value})
	t.signal()
	return nil
}

// SetFlag switches the critic penalty or exploration, at the next step boundary.
func (t *trainer) SetFlag(flag string, on bool) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ended {
		return errEnded
	}
	switch flag {
	case FlagCriticPenalty:
		t.pending.CriticPenalty = on
	case FlagExploration:
		t.pending.Exploration = on
	default:
		return fmt.Errorf("unknown flag %q", flag)
	}
	t.changes = append(t.changes, change{flag, b2f(on)})
	t.signal()
	return nil
}

func b2f(on bool) float64 {
	if on {
		return 1
	}
	return 0
}

// apply puts a queued change into force and logs it as a set event. A new epsilon re-anchors
// the schedule: it decays linearly from the value at this step.
func (t *trainer) apply(c change) {
	c2 := &t.cfg
	var old float64
	switch c.param {
	case ParamTau:
		old, c2.Tau = c2.Tau, c.value
	case ParamSinkhornIters:
		old, c2.SinkhornIters = float64(c2.SinkhornIters), int(c.value)
	case ParamEpsilon:
		old = c2.Epsilon(t.step)
		c2.EpsStart, c2.EpsAnchor = c.value, t.step
	case ParamEpsEnd:
		old, c2.EpsEnd = c2.EpsEnd, c.value
	case ParamEpsDecay:
		old, c2.EpsDecay = c2.EpsDecay, c.value
	case ParamActorLR:
		old, c2.ActorLR = c2.ActorLR, c.value
	case ParamCriticLR:
		old, c2.CriticLR = c2.CriticLR, c.value
	case FlagCriticPenalty:
		old, c2.CriticPenalty = b2f(c2.CriticPenalty), c.value == 1
	case FlagExploration:
		old, c2.Exploration = b2f(c2.Exploration), c.value == 1
	}
	t.dirty = true
	t.event(&Event{Event: EventSet, Param: c.param, Old: old, New: c.value})
}

// boundary serves the requests made since the last step: live changes, checkpoint, pause and
// stop. While paused it sleeps until the next request. It reports whether the run must stop
// (after its stop checkpoint has been written).
func (t *trainer) boundary() (stop bool, err error) {
	for {
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
				t.pending = t.cfg
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
			if t.Status().State == StatePaused {
				t.clock.start()
				t.setState(StateTraining)
				t.event(&Event{Event: EventResume})
			}
			return false, nil
		}
		if t.Status().State != StatePaused {
			t.clock.stop()
			t.setState(StatePaused)
			t.event(&Event{Event: EventPause})
		}
		<-t.wake
	}
}
