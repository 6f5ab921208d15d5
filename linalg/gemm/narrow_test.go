package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
)

// A narrow weight gradient, which Sgemm computes as its transpose (gemmSwapped), gives the bits
// of the kernel run on the product itself, whatever the strides, k's blocks and scalars, NaN
// and infinities in c included, leaves c's padding alone, and the naive product's values.
func TestNarrowSwappedAsKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	swapped := 0
	for _, kn := range supported {
		for _, m := range []int{13, 24, 64, 100, 256} {
			for _, n := range []int{2, 5, 12, 20, 31} {
				if !swapsNarrow(kn, true, false, m, n) {
					continue
				}
				swapped++
				for _, k := range []int{1, 15, 256, 600} {
					for _, s := range [][2]float32{{1, 0}, {0.5, 1}, {-1.25, 0.75}, {1, float32(math.Copysign(0, -1))}} {
						p := problem{tA: true, m: m, n: n, k: k, alpha: s[0], beta: s[1]}.withPads(rng.IntN(3)*rng.IntN(200), rng.IntN(3), rng.IntN(3))
						sameAsKernel(t, kn, p, rng, "as its transpose")
					}
				}
			}
		}
	}
	if active.name == "avx512" && !swapsNarrow(active, true, false, 256, 20) {
		t.Error("the AVX-512 kernel computes a 20-output head's weight gradient (256 x 20) in place, not as its transpose")
	}
	t.Logf("%d narrow shapes computed as their transposes", swapped)
}

// sameAsKernel checks problem p of untransposed b by Sgemm with kernel kn against the naive
// product (check), and that its bits, with a NaN and an infinity in c, are those of the kernel
// Sgemm would otherwise run on the product itself; how names Sgemm's way.
func sameAsKernel(t *testing.T, kn *microKernel, p problem, rng *rand.Rand, how string) {
	t.Helper()
	a, b, c := p.operands(rng)
	check(t, kn, p, a, b, c)
	c[rng.IntN(len(c))] = float32(math.NaN())
	c[rng.IntN(len(c))] = float32(math.Inf(-1))
	got, want := append([]float32(nil), c...), append([]float32(nil), c...)
	sgemm(kn, trans(p.tA), trans(p.tB), p.m, p.n, p.k, p.alpha, a, p.lda, b, p.ldb, p.beta, got, p.ldc)
	plain := kn.forWidth(p.n)
	plain.gemm(p.tA, false, p.m, p.n, p.k, p.alpha, a, p.lda, b, p.ldb, p.beta, want, p.ldc)
	sameBits(t, kn, p, got, how, want, "by "+plain.name)
}

// Only a^T b with c narrower than a panel and taller than wide is swapped.
func TestSwapsNarrowOnlyNarrowWeightGradients(t *testing.T) {
	for _, kn := range supported {
		for _, c := range []struct {
			tA, tB bool
			m, n   int
		}{{false, false, 256, 20}, {true, true, 256, 20}, {false, true, 256, 20}, {true, false, 20, 256}, {true, false, 20, 20}, {true, false, 256, kn.nr}} {
			if swapsNarrow(kn, c.tA, c.tB, c.m, c.n) {
				t.Errorf("%s: tA=%v tB=%v %d x %d swapped", kn.name, c.tA, c.tB, c.m, c.n)
			}
		}
	}
}

// A product of a few rows, which Sgemm computes row by row with the row kernel, gives the bits
// of the kernel run on the product itself, NaN and infinities in c included, and the naive
// product's values.
func TestFewRowsAsKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	rowsUsed := 0
	for _, kn := range supported {
		for _, m := range []int{1, 2, 3} {
			if !byRows(kn, false, m) {
				continue
			}
			rowsUsed++
			for _, n := range []int{2, 17, 64, 130} {
				for _, k := range []int{1, 15, 256, 600} {
					for _, tA := range []bool{false, true} {
						s := [][2]float32{{1, 0}, {0.5, 1}, {-1.25, 0.75}, {1, float32(math.Copysign(0, -1))}}[rng.IntN(4)]
						p := problem{tA: tA, m: m, n: n, k: k, alpha: s[0], beta: s[1]}.withPads(rng.IntN(3), rng.IntN(3)*rng.IntN(70), rng.IntN(3))
						sameAsKernel(t, kn, p, rng, "row by row")
					}
				}
			}
		}
	}
	if active.name == "avx512" && !byRows(active, false, 2) {
		t.Error("the AVX-512 kernel computes a 2-row product with its 12-row tiles")
	}
	t.Logf("%d few-row shapes computed row by row", rowsUsed)
}

// BenchmarkNarrowAgainstKernel times each step shape that Sgemm computes as its transpose or
// row by row against the kernel on the product itself, the two alternating call by call (each
// first every other time) so that both see the same machine: ns/op is the pair, narrow-µs and
// kernel-µs the medians of each, ratio the median of the paired ratios.
//
//	go test -run xxx -bench NarrowAgainstKernel -cpu 1 ./linalg/gemm/
func BenchmarkNarrowAgainstKernel(b *testing.B) {
	for _, s := range stepShapes {
		kn := active
		if !s.tA || s.tB || s.n == 1 || !swapsNarrow(kn, true, false, s.m, s.n) && !byRows(kn, false, s.m) {
			continue
		}
		b.Run(fmt.Sprintf("%s-%dx%dx%d", s.name, s.m, s.n, s.k), func(b *testing.B) {
			p, a, bm, c := benchOperands(s)
			plain := kn.forWidth(p.n)
			var narrow, kernel, ratio []float64
			run := func(swapped bool) float64 {
				t0 := time.Now()
				if swapped {
					sgemm(kn, blas.Trans, blas.NoTrans, p.m, p.n, p.k, p.alpha, a, p.lda, bm, p.ldb, p.beta, c, p.ldc)
				} else {
					plain.gemm(true, false, p.m, p.n, p.k, p.alpha, a, p.lda, bm, p.ldb, p.beta, c, p.ldc)
				}
				return float64(time.Since(t0).Nanoseconds()) / 1e3
			}
			for i := range b.N {
				var tn, tk float64
				if i%2 == 0 { // each goes first every other time, after the other has warmed the caches
					tn, tk = run(true), run(false)
				} else {
					tk, tn = run(false), run(true)
				}
				narrow, kernel, ratio = append(narrow, tn), append(kernel, tk), append(ratio, tn/tk)
			}
			b.ReportMetric(median(narrow), "narrow-µs")
			b.ReportMetric(median(kernel), "kernel-µs")
			b.ReportMetric(median(ratio), "ratio")
		})
	}
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}
