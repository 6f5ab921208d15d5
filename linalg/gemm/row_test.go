package gemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

// A product with one column, which Sgemm computes as its transpose with the kernel's row
// kernel, gives the bits of the kernel itself (its narrow variant), whatever the transposes,
// strides, k's blocks and scalars, NaN and infinities in c included; and the naive product's
// values (check). k = 15 gives the column kernels their longest tails (15 and 7 columns).
func TestOneColumnAsKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, kn := range supported {
		if kn.row == nil {
			continue
		}
		plainKn := *kn
		plainKn.row = nil
		for _, m := range []int{1, 5, 16, 33, 100, 1008} {
			for _, k := range []int{1, 6, 15, 64, 300, 600} {
				for _, tr := range [][2]bool{{false, false}, {false, true}, {true, false}, {true, true}} {
					for _, s := range [][2]float32{{1, 0}, {0.5, 1}, {-1.25, 0.75}, {1, float32(math.Copysign(0, -1))}} {
						p := problem{tA: tr[0], tB: tr[1], m: m, n: 1, k: k, alpha: s[0], beta: s[1]}.withPads(rng.IntN(3), rng.IntN(3), 0)
						a, b, c := p.operands(rng)
						check(t, kn, p, a, b, c)
						c[rng.IntN(len(c))] = float32(math.NaN())
						c[rng.IntN(len(c))] = float32(math.Inf(1))
						got, want := append([]float32(nil), c...), append([]float32(nil), c...)
						sgemm(kn, trans(p.tA), trans(p.tB), p.m, p.n, p.k, p.alpha, a, p.lda, b, p.ldb, p.beta, got, p.ldc)
						sgemm(&plainKn, trans(p.tA), trans(p.tB), p.m, p.n, p.k, p.alpha, a, p.lda, b, p.ldb, p.beta, want, p.ldc)
						sameBits(t, kn, p, got, "by the row kernel", want, "by "+kn.name)
					}
				}
			}
		}
	}
}
