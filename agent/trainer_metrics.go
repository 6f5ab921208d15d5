package agent

import (
	"encoding/json"
	"math"

	"spg-tui/run"
)

// intervalStats accumulates one logging interval: the rewards of every acted instance, by
// Welford's method, and the sums of every number the steps report, in the training summary's
// own type. It is saved in checkpoints, so that a run resumed mid-interval logs exactly what an
// uninterrupted one does; the sums' JSON fields sit beside the others, where checkpoints
// written before they were a run.Train have them.
type intervalStats struct {
	Steps      int     `json:"steps"`
	RewardN    int     `json:"reward_n"`
	RewardMean float64 `json:"reward_mean"`
	RewardM2   float64 `json:"reward_m2"`
	// Train holds the sums over the interval's steps (its reward_mean is shadowed in JSON by
	// the Welford mean above and stays 0).
	run.Train
	// Seconds of training in the interval (timing only: not part of the exact replay).
	Seconds float64 `json:"seconds"`
}

// add folds one step into the interval.
func (s *intervalStats) add(res *stepResult, seconds float64) {
	s.Steps++
	for _, r := range res.rewards {
		s.RewardN++
		d := r - s.RewardMean
		s.RewardMean += d / float64(s.RewardN)
		s.RewardM2 += d * (r - s.RewardMean)
	}
	s.Train.Add(&res.stats)
	s.Seconds += seconds
}

// record summarises the interval: the mean of every number over its steps, the reward's mean
// and standard deviation over its instances, and epsilon and h's rates in force at its end.
func (s *intervalStats) record(h Hyper) *run.Train {
	tr := s.Train
	tr.Div(float64(max(s.Steps, 1)))
	tr.RewardMean, tr.RewardStd = s.RewardMean, 0
	if s.RewardN > 1 {
		tr.RewardStd = math.Sqrt(s.RewardM2 / float64(s.RewardN-1))
	}
	tr.Epsilon, tr.ActorLR, tr.CriticLR, tr.StepsPerSec = h.Epsilon, h.ActorLR, h.CriticLR, 0
	if s.Seconds > 0 {
		tr.StepsPerSec = float64(s.Steps) / s.Seconds
	}
	return &tr
}

// emit sends rec to metrics.jsonl and, without blocking, to the Records stream; a record the
// stream has no room for is counted as dropped. The first write error is kept and ends the run
// at the next step boundary.
func (t *trainer) emit(rec run.Record) {
	rec.Step = t.step
	rec.Wall = t.clock.total()
	line, err := json.Marshal(rec)
	if err == nil {
		_, err = t.metrics.Write(append(line, '\n'))
	}
	if err != nil && t.ioErr == nil {
		t.ioErr = err
	}
	select {
	case t.records <- rec:
	default:
		t.dropped.Add(1)
	}
}

// event emits an event record and logs it to train.log.
func (t *trainer) event(ev *run.Event) {
	t.emit(run.Record{Kind: run.KindEvent, Event: ev})
	switch {
	case ev.Event == run.EventSet:
		t.log.Printf("step %d: set %s %g -> %g", t.step, ev.Param, ev.Old, ev.New)
	case ev.Message != "":
		t.log.Printf("step %d: %s: %s", t.step, ev.Event, ev.Message)
	default:
		t.log.Printf("step %d: %s", t.step, ev.Event)
	}
}
