package backend

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
)

func TestMain(m *testing.M) {
	EnsureCoreType()
	os.Exit(m.Run())
}

// naiveGemm computes C = op(A) op(B) in float64 for row-major A (m x k or k x m) and B.
func naiveGemm(tA, tB bool, m, n, k int, a, b []float64) []float64 {
	c := make([]float64, m*n)
	for i := range m {
		for j := range n {
			var s float64
			for l := range k {
				av := a[i*k+l]
				if tA {
					av = a[l*m+i]
				}
				bv := b[l*n+j]
				if tB {
					bv = b[j*k+l]
				}
				s += av * bv
			}
			c[i*n+j] = s
		}
	}
	return c
}

func trans(t bool) blas.Transpose {
	if t {
		return blas.Trans
	}
	return blas.NoTrans
}

// TestGemmMatchesNaive checks that whichever BLAS this build installed computes GEMM right,
// for both element types and all transpose combinations.
func TestGemmMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const m, n, k = 7, 5, 9
	for _, tA := range []bool{false, true} {
		for _, tB := range []bool{false, true} {
			a := make([]float64, m*k)
			b := make([]float64, k*n)
			for i := range a {
				a[i] = rng.NormFloat64()
			}
			for i := range b {
				b[i] = rng.NormFloat64()
			}
			want := naiveGemm(tA, tB, m, n, k, a, b)
			lda, ldb := k, n
			if tA {
				lda = m
			}
			if tB {
				ldb = k
			}
			c64 := make([]float64, m*n)
			blas64.Implementation().Dgemm(trans(tA), trans(tB), m, n, k, 1, a, lda, b, ldb, 0, c64, n)
			a32, b32, c32 := make([]float32, len(a)), make([]float32, len(b)), make([]float32, m*n)
			for i := range a {
				a32[i] = float32(a[i])
			}
			for i := range b {
				b32[i] = float32(b[i])
			}
			blas32.Implementation().Sgemm(trans(tA), trans(tB), m, n, k, 1, a32, lda, b32, ldb, 0, c32, n)
			for i := range want {
				if d := math.Abs(c64[i] - want[i]); d > 1e-12 {
					t.Fatalf("f64 tA=%v tB=%v: c[%d]=%v want %v", tA, tB, i, c64[i], want[i])
				}
				if d := math.Abs(float64(c32[i]) - want[i]); d > 1e-4 {
					t.Fatalf("f32 tA=%v tB=%v: c[%d]=%v want %v", tA, tB, i, c32[i], want[i])
				}
			}
		}
	}
}

// BenchmarkGemm measures float32 GEMM (C = A B^T, as in the GRU) on the installed BLAS,
// so `go test -bench Gemm` with and without -tags openblas compares the two.
func BenchmarkGemm(b *testing.B) {
	b.Log(Name())
	for _, s := range []struct{ m, n, k int }{{128, 384, 128}, {512, 512, 512}} {
		b.Run(fmt.Sprintf("f32_%dx%dx%d", s.m, s.n, s.k), func(b *testing.B) {
			x := make([]float32, s.m*s.k)
			w := make([]float32, s.n*s.k)
			c := make([]float32, s.m*s.n)
			for i := range x {
				x[i] = float32(i%7) * 0.1
			}
			for i := range w {
				w[i] = float32(i%5) * 0.1
			}
			impl := blas32.Implementation()
			b.ReportAllocs()
			for b.Loop() {
				impl.Sgemm(blas.NoTrans, blas.Trans, s.m, s.n, s.k, 1, x, s.k, w, s.k, 0, c, s.n)
			}
			flop := 2 * float64(s.m) * float64(s.n) * float64(s.k)
			b.ReportMetric(flop*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
