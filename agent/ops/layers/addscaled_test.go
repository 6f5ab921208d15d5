package layers

import (
	"math/rand/v2"
	"runtime"
	"spg-tui/agent/ops/internal/opstest"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func TestAddScaled(t *testing.T) {
	const b, n = 2, 3
	rng := rand.New(rand.NewPCG(57, 58))
	y, p, alpha := opstest.RandDense(rng, b, n, n), opstest.RandDense(rng, b, n, n), opstest.RandDense(rng, 1, 1)
	want := make([]float64, b*n*n)
	for i := range want {
		want[i] = y.Float64s()[i] + alpha.Float64s()[0]*p.Float64s()[i]
	}
	build := func(q []*G.Node) (*G.Node, error) { return AddScaled(q[0], q[1], q[2]) }
	opstest.CheckForward(t, []*tensor.Dense{y, p, alpha}, want, 1e-6, build)
	opstest.CheckOpGrads(t, rng, opstest.GradParams(y, p, alpha), func(g *G.ExprGraph, q []*G.Node) (*G.Node, error) { return build(q) })

	g := G.NewGraph()
	a := G.NewTensor(g, tensor.Float64, 3, G.WithShape(b, n, n), G.WithName("a"))
	c := G.NewTensor(g, tensor.Float64, 3, G.WithShape(b, n, n+1), G.WithName("c"))
	s := G.NewTensor(g, tensor.Float64, 2, G.WithShape(1, 1), G.WithName("s"))
	if _, err := AddScaled(a, c, s); err == nil {
		t.Error("AddScaled accepted y and p of different shapes")
	}
}

// TestAddScaledAsGorgonia checks AddScaled against spg-gm's former composition, Add(y,
// Reshape(Dense(Reshape(p, (B, N N, 1)), alpha), (B, N, N))), bit for bit, on a batch split over
// goroutines.
func TestAddScaledAsGorgonia(t *testing.T) {
	const b, n = 128, 20
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	rng := rand.New(rand.NewPCG(59, 60))
	vals, wrt, r := []*tensor.Dense{opstest.Rand32(rng, b, n, n), opstest.Rand32(rng, b, n, n), opstest.Rand32(rng, 1, 1)}, []bool{true, true, true}, opstest.Rand32(rng, b, n, n)
	got := opstest.Float32Run(t, vals, wrt, r, func(q []*G.Node) (*G.Node, error) { return AddScaled(q[0], q[1], q[2]) })
	want := opstest.Float32Run(t, vals, wrt, r, func(q []*G.Node) (*G.Node, error) {
		s, err := G.Reshape(q[1], []int{b, n * n, 1})
		if err != nil {
			return nil, err
		}
		if s, err = Dense(s, q[2], nil, DenseOptions{}); err != nil {
			return nil, err
		}
		if s, err = G.Reshape(s, []int{b, n, n}); err != nil {
			return nil, err
		}
		return G.Add(q[0], s)
	})
	opstest.SameAsGorgonia(t, got, want)
}
