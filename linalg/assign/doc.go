// Package assign solves the dense linear assignment problem exactly in O(n^3) time with the
// shortest augmenting path method of Jonker and Volgenant in Crouse's formulation (the one
// behind scipy's linear_sum_assignment), and rounds batches of matrices to the permutations
// maximising trace(P^T M) in parallel.
//
// Matrices are row-major slices of n*n entries.
package assign
