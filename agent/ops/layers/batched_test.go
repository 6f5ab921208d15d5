package layers

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"spg-tui/agent/ops/internal/opstest"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// productShapes returns the stored shapes of a and b for op(a) m x k and op(b) k x n.
func productShapes(b, m, k, n int, o ProductOptions) (sa, sb []int) {
	sa, sb = []int{b, m, k}, []int{b, k, n}
	if o.TransA {
		sa = []int{b, k, m}
	}
	if o.TransB {
		sb = []int{b, n, k}
	}
	return sa, sb
}

// productOptions is every combination of transposes.
var productOptions = []ProductOptions{{}, {TransA: true}, {TransB: true}, {TransA: true, TransB: true}}

func TestBatchedProduct(t *testing.T) {
	const b, m, k, n = 2, 3, 4, 5
	rng := rand.New(rand.NewPCG(41, 42))
	for _, o := range productOptions {
		t.Run(fmt.Sprintf("%v,%v", o.TransA, o.TransB), func(t *testing.T) {
			sa, sb := productShapes(b, m, k, n, o)
			x, y := opstest.RandDense(rng, sa...), opstest.RandDense(rng, sb...)
			at := func(v *tensor.Dense, bi, i, j int, tr bool) float64 {
				s := v.Shape()
				if tr {
					i, j = j, i
				}
				return v.Float64s()[(bi*s[1]+i)*s[2]+j]
			}
			want := make([]float64, b*m*n)
			for bi := range b {
				for i := range m {
					for j := range n {
						var s float64
						for l := range k {
							s += at(x, bi, i, l, o.TransA) * at(y, bi, l, j, o.TransB)
						}
						want[(bi*m+i)*n+j] = s
					}
				}
			}
			build := func(p []*G.Node) (*G.Node, error) { return BatchedProduct(p[0], p[1], o) }
			opstest.CheckForward(t, []*tensor.Dense{x, y}, want, 1e-6, build)
			opstest.CheckOpGrads(t, rng, opstest.GradParams(x, y), func(g *G.ExprGraph, p []*G.Node) (*G.Node, error) {
				return build(p)
			})
		})
	}

	g := G.NewGraph()
	a := G.NewTensor(g, tensor.Float64, 3, G.WithShape(2, 3, 4), G.WithName("a"))
	c := G.NewTensor(g, tensor.Float64, 3, G.WithShape(2, 3, 4), G.WithName("c"))
	if _, err := BatchedProduct(a, c, ProductOptions{}); err == nil {
		t.Error("BatchedProduct accepted inner dimensions 4 and 3")
	}
}

// TestBatchedProductAsGorgonia checks, in float32 and on a batch large enough to be split over
// goroutines, that BatchedProduct gives gorgonia's BatchedMatMul's output and gradients bit for
// bit, so that swapping one for the other leaves training records as they were.
func TestBatchedProductAsGorgonia(t *testing.T) {
	const b, m, k, n = 64, 20, 32, 20 // b*2mnk >= minSplitBatchFlops
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	rng := rand.New(rand.NewPCG(43, 44))
	for _, o := range productOptions {
		sa, sb := productShapes(b, m, k, n, o)
		vals, wrt, r := []*tensor.Dense{opstest.Rand32(rng, sa...), opstest.Rand32(rng, sb...)}, []bool{true, true}, opstest.Rand32(rng, b, m, n)
		got := opstest.Float32Run(t, vals, wrt, r, func(p []*G.Node) (*G.Node, error) { return BatchedProduct(p[0], p[1], o) })
		want := opstest.Float32Run(t, vals, wrt, r, func(p []*G.Node) (*G.Node, error) { return G.BatchedMatMul(p[0], p[1], o.TransA, o.TransB) })
		opstest.SameAsGorgonia(t, got, want)
	}
}
