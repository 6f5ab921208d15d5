package run

import (
	"fmt"
	"math"
)

// Upper bounds on the sizes of a run: far above anything the paper or a user means (its runs
// use L = 10, batch 128, 500,000 training instances, 1,000 for validation), yet low enough that
// no value passes validation only to spend hours in one step or crash on allocation. Memory is
// checked besides, against the machine (CheckMemory).
const (
	// MaxSinkhornIters bounds L: a step's Sinkhorn work and saved iterates grow with it.
	MaxSinkhornIters = 1000
	// MaxBatch bounds the instances acted on per step.
	MaxBatch = 1 << 16
	// MaxTrainSize bounds the training set (its shuffled order is 4 bytes per instance).
	MaxTrainSize = 10_000_000
	// MaxEvalSize bounds the validation and test sets, which are held whole with references.
	MaxEvalSize = 1_000_000
	// MaxBuffer bounds the replay capacity in transitions.
	MaxBuffer = 1 << 31
	// MaxSteps bounds a run's total training steps.
	MaxSteps = 1_000_000_000
	// MaxHidden bounds the width of the networks.
	MaxHidden = 4096
	// MaxSeeds bounds the runs per arm of an experiment (the paper has 10): each is a whole run,
	// and the plan holds every one's configuration before the first starts.
	MaxSeeds = 1000
	// MinTau and MaxTau bound the Sinkhorn temperature: X/tau in float32 overflows, or S^L is
	// uniform, outside them.
	MinTau, MaxTau = 1e-4, 1e4
)

// checkBounds names the first field above its upper bound, or a tau outside its range: the one
// check of tau, which every learner and decode then trusts (a NaN, zero or infinite tau is
// outside it too).
func (c Config) checkBounds() error {
	checks := []struct {
		bad       bool
		name, msg string
	}{
		{c.SinkhornIters > MaxSinkhornIters, "sinkhorn-iters", fmt.Sprintf("%d: must be at most %d", c.SinkhornIters, MaxSinkhornIters)},
		{c.Batch > MaxBatch, "batch", fmt.Sprintf("%d: must be at most %d", c.Batch, MaxBatch)},
		{c.TrainSize > MaxTrainSize, "train-size", fmt.Sprintf("%d: must be at most %d", c.TrainSize, MaxTrainSize)},
		{c.ValSize > MaxEvalSize, "val-size", fmt.Sprintf("%d: must be at most %d", c.ValSize, MaxEvalSize)},
		{c.TestSize > MaxEvalSize, "test-size", fmt.Sprintf("%d: must be at most %d", c.TestSize, MaxEvalSize)},
		{c.Buffer > MaxBuffer, "buffer", fmt.Sprintf("%d: must be at most %d transitions", c.Buffer, MaxBuffer)},
		{c.Steps > MaxSteps, "steps", fmt.Sprintf("%d: must be at most %d", c.Steps, MaxSteps)},
		{c.Hidden > MaxHidden, "hidden", fmt.Sprintf("%d: must be at most %d", c.Hidden, MaxHidden)},
		{!(c.Tau >= MinTau && c.Tau <= MaxTau), "tau", fmt.Sprintf("%g: must be in [%g, %g]", c.Tau, MinTau, MaxTau)},
	}
	for _, ch := range checks {
		if ch.bad {
			return fmt.Errorf("%s %s", ch.name, ch.msg)
		}
	}
	return nil
}

// EpochsToSteps converts a run length in epochs of perEpoch steps to steps (at least 1), naming
// why a value is refused: not a positive number, or more steps than MaxSteps.
func EpochsToSteps(epochs float64, perEpoch int) (int, error) {
	if !(epochs > 0) || math.IsInf(epochs, 1) {
		return 0, fmt.Errorf("epochs %g: must be a finite number > 0", epochs)
	}
	steps := math.Round(epochs * float64(perEpoch))
	if steps > MaxSteps {
		return 0, fmt.Errorf("epochs %g: at %d steps per epoch that is %.3g steps, more than the most a run may have (%d)",
			epochs, perEpoch, steps, MaxSteps)
	}
	return max(1, int(steps)), nil
}
