package ops

import (
	"math/rand/v2"
	"spg-tui/agent/ops/internal/opstest"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func TestRows(t *testing.T) {
	const b, r, c, lo, hi = 2, 5, 3, 1, 4
	rng := rand.New(rand.NewPCG(53, 54))
	x := opstest.RandDense(rng, b, r, c)
	v := x.Float64s()
	var want []float64
	for g := range b {
		want = append(want, v[(g*r+lo)*c:(g*r+hi)*c]...)
	}
	build := func(p []*G.Node) (*G.Node, error) { return Rows(p[0], lo, hi, false) }
	opstest.CheckForward(t, []*tensor.Dense{x}, want, 1e-7, build)
	opstest.CheckOpGrads(t, rng, opstest.GradParams(x), func(g *G.ExprGraph, p []*G.Node) (*G.Node, error) { return build(p) })

	g := G.NewGraph()
	n := G.NewTensor(g, tensor.Float64, 3, G.WithShape(b, r, c), G.WithName("x"))
	for _, s := range [][2]int{{-1, 2}, {2, 2}, {3, r + 1}} {
		if _, err := Rows(n, s[0], s[1], false); err == nil {
			t.Errorf("Rows accepted rows %d:%d of %d", s[0], s[1], r)
		}
	}
}

// TestRowsAsGorgonia checks that two Rows nodes that split x give gorgonia's two Slices'
// outputs and summed gradient bit for bit.
func TestRowsAsGorgonia(t *testing.T) {
	const b, n, d = 8, 5, 4
	rng := rand.New(rand.NewPCG(55, 56))
	vals, wrt, r := []*tensor.Dense{opstest.Rand32(rng, b, 2*n, d)}, []bool{true}, opstest.Rand32(rng, b, n, d)
	both := func(slice func(x *G.Node, lo, hi int) (*G.Node, error)) func([]*G.Node) (*G.Node, error) {
		return func(p []*G.Node) (*G.Node, error) {
			top, err := slice(p[0], 0, n)
			if err != nil {
				return nil, err
			}
			bottom, err := slice(p[0], n, 2*n)
			if err != nil {
				return nil, err
			}
			return G.HadamardProd(top, bottom)
		}
	}
	got := opstest.Float32Run(t, vals, wrt, r, both(func(x *G.Node, lo, hi int) (*G.Node, error) { return Rows(x, lo, hi, false) }))
	want := opstest.Float32Run(t, vals, wrt, r, both(func(x *G.Node, lo, hi int) (*G.Node, error) { return G.Slice(x, nil, G.S(lo, hi)) }))
	opstest.SameAsGorgonia(t, got, want)
}
