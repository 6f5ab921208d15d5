package tsp

import (
	"math"
	"math/rand/v2"
	"slices"
	"spg-tui/envs/internal/envstest"
	"testing"
)

// TestMergeCyclesIsTheCheapestExchange checks mergeCycles against every tour one 2-exchange makes
// of two cycles, each scored from scratch: its tour is a single cycle through both, its added
// cost is that tour's length minus the two cycles', and no exchange gives a shorter tour.
func TestMergeCyclesIsTheCheapestExchange(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		n := 4 + rng.IntN(7)
		pts := envstest.UniformPoints[point](rng, n)
		d := envstest.Distances(pts)
		perm := rng.Perm(n)
		k := 2 + rng.IntN(n-3)
		a, b := perm[:k], perm[k:]
		cycleLen := func(c []int) float64 {
			var l float64
			for i := range c {
				l += d[c[i]*n+c[(i+1)%len(c)]]
			}
			return l
		}
		added, merged := mergeCycles(d, n, a, b)
		if got := slices.Sorted(slices.Values(merged)); !slices.Equal(got, slices.Sorted(slices.Values(perm))) {
			t.Fatalf("trial %d: merged %v is not a tour of %v and %v", trial, merged, a, b)
		}
		if diff := cycleLen(merged) - cycleLen(a) - cycleLen(b); math.Abs(diff-added) > 1e-9 {
			t.Fatalf("trial %d: added cost %v, the tour says %v", trial, added, diff)
		}
		best := math.Inf(1)
		for i := range a {
			for j := range b {
				rot := append(slices.Clone(b[j+1:]), b[:j+1]...)
				back := slices.Clone(rot)
				slices.Reverse(back)
				for _, ins := range [][]int{rot, back} {
					tour := slices.Concat(a[:i+1], ins, a[i+1:])
					best = math.Min(best, cycleLen(tour))
				}
			}
		}
		if cycleLen(merged) > best+1e-9 {
			t.Fatalf("trial %d: merged tour %v, an exchange gives %v", trial, cycleLen(merged), best)
		}
	}
}

// TestPatchedAssignment checks that the patched assignment is a tour, never shorter than Held-Karp's
// optimum, and the same on the same instance.
func TestPatchedAssignment(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 100 {
		n := 2 + rng.IntN(9)
		pts := envstest.UniformPoints[point](rng, n)
		d := envstest.Distances(pts)
		tour := make([]int, n)
		if err := PatchedAssignment(d, n, tour); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(slices.Sorted(slices.Values(tour)), identity(n)) {
			t.Fatalf("trial %d: %v is not a tour of %d cities", trial, tour, n)
		}
		_, opt, err := HeldKarp(d, n)
		if err != nil {
			t.Fatal(err)
		}
		if l := TourCost(d, n, tour); l < opt-1e-9 {
			t.Fatalf("trial %d: patched tour %v shorter than the optimum %v", trial, l, opt)
		}
		again := make([]int, n)
		if err := PatchedAssignment(d, n, again); err != nil || !slices.Equal(tour, again) {
			t.Fatalf("trial %d: %v then %v (%v)", trial, tour, again, err)
		}
	}
}

func identity(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// TestPatchSuccessor checks the successor action's repair on random successor functions, self-loops
// included: the result is one tour, succ is rewritten to follow it, a successor function that is
// already one tour comes back unchanged, and two cycles are joined by their cheapest exchange.
func TestPatchSuccessor(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 300 {
		n := 1 + rng.IntN(10)
		pts := envstest.UniformPoints[point](rng, n)
		d := envstest.Distances(pts)
		succ := rng.Perm(n)
		cycles := successorCycles(succ)
		was := slices.Clone(succ)
		tour := make([]int, n)
		PatchSuccessor(d, n, succ, tour)
		if !slices.Equal(slices.Sorted(slices.Values(tour)), identity(n)) {
			t.Fatalf("trial %d: %v is not a tour of %d cities", trial, tour, n)
		}
		for k, c := range tour {
			if succ[c] != tour[(k+1)%n] {
				t.Fatalf("trial %d: succ %v does not follow the tour %v", trial, succ, tour)
			}
		}
		if len(cycles) == 1 && !slices.Equal(succ, was) {
			t.Fatalf("trial %d: one tour %v patched into %v", trial, was, succ)
		}
		if len(cycles) == 2 {
			added, _ := mergeCycles(d, n, cycles[0], cycles[1])
			var before float64
			for i, s := range was {
				before += d[i*n+s]
			}
			if l := TourCost(d, n, tour); math.Abs(l-before-added) > 1e-9 {
				t.Fatalf("trial %d: two cycles of %v patched to %v, the cheapest exchange gives %v", trial, before, l, before+added)
			}
		}
	}
}
