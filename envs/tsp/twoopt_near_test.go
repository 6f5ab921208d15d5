package tsp

import (
	"math/rand/v2"
	"testing"

	"spg-tui/envs/internal/envstest"
)

// With every other vertex a candidate, TwoOptNear ends at a 2-opt local optimum, checked by
// trying every reversal.
func TestTwoOptNearAllCandidates(t *testing.T) {
	rng := envstest.RNG(61)
	for _, set := range envstest.PointSets[point]() {
		for _, n := range []int{1, 2, 3, 4, 5, 12, 50} {
			d := envstest.Distances(set.Gen(rng, n))
			k := max(n-1, 0)
			near := make([]int, 0, n*k)
			for a := range n {
				others := rng.Perm(n) // unsorted on purpose
				for _, c := range others {
					if c != a {
						near = append(near, c)
					}
				}
			}
			tour := rng.Perm(n)
			before := TourCost(d, n, tour)
			TwoOptNear(d, n, near, k, tour, make([]int, n))
			envstest.MustPerm(t, tour, n, "TwoOptNear")
			if after := TourCost(d, n, tour); after > before+1e-12 {
				t.Errorf("%s n=%d: the tour got longer: %v -> %v", set.Name, n, before, after)
			}
			checkTwoOptimal(t, d, n, tour)
		}
	}
}

// With short lists TwoOptNear returns a tour no longer than its input on which no move adding a
// listed edge gains, checked by making each such move on a copy.
func TestTwoOptNearLists(t *testing.T) {
	rng := envstest.RNG(62)
	for _, n := range []int{5, 9, 30, 100} {
		for _, k := range []int{1, 3, 10} {
			if k >= n {
				continue
			}
			d := envstest.Distances(envstest.UniformPoints[point](rng, n))
			near := randomCandidates(rng, n, k)
			tour := rng.Perm(n)
			before := TourCost(d, n, tour)
			TwoOptNear(d, n, near, k, tour, make([]int, n))
			envstest.MustPerm(t, tour, n, "TwoOptNear")
			after := TourCost(d, n, tour)
			if after > before+1e-12 {
				t.Fatalf("n=%d k=%d: the tour got longer: %v -> %v", n, k, before, after)
			}
			checkNoListMove(t, d, n, near, k, tour, after)
		}
	}
}

// randomCandidates draws k distinct candidates other than a for each vertex a.
func randomCandidates(rng *rand.Rand, n, k int) []int {
	near := make([]int, 0, n*k)
	for a := range n {
		added := 0
		for _, c := range rng.Perm(n) {
			if c != a && added < k {
				near = append(near, c)
				added++
			}
		}
	}
	return near
}

// checkNoListMove fails t if a 2-opt move that adds the edge from a to one of its candidates
// shortens tour (of length base) by more than 1e-9: both reversals that add (a, c) are made on
// a copy by rotating a to the front.
func checkNoListMove(t *testing.T, d []float64, n int, near []int, k int, tour []int, base float64) {
	t.Helper()
	rot := make([]int, n)
	for a := range n {
		for _, c := range near[a*k : (a+1)*k] {
			for dir := range 2 {
				// rot starts a, then its successor (dir 0) or its predecessor (dir 1).
				i := indexOf(tour, a)
				for m := range n {
					if dir == 0 {
						rot[m] = tour[(i+m)%n]
					} else {
						rot[m] = tour[(i-m+n)%n]
					}
				}
				j := indexOf(rot, c)
				if j < 2 || j == n-1 {
					continue // (a, c) is a tour edge already, or the move shares a vertex
				}
				moved := append([]int(nil), rot...)
				for l, r := 1, j; l < r; l, r = l+1, r-1 {
					moved[l], moved[r] = moved[r], moved[l]
				}
				if got := TourCost(d, n, moved); got < base-1e-9 {
					t.Fatalf("n=%d k=%d: adding (%d, %d) shortens the tour %v -> %v", n, k, a, c, base, got)
				}
			}
		}
	}
}

func indexOf(s []int, v int) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

func TestTwoOptNearRefusesBadCandidates(t *testing.T) {
	d := envstest.Distances(envstest.UniformPoints[point](envstest.RNG(63), 5))
	for name, near := range map[string][]int{"self": {0, 2, 3, 4, 0}, "out of range": {1, 2, 3, 4, 5}} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("no panic on candidates %v", near)
				}
			}()
			TwoOptNear(d, 5, near, 1, []int{0, 1, 2, 3, 4}, make([]int, 5))
		})
	}
}

// LocalSearch ends where neither 2-opt nor or-opt gains and returns the tour's length.
func TestLocalSearch(t *testing.T) {
	rng := envstest.RNG(64)
	for _, n := range []int{4, 7, 40} {
		d := envstest.Distances(envstest.UniformPoints[point](rng, n))
		tour := rng.Perm(n)
		before := TourCost(d, n, tour)
		got := LocalSearch(d, n, tour)
		envstest.MustPerm(t, tour, n, "LocalSearch")
		if !envstest.Near(got, TourCost(d, n, tour)) || got > before+1e-12 {
			t.Fatalf("n=%d: returned %v for a tour of %v (from %v)", n, got, TourCost(d, n, tour), before)
		}
		checkTwoOptimal(t, d, n, tour)
		again := append([]int(nil), tour...)
		OrOpt(d, n, again)
		if TourCost(d, n, again) < got-1e-9 {
			t.Fatalf("n=%d: or-opt still gains after LocalSearch", n)
		}
	}
}
