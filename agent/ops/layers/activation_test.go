package layers

import (
	"math"
	"testing"
)

// LeakyReLU and its gradient against the definitions, at signed zeros, subnormals and ordinary
// values, in both precisions. The gradient at 0 is the slope, as in PyTorch (x > 0 ? 1 : slope).
func TestLeakyReLU(t *testing.T) {
	for _, x := range []float64{2.5, -3, 0, math.Copysign(0, -1), 1e-310, -1e-310, 5e-324, -5e-324, 1e-40, -1e-40} {
		wantY, wantG := x, 1.0
		if !(x > 0) {
			wantY, wantG = x*LeakySlope, LeakySlope
		}
		y, g := []float64{x}, []float64{0}
		activate(LeakyReLU, y)
		activationGrad(LeakyReLU, g, []float64{1}, y)
		if y[0] != wantY || g[0] != wantG {
			t.Errorf("float64 %v: y %v, grad %v; want %v, %v", x, y[0], g[0], wantY, wantG)
		}
		x32 := float32(x)
		wantY32, wantG32 := x32, float32(1)
		if !(x32 > 0) {
			wantY32, wantG32 = x32*LeakySlope, LeakySlope
		}
		y32, g32 := []float32{x32}, []float32{0}
		activate(LeakyReLU, y32)
		activationGrad(LeakyReLU, g32, []float32{1}, y32)
		if y32[0] != wantY32 || g32[0] != wantG32 {
			t.Errorf("float32 %v: y %v, grad %v; want %v, %v", x32, y32[0], g32[0], wantY32, wantG32)
		}
	}
	y := []float64{-1, 2}
	activate(Identity, y)
	g := []float64{0, 0}
	activationGrad(Identity, g, []float64{3, 4}, y)
	if y[0] != -1 || y[1] != 2 || g[0] != 3 || g[1] != 4 {
		t.Errorf("Identity changed values: y %v, grad %v", y, g)
	}
}
