package tsp

import (
	"fmt"
	"math"

	"spg-tui/linalg/assign"
)

// PatchedAssignment writes into tour Karp's patching heuristic for the symmetric row-major n x n
// cost matrix d: the minimum-cost cycle cover (the assignment of a successor to every vertex,
// self-loops barred, by the Hungarian algorithm), then, while more than one cycle is left, the
// two cycles whose cheapest single 2-exchange (either orientation) costs least are merged by it.
// It is the successor action's decode with the scores -d and no learning: the ceiling of that
// action with an exact critic (docs/results.md). n must be at least 2. It panics if d is not
// n x n or len(tour) != n.
func PatchedAssignment(d []float64, n int, tour []int) error {
	checkSquare(d, n, tour)
	if n < 2 {
		tour[0] = 0
		return nil
	}
	cost := make([]float64, n*n)
	copy(cost, d)
	barred := 1.0 // above any cycle cover without self-loops: n times the largest cost, plus 1
	for _, v := range d {
		barred = math.Max(barred, float64(n)*v+1)
	}
	for i := range n {
		cost[i*n+i] = barred
	}
	succ := make([]int, n)
	var s assign.Solver
	if _, err := s.Minimize(cost, n, succ); err != nil {
		return err
	}
	PatchSuccessor(d, n, succ, tour)
	return nil
}

// PatchSuccessor makes one tour of the successor function succ (city i followed by succ[i]; a
// permutation of 0..n-1, self-loops allowed) for the symmetric row-major n x n cost matrix d by
// Karp's patching: while more than one cycle is left, the two cycles whose cheapest single
// 2-exchange (either orientation) costs least are merged by it. It writes the tour in visiting
// order into tour and its successor function back into succ. It is the successor action's
// repair (spg-successor): the Hungarian rounding of a successor matrix is a cycle cover. It
// panics if d is not n x n, len(succ) != n or len(tour) != n.
func PatchSuccessor(d []float64, n int, succ, tour []int) {
	checkSquare(d, n, tour)
	if len(succ) != n {
		panic(fmt.Sprintf("tsp: successor function of %d cities, want %d", len(succ), n))
	}
	cycles := successorCycles(succ)
	for len(cycles) > 1 {
		bestCost, bi, bj := math.Inf(1), 0, 0
		var best []int
		for i := range cycles {
			for j := i + 1; j < len(cycles); j++ {
				if c, merged := mergeCycles(d, n, cycles[i], cycles[j]); c < bestCost {
					bestCost, bi, bj, best = c, i, j, merged
				}
			}
		}
		rest := make([][]int, 0, len(cycles)-1)
		for k, c := range cycles {
			if k != bi && k != bj {
				rest = append(rest, c)
			}
		}
		cycles = append(rest, best) // as tools/tsp_patch.py: the merged cycle last
	}
	copy(tour, cycles[0])
	for k, c := range tour {
		succ[c] = tour[(k+1)%n]
	}
}

// successorCycles splits the permutation succ (vertex i is followed by succ[i]) into its cycles,
// each listed in visiting order from its smallest vertex, the cycles by that vertex.
func successorCycles(succ []int) [][]int {
	seen := make([]bool, len(succ))
	var out [][]int
	for s := range succ {
		if seen[s] {
			continue
		}
		var c []int
		for i := s; !seen[i]; i = succ[i] {
			seen[i] = true
			c = append(c, i)
		}
		out = append(out, c)
	}
	return out
}

// mergeCycles returns the cheapest single tour through cycles a and b made by one 2-exchange,
// and its added cost: edge (p, q) of a and edge (r, s) of b are replaced by (p, s) and (r, q), b
// then inserted from s round to r, or by (p, r) and (s, q), b inserted from r back to s. The
// first cheapest exchange in the order a's edges, b's edges, forward before reversed is kept.
func mergeCycles(d []float64, n int, a, b []int) (float64, []int) {
	best, bi, bj, rev := math.Inf(1), 0, 0, false
	for i := range a {
		p, q := a[i], a[(i+1)%len(a)]
		for j := range b {
			r, s := b[j], b[(j+1)%len(b)]
			base := d[p*n+q] + d[r*n+s]
			if c := d[p*n+s] + d[r*n+q] - base; c < best {
				best, bi, bj, rev = c, i, j, false
			}
			if c := d[p*n+r] + d[s*n+q] - base; c < best {
				best, bi, bj, rev = c, i, j, true
			}
		}
	}
	merged := make([]int, 0, len(a)+len(b))
	merged = append(merged, a[:bi+1]...)
	m := len(b)
	for k := range m { // b from s = b[bj+1] round to r = b[bj], or back from r to s
		if rev {
			merged = append(merged, b[(bj-k+m)%m])
		} else {
			merged = append(merged, b[(bj+1+k)%m])
		}
	}
	return best, append(merged, a[bi+1:]...)
}
