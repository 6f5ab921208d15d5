package pairops

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gorgonia.org/tensor"
)

// BenchmarkPairOuter runs the matching actor's PairOuter forward and backward on float32 at
// B = 128, H = 128 and N = 10, 20, 50.
func BenchmarkPairOuter(b *testing.B) {
	for _, n := range []int{10, 20, 50} {
		b.Run(fmt.Sprintf("N%d", n), func(b *testing.B) {
			const bs, h = 128, 128
			rng := rand.New(rand.NewPCG(1, 2))
			mk := func(shape ...int) *tensor.Dense {
				t := tensor.New(tensor.WithShape(shape...), tensor.Of(tensor.Float32))
				for i := range t.Float32s() {
					t.Float32s()[i] = 2*rng.Float32() - 1
				}
				return t
			}
			k := &pairOuter[float32]{}
			in, e, de, dx := []*tensor.Dense{mk(bs, 2*n, h)}, mk(bs, n, n), mk(bs, n, n), mk(bs, 2*n, h)
			for b.Loop() {
				if err := k.Forward(in, e); err != nil {
					b.Fatal(err)
				}
				if err := k.Backward(in, e, de, []*tensor.Dense{dx}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
