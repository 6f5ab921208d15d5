package gpulayers_test

import (
	"math/rand/v2"
	"testing"

	"spg-tui/linalg/cuda"
	"spg-tui/linalg/cuda/emu/emutest"
)

// TestArith: the whole-buffer arithmetic agent/gpunet composes (add_scaled for gradients of a
// layer used twice, scale_into, lerp_to for a target critic's Polyak step) equals the same
// float32 arithmetic in Go, bit for bit, over sizes around the block.
func TestArith(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 255, 256, 257, 1000} {
		x, y := emutest.Normals(rng, n, 1), emutest.Normals(rng, n, 1)
		grid := cuda.D1((n + 255) / 256)
		for _, c := range []struct {
			kernel string
			a      float32
			want   func(x, y float32, a float32) float32
		}{
			{"add_scaled", 0.3, func(x, y, a float32) float32 { return y + a*x }},
			{"scale_into", -0.7, func(x, y, a float32) float32 { return a * x }},
			{"lerp_to", 0.01, func(x, y, a float32) float32 { return y + a*(x-y) }},
		} {
			dx, dy := emutest.Upload(t, x), emutest.Upload(t, y)
			emutest.Launch(t, c.kernel, grid, cuda.D1(256), dy, dx, c.a, int32(n))
			want := make([]float32, n)
			for i := range want {
				want[i] = c.want(x[i], y[i], c.a)
			}
			emutest.SameBits(t, c.kernel, emutest.Download(t, dy), want)
		}
	}
}
