package nets

import (
	G "gorgonia.org/gorgonia"

	"spg-tui/agent/ops/layers"
	"spg-tui/agent/ops/pairops"
	"spg-tui/envs"
	"spg-tui/linalg/pairs"
	"spg-tui/run"
)

// successor is SPG+Successor, for tsp: the action is a successor matrix, P_ij = 1 when city j
// follows city i, not the tour places of SPG+Factored. A tour's length is then linear in the
// action, <P, D> with D the distances, and the actor's scores X_ij need only say which city should
// follow which.
//
// The networks are SPG+Pairwise's over the features of each ordered pair of cities (pairs.Tour),
// with the self-loops barred: X_ii = SelfLoopScore before Sinkhorn. The Hungarian rounding of M
// is then a cycle cover, which the environment patches into one tour (envs/tsp.PatchSuccessor). The
// cover is the action the bilinear critic learns from, with the patched tour's reward; its value
// is only nearly linear in the cover, and the actor that ascended the live critic drifted
// towards covers the critic over-scored, which best's slow target critic stops.
//
// SPG+Successor-Local is the same network over pairs.TourLocal's features: each pair measured in
// its cities' own neighbourhoods, alike at every N, so that a model trained at one N scores the
// pairs of a larger instance as it scored those it was trained on. Its actor scores only pairs of
// near cities (FarScore elsewhere): with every pair scored, a model trained at N = 20 gave far
// pairs of TSP-1,000, all alike at the features' caps, scores its covers took by the hundred
// (121 against farthest insertion's 25.6).
//
// SPG+Successor-Graph is SPG+Successor-Local with one round of messages over that candidate
// graph in its networks (pairwise.graphLayer): a pair's score also sees what its cities'
// other candidate pairs look like.
type successor struct{ pairwise }

// SelfLoopScore is the score the successor actor gives every self-loop X_ii: far below any
// learned score, so that exp(X_ii / tau) is zero in float32 and the rounding never picks i -> i.
const SelfLoopScore = -1e4

func init() {
	registerArch(run.ModelSuccessor, func(n, h int, f *envs.Facts) (Arch, error) {
		if !f.PointTour() {
			return nil, errStates
		}
		return successor{pairwise{n: n, h: h, width: pairs.TourWidth, rows: pairops.OnePointSet}}, nil
	})
	registerArch(run.ModelSuccessorLocal, func(n, h int, f *envs.Facts) (Arch, error) {
		if !f.PointTour() {
			return nil, errStates
		}
		return successor{pairwise{n: n, h: h, width: pairs.TourLocalWidth, rows: pairops.LocalPointSet}}, nil
	})
	registerArch(run.ModelSuccessorGraph, func(n, h int, f *envs.Facts) (Arch, error) {
		if !f.PointTour() {
			return nil, errStates
		}
		return successor{pairwise{n: n, h: h, width: pairs.TourLocalWidth, rows: pairops.LocalPointSet, graph: true}}, nil
	})
}

// FarScore is the score SPG+Successor-Local gives every pair outside its candidate graph (neither
// city among the other's pairs.LocalRankCap nearest): far below any learned score, as
// SelfLoopScore is, and above it, so that the rounding takes a far edge before a self-loop where
// it must take one.
const FarScore = SelfLoopScore / 2

// localNear are the columns of pairs.TourLocal's features that say a pair is a candidate: the
// ranks of each city among the other's neighbours, 1 at their cap.
var localNear = []int{pairs.LocalRankFrom, pairs.LocalRankTo}

func (a successor) Actor(x *G.Node, p NodeSet) (*G.Node, error) {
	f, err := pairops.PairFeatures(x, a.rows)
	if err != nil {
		return nil, err
	}
	y, err := a.scoresOf(f, p, false)
	if err != nil {
		return nil, err
	}
	if y, err = layers.BarDiagonal(y, SelfLoopScore); err != nil {
		return nil, err
	}
	if a.rows == pairops.LocalPointSet {
		return layers.BarFar(y, f, localNear, FarScore)
	}
	return y, nil
}
