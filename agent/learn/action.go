package learn

import (
	"spg-tui/agent/nets"
	"spg-tui/envs"
	"spg-tui/envs/tsp"
)

// ActionDecoder turns the rounded actions of one instance at a time into the task's
// permutations, with the distances a successor action's patching needs.
type ActionDecoder struct {
	d    []float64
	succ []int
	cost []float64 // PatchByScores's mixed costs
}

// SetInstance readies a for the actions of inst: for a successor action (h.Successor), inst's
// distances, which every candidate of a sampled decode shares.
func (a *ActionDecoder) SetInstance(h Hyper, inst envs.Instance) {
	if !h.Successor {
		return
	}
	n := len(inst.Points)
	if len(a.d) != n*n {
		a.d = make([]float64, n*n)
	}
	envs.DistanceMatrix(a.d, inst.Points, inst.Points)
}

// Distances is the distance matrix (n x n, row-major) of the instance last given to
// SetInstance, for a successor action; it is shared, not a copy.
func (a *ActionDecoder) Distances() []float64 { return a.d }

// ToPerm writes into perm the task's permutation of the rounded action rowToCol (row i to column
// rowToCol[i]) of the instance last given to SetInstance: its inverse (nets.ActionToPerm), or for
// a successor action (h.Successor) the tour that patching the cycle cover rowToCol makes
// (tsp.PatchSuccessor).
//
// rowToCol itself is left as it is: the cover is the policy's action, which the critic is
// trained on, and the patching is part of the environment. A critic trained on the patched
// tours instead, linear in the action, had the actor maximise <M, -D> over covers: the
// assignment relaxation, whose patched tours are Karp's (TSP-20 validation 4.008 at step 150
// drifting to 4.156 by step 600, against 3.916 at step 850 with the cover; docs/results.md).
func (a *ActionDecoder) ToPerm(h Hyper, rowToCol, perm []int) {
	if !h.Successor {
		nets.ActionToPerm(rowToCol, perm)
		return
	}
	a.succ = append(a.succ[:0], rowToCol...)
	tsp.PatchSuccessor(a.d, len(rowToCol), a.succ, perm)
}
