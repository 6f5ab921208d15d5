package gemm

import (
	"math"
	"testing"
)

// TestEdgePaddingZeroed: the packed edges of a and b hold zeros past their rows and columns,
// not what the pooled buffer last held. The kernels compute the padding and drop it, but a
// subnormal left there slowed every FMA of a product by a microcode assist (the gm critic's
// 51,200 x 32 x 1 product took 20-35 ms inside a training step, 0.5-1 ms alone).
func TestEdgePaddingZeroed(t *testing.T) {
	const kc, nr, nw = 5, 16, 3
	sub := float32(math.SmallestNonzeroFloat32)
	dst := make([]float32, kc*nr)
	for i := range dst {
		dst[i] = sub
	}
	b := make([]float32, kc*nw)
	for i := range b {
		b[i] = 1
	}
	packEdgeB(dst, nr, b, nw, 0, kc, 0, nw)
	for p := range kc {
		for c := range nr {
			want := float32(0)
			if c < nw {
				want = 1
			}
			if got := dst[p*nr+c]; got != want {
				t.Fatalf("packEdgeB: row %d column %d holds %v, want %v", p, c, got, want)
			}
		}
	}
	const mh = 2
	for _, kn := range supported {
		if kn.mr <= mh { // a one-row kernel has no partial row groups
			continue
		}
		for _, c := range []struct{ rs, ps, kc int }{{kc, 1, kc}, {1, 7, kc}, {20, 1, 20}} {
			a := make([]float32, 7*20)
			for i := range a {
				a[i] = 1
			}
			dst := make([]float32, 16*kcBlock)
			rows16 := make([]float32, 16*kcBlock)
			for i := range dst {
				dst[i], rows16[i] = sub, sub
			}
			stride := kn.packEdgeA(dst, rows16, a, c.rs, c.ps, 0, mh, 0, c.kc)
			for p := range c.kc {
				for r := range stride {
					want := float32(0)
					if r < mh {
						want = 1
					}
					if got := dst[p*stride+r]; got != want {
						t.Fatalf("%s packEdgeA (rs %d, ps %d): column %d row %d holds %v, want %v", kn.name, c.rs, c.ps, p, r, got, want)
					}
				}
			}
		}
	}
}
