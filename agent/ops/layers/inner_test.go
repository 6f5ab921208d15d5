package layers

import (
	"math/rand/v2"
	"runtime"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops/internal/opstest"
)

func TestInner(t *testing.T) {
	const b, n, m = 3, 4, 5
	rng := rand.New(rand.NewPCG(61, 62))
	a, g := opstest.RandDense(rng, b, n, m), opstest.RandDense(rng, b, n, m)
	want := make([]float64, b)
	for i := range want {
		for j := range n * m {
			want[i] += a.Float64s()[i*n*m+j] * g.Float64s()[i*n*m+j]
		}
	}
	build := func(q []*G.Node) (*G.Node, error) { return Inner(q[0], q[1]) }
	opstest.CheckForward(t, []*tensor.Dense{a, g}, want, 1e-6, build)
	opstest.CheckOpGrads(t, rng, opstest.GradParams(a, g), func(_ *G.ExprGraph, q []*G.Node) (*G.Node, error) { return build(q) })

	gr := G.NewGraph()
	x := G.NewTensor(gr, tensor.Float64, 3, G.WithShape(b, n, m), G.WithName("x"))
	y := G.NewTensor(gr, tensor.Float64, 3, G.WithShape(b, m, n), G.WithName("y"))
	if _, err := Inner(x, y); err == nil {
		t.Error("Inner accepted a and g of different shapes")
	}
}

// TestInnerAsGorgonia checks Inner against the composition it replaces, Sum(HadamardProd(a, g),
// 1, 2), bit for bit, value and both gradients, on a batch split over goroutines.
func TestInnerAsGorgonia(t *testing.T) {
	const b, n = 128, 20
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	rng := rand.New(rand.NewPCG(63, 64))
	vals, wrt, r := []*tensor.Dense{opstest.Rand32(rng, b, n, n), opstest.Rand32(rng, b, n, n)}, []bool{true, true}, opstest.Rand32(rng, b)
	got := opstest.Float32Run(t, vals, wrt, r, func(q []*G.Node) (*G.Node, error) { return Inner(q[0], q[1]) })
	want := opstest.Float32Run(t, vals, wrt, r, func(q []*G.Node) (*G.Node, error) {
		p, err := G.HadamardProd(q[0], q[1])
		if err != nil {
			return nil, err
		}
		return G.Sum(p, 1, 2)
	})
	opstest.SameAsGorgonia(t, got, want)
}
