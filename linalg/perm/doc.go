// Package perm provides permutations stored as []int, where p[i] = j means row i goes to
// column j (the permutation matrix P has P[i][j] = 1), together with the random k-exchange
// moves.
package perm
