package fastmath

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkSlices times the slice kernels on one GRU step's gates (B*3H = 128*384 values) and on
// a short row, reporting ns per element.
func BenchmarkSlices(b *testing.B) {
	for _, f := range []struct {
		name string
		fn   func(dst, x []float32)
	}{{"Sigmoid", Sigmoid}, {"Tanh", Tanh}, {"SigmoidScalar", scalarLoop(Sigmoid32)}, {"TanhScalar", scalarLoop(Tanh32)}} {
		for _, n := range []int{128, 128 * 384} {
			b.Run(fmt.Sprintf("%s/%d", f.name, n), func(b *testing.B) {
				rng := rand.New(rand.NewPCG(3, 3))
				x := make([]float32, n)
				for i := range x {
					x[i] = float32(rng.NormFloat64() * 2)
				}
				dst := make([]float32, n)
				b.ReportAllocs()
				for b.Loop() {
					f.fn(dst, x)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/elem")
			})
		}
	}
}

// scalarLoop is the plain loop over a scalar function, for comparison.
func scalarLoop(f func(float32) float32) func(dst, x []float32) {
	return func(dst, x []float32) {
		dst = dst[:len(x)]
		for i, v := range x {
			dst[i] = f(v)
		}
	}
}
