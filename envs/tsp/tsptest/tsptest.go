// Package tsptest holds what the tests of tours share across packages (envs/tsp and the
// learners that decode tours).
package tsptest

import "slices"

// Edges is the sorted set of a tour's undirected edges, each as [min, max].
func Edges(tour []int) [][2]int {
	var out [][2]int
	for k, a := range tour {
		b := tour[(k+1)%len(tour)]
		out = append(out, [2]int{min(a, b), max(a, b)})
	}
	slices.SortFunc(out, func(x, y [2]int) int {
		if x[0] != y[0] {
			return x[0] - y[0]
		}
		return x[1] - y[1]
	})
	return out
}
