package nets

import (
	"spg-tui/envs"
	"spg-tui/linalg/perm"
)

// Features is the number of input features per item at size n (envs.State): 2 coordinates for
// mwm and tsp, the raw value for sort (fed unnormalised, as in the authors' code), an adjacency
// row of n for gm.
func Features(task envs.Task, n int) int { return envs.MustFacts(task).State.Features(n) }

// StateLen is the length of one featurised state: for mwm the N points of A then the N points
// of B (2N x 2); for tsp the N points (N x 2); for sort the N values (N x 1).
func StateLen(task envs.Task, n int) int { return envs.MustFacts(task).StateLen(n) }

// Featurize writes inst's state into dst (len StateLen) as float32.
func Featurize(task envs.Task, inst envs.Instance, dst []float32) {
	envs.MustFacts(task).Featurize(inst, dst)
}

// ActionToPerm turns the rounded action, given as rowToCol (P[i][rowToCol[i]] = 1), into the
// task's permutation convention. P follows the authors' code, y = x^T P: P[i][j] = 1 puts item i
// at position j. For sort and tsp the items are the inputs, so the output order is the inverse of
// rowToCol. For mwm the action permutes the set B (the paper: "P is used to permute the vertices
// of V2"), so b_i lands beside a_j and the matching (perm[j] = index in B matched to A[j]) is
// again the inverse. This keeps each row of P aligned with the network's row of the same B point
// (the actor's GRU runs over the rows of E = E2 E1^T, one per point of B), which is what makes the
// action learnable: with rows read as A's points instead (the PyTorch peer benchmark's bmm(P, b)),
// row i would have to choose among all of B from a recurrent state that has seen only b_0..b_i.
func ActionToPerm(rowToCol, dst []int) {
	perm.Invert(dst, rowToCol)
}
