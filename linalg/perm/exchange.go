package perm

import "math/rand/v2"

// DrawRows draws k distinct row indices from 0..n-1 into rows (len k), every ordered k-tuple
// equally likely. It uses Floyd's subset sampling followed by a shuffle, so it allocates
// nothing and never rejects; membership tests scan rows, which for the small k of k-exchanges
// is cheaper than hashing (O(k^2) comparisons, O(k) random draws).
// It panics if k > n or k < 0.
func DrawRows(rng *rand.Rand, n, k int, rows []int) {
	if k < 0 || k > n {
		panic("perm: DrawRows needs 0 <= k <= n")
	}
	rows = rows[:k]
	// Floyd: for j = n-k..n-1 add a uniform t in [0, j], or j itself if t is taken.
	// This yields a uniform k-subset.
	for i, j := 0, n-k; j < n; i, j = i+1, j+1 {
		t := rng.IntN(j + 1)
		for _, r := range rows[:i] {
			if r == t {
				t = j
				break
			}
		}
		rows[i] = t
	}
	// Floyd's order is biased (j tends to come late), so shuffle for a uniform order.
	for i := k - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		rows[i], rows[j] = rows[j], rows[i]
	}
}

// CycleRows applies the k-exchange given by rows (k = len(rows)) in place: the block of width
// elements at row rows[i] moves to row rows[(i+1)%k]. data is a row-major matrix with width
// columns, or a permutation vector with width 1. With k = 2 it swaps two rows; every chosen row
// moves when the rows are distinct and k >= 2.
func CycleRows[T any](data []T, width int, rows []int) {
	if len(rows) < 2 {
		return
	}
	// Swapping block rows[0] with rows[1], rows[2], ... in turn realises the cycle with
	// scalar temporaries only: after the swap with rows[i], rows[i] holds the old rows[i-1]
	// and rows[0] holds the old rows[i].
	a := data[rows[0]*width : (rows[0]+1)*width]
	for _, r := range rows[1:] {
		b := data[r*width : (r+1)*width]
		for c := range a {
			a[c], b[c] = b[c], a[c]
		}
	}
}
