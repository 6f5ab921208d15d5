package backend

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"

	"spg-tui/internal/benchcpu"
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

// BenchmarkGemmParallel times GemmParallel on the training step's products that it splits (MWM-20,
// B = 128, H = 128: the GRU's weight gradient, best's pair-MLP weight gradient whole, the dense
// head) and a square one, reporting GFLOP/s of wall time and the process's CPU milliseconds per
// call (every thread's). Run with -cpu 1,2: at 2 the CPU per call shows what splitting a product
// over the cores costs beyond its work.
func BenchmarkGemmParallel(b *testing.B) {
	for _, s := range []struct {
		name    string
		tA      bool
		m, n, k int
	}{
		{"gru-dW", true, 384, 128, 2560},
		{"pair-dW", true, 64, 64, 51200},
		{"dense-head-fwd", false, 2560, 20, 128},
		{"square-512", false, 512, 512, 512},
	} {
		b.Run(fmt.Sprintf("%s-%dx%dx%d", s.name, s.m, s.n, s.k), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(5, 6))
			a, bm, c := make([]float32, s.m*s.k), make([]float32, s.k*s.n), make([]float32, s.m*s.n)
			for i := range a {
				a[i] = rng.Float32()
			}
			for i := range bm {
				bm[i] = rng.Float32()
			}
			tA, lda := blas.NoTrans, s.k
			if s.tA {
				tA, lda = blas.Trans, s.m
			}
			cpu := benchcpu.Start()
			b.ResetTimer()
			for b.Loop() {
				GemmParallel(tA, blas.NoTrans, s.m, s.n, s.k, 1, a, lda, bm, s.n, 0, c, s.n)
			}
			flop := 2 * float64(s.m) * float64(s.n) * float64(s.k)
			b.ReportMetric(flop*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			cpu.Report(b)
		})
	}
}
