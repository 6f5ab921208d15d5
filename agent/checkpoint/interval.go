package checkpoint

import (
	"math"

	"spg-tui/agent/learn"
	"spg-tui/run"
)

// Interval accumulates one logging interval: the rewards of every acted instance, by
// Welford's method, and the sums of every number the steps report, in the training summary's
// own type. It is saved in checkpoints, so that a run resumed mid-interval logs exactly what an
// uninterrupted one does; the sums' JSON fields sit beside the others, where checkpoints
// written before they were a run.Train have them.
type Interval struct {
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

// Add folds one step into the interval: its numbers st, the rewards of the instances it acted
// on, and the seconds it took.
func (s *Interval) Add(st *run.Train, rewards []float64, seconds float64) {
	s.Steps++
	for _, r := range rewards {
		s.RewardN++
		d := r - s.RewardMean
		s.RewardMean += d / float64(s.RewardN)
		s.RewardM2 += d * (r - s.RewardMean)
	}
	s.Train.Add(st)
	s.Seconds += seconds
}

// Record summarises the interval: the mean of every number over its steps, the reward's mean
// and standard deviation over its instances, and epsilon and h's rates in force at its end.
func (s *Interval) Record(h learn.Hyper) *run.Train {
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
