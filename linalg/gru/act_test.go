package gru

import (
	"math"
	"testing"
)

// TestActivationsFloat32 checks the fast float32 exp, sigmoid and tanh against math over the
// range the gates see (and beyond, where they saturate; sigmoid is only checked to within
// 1e-30 absolute where it underflows, as exp32's input is clamped at -87).
func TestActivationsFloat32(t *testing.T) {
	var xs []float32
	for x := float32(-30); x <= 30; x += 0.00731 {
		xs = append(xs, x)
	}
	xs = append(xs, 0, -0.0, 1e-30, -1e-30, 100, -100, 1e6, -1e6)

	for _, x := range xs {
		if x < -87 || x > 88 {
			continue
		}
		want := math.Exp(float64(x))
		if e := math.Abs(float64(exp32(x))-want) / want; e > 3e-7 {
			t.Fatalf("exp32(%g) relative error %g", x, e)
		}
	}

	sig := append([]float32(nil), xs...)
	sigmoidInPlace(sig)
	th := append([]float32(nil), xs...)
	tanhInPlace(th)
	for i, x := range xs {
		ws := 1 / (1 + math.Exp(-float64(x)))
		if e := math.Abs(float64(sig[i]) - ws); e > 2e-7 || (ws < 1e-3 && ws > 1e-30 && e > 1e-6*ws) {
			t.Fatalf("sigmoid(%g) = %g, want %g", x, sig[i], ws)
		}
		wt := math.Tanh(float64(x))
		if e := math.Abs(float64(th[i]) - wt); e > 2e-7 || (math.Abs(wt) < 0.5 && e > 4e-7*math.Abs(wt)) {
			t.Fatalf("tanh(%g) = %g, want %g", x, th[i], wt)
		}
	}
}
