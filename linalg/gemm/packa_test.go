package gemm

import (
	"math/rand/v2"
	"testing"
)

// TestSgemmPackedTransA checks the products whose transposed a is copied back into rows
// (packTransA) against the naive product, and bit for bit against the same product read in
// place (the same a with lda one larger, which a kernel without packsTransA does not copy):
// the copy changes no rounding.
func TestSgemmPackedTransA(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, kn := range supported {
		if kn.transpose16 == nil {
			continue
		}
		for _, sh := range [][3]int{{16, 96, 16}, {17, 100, 17}, {29, 97, 300}, {193, 128, 513}, {250, 65, 40}} {
			m, n, k := sh[0], sh[1], sh[2]
			if n < 3*kn.nr {
				n = 3 * kn.nr
			}
			for _, s := range scalars[:3] {
				p := problem{tA: true, m: m, n: n, k: k, alpha: s[0], beta: s[1]}.withPads(256*(1+m/256)-m, 1, 2)
				if !packTransA(kn, true, p.m, p.n, p.k, p.lda) {
					t.Fatalf("%s: %v: not packed", kn.name, p)
				}
				a, b, c := p.operands(rng)
				check(t, kn, p, a, b, c)

				inPlace := *kn
				inPlace.packsTransA = false
				q := p
				q.lda++
				if packTransA(&inPlace, true, q.m, q.n, q.k, q.lda) {
					t.Fatalf("%s: %v: packed", kn.name, q)
				}
				aq := make([]float32, (k-1)*q.lda+m)
				for l := range k {
					copy(aq[l*q.lda:][:m], a[l*p.lda:][:m])
				}
				got, want := append([]float32(nil), c...), append([]float32(nil), c...)
				sgemm(kn, trans(true), trans(false), m, n, k, p.alpha, a, p.lda, b, p.ldb, p.beta, got, p.ldc)
				sgemm(&inPlace, trans(true), trans(false), m, n, k, q.alpha, aq, q.lda, b, q.ldb, q.beta, want, q.ldc)
				sameBits(t, kn, p, got, "packed", want, "in place")
			}
		}
	}
}
