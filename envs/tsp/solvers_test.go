package tsp

import (
	"math"
	"testing"

	"spg-tui/envs/internal/envstest"
	"spg-tui/linalg/perm"
)

// bruteTSP returns the shortest closed tour length under d by trying every order of
// vertices 1..n-1 after vertex 0.
func bruteTSP(d []float64, n int) float64 {
	if n == 1 {
		return 0
	}
	best := math.Inf(1)
	tour := make([]int, n)
	perm.Each(n-1, func(p []int) {
		for i, v := range p {
			tour[i+1] = v + 1
		}
		best = min(best, TourCost(d, n, tour))
	})
	return best
}

func TestHeldKarpBruteForce(t *testing.T) {
	rng := envstest.RNG(1)
	for _, set := range envstest.PointSets[point]() {
		for n := 1; n <= 8; n++ {
			for trial := 0; trial < 4; trial++ {
				d := envstest.Distances(set.Gen(rng, n))
				tour, length, err := HeldKarp(d, n)
				if err != nil {
					t.Fatal(err)
				}
				envstest.MustPerm(t, tour, n, "HeldKarp")
				if tour[0] != 0 {
					t.Errorf("%s n=%d: tour starts at %d, want 0", set.Name, n, tour[0])
				}
				if want := bruteTSP(d, n); !envstest.Near(length, want) {
					t.Errorf("%s n=%d: length %v, brute force %v", set.Name, n, length, want)
				}
				if got := TourCost(d, n, tour); !envstest.Near(got, length) {
					t.Errorf("%s n=%d: tour has length %v, reported %v", set.Name, n, got, length)
				}
			}
		}
	}
}

func TestHeldKarpAsymmetric(t *testing.T) {
	rng := envstest.RNG(2)
	for n := 2; n <= 7; n++ {
		d := make([]float64, n*n)
		for i := range d {
			d[i] = float64(rng.IntN(10)) // small integers: many ties
		}
		tour, length, err := HeldKarp(d, n)
		if err != nil {
			t.Fatal(err)
		}
		envstest.MustPerm(t, tour, n, "HeldKarp")
		if want := bruteTSP(d, n); length != want || TourCost(d, n, tour) != want {
			t.Errorf("n=%d: length %v (tour %v), brute force %v", n, length, TourCost(d, n, tour), want)
		}
	}
}

func TestHeldKarpTooLarge(t *testing.T) {
	_, _, err := HeldKarp(make([]float64, 25*25), 25)
	want := "exact TSP solver (Held-Karp) supports n <= 20, got n = 25"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}

func TestChristofidesRatio(t *testing.T) {
	rng := envstest.RNG(3)
	for _, set := range envstest.PointSets[point]() {
		for n := 1; n <= 9; n++ {
			for trial := 0; trial < 5; trial++ {
				d := envstest.Distances(set.Gen(rng, n))
				tour := make([]int, n)
				Christofides(d, n, tour)
				envstest.MustPerm(t, tour, n, "Christofides")
				_, opt, _ := HeldKarp(d, n)
				if got := TourCost(d, n, tour); got > 1.5*opt+1e-12 {
					t.Errorf("%s n=%d: Christofides %v > 1.5 x optimum %v", set.Name, n, got, opt)
				}
			}
		}
	}
}

func TestChristofidesManyOddVertices(t *testing.T) {
	// At n = 80 the tree has well over 20 odd-degree vertices, so the approximate matching runs.
	rng := envstest.RNG(4)
	const n = 80
	d := envstest.Distances(envstest.UniformPoints[point](rng, n))
	parent := primMST(d, n)
	deg := make([]int, n)
	for v := 1; v < n; v++ {
		deg[v]++
		deg[parent[v]]++
	}
	odd := 0
	for _, k := range deg {
		odd += k % 2
	}
	if odd <= maxExactPairing {
		t.Fatalf("only %d odd-degree vertices; the test needs more than %d", odd, maxExactPairing)
	}
	tour := make([]int, n)
	Christofides(d, n, tour)
	envstest.MustPerm(t, tour, n, "Christofides")
	var mst float64
	for v := 1; v < n; v++ {
		mst += d[v*n+parent[v]]
	}
	// Any tour is longer than the tree; a Christofides tour is at most tree + matching <= 2 tree.
	if got := TourCost(d, n, tour); got < mst || got > 2*mst {
		t.Errorf("tour %v outside [MST, 2 MST] = [%v, %v]", got, mst, 2*mst)
	}
}

func TestPrimMST(t *testing.T) {
	// Compare the tree weight with Kruskal-free brute force on tiny graphs: the MST weight is
	// the minimum over all spanning trees, enumerated as parent arrays rooted at 0.
	rng := envstest.RNG(5)
	for n := 1; n <= 6; n++ {
		for trial := 0; trial < 5; trial++ {
			d := envstest.Distances(envstest.GridPoints[point](rng, n))
			parent := primMST(d, n)
			got := 0.0
			for v := 1; v < n; v++ {
				got += d[v*n+parent[v]]
			}
			if want := bruteMST(d, n); !envstest.Near(got, want) {
				t.Errorf("n=%d: Prim weight %v, brute force %v", n, got, want)
			}
		}
	}
}

