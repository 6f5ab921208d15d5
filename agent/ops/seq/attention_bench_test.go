package seq

import (
	"fmt"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// sizes are the paper's batch and problem sizes.
var sizes = []struct{ b, n int }{{128, 10}, {128, 20}, {128, 50}}

// BenchmarkSelfAttention runs one SelfAttention node (float32, width 64, 4 heads) forward and
// backward through a TapeMachine, at batch 128 and the tsp sizes.
func BenchmarkSelfAttention(b *testing.B) {
	const d, heads = 64, 4
	for _, s := range sizes {
		b.Run(fmt.Sprintf("B=%d/N=%d", s.b, s.n), func(b *testing.B) {
			g := G.NewGraph()
			x := G.NewTensor(g, tensor.Float32, 3, G.WithShape(s.b, s.n, d), G.WithName("x"), G.WithInit(G.Uniform(-1, 1)))
			wqkv := G.NewMatrix(g, tensor.Float32, G.WithShape(d, 3*d), G.WithName("wqkv"), G.WithInit(G.Uniform(-0.2, 0.2)))
			wo := G.NewMatrix(g, tensor.Float32, G.WithShape(d, d), G.WithName("wo"), G.WithInit(G.Uniform(-0.2, 0.2)))
			y, err := SelfAttention(x, wqkv, wo, AttentionOptions{Heads: heads})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := G.Grad(G.Must(G.Sum(y)), x, wqkv, wo); err != nil {
				b.Fatal(err)
			}
			vm := G.NewTapeMachine(g, G.BindDualValues(x, wqkv, wo))
			defer vm.Close()
			b.ReportAllocs()
			for b.Loop() {
				vm.Reset()
				if err := vm.RunAll(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
