package learn

import (
	"errors"
	"fmt"

	"spg-tui/agent/device"
	"spg-tui/run"
)

// untrainedLearner is a model of kind run.KindUntrained (SPG+Random): the SPG actor of the
// task's architecture (SPG+Matching for mwm, SPG+Sequential for sort and tsp) as initialised
// from the seed, never updated. A run of it acts on its training batches only to report their
// rewards, and evaluates like any other.
type untrainedLearner struct{ Learner }

// Q implements Learner: the untrained critic is not reported (ErrNoCritic).
func (untrainedLearner) Q(_, _, _ []float32, _ int, _, _ []float32) error {
	return fmt.Errorf("agent: an untrained model: %w", ErrNoCritic)
}

// newUntrainedLearner builds the SPG learner of spec's task under its default model on dev:
// another model's configuration, resolved here.
func newUntrainedLearner(spec run.Spec, dev *device.Device) (Learner, error) {
	base := spec.Config
	base.Model = run.DefaultModel(spec.Task)
	bs, err := run.ResolveModel(base)
	if err != nil {
		return nil, err
	}
	l, err := NewLearner(bs, dev)
	if err != nil {
		return nil, err
	}
	return untrainedLearner{l}, nil
}

// Update implements Learner: an untrained model never learns.
func (untrainedLearner) Update(*Minibatch, Hyper) (StepStats, error) {
	return StepStats{}, errors.New("agent: an untrained model is never updated")
}
