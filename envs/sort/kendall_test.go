package sort

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

func TestKendallTauAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for _, levels := range []int{0, 2, 3, 10} { // 0: continuous values, no ties
		for _, n := range []int{2, 3, 5, 17, 64, 200} {
			for range 10 {
				x, y := make([]float64, n), make([]float64, n)
				for i := range n {
					if levels == 0 {
						x[i], y[i] = rng.NormFloat64(), rng.NormFloat64()
						if i%2 == 0 {
							y[i] += x[i] // some correlation
						}
					} else {
						x[i], y[i] = float64(rng.IntN(levels)), float64(rng.IntN(levels))
					}
				}
				got, want := kendallTau(x, y), naiveTauB(x, y)
				if math.IsNaN(want) {
					if !math.IsNaN(got) {
						t.Fatalf("levels=%d n=%d: got %v, want NaN", levels, n, got)
					}
					continue
				}
				if math.Abs(got-want) > 1e-12 {
					t.Fatalf("levels=%d n=%d: got %v, want %v\nx=%v\ny=%v", levels, n, got, want, x, y)
				}
			}
		}
	}
}

func TestKendallTauSpecial(t *testing.T) {
	x := []float64{1, 2, 3, 4, 5}
	rev := []float64{5, 4, 3, 2, 1}
	if got := kendallTau(x, x); got != 1 {
		t.Errorf("tau(x, x) = %v", got)
	}
	if got := kendallTau(x, rev); got != -1 {
		t.Errorf("tau(x, reversed) = %v", got)
	}
	// scipy.stats.kendalltau([1,2,3,4,5], [3,1,2,5,4]) = 0.4: 7 concordant, 3 discordant.
	if got := kendallTau(x, []float64{3, 1, 2, 5, 4}); math.Abs(got-0.4) > 1e-15 {
		t.Errorf("tau = %v, want 0.4", got)
	}
	for _, tc := range [][2][]float64{
		{{1}, {2}},
		{nil, nil},
		{{1, 1, 1}, {1, 2, 3}},
		{{1, 2, 3}, {4, 4, 4}},
		{{1, math.NaN(), 3}, {1, 2, 3}},
	} {
		if got := kendallTau(tc[0], tc[1]); !math.IsNaN(got) {
			t.Errorf("kendallTau(%v, %v) = %v, want NaN", tc[0], tc[1], got)
		}
	}
}

func TestKendallTauNoAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	x, y := make([]float64, 100), make([]float64, 100)
	for i := range x {
		x[i], y[i] = rng.Float64(), rng.Float64()
	}
	kendallTau(x, y)
	if a := testing.AllocsPerRun(50, func() { kendallTau(x, y) }); a != 0 {
		t.Errorf("KendallTau allocates %v per call", a)
	}
}

func BenchmarkKendallTau(b *testing.B) {
	for _, n := range []int{20, 50, 1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, uint64(n)))
			x, y := make([]float64, n), make([]float64, n)
			for i := range x {
				x[i], y[i] = rng.Float64(), rng.Float64()
			}
			b.ReportAllocs()
			for b.Loop() {
				kendallTau(x, y)
			}
		})
	}
}
