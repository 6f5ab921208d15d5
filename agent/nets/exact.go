package nets

import (
	"fmt"

	G "gorgonia.org/gorgonia"

	"spg-tui/agent/ops/pairops"
	"spg-tui/run"
)

// exactCritic is a model's actor with no learned critic: Q(s, A) is the task's training reward
// written as a function of the action, so the actor ascends the true objective's relaxation.
// It is a diagnostic upper bound on what the critic can give an actor, not a learner (the
// reward is no longer a black box). For tsp it is tourQ with W = -D, D the cities' distances
// (its diagonal priced as the city's mean edge, as the learned tour critic's is), so on a
// permutation Q = -tour length; for mwm Q = <A, D> scale, D_ij = |b_i - a_j| and scale the
// reward's 1/N (1 for the plain-sum reward), so on a permutation Q = the reward.
type exactCritic struct {
	Arch
	n     int
	tsp   bool
	scale float64
}

// withExactCritic wraps a's actor with the exact critic of cfg's task, one whose reward is
// distances (envs.Facts.DistanceReward: mwm's matched pairs, tsp's tour); it refuses a model
// whose states are not the task's raw points.
func withExactCritic(a Arch, cfg run.Spec) (Arch, error) {
	f := cfg.Facts
	if !f.DistanceReward {
		return nil, fmt.Errorf("critic %s: the %s reward is not distances between points", run.CriticExact, cfg.Task)
	}
	tsp := f.State.Tour
	if !exactStateOK(a.StateShape(1), tsp) {
		return nil, fmt.Errorf("critic %s: model %s's states are not the %s instance's points", run.CriticExact, cfg.Model, cfg.Task)
	}
	scale := 1 / float64(cfg.N)
	if cfg.Reward == run.RewardSum {
		scale = 1
	}
	return exactCritic{Arch: a, n: cfg.N, tsp: tsp, scale: scale}, nil
}

func (a exactCritic) CriticSpecs() []ParamSpec { return nil }
func (a exactCritic) BNLayers() []string       { return nil }

func (a exactCritic) Critic(_ *CriticCtx, x *G.Node, acts []*G.Node) ([]*G.Node, error) {
	pts := x
	if a.tsp {
		var err error
		if pts, err = G.Concat(1, x, x); err != nil { // the cities as both point sets
			return nil, err
		}
	}
	d, err := pairops.PairDistances(pts)
	if err != nil {
		return nil, err
	}
	s := -1.0 // tsp: the reward is minus the tour length
	if !a.tsp {
		s = a.scale
	}
	k := G.NewScalar(x.Graph(), x.Dtype(), G.WithName("exact.scale"), G.WithValue(constScalar(x.Dtype(), s)))
	w, err := G.Mul(d, k)
	if err != nil {
		return nil, err
	}
	if a.tsp {
		return tourQ(w, acts, a.n)
	}
	return bilinearQ(w, acts)
}

// exactStateOK reports whether the states of shape s hold the raw points the exact critic reads.
func exactStateOK(s []int, tsp bool) bool {
	if tsp {
		return len(s) == 3 && s[2] == 2
	}
	return len(s) == 3 && s[2] == 2 && s[1]%2 == 0
}
