package tsp

import (
	"math/rand/v2"
	"slices"
	"testing"

	"spg-tui/envs/internal/envstest"
	"spg-tui/envs/tsp/tsptest"
)

// naiveGreedyEdges is GreedyEdges by its definition, O(n^3): n - 1 times, the legal edge of the
// highest score (ties to the lower i, then j) is taken, legality checked by walking the paths;
// it returns the edges taken and the closing one.
func naiveGreedyEdges(w []float64, n int) [][2]int {
	deg := make([]int, n)
	var taken [][2]int
	sameComponent := func(a, b int) bool {
		seen := map[int]bool{a: true}
		stack := []int{a}
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, e := range taken {
				for _, u := range []int{e[0], e[1]} {
					if (e[0] == v || e[1] == v) && !seen[u] {
						seen[u] = true
						stack = append(stack, u)
					}
				}
			}
		}
		return seen[b]
	}
	for len(taken) < n-1 {
		bi, bj := -1, -1
		for i := range n {
			for j := i + 1; j < n; j++ {
				if deg[i] == 2 || deg[j] == 2 || sameComponent(i, j) {
					continue
				}
				if bi < 0 || w[i*n+j]+w[j*n+i] > w[bi*n+bj]+w[bj*n+bi] {
					bi, bj = i, j
				}
			}
		}
		taken = append(taken, [2]int{bi, bj})
		deg[bi]++
		deg[bj]++
	}
	var ends []int
	for v := range n {
		if deg[v] < 2 {
			ends = append(ends, v)
		}
	}
	return append(taken, [2]int{ends[0], ends[1]})
}

// TestGreedyEdgesIsTheNaiveGreedy checks GreedyEdges against naiveGreedyEdges on random score
// matrices, asymmetric, with and without ties (small integers), at n = 4 to 11: the same edges,
// and a tour from city 0.
func TestGreedyEdgesIsTheNaiveGreedy(t *testing.T) {
	rng := envstest.RNG(37)
	for trial := range 300 {
		n := 4 + rng.IntN(8)
		w := make([]float64, n*n)
		for k := range w {
			if trial%2 == 0 {
				w[k] = float64(rng.IntN(3)) // many ties
			} else {
				w[k] = rng.NormFloat64()
			}
		}
		tour := make([]int, n)
		GreedyEdges(w, n, tour)
		envstest.MustPerm(t, tour, n, "greedy tour")
		if tour[0] != 0 {
			t.Fatalf("trial %d: tour %v does not start at city 0", trial, tour)
		}
		want := naiveGreedyEdges(w, n)
		for k := range want {
			want[k] = [2]int{min(want[k][0], want[k][1]), max(want[k][0], want[k][1])}
		}
		slices.SortFunc(want, func(x, y [2]int) int {
			if x[0] != y[0] {
				return x[0] - y[0]
			}
			return x[1] - y[1]
		})
		if got := tsptest.Edges(tour); !slices.Equal(got, want) {
			t.Fatalf("trial %d (n = %d): edges %v, the naive greedy takes %v", trial, n, got, want)
		}
	}
}

// TestGreedyEdgesByHand checks a 4-city case worked by hand: the scores of {0,2}, {1,3}, {0,1}
// are 5, 4, 3 (summed over both directions), so those three make the path 2-0-1-3, closed by
// {2,3} whatever its score: {1,2} at 2.5 comes next but city 1 already has two edges.
func TestGreedyEdgesByHand(t *testing.T) {
	n := 4
	w := make([]float64, n*n)
	set := func(i, j int, s float64) { w[i*n+j], w[j*n+i] = s/2, s/2 }
	set(0, 2, 5)
	set(1, 3, 4)
	set(0, 1, 3)
	set(1, 2, 2.5)
	set(2, 3, -7)
	set(0, 3, 1)
	tour := make([]int, n)
	GreedyEdges(w, n, tour)
	if want := []int{0, 1, 3, 2}; !slices.Equal(tour, want) {
		t.Fatalf("tour %v, want %v", tour, want)
	}
}

// TestGreedyEdgesDegenerate checks the smallest sizes and all-equal scores: a tour of every city
// from 0, the same on the same input.
func TestGreedyEdgesDegenerate(t *testing.T) {
	for n := 1; n <= 9; n++ {
		w := make([]float64, n*n) // all ties
		tour := make([]int, n)
		GreedyEdges(w, n, tour)
		envstest.MustPerm(t, tour, n, "greedy tour of equal scores")
		if tour[0] != 0 {
			t.Fatalf("n = %d: tour %v does not start at city 0", n, tour)
		}
		again := make([]int, n)
		GreedyEdges(w, n, again)
		if !slices.Equal(tour, again) {
			t.Fatalf("n = %d: %v then %v on the same scores", n, tour, again)
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{2, 3} {
		w := make([]float64, n*n)
		for k := range w {
			w[k] = rng.NormFloat64()
		}
		tour := make([]int, n)
		GreedyEdges(w, n, tour)
		envstest.MustPerm(t, tour, n, "greedy tour")
	}
}
