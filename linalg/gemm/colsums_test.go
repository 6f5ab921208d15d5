package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// TestColSumsMatchesGonum checks ColSums, with each GEMM kernel active, bit for bit against gonum's Sgemv(Trans) with a vector
// of ones, the call it replaces, on widths with and without whole blocks of 64 and 16 and a
// scalar tail, with signed zeros, infinities and NaN among the values.
func TestColSumsMatchesGonum(t *testing.T) {
	for _, kn := range supported {
		t.Run(kn.name, func(t *testing.T) {
			old := active
			defer func() { active = old }()
			active = kn
			testColSums(t)
		})
	}
}

func testColSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	special := []float32{float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 1e30, -1e30}
	tried := false
	for _, m := range []int{1, 2, 7, 100, 1280} {
		for _, n := range []int{1, 15, 16, 20, 32, 64, 80, 128, 131, 384} {
			lda := n + rng.IntN(3)
			a := make([]float32, (m-1)*lda+n)
			for i := range a {
				if rng.IntN(50) == 0 {
					a[i] = special[rng.IntN(len(special))]
				} else {
					a[i] = float32(rng.NormFloat64() * math.Pow(10, float64(rng.IntN(6)-3)))
				}
			}
			if n%3 == 0 { // a column of negative zeros only: the sum is +0, as gonum's
				for i := range m {
					a[i*lda] = float32(math.Copysign(0, -1))
				}
			}
			ones := make([]float32, m)
			for i := range ones {
				ones[i] = 1
			}
			want := make([]float32, n)
			gonum.Implementation{}.Sgemv(blas.Trans, m, n, 1, a, lda, ones, 1, 0, want, 1)
			got := make([]float32, n)
			for i := range got {
				got[i] = 42
			}
			if !ColSums(m, a, lda, got) {
				continue
			}
			tried = true
			for j := range n {
				if math.Float32bits(got[j]) != math.Float32bits(want[j]) {
					t.Fatalf("m=%d n=%d: column %d sums to %v, gonum %v", m, n, j, got[j], want[j])
				}
			}
		}
	}
	if !tried {
		t.Skip("no ColSums kernel for the active GEMM kernel")
	}
}

// BenchmarkColSums times ColSums and gonum's Sgemv on the bias gradients' shapes at N = 20,
// B = 128: dense layers of 128 on B 2N and B N^2 rows, the GRU's B N rows of 384, best's
// pairwise layers of 32 and 64 on B N^2 rows, an output layer of N.
func BenchmarkColSums(b *testing.B) {
	for _, s := range []struct{ m, n int }{{5120, 128}, {51200, 128}, {2560, 384}, {51200, 32}, {51200, 64}, {2560, 20}} {
		a := make([]float32, s.m*s.n)
		for i := range a {
			a[i] = float32(i%7) - 3
		}
		ones := make([]float32, s.m)
		for i := range ones {
			ones[i] = 1
		}
		y := make([]float32, s.n)
		b.Run(fmt.Sprintf("ColSums/%dx%d", s.m, s.n), func(b *testing.B) {
			for b.Loop() {
				if !ColSums(s.m, a, s.n, y) {
					b.Skip("no ColSums kernel")
				}
			}
		})
		b.Run(fmt.Sprintf("Sgemv/%dx%d", s.m, s.n), func(b *testing.B) {
			for b.Loop() {
				gonum.Implementation{}.Sgemv(blas.Trans, s.m, s.n, 1, a, s.n, ones, 1, 0, y, 1)
			}
		})
	}
}
