//go:build !openblas

package backend

import (
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"

	"spg-tui/linalg/gemm"
	"spg-tui/linalg/parallel"
)

// TestPureGoBuild checks the default build's wiring: blas32 and gorgonia's BLAS are goBLAS
// (gemm's Sgemm), blas64 stays gonum's, and GemmParallel splits in Go.
func TestPureGoBuild(t *testing.T) {
	if got := Name(); !strings.HasPrefix(got, "pure Go (gemm ") || !strings.Contains(got, gemm.KernelName()) {
		t.Errorf("Name() = %q", got)
	}
	if _, ok := Implementation().(goBLAS); !ok {
		t.Errorf("Implementation() is %T, want goBLAS", Implementation())
	}
	if _, ok := blas32.Implementation().(goBLAS); !ok {
		t.Errorf("blas32 uses %T, want goBLAS", blas32.Implementation())
	}
	if _, ok := blas64.Implementation().(gonum.Implementation); !ok {
		t.Errorf("blas64 uses %T, want gonum.Implementation", blas64.Implementation())
	}
	if !splitInGo || Threads() != 1 {
		t.Errorf("splitInGo = %v, Threads() = %d; want true, 1", splitInGo, Threads())
	}
}

// TestColSumsSplitBits checks that column sums split over the cores give the bits of one
// gemm.ColSums call (each column summed alone either way), including an odd last block.
func TestColSumsSplitBits(t *testing.T) {
	old := runtime.GOMAXPROCS(3)
	defer runtime.GOMAXPROCS(old)
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{16, 20, 33, 64, 100} {
		m, lda := minSplitColSums/16+7, n+3
		a := make([]float32, (m-1)*lda+n)
		for i := range a {
			a[i] = float32(rng.NormFloat64() * math.Exp2(float64(rng.IntN(20)-10)))
		}
		want, got := make([]float32, n), make([]float32, n)
		if !gemm.ColSums(m, a, lda, want) {
			continue // no kernel for n here: colSumsSplit leaves it to Sgemv too
		}
		if !colSumsSplit(m, a, lda, got) {
			t.Fatalf("n=%d: colSumsSplit reported no kernel", n)
		}
		for j := range want {
			if math.Float32bits(got[j]) != math.Float32bits(want[j]) {
				t.Fatalf("n=%d: column %d: %v, want %v", n, j, got[j], want[j])
			}
		}
	}
}

// TestGemmParallelSplitsK checks that a product whose c is at most maxSplitKWidth wide and whose
// k spans many blocks runs inside a parallel loop (not in the step's serial part) and gives the
// bits of one Gemm call: every transpose, beta 0, 1 and 0.5, alpha 1 and 0.5, c of 1 x 1 to
// 64 x 64 with padding (the widest with its parts added to c over the cores), a partial last
// block of k, at 1, 2 and 3 cores.
func TestGemmParallelSplitsK(t *testing.T) {
	for _, procs := range []int{1, 2, 3} {
		old := runtime.GOMAXPROCS(procs)
		testGemmParallelSplitsK(t)
		runtime.GOMAXPROCS(old)
	}
}

// TestGemmParallelSplitsKInRounds is TestGemmParallelSplitsK with the parts bounded to a few
// blocks, so that each product runs in several rounds, the last of them shorter.
func TestGemmParallelSplitsKInRounds(t *testing.T) {
	oldParts := maxKParts
	defer func() { maxKParts = oldParts }()
	maxKParts = 5 * maxSplitKWidth * maxSplitKWidth
	for _, procs := range []int{2, 3} {
		old := runtime.GOMAXPROCS(procs)
		testGemmParallelSplitsK(t)
		runtime.GOMAXPROCS(old)
	}
}

func testGemmParallelSplitsK(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, s := range []struct{ m, n int }{{1, 1}, {3, 5}, {32, 1}, {6, 32}, {maxSplitKWidth, maxSplitKWidth}} {
		k := minSplitFlops/(2*minTile) + gemm.KBlock/2 + 1
		for _, tA := range []bool{false, true} {
			for _, tB := range []bool{false, true} {
				for _, ab := range [][2]float32{{1, 0}, {1, 1}, {0.5, 0.5}} {
					lda, ldb, ldc := k+3, s.n+5, s.n+2
					if tA {
						lda = s.m + 3
					}
					if tB {
						ldb = k + 5
					}
					a := randF32(rng, s.m*k+3*max(s.m, k)+3)
					b := randF32(rng, k*s.n+5*max(k, s.n)+5)
					c0 := randF32(rng, s.m*ldc)
					want, got := append([]float32(nil), c0...), append([]float32(nil), c0...)
					Gemm(trans(tA), trans(tB), s.m, s.n, k, ab[0], a, lda, b, ldb, ab[1], want, ldc)
					parallel.Account(true)
					GemmParallel(trans(tA), trans(tB), s.m, s.n, k, ab[0], a, lda, b, ldb, ab[1], got, ldc)
					parallel.Account(false)
					if parallel.Accounted().Wall == 0 {
						t.Fatalf("%+v tA=%v tB=%v: the product ran outside any parallel loop", s, tA, tB)
					}
					for i, w := range want {
						if math.Float32bits(got[i]) != math.Float32bits(w) {
							t.Fatalf("%+v tA=%v tB=%v alpha, beta %v: c[%d] = %v, one call %v", s, tA, tB, ab, i, got[i], w)
						}
					}
				}
			}
		}
	}
}
