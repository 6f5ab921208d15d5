package agent

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
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
func (s *intervalStats) record(epsilon float64, h Hyper) *Train {
	k := float64(max(s.Steps, 1))
	std := 0.0
	if s.RewardN > 1 {
		std = math.Sqrt(s.RewardM2 / float64(s.RewardN-1))
	}
	rate := 0.0
	if s.Seconds > 0 {
		rate = float64(s.Steps) / s.Seconds
	}
	return &Train{
		RewardMean: s.RewardMean, RewardStd: std,
		CriticHard: s.CriticHard / k, CriticPenalty: s.CriticPenalty / k, CriticLoss: s.CriticLoss / k,
		ActorLoss: s.ActorLoss / k, QHard: s.QHard / k, QSoft: s.QSoft / k, Birkhoff: s.Birkhoff / k,
		Epsilon: epsilon, ActorLR: h.ActorLR, CriticLR: h.CriticLR, StepsPerSec: rate,
	}
}

// emit sends rec to metrics.jsonl and, without blocking, to the Records stream; a record the
// stream has no room for is counted as dropped. The first write error is kept and ends the run
// at the next step boundary.
func (t *trainer) emit(rec Record) {
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
func (t *trainer) event(ev *Event) {
	t.emit(Record{Kind: KindEvent, Event: ev})
	switch {
	case ev.Event == EventSet:
		t.log.Printf("step %d: set %s %g -> %g", t.step, ev.Param, ev.Old, ev.New)
	case ev.Message != "":
		t.log.Printf("step %d: %s: %s", t.step, ev.Event, ev.Message)
	default:
		t.log.Printf("step %d: %s", t.step, ev.Event)
	}
}

// ProgressLine is a one-line human summary of a record of a run of total steps, as the train
// command prints it; "" for records not worth a line (checkpoints).
func ProgressLine(rec Record, total int) string {
	switch {
	case rec.Train != nil:
		tr := rec.Train
		return fmt.Sprintf("step %d/%d: reward %.4g ± %.3g, critic %.4g (hard %.4g, penalty %.4g), actor %.4g, Q %.4g/%.4g, birkhoff %.3f, eps %.3f, %.1f steps/s",
			rec.Step, total, tr.RewardMean, tr.RewardStd, tr.CriticLoss, tr.CriticHard, tr.CriticPenalty,
			tr.ActorLoss, tr.QHard, tr.QSoft, tr.Birkhoff, tr.Epsilon, tr.StepsPerSec)
	case rec.Eval != nil:
		ev := rec.Eval
		s := fmt.Sprintf("%s at step %d: %s %.4f, reward %.4g", ev.Split, rec.Step, ev.MetricName, ev.Metric, ev.EvalReward)
		if ev.RatioOfMeans != 0 {
			s += fmt.Sprintf(" (median %.4f, ratio of means %.4f)", ev.RatioMedian, ev.RatioOfMeans)
		}
		if ev.Gap != 0 {
			s += fmt.Sprintf(", gap %.2f%%", 100*ev.Gap)
		}
		if ev.Best {
			s += ", best so far"
		}
		return s
	case rec.Event != nil:
		ev := rec.Event
		switch ev.Event {
		case EventCheckpoint:
			return ""
		case EventSet:
			return fmt.Sprintf("step %d: %s %g -> %g", rec.Step, ev.Param, ev.Old, ev.New)
		case EventStart:
			keys := slices.Sorted(maps.Keys(ev.References))
			refs := make([]string, len(keys))
			for i, k := range keys {
				refs[i] = fmt.Sprintf("%s %.4f", k, ev.References[k])
			}
			return fmt.Sprintf("start: %s; validation references: %s", ev.Message, strings.Join(refs, ", "))
		}
		if ev.Message != "" {
			return fmt.Sprintf("%s: %s", ev.Event, ev.Message)
		}
		return fmt.Sprintf("%s at step %d", ev.Event, rec.Step)
	}
	return ""
}