// bruteMST tries every parent array (each vertex but 0 picks a parent) and keeps the
// lightest one that forms a tree rooted at 0.
func bruteMST(d []float64, n int) float64 {
	best := math.Inf(1)
	parent := make([]int, n)
	var rec func(v int)
	rec = func(v int) {
		if v == n {
			for u := 1; u < n; u++ { // every vertex must reach 0 within n steps
				w := u
				for k := 0; k < n && w != 0; k++ {
					w = parent[w]
				}
				if w != 0 {
					return
				}
			}
			var s float64
			for u := 1; u < n; u++ {
				s += d[u*n+parent[u]]
			}
			best = min(best, s)
			return
		}
		for p := 0; p < n; p++ {
			if p != v {
				parent[v] = p
				rec(v + 1)
			}
		}
	}
	rec(1)
	if n == 1 {
		return 0
	}
	return best
}

func TestTwoOpt(t *testing.T) {
	rng := envstest.RNG(6)
	for _, set := range envstest.PointSets[point]() {
		for _, n := range []int{1, 2, 3, 4, 5, 12, 50} {
			d := envstest.Distances(set.Gen(rng, n))
			tour := rng.Perm(n)
			before := TourCost(d, n, tour)
			TwoOpt(d, n, tour)
			envstest.MustPerm(t, tour, n, "TwoOpt")
			after := TourCost(d, n, tour)
			if after > before+1e-12 {
				t.Errorf("%s n=%d: 2-opt made the tour longer: %v -> %v", set.Name, n, before, after)
			}
			checkTwoOptimal(t, d, n, tour)
		}
	}
}

// checkTwoOptimal fails t if some 2-opt move shortens tour by more than 1e-9.
func checkTwoOptimal(t *testing.T, d []float64, n int, tour []int) {
	t.Helper()
	base := TourCost(d, n, tour)
	moved := make([]int, n)
	for i := 0; i < n; i++ {
		for j := i + 2; j < n; j++ {
			copy(moved, tour)
			for l, r := i+1, j; l < r; l, r = l+1, r-1 {
				moved[l], moved[r] = moved[r], moved[l]
			}
			if got := TourCost(d, n, moved); got < base-1e-9 {
				t.Fatalf("n=%d: reversing positions %d..%d shortens the tour %v -> %v", n, i+1, j, base, got)
			}
		}
	}
}

func TestNearestNeighbour(t *testing.T) {
	rng := envstest.RNG(7)
	for _, set := range envstest.PointSets[point]() {
		for _, n := range []int{1, 2, 3, 9, 30} {
			d := envstest.Distances(set.Gen(rng, n))
			tour := make([]int, n)
			NearestNeighbour(d, n, tour)
			envstest.MustPerm(t, tour, n, "NearestNeighbour")
			if tour[0] != 0 {
				t.Fatalf("tour starts at %d", tour[0])
			}
			// Each step goes to a closest unvisited vertex, the lowest-numbered among ties.
			visited := make([]bool, n)
			visited[0] = true
			for k := 1; k < n; k++ {
				cur := tour[k-1]
				for v := 0; v < n; v++ {
					if visited[v] {
						continue
					}
					dv, dn := d[cur*n+v], d[cur*n+tour[k]]
					if dv < dn || (dv == dn && v < tour[k]) {
						t.Fatalf("%s n=%d step %d: went to %d, but %d is closer or ties lower", set.Name, n, k, tour[k], v)
					}
				}
				visited[tour[k]] = true
			}
		}
	}
}

func TestFarthestInsertion(t *testing.T) {
	// Check against a direct transcription of the rule with explicit sets.
	rng := envstest.RNG(8)
	for _, set := range envstest.PointSets[point]() {
		for _, n := range []int{1, 2, 3, 9, 30} {
			d := envstest.Distances(set.Gen(rng, n))
			tour := make([]int, n)
			FarthestInsertion(d, n, tour)
			envstest.MustPerm(t, tour, n, "FarthestInsertion")
			want := naiveFarthestInsertion(d, n)
			for i := range want {
				if tour[i] != want[i] {
					t.Fatalf("%s n=%d: tour %v, reference %v", set.Name, n, tour, want)
				}
			}
		}
	}
}

// naiveFarthestInsertion recomputes every distance to the partial tour at each step.
func naiveFarthestInsertion(d []float64, n int) []int {
	first, longest := 0, -1.0
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if d[i*n+j] > longest {
				first, longest = i, d[i*n+j]
			}
		}
	}
	tour := []int{first}
	in := map[int]bool{first: true}
	for len(tour) < n {
		v, far := -1, -1.0
		for u := 0; u < n; u++ {
			if in[u] {
				continue
			}
			near := math.Inf(1)
			for _, w := range tour {
				near = min(near, d[w*n+u])
			}
			if near > far {
				v, far = u, near
			}
		}
		at, cost := 0, math.Inf(1)
		for i := range tour {
			a, b := tour[i], tour[(i+1)%len(tour)]
			if c := d[a*n+v] + d[v*n+b] - d[a*n+b]; c < cost {
				at, cost = i, c
			}
		}
		tour = append(tour[:at+1], append([]int{v}, tour[at+1:]...)...)
		in[v] = true
	}
	return tour
}
