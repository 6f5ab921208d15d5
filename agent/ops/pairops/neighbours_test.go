package pairops

import (
	"math/rand/v2"
	"runtime"
	"spg-tui/agent/ops/internal/opstest"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func TestWithNeighbourMeans(t *testing.T) {
	const b, n, d = 2, 4, 3
	rng := rand.New(rand.NewPCG(49, 50))
	mean, h := opstest.RandDense(rng, b, n, n), opstest.RandDense(rng, b, n, d)
	m, x := mean.Float64s(), h.Float64s()
	want := make([]float64, b*n*2*d)
	for g := range b {
		for i := range n {
			for j := range d {
				want[(g*n+i)*2*d+j] = x[(g*n+i)*d+j]
				var s float64
				for l := range n {
					s += m[(g*n+i)*n+l] * x[(g*n+l)*d+j]
				}
				want[(g*n+i)*2*d+d+j] = s
			}
		}
	}
	build := func(p []*G.Node) (*G.Node, error) { return WithNeighbourMeans(p[0], p[1]) }
	opstest.CheckForward(t, []*tensor.Dense{mean, h}, want, 1e-6, build)
	opstest.CheckOpGrads(t, rng, opstest.GradParams(h), func(g *G.ExprGraph, p []*G.Node) (*G.Node, error) {
		mn := G.NewTensor(g, tensor.Float64, 3, G.WithShape(b, n, n), G.WithName("mean"), G.WithValue(mean))
		return WithNeighbourMeans(mn, p[0])
	})

	g := G.NewGraph()
	bad := G.NewTensor(g, tensor.Float64, 3, G.WithShape(b, n+1, d), G.WithName("h"))
	mn := G.NewTensor(g, tensor.Float64, 3, G.WithShape(b, n, n), G.WithName("m"))
	if _, err := WithNeighbourMeans(mn, bad); err == nil {
		t.Error("WithNeighbourMeans accepted N+1 embeddings for N nodes")
	}
}

// TestWithNeighbourMeansAsGorgonia checks, on a batch split over goroutines, that the node
// gives Concat(2, h, BatchedMatMul(mean, h)) and its gradient bit for bit.
func TestWithNeighbourMeansAsGorgonia(t *testing.T) {
	const b, n, d = 256, 20, 32
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	rng := rand.New(rand.NewPCG(51, 52))
	vals, wrt, r := []*tensor.Dense{opstest.Rand32(rng, b, n, n), opstest.Rand32(rng, b, n, d)}, []bool{false, true}, opstest.Rand32(rng, b, n, 2*d)
	got := opstest.Float32Run(t, vals, wrt, r, func(p []*G.Node) (*G.Node, error) { return WithNeighbourMeans(p[0], p[1]) })
	want := opstest.Float32Run(t, vals, wrt, r, func(p []*G.Node) (*G.Node, error) {
		msg, err := G.BatchedMatMul(p[0], p[1])
		if err != nil {
			return nil, err
		}
		return G.Concat(2, p[1], msg)
	})
	opstest.SameAsGorgonia(t, got, want)
}
