package layers

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gorgonia.org/tensor"
)

// BenchmarkDense runs a float32 LeakyReLU layer's forward and backward passes (all three
// gradients) on the pairwise networks' shape at N = 20 (B N^2 = 51,200 rows of 128), the
// matching network's (B 2N = 5,120 rows) and best's factored and pairwise widths (51,200 rows
// of 32 and 64).
func BenchmarkDense(b *testing.B) {
	for _, s := range []struct{ rows, width int }{{51200, 128}, {5120, 128}, {51200, 32}, {51200, 64}} {
		b.Run(fmt.Sprintf("rows%d-w%d", s.rows, s.width), func(b *testing.B) {
			rows, in, out := s.rows, s.width, s.width
			rng := rand.New(rand.NewPCG(1, 2))
			mk := func(shape ...int) *tensor.Dense {
				t := tensor.New(tensor.WithShape(shape...), tensor.Of(tensor.Float32))
				for i := range t.Float32s() {
					t.Float32s()[i] = 2*rng.Float32() - 1
				}
				return t
			}
			k := &denseKernel[float32]{o: DenseOptions{Act: LeakyReLU}}
			ins := []*tensor.Dense{mk(rows, in), mk(in, out), mk(out)}
			y, dy := mk(rows, out), mk(rows, out)
			grads := []*tensor.Dense{mk(rows, in), mk(in, out), mk(out)}
			for b.Loop() {
				if err := k.Forward(ins, y); err != nil {
					b.Fatal(err)
				}
				if err := k.Backward(ins, y, dy, grads); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(3*2*float64(rows*in*out)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
