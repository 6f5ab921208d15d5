package perm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// naiveTauB is the O(n^2) definition: (C - D) / sqrt((n0 - n1) (n0 - n2)), where n0 - n1
// counts pairs untied in x and n0 - n2 pairs untied in y.
func naiveTauB(x, y []float64) float64 {
	var conc, disc, untiedX, untiedY float64
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			dx, dy := x[i]-x[j], y[i]-y[j]
			if dx != 0 {
				untiedX++
			}
			if dy != 0 {
				untiedY++
			}
			switch s := dx * dy; {
			case s > 0:
				conc++
			case s < 0:
				disc++
			}
		}
	}
	return (conc - disc) / math.Sqrt(untiedX*untiedY)
}

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
				got, want := KendallTau(x, y), naiveTauB(x, y)
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
	if got := KendallTau(x, x); got != 1 {
		t.Errorf("tau(x, x) = %v", got)
	}
	if got := KendallTau(x, rev); got != -1 {
		t.Errorf("tau(x, reversed) = %v", got)
	}
	// scipy.stats.kendalltau([1,2,3,4,5], [3,1,2,5,4]) = 0.4: 7 concordant, 3 discordant.
	if got := KendallTau(x, []float64{3, 1, 2, 5, 4}); math.Abs(got-0.4) > 1e-15 {
		t.Errorf("tau = %v, want 0.4", got)
	}
	for _, tc := range [][2][]float64{
		{{1}, {2}},
		{nil, nil},
		{{1, 1, 1}, {1, 2, 3}},
		{{1, 2, 3}, {4, 4, 4}},
		{{1, math.NaN(), 3}, {1, 2, 3}},
	} {
		if got := KendallTau(tc[0], tc[1]); !math.IsNaN(got) {
			t.Errorf("KendallTau(%v, %v) = %v, want NaN", tc[0], tc[1], got)
		}
	}
}

func TestKendallTauNoAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	x, y := make([]float64, 100), make([]float64, 100)
	for i := range x {
		x[i], y[i] = rng.Float64(), rng.Float64()
	}
	KendallTau(x, y)
	if a := testing.AllocsPerRun(50, func() { KendallTau(x, y) }); a != 0 {
		t.Errorf("KendallTau allocates %v per call", a)
	}
}
