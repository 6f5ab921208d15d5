package layers

import (
	"math/rand/v2"
	"slices"
	"spg-tui/agent/ops/internal/opstest"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// BarDiagonal against its definition, its gradient against finite differences (through a
// Sinkhorn layer, as the successor actor uses it), and its refusal of non-square scores.
func TestBarDiagonal(t *testing.T) {
	const b, n, bar = 3, 4, -50.0
	rng := rand.New(rand.NewPCG(41, 42))
	x := opstest.RandDense(rng, b, n, n)
	want := slices.Clone(x.Float64s())
	for m := range b {
		for i := range n {
			want[(m*n+i)*n+i] = bar
		}
	}
	opstest.CheckForward(t, []*tensor.Dense{x}, want, 1e-6, func(p []*G.Node) (*G.Node, error) { return BarDiagonal(p[0], bar) })
	checkBarGrads(t, rng, x, func(_ *G.ExprGraph, x *G.Node) (*G.Node, error) { return BarDiagonal(x, bar) })
	g := G.NewGraph()
	if _, err := BarDiagonal(G.NewTensor(g, tensor.Float64, 3, G.WithShape(2, 3, 4), G.WithName("x")), bar); err == nil {
		t.Error("BarDiagonal accepted 3 x 4 scores")
	}
}

// checkBarGrads checks the gradient of a bar op with respect to the scores x against finite
// differences, through a Sinkhorn layer as the successor actors use it.
func checkBarGrads(t *testing.T, rng *rand.Rand, x *tensor.Dense, bar func(g *G.ExprGraph, x *G.Node) (*G.Node, error)) {
	t.Helper()
	opstest.CheckOpGrads(t, rng, opstest.GradParams(x), func(g *G.ExprGraph, p []*G.Node) (*G.Node, error) {
		y, err := bar(g, p[0])
		if err != nil {
			return nil, err
		}
		m, sk, err := Sinkhorn(y)
		if err != nil {
			return nil, err
		}
		sk.Set(1, 5)
		return m, nil
	})
}
