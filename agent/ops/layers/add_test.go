package layers

import (
	"math/rand/v2"
	"runtime"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops/internal/opstest"
)

func TestAdd(t *testing.T) {
	rng := rand.New(rand.NewPCG(65, 66))
	a, b := opstest.RandDense(rng, 2, 3, 4), opstest.RandDense(rng, 2, 3, 4)
	want := make([]float64, 24)
	for i := range want {
		want[i] = a.Float64s()[i] + b.Float64s()[i]
	}
	build := func(q []*G.Node) (*G.Node, error) { return Add(q[0], q[1]) }
	opstest.CheckForward(t, []*tensor.Dense{a, b}, want, 1e-6, build)
	opstest.CheckOpGrads(t, rng, opstest.GradParams(a, b), func(_ *G.ExprGraph, q []*G.Node) (*G.Node, error) { return build(q) })

	g := G.NewGraph()
	x := G.NewTensor(g, tensor.Float64, 3, G.WithShape(2, 3, 4), G.WithName("x"))
	y := G.NewTensor(g, tensor.Float64, 3, G.WithShape(2, 4, 3), G.WithName("y"))
	if _, err := Add(x, y); err == nil {
		t.Error("Add accepted a and b of different shapes")
	}
}

// TestAddAsGorgonia checks Add against gorgonia's Add bit for bit, value and gradients, on
// the paper critic's (B, N, H) at N = 50, split over goroutines.
func TestAddAsGorgonia(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	rng := rand.New(rand.NewPCG(67, 68))
	vals, wrt, r := []*tensor.Dense{opstest.Rand32(rng, 128, 50, 128), opstest.Rand32(rng, 128, 50, 128)}, []bool{true, true}, opstest.Rand32(rng, 128, 50, 128)
	got := opstest.Float32Run(t, vals, wrt, r, func(q []*G.Node) (*G.Node, error) { return Add(q[0], q[1]) })
	want := opstest.Float32Run(t, vals, wrt, r, func(q []*G.Node) (*G.Node, error) { return G.Add(q[0], q[1]) })
	opstest.SameAsGorgonia(t, got, want)
}
