package tsp

import "math"

// Christofides writes into tour a Christofides tour of the symmetric row-major n x n cost
// matrix d: a minimum spanning tree (Prim), a minimum-weight perfect matching on its
// odd-degree vertices, an Eulerian circuit of the union (Hierholzer) from vertex 0, and
// shortcuts past repeated vertices. When d is a metric the tour is at most 1.5 times the
// optimum. The matching is exact (DP over subsets) for up to 20 odd-degree vertices, which
// covers every n <= 20; with more it is greedy matching improved by pair exchanges, an
// approximation, so the 1.5 bound is no longer guaranteed. It panics if d is not n x n or
// len(tour) != n.
func Christofides(d []float64, n int, tour []int) {
	checkSquare(d, n, tour)
	if n == 1 {
		tour[0] = 0
		return
	}
	parent := primMST(d, n)

	// The multigraph: n-1 tree edges plus one edge per matched pair.
	eu := make([]int, 0, 2*n)
	ev := make([]int, 0, 2*n)
	deg := make([]int, n)
	for v := 1; v < n; v++ {
		eu, ev = append(eu, v), append(ev, parent[v])
		deg[v]++
		deg[parent[v]]++
	}
	var odd []int
	for v, k := range deg {
		if k%2 == 1 {
			odd = append(odd, v)
		}
	}
	mate := make([]int, len(odd))
	minPerfectMatching(d, n, odd, mate)
	for i, j := range mate {
		if i < j {
			eu, ev = append(eu, odd[i]), append(ev, odd[j])
		}
	}

	seen := make([]bool, n)
	pos := 0
	for _, v := range eulerCircuit(n, eu, ev) {
		if !seen[v] {
			seen[v] = true
			tour[pos] = v
			pos++
		}
	}
}

// primMST returns the parent of every vertex but 0 in a minimum spanning tree of the
// complete graph with row-major n x n weights d, grown from vertex 0 in O(n^2)
// (ties to the lowest index). parent[0] is -1.
func primMST(d []float64, n int) []int {
	parent := make([]int, n)
	key := make([]float64, n)
	in := make([]bool, n)
	for v := range key {
		key[v], parent[v] = math.Inf(1), -1
	}
	key[0] = 0
	for range n {
		u := -1
		for v := range n {
			if !in[v] && (u < 0 || key[v] < key[u]) {
				u = v
			}
		}
		in[u] = true
		row := d[u*n : u*n+n]
		for v := range n {
			if !in[v] && row[v] < key[v] {
				key[v], parent[v] = row[v], u
			}
		}
	}
	return parent
}

// eulerCircuit returns a closed walk from vertex 0 that uses every edge (eu[k], ev[k]) of a
// connected multigraph on n vertices with all degrees even exactly once (Hierholzer).
func eulerCircuit(n int, eu, ev []int) []int {
	// Adjacency in compressed form: the edge ids at vertex v are adj[start[v]:start[v+1]].
	start := make([]int, n+1)
	for k := range eu {
		start[eu[k]+1]++
		start[ev[k]+1]++
	}
	for v := range n {
		start[v+1] += start[v]
	}
	adj := make([]int, start[n])
	next := append([]int(nil), start[:n]...)
	for k := range eu {
		adj[next[eu[k]]] = k
		next[eu[k]]++
		adj[next[ev[k]]] = k
		next[ev[k]]++
	}

	used := make([]bool, len(eu))
	copy(next, start[:n]) // next[v] is the first edge at v not yet looked at
	circuit := make([]int, 0, len(eu)+1)
	stack := []int{0}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		for next[v] < start[v+1] && used[adj[next[v]]] {
			next[v]++
		}
		if next[v] == start[v+1] {
			circuit = append(circuit, v)
			stack = stack[:len(stack)-1]
			continue
		}
		k := adj[next[v]]
		used[k] = true
		if eu[k] == v {
			stack = append(stack, ev[k])
		} else {
			stack = append(stack, eu[k])
		}
	}
	return circuit
}
