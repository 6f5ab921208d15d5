package ops

import (
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
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
