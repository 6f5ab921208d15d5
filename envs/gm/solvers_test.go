package gm

import (
	"fmt"
	"testing"

	"spg-tui/envs/internal/envstest"
	"spg-tui/linalg/perm"
)

// gmBrute is the most edges any permutation preserves, by enumeration.
func gmBrute(g1, g2 [][]int8) int {
	best := -1
	perm.Each(len(g1), func(p []int) { best = max(best, Preserved(g1, g2, p)) })
	return best
}

func TestGMExactMatchesBruteForce(t *testing.T) {
	rng := envstest.RNG(11)
	for k := range 60 {
		n := 2 + k%6
		p := Params{N: n, Graph: ErdosRenyi, P: 0.2 + 0.1*float64(k%6), Noise: 0.2}
		if k%3 == 2 && n > 2 {
			p = Params{N: n - n%2, Graph: Regular, D: 1 + k%2, Noise: 0.3}
		}
		g1, g2, _ := Generate(rng, p)
		got, err := Exact(g1, g2)
		if err != nil {
			t.Fatal(err)
		}
		if want := gmBrute(g1, g2); Preserved(g1, g2, got) != want {
			t.Fatalf("case %d %+v: exact preserves %d edges, brute force %d", k, p, Preserved(g1, g2, got), want)
		}
	}
}

func TestGMExactRefusesLargeN(t *testing.T) {
	g1, g2, _ := Generate(envstest.RNG(1), Params{N: ExactMaxN + 1, Graph: ErdosRenyi, P: 0.5})
	if _, err := Exact(g1, g2); err == nil {
		t.Fatal("no error above ExactMaxN")
	}
}

func TestGMNoiselessRecoversObjectiveOne(t *testing.T) {
	for k := range 5 {
		g1, g2, planted := Generate(envstest.RNG(uint64(100+k)), Params{N: 30, Graph: ErdosRenyi, P: 0.3})
		s, err := Spectral(g1, g2)
		if err != nil {
			t.Fatal(err)
		}
		if got := Objective(g1, g2, LocalSearch(g1, g2, s)); got != 1 {
			t.Errorf("instance %d: spectral + local search objective %v, want 1 (spectral alone %v, recovery %v)",
				k, got, Objective(g1, g2, s), Recovery(s, planted))
		}
		g1, g2, _ = Generate(envstest.RNG(uint64(200+k)), Params{N: 10, Graph: ErdosRenyi, P: 0.4})
		e, err := Exact(g1, g2)
		if err != nil {
			t.Fatal(err)
		}
		if got := Objective(g1, g2, e); got != 1 {
			t.Errorf("instance %d: exact objective %v, want 1", k, got)
		}
	}
}

func TestGMSwapDeltaMatchesRescore(t *testing.T) {
	rng := envstest.RNG(5)
	g1, g2, _ := Generate(rng, Params{N: 12, Graph: ErdosRenyi, P: 0.4, Noise: 0.3})
	p := rng.Perm(12)
	for a := range 12 {
		for b := range 12 {
			if a == b {
				continue
			}
			before := Preserved(g1, g2, p)
			d := gmSwapDelta(g1, g2, p, a, b)
			p[a], p[b] = p[b], p[a]
			if after := Preserved(g1, g2, p); after-before != d {
				t.Fatalf("swap %d,%d: delta %d, rescoring %d", a, b, d, after-before)
			}
		}
	}
}

func TestGMLocalSearchNeverWorse(t *testing.T) {
	rng := envstest.RNG(9)
	for k := range 20 {
		g1, g2, _ := Generate(rng, Params{N: 15, Graph: Regular, D: 4, Noise: 0.1 * float64(k%4)})
		start := rng.Perm(15)
		got := LocalSearch(g1, g2, start)
		if Preserved(g1, g2, got) < Preserved(g1, g2, start) {
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
	if got := Objective(g1, g2, []int{0, 1, 2}); got != 0.5 {
		t.Errorf("objective %v, want 0.5", got)
	}
	if got := Objective(g1, g2, []int{1, 0, 2}); got != 1 {
		t.Errorf("objective %v, want 1", got)
	}
	empty := NewAdjacency(3)
	if got := Objective(empty, g2, []int{2, 0, 1}); got != 1 {
		t.Errorf("edgeless G1: objective %v, want 1", got)
	}
	if got := Recovery([]int{1, 0, 2}, []int{1, 2, 0}); got != 1.0/3 {
		t.Errorf("recovery %v, want 1/3", got)
	}
}

// BenchmarkExact times the exact solver on the hardest setting measured, ER graphs with
// p = 0.5 and noise 0.10, over 8 instances per N (ns/op is per instance).
func BenchmarkExact(b *testing.B) {
	for _, n := range []int{8, 10, ExactMaxN} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			type pair struct{ g1, g2 [][]int8 }
			var inst []pair
			for k := range 8 {
				g1, g2, _ := Generate(envstest.RNG(uint64(k)), Params{N: n, Graph: ErdosRenyi, P: 0.5, Noise: 0.1})
				inst = append(inst, pair{g1, g2})
			}
			i := 0
			for b.Loop() {
				if _, err := Exact(inst[i%8].g1, inst[i%8].g2); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}
