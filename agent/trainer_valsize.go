package agent

import (
	"spg-tui/agent/eval"
	"spg-tui/agent/learn"
	"spg-tui/run"
)

// validationLearner is the learner that validates: the run's own, or where the validation is at
// another size (run.Config.ValN) the run's parameters copied into networks of that size, built
// once on the run's device and refreshed at each call.
func (t *trainer) validationLearner() (learn.Learner, error) {
	n := t.valEnv.N()
	if n == t.cfg.N {
		return t.core.learner, nil
	}
	state, err := t.core.learner.MarshalBinary()
	if err != nil {
		return nil, err
	}
	if t.valLearner == nil {
		l, err := eval.SizedLearner(t.cfg, t.dev, state, n)
		if err != nil {
			return nil, err
		}
		t.valLearner = l
		return l, nil
	}
	return t.valLearner, t.valLearner.UnmarshalBinary(learn.ResizedState(state, n))
}

// dropSampleMs removes the soft permutations from a validation's samples, as for one at
// another size than the run's: an n x n matrix per sample at n = 500 would make each record
// megabytes (the console draws the samples without it).
func dropSampleMs(ev *run.Eval) {
	for i := range ev.Samples {
		ev.Samples[i].M = nil
	}
}
