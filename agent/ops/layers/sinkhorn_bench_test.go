package layers

import (
	"fmt"
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/linalg/sinkhorn"
)

// sinkhornSizes are the paper's batch and problem sizes.
var sinkhornSizes = []struct{ b, n int }{{128, 10}, {128, 20}, {128, 50}}

// BenchmarkSinkhornOp runs X → Sinkhorn (10 iterations, float32) → Σ M⊙C and its gradient
// through a TapeMachine; compare with BenchmarkSinkhornDirect for the adapter's cost.
func BenchmarkSinkhornOp(b *testing.B) {
	for _, s := range sinkhornSizes {
		b.Run(fmt.Sprintf("B=%d/N=%d", s.b, s.n), func(b *testing.B) {
			g := G.NewGraph()
			x := G.NewTensor(g, tensor.Float32, 3, G.WithShape(s.b, s.n, s.n), G.WithName("X"), G.WithInit(G.Uniform(-1, 1)))
			c := G.NewTensor(g, tensor.Float32, 3, G.WithShape(s.b, s.n, s.n), G.WithName("C"), G.WithInit(G.Uniform(0, 1)))
			m, sk, err := Sinkhorn(x)
			if err != nil {
				b.Fatal(err)
			}
			sk.Set(0.05, 10)
			if _, err := G.Grad(G.Must(G.Sum(G.Must(G.HadamardProd(m, c)))), x); err != nil {
				b.Fatal(err)
			}
			vm := G.NewTapeMachine(g, G.BindDualValues(x))
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

// BenchmarkSinkhornDirect calls the Sinkhorn kernels on slices, as BenchmarkSinkhornOp's nodes do.
func BenchmarkSinkhornDirect(b *testing.B) {
	for _, s := range sinkhornSizes {
		b.Run(fmt.Sprintf("B=%d/N=%d", s.b, s.n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			l := s.b * s.n * s.n
			x, m, dm, dx := make([]float32, l), make([]float32, l), make([]float32, l), make([]float32, l)
			for i := range x {
				x[i], dm[i] = 2*rng.Float32()-1, rng.Float32()
			}
			saved := make([]float32, sinkhorn.SavedLen(s.b, s.n, 10))
			b.ReportAllocs()
			for b.Loop() {
				sinkhorn.Forward(m, x, s.b, s.n, 0.05, 10, saved)
				sinkhorn.Backward(dx, dm, saved, s.b, s.n, 0.05, 10)
			}
		})
	}
}
