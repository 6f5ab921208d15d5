package ops

import (
	"fmt"
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/linalg/sinkhorn"
)

// BenchmarkNodeOverhead runs a chain of 32 tanh nodes on an 8×8 float32 tensor: a fused node
// against gorgonia's primitive Tanh, forward only and with the gradient. ns/node is the time per
// run of the whole chain divided by 32.
func BenchmarkNodeOverhead(b *testing.B) {
	const depth = 32
	for _, grad := range []bool{false, true} {
		for _, fused := range []bool{false, true} {
			name := map[bool]string{false: "primitive", true: "fused"}[fused]
			name += map[bool]string{false: "/forward", true: "/forward+backward"}[grad]
			b.Run(name, func(b *testing.B) {
				g := G.NewGraph()
				x := G.NewMatrix(g, tensor.Float32, G.WithShape(8, 8), G.WithName("x"), G.WithInit(G.Uniform(-1, 1)))
				h := x
				for range depth {
					var err error
					if fused {
						h, err = Apply(&tanhK[float32]{}, h)
					} else {
						h, err = G.Tanh(h)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				loss := G.Must(G.Sum(h))
				var opts []G.VMOpt
				if grad {
					if _, err := G.Grad(loss, x); err != nil {
						b.Fatal(err)
					}
					opts = append(opts, G.BindDualValues(x))
				}
				m := G.NewTapeMachine(g, opts...)
				defer m.Close()
				b.ReportAllocs()
				for b.Loop() {
					m.Reset()
					if err := m.RunAll(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*depth), "ns/node")
			})
		}
	}
}

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

// BenchmarkSelfAttention runs one SelfAttention node (float32, width 64, 4 heads) forward and
// backward through a TapeMachine, at batch 128 and the tsp sizes.
func BenchmarkSelfAttention(b *testing.B) {
	const d, heads = 64, 4
	for _, s := range sinkhornSizes {
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
