package backend

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestGemmParallelMatchesGemm checks the split product (forced on, whatever the build) against
// a naive product and, where the build splits by default and its kernels promise it
// (ExactSplits), against the one-call product bit for bit: for every transpose combination,
// splits by rows and by columns, and beta = 0 and 1.
func TestGemmParallelMatchesGemm(t *testing.T) {
	exact := splitInGo && ExactSplits
	defer func(s bool) { splitInGo = s }(splitInGo)
	splitInGo = true
	rng := rand.New(rand.NewPCG(3, 4))
	for _, s := range []struct{ m, n, k int }{{300, 40, 200}, {40, 300, 200}, {97, 101, 300}, {8, 8, 8}} {
		for _, tA := range []bool{false, true} {
			for _, tB := range []bool{false, true} {
				for _, beta := range []float32{0, 1} {
					// Leading dimensions larger than needed check the offsets of the blocks.
					lda, ldb, ldc := s.k+3, s.n+5, s.n+2
					if tA {
						lda = s.m + 3
					}
					if tB {
						ldb = s.k + 5
					}
					a := randF32(rng, s.m*s.k+3*max(s.m, s.k)+3)
					b := randF32(rng, s.k*s.n+5*max(s.k, s.n)+5)
					c0 := randF32(rng, s.m*ldc)
					want, got := append([]float32(nil), c0...), append([]float32(nil), c0...)
					Gemm(trans(tA), trans(tB), s.m, s.n, s.k, 0.5, a, lda, b, ldb, beta, want, ldc)
					GemmParallel(trans(tA), trans(tB), s.m, s.n, s.k, 0.5, a, lda, b, ldb, beta, got, ldc)
					ref := naiveStrided(tA, tB, s.m, s.n, s.k, a, lda, b, ldb)
					for i := range s.m {
						for j := range s.n {
							g, w := got[i*ldc+j], want[i*ldc+j]
							r := 0.5*ref[i*s.n+j] + float64(beta*c0[i*ldc+j])
							if exact && g != w || math.Abs(float64(g)-r) > 1e-4*(1+math.Abs(r)) {
								t.Fatalf("%+v tA=%v tB=%v beta=%v: c[%d,%d] = %v, one call %v, naive %v", s, tA, tB, beta, i, j, g, w, r)
							}
						}
					}
					for i := range s.m { // the padding of c is left alone
						for j := s.n; j < ldc && i*ldc+j < len(got); j++ {
							if got[i*ldc+j] != c0[i*ldc+j] {
								t.Fatalf("%+v: padding c[%d,%d] changed", s, i, j)
							}
						}
					}
				}
			}
		}
	}
}

// naiveStrided returns op(a) op(b) (m x n, dense) in float64 for strided row-major a and b.
func naiveStrided(tA, tB bool, m, n, k int, a []float32, lda int, b []float32, ldb int) []float64 {
	c := make([]float64, m*n)
	for i := range m {
		for j := range n {
			var s float64
			for l := range k {
				ai, bi := i*lda+l, l*ldb+j
				if tA {
					ai = l*lda + i
				}
				if tB {
					bi = j*ldb + l
				}
				av, bv := a[ai], b[bi]
				s += float64(av) * float64(bv)
			}
			c[i*n+j] = s
		}
	}
	return c
}

func randF32(rng *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(rng.NormFloat64())
	}
	return s
}
