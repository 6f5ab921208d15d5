package learn

import (
	"fmt"

	"spg-tui/agent/device"
	"spg-tui/agent/nets"
	"spg-tui/run"
)

// Minibatch is a minibatch in the layout the networks read: float32, row-major.
type Minibatch struct {
	B      int
	States []float32 // B x the task's envs.Facts.StateLen(n)
	P      []float32 // B x N x N hard actions (0/1 permutation matrices)
	M      []float32 // B x N x N soft actions, as stored at acting time
	Reward []float32 // B
}

// Hyper are the hyperparameters a step reads, the only way a learner sees values that may change
// between steps (the live parameters).
type Hyper struct {
	Tau           float64
	SinkhornIters int
	ActorLR       float64
	CriticLR      float64
	CriticPenalty bool
	// ClipNorm bounds the L2 norm of each update's gradients (0: unclipped).
	ClipNorm float64
	// Explore is k-exchange exploration, on for the models that explore; Epsilon is its
	// probability in force at the step (0 when off).
	Explore bool
	Epsilon float64
	// CriticOnly skips the actor's update (the extra critic updates of a step).
	CriticOnly bool
	// RoundLog rounds M by the Hungarian maximum of log M (run.RoundingLog), not of M.
	RoundLog bool
	// Successor: the action is a successor matrix (run.Model.Successor), its rounding patched
	// into one tour before it is executed (ActionDecoder).
	Successor bool
}

// StepStats are the numbers one training step reports, in the schema of the training summary
// (run.Train), so that the interval accumulator sums them as they are: an update sets the
// losses (CriticHard = MSE(r, Q(s,P)); CriticPenalty = MSE(Q(s,P), Q(s,M)), computed even when
// not trained on; CriticLoss, the loss the critic descended; ActorLoss = -mean Q(s, M') with M'
// fresh from the actor) and the mean Q values QHard = Q(s,P), QSoft = Q(s,M); the training step
// adds Birkhoff.
type StepStats = run.Train

// Learner is an SPG actor-critic pair with its optimisers. The critic-free learners implement it
// too (Act is their greedy policy as permutation matrices; Update and Q return errors) and are
// trained through OnPolicyLearner instead.
type Learner interface {
	// Act writes the actor's soft actions M (b x N x N) for b featurised states, any b >= 1.
	Act(states []float32, b int, h Hyper, m []float32) error
	// Update runs one critic update on batch (Algorithm 1's loss, the penalty per h), then one
	// actor update ascending Q(s, M') on the batch's states.
	Update(batch *Minibatch, h Hyper) (StepStats, error)
	// Q writes the critic's Q(s,P) and Q(s,M) for b states (batch norm in inference mode).
	Q(states, p, m []float32, b int, qHard, qSoft []float32) error
	// MarshalBinary and UnmarshalBinary save and restore parameters and optimiser state.
	MarshalBinary() ([]byte, error)
	UnmarshalBinary(data []byte) error
}

// NewLearner returns the learner of spec's model on dev: an SPG learner (see newSPGLearner); a
// critic-free REINFORCE learner (PN-AC, PN-AC+Matching, AC+Matching); or SPG+Random, the
// untrained SPG actor. Where the model has GPU kernels and dev opens a GPU, the SPG learner runs
// there (a nil dev is the CPU). Its methods must not be called concurrently. spec was resolved
// where the run or command started (run.Resolve, or run.ResolveModel for a learner that only
// decodes: its N may be anything up to the task's instance bound, since a learner keeps no
// replay buffer, and a run is held to run.MaxN where it starts).
func NewLearner(spec run.Spec, dev *device.Device) (Learner, error) {
	switch spec.Entry.Kind {
	case run.KindCriticFree:
		net, ok := nets.NewPolicyNet(spec.Model, spec.N, spec.Hidden, spec.Facts.State.Features(spec.N))
		if !ok {
			return nil, fmt.Errorf("model %q: agent has no policy network for it", spec.Model)
		}
		return newReinforceLearner(spec, net), nil
	case run.KindUntrained:
		return newUntrainedLearner(spec, dev)
	}
	// Only a model with GPU kernels opens the GPU (under --device auto, on its first use).
	if hasGPUKernels(spec) {
		if gpu := dev.Open(); gpu != nil {
			return NewDeviceLearner(spec, gpu)
		}
	}
	l, err := newSPGLearner(spec)
	if err != nil {
		return nil, err // not a nil *spgLearner inside a non-nil Learner
	}
	return l, nil
}
