package perm

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func BenchmarkKendallTau(b *testing.B) {
	for _, n := range []int{20, 50, 1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, uint64(n)))
			x, y := make([]float64, n), make([]float64, n)
			for i := range x {
				x[i], y[i] = rng.Float64(), rng.Float64()
			}
			b.ReportAllocs()
			for b.Loop() {
				KendallTau(x, y)
			}
		})
	}
}
