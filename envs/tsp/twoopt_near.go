package tsp

import "fmt"

// TwoOptNear improves tour in place by the 2-opt moves that add an edge from a vertex a to one
// of its candidates, near[a*k : (a+1)*k] (vertices other than a), under the symmetric
// row-major n x n cost matrix d: for each vertex a and candidate c, the move that replaces a's
// tour edge to its successor b and c's to its successor e by (a, c) and (b, e), and the one
// that replaces a's edge to its predecessor p and c's to its predecessor q by (a, c) and (p, q).
// It takes every move that gains more than a relative 1e-12 until none does (Bentley's
// neighbour-list 2-opt); with all n - 1 other vertices as candidates its result is a 2-opt local
// optimum. The candidates need not be sorted. pos (length n) is scratch. The result is never
// longer than the input. It panics on sizes that do not agree or a candidate out of range.
func TwoOptNear(d []float64, n int, near []int, k int, tour, pos []int) {
	checkSquare(d, n, tour)
	if k < 0 || len(near) != n*k || len(pos) != n {
		panic(fmt.Sprintf("tsp: %d candidates and %d positions for %d vertices, want %d x %d and %d", len(near), len(pos), n, n, k, n))
	}
	if n < 4 {
		return // every tour of 3 vertices or fewer is 2-opt optimal
	}
	for i, v := range tour {
		pos[v] = i
	}
	for improved := true; improved; {
		improved = false
		for a := range n {
			for _, c := range near[a*k : (a+1)*k] {
				if c < 0 || c >= n || c == a {
					panic(fmt.Sprintf("tsp: candidate %d of vertex %d out of range", c, a))
				}
				if twoOptNearMove(d, n, a, c, tour, pos) {
					improved = true
				}
			}
		}
	}
}

// twoOptNearMove makes the better improving one of the two moves that add the edge (a, c), if
// either gains, and reports whether it did.
func twoOptNearMove(d []float64, n, a, c int, tour, pos []int) bool {
	i, j := pos[a], pos[c]
	b, e := tour[(i+1)%n], tour[(j+1)%n]
	p, q := tour[(i+n-1)%n], tour[(j+n-1)%n]
	dac := d[a*n+c]
	// Successor move: a b ... c e becomes a c ... b e (reverse b..c).
	succGain, succTol := 0.0, 0.0
	if c != b && e != a {
		removed := d[a*n+b] + d[c*n+e]
		succGain, succTol = removed-dac-d[b*n+e], twoOptTol*removed
	}
	// Predecessor move: p a ... q c becomes p q ... a c (reverse a..q).
	predGain, predTol := 0.0, 0.0
	if c != p && q != a {
		removed := d[p*n+a] + d[q*n+c]
		predGain, predTol = removed-dac-d[p*n+q], twoOptTol*removed
	}
	switch {
	case succGain > succTol && succGain >= predGain:
		reverseCyclic(tour, pos, (i+1)%n, j)
	case predGain > predTol:
		reverseCyclic(tour, pos, i, (j+n-1)%n)
	default:
		return false
	}
	return true
}

// reverseCyclic reverses the tour's positions from s forwards to t, wrapping around the end,
// and keeps pos (vertex to position) up to date.
func reverseCyclic(tour, pos []int, s, t int) {
	n := len(tour)
	length := (t-s+n)%n + 1
	for m := range length / 2 {
		x, y := (s+m)%n, (t-m+n)%n
		tour[x], tour[y] = tour[y], tour[x]
		pos[tour[x]], pos[tour[y]] = x, y
	}
}
