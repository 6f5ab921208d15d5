package sinkhorn

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLogMIsTheLogOfForward checks exp(LogM) against Forward in float64 where M does not
// underflow, and against the log of float64 M where float32 M underflows to 0.
func TestLogMIsTheLogOfForward(t *testing.T) {
	rnd := rand.New(rand.NewPCG(2, 3))
	for _, n := range []int{1, 2, 3, 6} {
		for _, tau := range []float64{0.5, 1} {
			for _, iters := range []int{1, 10} {
				x := randSlice(rnd, n*n, 3)
				m := make([]float64, n*n)
				Forward(m, x, 1, n, tau, iters, nil)
				l := make([]float64, n*n)
				LogM(l, x, n, tau, iters)
				for k := range m {
					if d := math.Abs(math.Exp(l[k]) - m[k]); !(d <= 1e-12) {
						t.Fatalf("n=%d tau=%g L=%d entry %d: exp(log M) %v, M %v", n, tau, iters, k, math.Exp(l[k]), m[k])
					}
				}
			}
		}
	}
	// At tau 0.01 the float32 M underflows to 0 off the diagonal; float64 M (down to e^-600 here)
	// does not, and LogM must be its log.
	x := []float64{0, -5, -1, -6, 0, -2, -1, -3, 0}
	m32 := make([]float32, 9)
	Forward(m32, to32(x), 1, 3, 0.01, 10, nil)
	m := make([]float64, 9)
	Forward(m, x, 1, 3, 0.01, 10, nil)
	l := make([]float64, 9)
	LogM(l, x, 3, 0.01, 10)
	if m32[1] != 0 {
		t.Fatalf("float32 M %v: the test wants entry (0,1) to underflow", m32)
	}
	for k := range m {
		if d := math.Abs(l[k] - math.Log(m[k])); !(d <= 1e-9*math.Max(1, math.Abs(l[k]))) {
			t.Fatalf("entry %d: log M %v, log of float64 M %v", k, l[k], math.Log(m[k]))
		}
	}
}
