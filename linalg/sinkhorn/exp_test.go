package sinkhorn

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestExpNegSlice compares expNegSlice with math.Exp: within 3 ulp of it (they are within 2 and 1 ulp of e^x)
// for normal results, within 3 units of the smallest subnormal for subnormal ones.
func TestExpNegSlice(t *testing.T) {
	rnd := rand.New(rand.NewPCG(21, 21))
	xs := []float64{0, math.Copysign(0, -1), -1e-300, -1e-17, -0.5, -1, -math.Ln2, -708.39, -708.3964, -708.4, -709, -744, -745.13, -745.14, -746, -1e5, math.Inf(-1)}
	for range 200000 {
		xs = append(xs, -746*rnd.Float64(), -math.Abs(rnd.NormFloat64()), -1e-3*rnd.Float64(), -740-6*rnd.Float64())
	}
	got := append([]float64(nil), xs...)
	expNegSlice(got)
	worst := 0.0
	for i, x := range xs {
		got, want := got[i], math.Exp(x)
		var ulps float64
		if want >= 0x1p-1022 {
			ulps = math.Abs(got-want) / (math.Nextafter(want, 2) - want)
		} else {
			ulps = math.Abs(got-want) / 0x1p-1074
		}
		if !(ulps <= 3) {
			t.Fatalf("e^%v = %v, math.Exp = %v (%.3g ulp)", x, got, want, ulps)
		}
		worst = math.Max(worst, ulps)
	}
	t.Logf("max difference from math.Exp: %.3g ulp", worst)
	nan := []float64{math.NaN()}
	if expNegSlice(nan); !math.IsNaN(nan[0]) {
		t.Errorf("e^NaN = %v", nan[0])
	}
	for j, v := range exp2Table {
		if want := math.Exp2(float64(j) / 64); math.Abs(v-want) > math.Nextafter(want, 2)-want {
			t.Errorf("exp2Table[%d] = %v, 2^(j/64) = %v", j, v, want)
		}
	}
}
