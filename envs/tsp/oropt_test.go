package tsp

import (
	"slices"
	"spg-tui/envs/internal/envstest"
	"testing"
)

// TestOrOpt checks that or-opt never lengthens a tour, leaves a permutation, and ends where no
// segment of 1 to 3 vertices can move, forwards or reversed, to shorten it (tried exhaustively).
func TestOrOpt(t *testing.T) {
	rng := envstest.RNG(7)
	for _, set := range envstest.PointSets[point]() {
		for _, n := range []int{2, 3, 4, 5, 6, 9, 30} {
			d := envstest.Distances(set.Gen(rng, n))
			tour := rng.Perm(n)
			before := TourCost(d, n, tour)
			OrOpt(d, n, tour)
			envstest.MustPerm(t, tour, n, "OrOpt")
			if after := TourCost(d, n, tour); after > before+1e-12 {
				t.Errorf("%s n=%d: or-opt made the tour longer: %v -> %v", set.Name, n, before, after)
			}
			checkOrOptimal(t, d, n, tour)
		}
	}
}

// checkOrOptimal fails t if moving some segment of 1 to 3 consecutive vertices of tour to
// another place, either way round, shortens it by more than 1e-9: every such tour is built
// and measured.
func checkOrOptimal(t *testing.T, d []float64, n int, tour []int) {
	t.Helper()
	base := TourCost(d, n, tour)
	for l := 1; l <= 3 && l <= n-3; l++ {
		for i := range n {
			var seg, rest []int
			for j := range n {
				if v := tour[(i+j)%n]; j < l {
					seg = append(seg, v)
				} else {
					rest = append(rest, v)
				}
			}
			rev := slices.Clone(seg)
			slices.Reverse(rev)
			for k := 1; k < len(rest); k++ {
				for _, s := range [][]int{seg, rev} {
					moved := slices.Concat(rest[:k], s, rest[k:])
					if got := TourCost(d, n, moved); got < base-1e-9 {
						t.Fatalf("n=%d: moving %v shortens the tour %v -> %v", n, s, base, got)
					}
				}
			}
		}
	}
}

// TestTwoOptOrOptAgainstExact checks the best-known solver against Held-Karp (itself checked
// against brute force): never shorter than the optimum, never longer than 2-opt from the same
// first start, 2- and or-optimal, and within 1% of the optimum on average over uniform TSP-12.
func TestTwoOptOrOptAgainstExact(t *testing.T) {
	rng := envstest.RNG(8)
	const n, count = 12, 30
	var sum, opt float64
	for range count {
		d := envstest.Distances(envstest.UniformPoints[point](rng, n))
		tour := make([]int, n)
		TwoOptOrOpt(d, n, tour)
		envstest.MustPerm(t, tour, n, "TwoOptOrOpt")
		got := TourCost(d, n, tour)
		_, exact, err := HeldKarp(d, n)
		if err != nil {
			t.Fatal(err)
		}
		two := make([]int, n)
		NearestNeighbour(d, n, two)
		TwoOpt(d, n, two)
		if got < exact-1e-9 || got > TourCost(d, n, two)+1e-12 {
			t.Fatalf("tour %v: optimum %v, 2-opt %v", got, exact, TourCost(d, n, two))
		}
		checkTwoOptimal(t, d, n, tour)
		checkOrOptimal(t, d, n, tour)
		sum += got
		opt += exact
	}
	if sum > 1.01*opt {
		t.Errorf("mean tour %v, %.2f%% above the optimum's %v", sum/count, 100*(sum/opt-1), opt/count)
	}
}

// With every vertex a start, MultiStartLocalSearch tries a superset of TwoOptOrOpt's starts, so
// its tour is never longer; on some instance it must be shorter, or the extra starts are not
// used. Fewer than one start panics.
func TestMultiStartLocalSearch(t *testing.T) {
	rng := envstest.RNG(9)
	const n = 30
	shorter := 0
	for range 20 {
		d := envstest.Distances(envstest.UniformPoints[point](rng, n))
		few, all := make([]int, n), make([]int, n)
		TwoOptOrOpt(d, n, few)
		MultiStartLocalSearch(d, n, n, all)
		envstest.MustPerm(t, all, n, "MultiStartLocalSearch")
		checkTwoOptimal(t, d, n, all)
		checkOrOptimal(t, d, n, all)
		switch a, f := TourCost(d, n, all), TourCost(d, n, few); {
		case a > f+1e-12:
			t.Fatalf("%d starts gave %v, 9 gave %v", n+1, a, f)
		case a < f-1e-9:
			shorter++
		}
	}
	if shorter == 0 {
		t.Error("all starts never beat 9 starts on 20 instances of TSP-30")
	}
	defer func() {
		if recover() == nil {
			t.Error("no panic on 0 starts")
		}
	}()
	MultiStartLocalSearch(envstest.Distances(envstest.UniformPoints[point](rng, 4)), 4, 0, make([]int, 4))
}
