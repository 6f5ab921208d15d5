package assign

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

var benchSizes = []int{20, 50, 100, 200}

func BenchmarkMinimize(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, uint64(n)))
			c := make([]float64, n*n)
			for k := range c {
				c[k] = rng.Float64()
			}
			p := make([]int, n)
			var s Solver
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Minimize(c, n, p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRoundBatch rounds 128 uniform random matrices per op, the workload timed against
// scipy by testdata/scipy_lsa_bench.py.
func BenchmarkRoundBatch(b *testing.B) {
	const batch = 128
	for _, n := range benchSizes {
		rng := rand.New(rand.NewPCG(2, uint64(n)))
		m64 := make([]float64, batch*n*n)
		m32 := make([]float32, batch*n*n)
		for k := range m64 {
			m64[k] = rng.Float64()
			m32[k] = float32(m64[k])
		}
		perms := make([]int, batch*n)
		b.Run(fmt.Sprintf("float32/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := RoundBatch(m32, batch, n, perms); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("float64/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := RoundBatch(m64, batch, n, perms); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
