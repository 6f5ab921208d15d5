package tsp

import (
	"cmp"
	"slices"
)

// GreedyEdges writes into tour, in visiting order from city 0, the tour that the "greedy edge"
// construction makes of the row-major n x n score matrix w (higher is better; w need not be
// symmetric, an edge {i, j} scores w_ij + w_ji, the diagonal is ignored): the edges are taken in
// decreasing score (ties to the lower i, then the lower j, i < j), each when neither city already
// has two edges and it closes no cycle, until the n - 1 edges of a Hamiltonian path are taken;
// the path's two ends are then joined. It is the heatmap decode of non-autoregressive TSP models
// (Joshi et al. 2019; DIFUSCO's greedy decode), which needs no patching: every candidate edge
// between the ends of two different paths stays legal, so the construction always finishes. w
// must not hold NaN. It panics if w is not n x n or len(tour) != n.
func GreedyEdges(w []float64, n int, tour []int) {
	checkSquare(w, n, tour)
	if n <= 3 { // every cyclic order of at most 3 cities is the same tour
		for i := range tour {
			tour[i] = i
		}
		return
	}
	type edge struct {
		i, j  int
		score float64
	}
	edges := make([]edge, 0, n*(n-1)/2)
	for i := range n {
		for j := i + 1; j < n; j++ {
			edges = append(edges, edge{i, j, w[i*n+j] + w[j*n+i]})
		}
	}
	slices.SortStableFunc(edges, func(a, b edge) int { return cmp.Compare(b.score, a.score) }) // stable: index order on ties
	// adj holds each city's up to two neighbours (-1: none); root is a union-find of the paths.
	adj := make([]int, 2*n)
	for k := range adj {
		adj[k] = -1
	}
	root := make([]int, n)
	for i := range root {
		root[i] = i
	}
	find := func(i int) int {
		for root[i] != i {
			root[i] = root[root[i]]
			i = root[i]
		}
		return i
	}
	taken := 0
	for _, e := range edges {
		if taken == n-1 {
			break
		}
		if adj[2*e.i+1] >= 0 || adj[2*e.j+1] >= 0 {
			continue
		}
		ri, rj := find(e.i), find(e.j)
		if ri == rj {
			continue
		}
		root[ri] = rj
		link(adj, e.i, e.j)
		link(adj, e.j, e.i)
		taken++
	}
	// Walk the path from one of its ends; closing it back to that end makes the tour.
	end := 0
	for adj[2*end+1] >= 0 {
		end++
	}
	prev, cur := -1, end
	for k := range n {
		tour[k] = cur
		next := adj[2*cur]
		if next == prev {
			next = adj[2*cur+1]
		}
		prev, cur = cur, next
	}
	rotateToZero(tour)
}

// link records j as a neighbour of i in adj (two slots per city).
func link(adj []int, i, j int) {
	if adj[2*i] < 0 {
		adj[2*i] = j
	} else {
		adj[2*i+1] = j
	}
}

// rotateToZero rotates tour so that it starts at city 0.
func rotateToZero(tour []int) {
	k := slices.Index(tour, 0)
	slices.Reverse(tour[:k])
	slices.Reverse(tour[k:])
	slices.Reverse(tour)
}
