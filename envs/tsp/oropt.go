package tsp

import (
	"fmt"
	"slices"
)

// orOptMaxLen is the longest segment an or-opt move relocates.
const orOptMaxLen = 3

// OrOpt improves tour in place to an or-opt local optimum under the symmetric row-major n x n
// cost matrix d: it moves a segment of 1 to 3 consecutive vertices, forwards or reversed,
// between two other neighbours of the tour, taking the first move that gains more than a
// relative 1e-12, until none does. The result is never longer than the input. It panics if d
// is not n x n or len(tour) != n.
func OrOpt(d []float64, n int, tour []int) {
	checkSquare(d, n, tour)
	buf := make([]int, n)
	for orOptMove(d, n, tour, buf) {
	}
}

// orOptMove makes the first improving or-opt move it finds, reporting whether there was one.
func orOptMove(d []float64, n int, tour, buf []int) bool {
	for l := 1; l <= orOptMaxLen && l <= n-3; l++ {
		for i := range n {
			s0, sl := tour[i], tour[(i+l-1)%n]
			p, q := tour[(i+n-1)%n], tour[(i+l)%n]
			cut := d[p*n+s0] + d[sl*n+q]
			gain := cut - d[p*n+q]
			// The rest of the tour is the path q = tour[i+l] ... p = tour[i-1]; the segment
			// goes between its k-th and (k+1)-th vertices.
			for k := 0; k+1 < n-l; k++ {
				a, b := tour[(i+l+k)%n], tour[(i+l+k+1)%n]
				dab := d[a*n+b]
				fwd := d[a*n+s0] + d[sl*n+b] - dab
				rev := d[a*n+sl] + d[s0*n+b] - dab
				tol := twoOptTol * (cut + dab)
				if fwd-gain >= -tol && rev-gain >= -tol {
					continue
				}
				out := buf[:0]
				for j := 0; j <= k; j++ {
					out = append(out, tour[(i+l+j)%n])
				}
				seg := len(out)
				for j := range l {
					out = append(out, tour[(i+j)%n])
				}
				if rev < fwd {
					slices.Reverse(out[seg:])
				}
				for j := k + 1; j < n-l; j++ {
					out = append(out, tour[(i+l+j)%n])
				}
				copy(tour, out)
				return true
			}
		}
	}
	return false
}

// localSearchStarts is how many nearest-neighbour starts the 2opt-oropt solver improves.
const localSearchStarts = 8

// TwoOptOrOpt writes into tour the best of several local searches under the symmetric
// row-major n x n cost matrix d: from the nearest-neighbour tours starting at up to 8 vertices
// spread over 0..n-1 (vertex 0 first) and the farthest-insertion tour, each improved by 2-opt
// and or-opt in turn until neither shortens it. It is the "best known" tour where Held-Karp is
// out of reach; ties keep the earlier start. It panics if d is not n x n or len(tour) != n.
func TwoOptOrOpt(d []float64, n int, tour []int) {
	MultiStartLocalSearch(d, n, localSearchStarts, tour)
}

// MultiStartLocalSearch is TwoOptOrOpt from the nearest-neighbour tours of min(starts, n)
// vertices spread over 0..n-1 and the farthest-insertion tour: with starts = n, every vertex's.
// It panics if starts < 1, d is not n x n or len(tour) != n.
func MultiStartLocalSearch(d []float64, n, starts int, tour []int) {
	checkSquare(d, n, tour)
	if starts < 1 {
		panic(fmt.Sprintf("tsp: %d local search starts", starts))
	}
	cand := make([]int, n)
	best := -1.0
	starts = min(n, starts)
	for s := 0; s <= starts; s++ {
		if s < starts {
			nearestNeighbourFrom(d, n, s*n/starts, cand)
		} else {
			FarthestInsertion(d, n, cand)
		}
		length := LocalSearch(d, n, cand)
		if best < 0 || length < best {
			best = length
			copy(tour, cand)
		}
	}
}

// LocalSearch improves tour in place by 2-opt and or-opt in turn under the symmetric row-major
// n x n cost matrix d until a round of both gains no more than a relative 1e-12, and returns
// its length. The result is never longer than the input. It panics if d is not n x n or
// len(tour) != n.
func LocalSearch(d []float64, n int, tour []int) float64 {
	length := TourCost(d, n, tour)
	for improved := true; improved; {
		TwoOpt(d, n, tour)
		OrOpt(d, n, tour)
		after := TourCost(d, n, tour)
		improved = after < length-twoOptTol*length
		length = after
	}
	return length
}
