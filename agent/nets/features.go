package nets

import (
	"spg-tui/linalg/perm"
)

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
