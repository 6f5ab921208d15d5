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
	opstest.CheckOpGrads(t, rng, opstest.GradParams(x), func(g *G.ExprGraph, p []*G.Node) (*G.Node, error) {
		y, err := BarDiagonal(p[0], bar)
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
	g := G.NewGraph()
	if _, err := BarDiagonal(G.NewTensor(g, tensor.Float64, 3, G.WithShape(2, 3, 4), G.WithName("x")), bar); err == nil {
		t.Error("BarDiagonal accepted 3 x 4 scores")
	}
}
