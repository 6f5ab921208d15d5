package learn

import "spg-tui/envs/tsp"

// PatchByScores is ToPerm for a successor action with a patching that also weighs the policy's
// scores: the cover rowToCol is patched (tsp.PatchSuccessor) under the cost
// d_ij - weight (logM_ij + logM_ji) / 2, so that a merge's cost is its added length less weight
// times the log-probability it adds, logM being the candidate's log M (n x n, row-major). The
// exchanges patching compares keep each of their four cities' rows and columns, so the
// constants Sinkhorn normalises away cancel from them. At weight 0 it is ToPerm. SetInstance
// must have been given the instance.
func (a *ActionDecoder) PatchByScores(rowToCol []int, logM []float64, weight float64, perm []int) {
	n := len(rowToCol)
	if len(a.cost) != n*n {
		a.cost = make([]float64, n*n)
	}
	for i := range n {
		for j := range n {
			if i == j { // self-loops (barred from covers) keep the distance's 0, not log M's -inf
				a.cost[i*n+j] = a.d[i*n+j]
				continue
			}
			a.cost[i*n+j] = a.d[i*n+j] - weight*(logM[i*n+j]+logM[j*n+i])/2
		}
	}
	a.succ = append(a.succ[:0], rowToCol...)
	tsp.PatchSuccessor(a.cost, n, a.succ, perm)
}
