package agent

import (
	"encoding/json"
	"math"

	"spg-tui/run"
)

// intervalStats accumulates one logging interval. It is saved in checkpoints, so that a run
// resumed mid-interval logs exactly what an uninterrupted one does.
type intervalStats struct {
	Steps int `json:"steps"`
	// Rewards of every acted instance, by Welford's method.
	RewardN    int     `json:"reward_n"`
	RewardMean float64 `json:"reward_mean"`
	RewardM2   float64 `json:"reward_m2"`
	// Sums over the interval's steps.
	CriticHard    float64 `json:"critic_hard"`
	CriticPenalty float64 `json:"critic_penalty"`
	CriticLoss    float64 `json:"critic_loss"`
	ActorLoss     float64 `json:"actor_loss"`
	QHard         float64 `json:"q_hard"`
	QSoft         float64 `json:"q_soft"`
	Birkhoff      float64 `json:"birkhoff"`
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
	st := res.stats
	s.CriticHard += st.CriticHard
	s.CriticPenalty += st.CriticPenalty
	s.CriticLoss += st.CriticLoss
	s.ActorLoss += st.ActorLoss
	s.QHard += st.QHard
	s.QSoft += st.QSoft
	s.Birkhoff += res.birkhoff
	s.Seconds += seconds
}

// record summarises the interval; h holds the rates in force at its end.
func (s *intervalStats) record(epsilon float64, h Hyper) *run.Train {
	k := float64(max(s.Steps, 1))
	std := 0.0
	if s.RewardN > 1 {
		std = math.Sqrt(s.RewardM2 / float64(s.RewardN-1))
	}
	rate := 0.0
	if s.Seconds > 0 {
		rate = float64(s.Steps) / s.Seconds
	}
	return &run.Train{
		RewardMean: s.RewardMean, RewardStd: std,
		CriticHard: s.CriticHard / k, CriticPenalty: s.CriticPenalty / k, CriticLoss: s.CriticLoss / k,
		ActorLoss: s.ActorLoss / k, QHard: s.QHard / k, QSoft: s.QSoft / k, Birkhoff: s.Birkhoff / k,
		Epsilon: epsilon, ActorLR: h.ActorLR, CriticLR: h.CriticLR, StepsPerSec: rate,
	}
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
