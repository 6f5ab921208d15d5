package kernels_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"spg-tui/linalg/backend"
	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/emu/emutest"
	"spg-tui/linalg/fastmath"
)

// sizes around the block size of 256.
var sizes = []int{1, 7, 255, 256, 257, 1000}

// withSpecials sets a few entries of x to 0 and -0, where LeakyReLU's branch matters.
func withSpecials(x []float32) []float32 {
	if len(x) > 2 {
		x[1], x[2] = 0, float32(math.Copysign(0, -1))
	}
	return x
}

func TestLeakyReLU(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range sizes {
		x := withSpecials(emutest.Normals(rng, n, 1))
		want := make([]float32, n)
		fastmath.LeakyReLU(want, x, 0.01)
		xb, yb := emutest.Upload(t, x), emutest.Zeros(t, n)
		emutest.Launch(t, "leaky_relu", blocks(n, 2), cuda.D1(256), yb, xb, int32(n), float32(0.01))
		emutest.SameBits(t, "leaky_relu", emutest.Download(t, yb), want)

		dy := emutest.Normals(rng, n, 1)
		wantG := make([]float32, n)
		fastmath.LeakyReLUGrad(wantG, dy, want, 0.01)
		dyb := emutest.Upload(t, dy)
		emutest.Launch(t, "leaky_relu_grad", blocks(n, 2), cuda.D1(256), dyb, dyb, yb, int32(n), float32(0.01))
		emutest.SameBits(t, "leaky_relu_grad", emutest.Download(t, dyb), wantG)
	}
}

func TestBiasLeakyRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, rows := range []int{1, 3, 100} {
		for _, cols := range []int{1, 5, 64, 300} {
			for _, slope := range []float32{0.01, 1} {
				y, b := withSpecials(emutest.Normals(rng, rows*cols, 1)), emutest.Normals(rng, cols, 1)
				want := append([]float32(nil), y...)
				for i := range want { // the CPU's expression (fastmath.BiasLeakyRows' scalar form)
					v := want[i] + b[i%cols]
					if v > 0 {
						want[i] = v
					} else {
						want[i] = slope * v
					}
				}
				if fastmath.HasBiasLeakyRows() {
					cpu := append([]float32(nil), y...)
					fastmath.BiasLeakyRows(cpu, b, slope)
					emutest.SameBits(t, "fastmath.BiasLeakyRows", cpu, want)
				}
				yb, bb := emutest.Upload(t, y), emutest.Upload(t, b)
				emutest.Launch(t, "bias_leaky_rows", blocks(rows*cols, 3), cuda.D1(256), yb, bb, int32(rows), int32(cols), slope)
				emutest.SameBits(t, "bias_leaky_rows", emutest.Download(t, yb), want)
			}
		}
	}
}

func TestColSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, m := range []int{1, 7, 300} {
		for _, n := range []int{1, 31, 33, 70} {
			lda := n + 3
			a := emutest.Normals(rng, m*lda, 1)
			ones := make([]float32, m)
			for i := range ones {
				ones[i] = 1
			}
			want := make([]float32, n)
			backend.ColSums(m, n, a, lda, ones, want)
			ab, yb := emutest.Upload(t, a), emutest.Zeros(t, n)
			emutest.Launch(t, "col_sums", cuda.D1((n+31)/32), cuda.D1(256), yb, ab, int32(m), int32(n), int32(lda))
			emutest.Near(t, "col_sums", emutest.Download(t, yb), want, 1e-5)
		}
	}
}
