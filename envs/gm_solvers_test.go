package envs

import (
	"fmt"
	"testing"

	"spg-tui/linalg/perm"
)

// gmBrute is the most edges any permutation preserves, by enumeration.
func gmBrute(g1, g2 [][]int8) int {
	best := -1
	perm.Each(len(g1), func(p []int) { best = max(best, gmPreserved(g1, g2, p)) })
	return best
}

func TestGMExactMatchesBruteForce(t *testing.T) {
	rng := testRNG(11)
	for k := range 60 {
		n := 2 + k%6
		p := GMParams{N: n, Graph: GMErdosRenyi, P: 0.2 + 0.1*float64(k%6), Noise: 0.2}
		if k%3 == 2 && n > 2 {
			p = GMParams{N: n - n%2, Graph: GMRegular, D: 1 + k%2, Noise: 0.3}
		}
		g1, g2, _ := GenerateGM(rng, p)
		got, err := GMExact(g1, g2)
		if err != nil {
			t.Fatal(err)
		}
		if want := gmBrute(g1, g2); gmPreserved(g1, g2, got) != want {
			t.Fatalf("case %d %+v: exact preserves %d edges, brute force %d", k, p, gmPreserved(g1, g2, got), want)
		}
	}
}

func TestGMExactRefusesLargeN(t *testing.T) {
	g1, g2, _ := GenerateGM(testRNG(1), GMParams{N: GMExactMaxN + 1, Graph: GMErdosRenyi, P: 0.5})
	if _, err := GMExact(g1, g2); err == nil {
		t.Fatal("no error above GMExactMaxN")
	}
}

func TestGMNoiselessRecoversObjectiveOne(t *testing.T) {
	for k := range 5 {
		g1, g2, planted := GenerateGM(testRNG(uint64(100+k)), GMParams{N: 30, Graph: GMErdosRenyi, P: 0.3})
		s, err := GMSpectral(g1, g2)
		if err != nil {
			t.Fatal(err)
		}
		if got := GMObjective(g1, g2, GMLocalSearch(g1, g2, s)); got != 1 {
			t.Errorf("instance %d: spectral + local search objective %v, want 1 (spectral alone %v, recovery %v)",
				k, got, GMObjective(g1, g2, s), GMRecovery(s, planted))
		}
		g1, g2, _ = GenerateGM(testRNG(uint64(200+k)), GMParams{N: 10, Graph: GMErdosRenyi, P: 0.4})
		e, err := GMExact(g1, g2)
		if err != nil {
			t.Fatal(err)
		}
		if got := GMObjective(g1, g2, e); got != 1 {
			t.Errorf("instance %d: exact objective %v, want 1", k, got)
		}
	}
}

func TestGMSwapDeltaMatchesRescore(t *testing.T) {
	rng := testRNG(5)
	g1, g2, _ := GenerateGM(rng, GMParams{N: 12, Graph: GMErdosRenyi, P: 0.4, Noise: 0.3})
	p := rng.Perm(12)
	for a := range 12 {
		for b := range 12 {
			if a == b {
				continue
			}
			before := gmPreserved(g1, g2, p)
			d := gmSwapDelta(g1, g2, p, a, b)
			p[a], p[b] = p[b], p[a]
			if after := gmPreserved(g1, g2, p); after-before != d {
				t.Fatalf("swap %d,%d: delta %d, rescoring %d", a, b, d, after-before)
			}
		}
	}
}

func TestGMLocalSearchNeverWorse(t *testing.T) {
	rng := testRNG(9)
	for k := range 20 {
		g1, g2, _ := GenerateGM(rng, GMParams{N: 15, Graph: GMRegular, D: 4, Noise: 0.1 * float64(k%4)})
		start := rng.Perm(15)
		got := GMLocalSearch(g1, g2, start)
		if gmPreserved(g1, g2, got) < gmPreserved(g1, g2, start) {
			t.Fatalf("case %d: local search lowered the objective", k)
		}
		for a := range 15 {
			for b := a + 1; b < 15; b++ {
				if gmSwapDelta(g1, g2, got, a, b) > 0 {
					t.Fatalf("case %d: swap %d,%d still improves", k, a, b)
				}
			}
		}
	}
}

func TestGMObjectiveAndRecovery(t *testing.T) {
	// A path 0-1-2 against the path 1-0-2: the identity keeps edge {0,1} and loses {1,2}.
	g1 := [][]int8{{0, 1, 0}, {1, 0, 1}, {0, 1, 0}}
	g2 := [][]int8{{0, 1, 1}, {1, 0, 0}, {1, 0, 0}}
	if got := GMObjective(g1, g2, []int{0, 1, 2}); got != 0.5 {
		t.Errorf("objective %v, want 0.5", got)
	}
	if got := GMObjective(g1, g2, []int{1, 0, 2}); got != 1 {
		t.Errorf("objective %v, want 1", got)
	}
	empty := newAdjacency(3)
	if got := GMObjective(empty, g2, []int{2, 0, 1}); got != 1 {
		t.Errorf("edgeless G1: objective %v, want 1", got)
	}
	if got := GMRecovery([]int{1, 0, 2}, []int{1, 2, 0}); got != 1.0/3 {
		t.Errorf("recovery %v, want 1/3", got)
	}
}

// BenchmarkGMExact times the exact solver on the hardest setting measured, ER graphs with
// p = 0.5 and noise 0.10, over 8 instances per N (ns/op is per instance).
func BenchmarkGMExact(b *testing.B) {
	for _, n := range []int{8, 10, GMExactMaxN} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			type pair struct{ g1, g2 [][]int8 }
			var inst []pair
			for k := range 8 {
				g1, g2, _ := GenerateGM(InstanceRNG(1, k), GMParams{N: n, Graph: GMErdosRenyi, P: 0.5, Noise: 0.1})
				inst = append(inst, pair{g1, g2})
			}
			i := 0
			for b.Loop() {
				if _, err := GMExact(inst[i%8].g1, inst[i%8].g2); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}
