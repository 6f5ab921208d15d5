package eval

import (
	"math"
	"testing"
)

// TestSoftPermStats checks the entropy and Birkhoff number at their ends: a permutation matrix
// (0 and 1) and the uniform matrix (ln n and 1/n).
func TestSoftPermStats(t *testing.T) {
	const n = 4
	p := make([]float32, n*n)
	for r, c := range []int{2, 0, 3, 1} {
		p[r*n+c] = 1
	}
	if h, b := softPermStats(p, p, n); h != 0 || b != 1 {
		t.Errorf("M = P: entropy %g, birkhoff %g; want 0 and 1", h, b)
	}
	u := make([]float32, n*n)
	for i := range u {
		u[i] = 1.0 / n
	}
	if h, b := softPermStats(u, p, n); math.Abs(h-math.Log(n)) > 1e-6 || math.Abs(b-1.0/n) > 1e-6 {
		t.Errorf("uniform M: entropy %g, birkhoff %g; want %g and %g", h, b, math.Log(n), 1.0/n)
	}
}
