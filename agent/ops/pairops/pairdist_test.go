package pairops

import (
	"math"
	"math/rand/v2"
	"spg-tui/agent/ops/internal/opstest"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// PairDistances against the distances written out: D_ij = |b_i - a_j| for each state.
func TestPairDistances(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	const b, n = 3, 4
	x := opstest.RandDense(rng, b, 2*n, 2)
	v := x.Float64s()
	want := make([]float64, b*n*n)
	for s := range b {
		pt := func(k int) (float64, float64) { return v[(s*2*n+k)*2], v[(s*2*n+k)*2+1] }
		for i := range n {
			for j := range n {
				bx, by := pt(n + i)
				ax, ay := pt(j)
				want[(s*n+i)*n+j] = math.Hypot(bx-ax, by-ay)
			}
		}
	}
	opstest.CheckForward(t, []*tensor.Dense{x}, want, 1e-6, func(p []*G.Node) (*G.Node, error) { return PairDistances(p[0]) })

	bad := G.NewTensor(G.NewGraph(), tensor.Float64, 3, G.WithShape(1, 5, 2), G.WithName("bad"))
	if _, err := PairDistances(bad); err == nil {
		t.Error("PairDistances accepted an odd number of points")
	}
}
