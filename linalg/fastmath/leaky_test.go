package fastmath

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLeakyReLU checks LeakyReLU and its gradient bit for bit against the definitions (the
// products are the same single roundings), at every length up to three vectors and a bit,
// with zeros of both signs, in place and not.
func TestLeakyReLU(t *testing.T) {
	const slope = 0.01
	rng := rand.New(rand.NewPCG(4, 4))
	negZero := float32(math.Copysign(0, -1))
	for n := range 30 {
		x, dy := make([]float32, n), make([]float32, n)
		for i := range x {
			x[i] = float32(rng.NormFloat64())
			dy[i] = float32(rng.NormFloat64())
			switch i % 5 {
			case 1:
				x[i] = 0
			case 3:
				x[i] = negZero
			}
		}
		want, wantGrad := make([]float32, n), make([]float32, n)
		for i, v := range x {
			want[i], wantGrad[i] = v, dy[i]
			if !(v > 0) {
				want[i], wantGrad[i] = slope*v, slope*dy[i]
			}
		}
		got := make([]float32, n+1)
		got[n] = 42
		LeakyReLU(got[:n], x, slope)
		same(t, "LeakyReLU", n, got, want)
		y := append([]float32(nil), x...)
		LeakyReLU(y, y, slope)
		same(t, "LeakyReLU in place", n, y, want)

		// The gradient reads the branch from the output y, which has x's signs.
		got[n] = 42
		LeakyReLUGrad(got[:n], dy, y, slope)
		same(t, "LeakyReLUGrad", n, got, wantGrad)
		LeakyReLUGrad(dy, dy, y, slope)
		same(t, "LeakyReLUGrad in place", n, dy, wantGrad)
	}
}

// same fails unless got[:n] equals want bit for bit and got[n] (if any) is still 42.
func same(t *testing.T, what string, n int, got, want []float32) {
	t.Helper()
	for i := range want {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("%s n=%d: [%d] = %g, want %g", what, n, i, got[i], want[i])
		}
	}
	if len(got) > n && got[n] != 42 {
		t.Fatalf("%s n=%d: wrote past the end", what, n)
	}
}
