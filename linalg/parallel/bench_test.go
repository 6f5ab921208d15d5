package parallel

import (
	"fmt"
	"testing"
)

// BenchmarkFor times calls whose whole work is about 2x10 and 2x100 µs of arithmetic, the
// sizes of a training step's batch-norm and dense-layer loops, where starting a goroutine
// costs as much as a chunk.
func BenchmarkFor(b *testing.B) {
	for _, n := range []int{2 << 10, 2 << 13} {
		b.Run(fmt.Sprintf("n%d", n), func(b *testing.B) {
			x := make([]float64, n)
			for b.Loop() {
				For(n, func(_, lo, hi int) {
					for i := lo; i < hi; i++ {
						v := x[i]
						for range 16 {
							v = v*0.999 + 1
						}
						x[i] = v
					}
				})
			}
		})
	}
}
