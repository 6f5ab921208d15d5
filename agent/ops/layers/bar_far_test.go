package layers

import (
	"math/rand/v2"
	"slices"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"spg-tui/agent/ops/internal/opstest"
)

// BarFar against its definition, with pairs kept by either near feature, by both and by neither;
// its gradient against finite differences through a Sinkhorn layer (the barred pairs' scores
// move nothing); and its refusal of features that do not match the scores.
func TestBarFar(t *testing.T) {
	const b, n, w, bar = 2, 4, 3, -60.0
	rng := rand.New(rand.NewPCG(43, 44))
	x := opstest.RandDense(rng, b, n, n)
	fs := make([]float64, b*n*n*w)
	for p := range b * n * n {
		fs[p*w], fs[p*w+1], fs[p*w+2] = rng.Float64(), float64(p%2), float64(p/2%2) // p%4 == 3: both at the cap
	}
	f := tensor.New(tensor.WithShape(b, n, n, w), tensor.WithBacking(fs))
	want := slices.Clone(x.Float64s())
	for p := range want {
		if p%4 == 3 {
			want[p] = bar
		}
	}
	opstest.CheckForward(t, []*tensor.Dense{x, f}, want, 1e-6, func(p []*G.Node) (*G.Node, error) { return BarFar(p[0], p[1], []int{1, 2}, bar) })
	checkBarGrads(t, rng, x, func(g *G.ExprGraph, x *G.Node) (*G.Node, error) {
		fn := G.NewTensor(g, tensor.Float64, 4, G.WithShape(b, n, n, w), G.WithName("f"), G.WithValue(f))
		return BarFar(x, fn, []int{1, 2}, bar)
	})
	g := G.NewGraph()
	scores := G.NewTensor(g, tensor.Float64, 3, G.WithShape(b, n, n), G.WithName("x"))
	if _, err := BarFar(scores, G.NewTensor(g, tensor.Float64, 4, G.WithShape(b, n, n+1, w), G.WithName("g")), []int{1}, bar); err == nil {
		t.Error("BarFar accepted features of another shape")
	}
	if _, err := BarFar(scores, G.NewTensor(g, tensor.Float64, 4, G.WithShape(b, n, n, w), G.WithName("h")), []int{w}, bar); err == nil {
		t.Error("BarFar accepted a feature column past the features")
	}
}
