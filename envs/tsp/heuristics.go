package tsp

import (
	"fmt"
	"slices"
)

// twoOptTol is the relative gain a 2-opt move must reach to be taken. Rounding in the
// four-term gain is about 1e-16 relative; requiring more keeps exact ties (duplicate or
// collinear points) from cycling forever.
const twoOptTol = 1e-12

// NearestNeighbour writes into tour the nearest-neighbour tour of the row-major n x n cost
// matrix d: start at vertex 0, then repeatedly go to the closest unvisited vertex (ties to
// the lowest index). It does not allocate. It panics if d is not n x n or len(tour) != n.
func NearestNeighbour(d []float64, n int, tour []int) { nearestNeighbourFrom(d, n, 0, tour) }

// nearestNeighbourFrom is NearestNeighbour starting at vertex start.
func nearestNeighbourFrom(d []float64, n, start int, tour []int) {
	checkSquare(d, n, tour)
	// tour[pos:] holds the unvisited vertices; the chosen one is swapped to the front.
	for i := range tour {
		tour[i] = i
	}
	tour[0], tour[start] = start, 0
	for pos := 1; pos < n; pos++ {
		row := d[tour[pos-1]*n : tour[pos-1]*n+n]
		best := pos
		for i := pos + 1; i < n; i++ {
			v, b := tour[i], tour[best]
			if row[v] < row[b] || (row[v] == row[b] && v < b) {
				best = i
			}
		}
		tour[pos], tour[best] = tour[best], tour[pos]
	}
}

// FarthestInsertion writes into tour the farthest-insertion tour of the row-major n x n cost
// matrix d. It starts from an endpoint of the longest edge, then repeatedly takes the
// unvisited vertex farthest from the partial tour and inserts it where it lengthens the tour
// least (ties to the lowest index). It panics if d is not n x n or len(tour) != n.
func FarthestInsertion(d []float64, n int, tour []int) {
	checkSquare(d, n, tour)
	first := 0
	longest := slices.Max(d[:n])
	for i := 1; i < n; i++ {
		if r := slices.Max(d[i*n : i*n+n]); r > longest {
			first, longest = i, r
		}
	}
	tour[0] = first
	// gap[v] is the distance from v to the partial tour; -1 marks vertices already in it.
	gap := make([]float64, n)
	copy(gap, d[first*n:first*n+n])
	gap[first] = -1
	for k := 1; k < n; k++ {
		v := 0
		for u := 1; u < n; u++ {
			if gap[u] > gap[v] {
				v = u
			}
		}
		// Insert v between tour[at] and tour[at+1] (cyclically).
		at, cost := 0, 0.0
		for i := 0; i < k; i++ {
			a, b := tour[i], tour[(i+1)%k]
			c := d[a*n+v] + d[v*n+b] - d[a*n+b]
			if i == 0 || c < cost {
				at, cost = i, c
			}
		}
		copy(tour[at+2:k+1], tour[at+1:k])
		tour[at+1] = v
		gap[v] = -1
		row := d[v*n : v*n+n]
		for u, g := range gap {
			if g >= 0 && row[u] < g {
				gap[u] = row[u]
			}
		}
	}
}

// TwoOpt improves tour in place to a 2-opt local optimum under the symmetric row-major
// n x n cost matrix d, taking the first improving move found (replace edges (a,b), (c,e)
// by (a,c), (b,e) and reverse the path between) until none gains more than a relative 1e-12.
// The result is never longer than the input. It does not allocate. It panics if d is not
// n x n or len(tour) != n.
func TwoOpt(d []float64, n int, tour []int) {
	checkSquare(d, n, tour)
	for improved := true; improved; {
		improved = false
		for i := 0; i+2 < n; i++ {
			a, b := tour[i], tour[i+1]
			dab := d[a*n+b]
			for j := i + 2; j < n; j++ {
				if i == 0 && j == n-1 {
					continue // the edges (a,b) and (c,e) share vertex a
				}
				c, e := tour[j], tour[(j+1)%n]
				dce := d[c*n+e]
				if d[a*n+c]+d[b*n+e]-dab-dce < -twoOptTol*(dab+dce) {
					slices.Reverse(tour[i+1 : j+1])
					b = tour[i+1]
					dab = d[a*n+b]
					improved = true
				}
			}
		}
	}
}

// checkSquare panics unless d is n x n and tour has length n.
func checkSquare(d []float64, n int, tour []int) {
	if n < 1 || len(d) != n*n {
		panic(fmt.Sprintf("tsp: cost matrix has %d entries, want %d x %d", len(d), n, n))
	}
	if len(tour) != n {
		panic(fmt.Sprintf("tsp: tour has length %d, want %d", len(tour), n))
	}
}

// TourCost is the length of the closed tour under the row-major n x n cost matrix d.
func TourCost(d []float64, n int, tour []int) float64 {
	if len(tour) < 2 {
		return 0
	}
	prev := tour[len(tour)-1]
	var sum float64
	for _, v := range tour {
		sum += d[prev*n+v]
		prev = v
	}
	return sum
}
