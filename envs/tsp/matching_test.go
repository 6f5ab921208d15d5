package tsp

import (
	"math"
	"spg-tui/envs/internal/envstest"
	"testing"
)

// brutePairing returns the minimum weight of a perfect matching of m vertices (m even) by
// pairing the lowest free vertex with each other free vertex in turn.
func brutePairing(w []float64, m int, free uint) float64 {
	if free == 0 {
		return 0
	}
	low := 0
	for free&(1<<low) == 0 {
		low++
	}
	best := math.Inf(1)
	for j := low + 1; j < m; j++ {
		if free&(1<<j) != 0 {
			best = min(best, w[low*m+j]+brutePairing(w, m, free&^(1<<low|1<<j)))
		}
	}
	return best
}

// pairingWeight checks that mate is a perfect matching of m vertices and returns its weight.
func pairingWeight(t *testing.T, w []float64, m int, mate []int) float64 {
	t.Helper()
	var sum float64
	for i, j := range mate {
		if j < 0 || j >= m || j == i || mate[j] != i {
			t.Fatalf("mate %v is not a perfect matching", mate)
		}
		if i < j {
			sum += w[i*m+j]
		}
	}
	return sum
}

func TestExactPairing(t *testing.T) {
	rng := envstest.RNG(20)
	for _, set := range envstest.PointSets[point]() {
		for m := 2; m <= 10; m += 2 {
			for trial := 0; trial < 5; trial++ {
				w := envstest.Distances(set.Gen(rng, m))
				mate := make([]int, m)
				exactPairing(w, m, mate)
				got := pairingWeight(t, w, m, mate)
				if want := brutePairing(w, m, 1<<m-1); !envstest.Near(got, want) {
					t.Errorf("%s m=%d: weight %v, brute force %v", set.Name, m, got, want)
				}
			}
		}
	}
}

func TestApproxPairing(t *testing.T) {
	rng := envstest.RNG(21)
	for _, set := range envstest.PointSets[point]() {
		for _, m := range []int{2, 4, 10, 30} {
			w := envstest.Distances(set.Gen(rng, m))
			mate := make([]int, m)
			approxPairing(w, m, mate)
			got := pairingWeight(t, w, m, mate)
			if m <= 10 {
				if opt := brutePairing(w, m, 1<<m-1); got < opt-1e-12 {
					t.Errorf("%s m=%d: weight %v below the optimum %v", set.Name, m, got, opt)
				}
			}
			// No exchange of two pairs gains.
			for a := 0; a < m; a++ {
				for c := 0; c < m; c++ {
					b, e := mate[a], mate[c]
					if c == a || c == b {
						continue
					}
					cur := w[a*m+b] + w[c*m+e]
					if alt := w[a*m+c] + w[b*m+e]; alt < cur-1e-9 {
						t.Fatalf("%s m=%d: re-pairing (%d,%d),(%d,%d) gains %v", set.Name, m, a, b, c, e, cur-alt)
					}
				}
			}
		}
	}
}

func TestMinPerfectMatchingSwitch(t *testing.T) {
	// Above maxExactPairing vertices the approximation must still give a perfect matching.
	rng := envstest.RNG(22)
	const n = 30
	d := envstest.Distances(envstest.UniformPoints[point](rng, n))
	vs := make([]int, 0, 24)
	for v := 0; v < 24; v++ {
		vs = append(vs, v+3)
	}
	mate := make([]int, len(vs))
	minPerfectMatching(d, n, vs, mate)
	w := make([]float64, len(vs)*len(vs))
	for i, u := range vs {
		for j, v := range vs {
			w[i*len(vs)+j] = d[u*n+v]
		}
	}
	pairingWeight(t, w, len(vs), mate)
}
