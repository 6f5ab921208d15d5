package ops

import (
	"math/rand/v2"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func TestPairOuter(t *testing.T) {
	const b, n, h = 2, 3, 4
	rng := rand.New(rand.NewPCG(25, 26))
	x := randDense(rng, b, 2*n, h)
	xd := x.Float64s()
	want := make([]float64, b*n*n)
	for bi := range b {
		for i := range n {
			for j := range n {
				var s float64
				for k := range h {
					s += xd[(bi*2*n+n+i)*h+k] * xd[(bi*2*n+j)*h+k]
				}
				want[(bi*n+i)*n+j] = s
			}
		}
	}
	build := func(p []*G.Node) (*G.Node, error) { return PairOuter(p[0]) }
	checkForward(t, []*tensor.Dense{x}, want, 1e-6, build)
	checkOpGrads(t, rng, gradParams(x), func(g *G.ExprGraph, p []*G.Node) (*G.Node, error) {
		return build(p)
	})

	g := G.NewGraph()
	odd := G.NewTensor(g, tensor.Float64, 3, G.WithShape(2, 3, 4), G.WithName("odd"))
	if _, err := PairOuter(odd); err == nil {
		t.Error("PairOuter accepted an odd number of rows")
	}
}
