package agent

import (
	"spg-tui/agent/nets"
	"spg-tui/envs"
)

// actionDecoder turns rounded actions into the task's permutations, with the scratch a
// successor action's patching needs.
type actionDecoder struct {
	d    []float64
	succ []int
}

// toPerm writes into perm the task's permutation of the rounded action rowToCol (row i to column
// rowToCol[i]) of inst: its inverse (nets.ActionToPerm), or for a successor action (h.Successor)
// the tour that patching the cycle cover rowToCol makes (envs.PatchSuccessor).
//
// rowToCol itself is left as it is: the cover is the policy's action, which the critic is
// trained on, and the patching is part of the environment. A critic trained on the patched
// tours instead, linear in the action, had the actor maximise <M, -D> over covers: the
// assignment relaxation, whose patched tours are Karp's (TSP-20 validation 4.008 at step 150
// drifting to 4.156 by step 600, against 3.916 at step 850 with the cover; docs/results.md).
func (a *actionDecoder) toPerm(h Hyper, inst envs.Instance, rowToCol, perm []int) {
	if !h.Successor {
		nets.ActionToPerm(rowToCol, perm)
		return
	}
	n := len(rowToCol)
	if len(a.d) != n*n {
		a.d = make([]float64, n*n)
	}
	envs.DistanceMatrix(a.d, inst.Points, inst.Points)
	a.succ = append(a.succ[:0], rowToCol...)
	envs.PatchSuccessor(a.d, n, a.succ, perm)
}
