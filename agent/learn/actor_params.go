package learn

import "spg-tui/agent/nets"

// ActorParams is the actor's parameters of an SPG learner on the CPU, the networks a run
// started from another run's policy (--init) and the authors' import write into; false for the
// other learners.
func ActorParams(l Learner) (*nets.Params, bool) {
	sl, ok := l.(*spgLearner)
	if !ok {
		return nil, false
	}
	return sl.actor, true
}
