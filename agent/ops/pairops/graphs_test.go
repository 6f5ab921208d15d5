package pairops

import (
	"math/rand/v2"
	"spg-tui/agent/ops/internal/opstest"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// randAdjacency is b pairs of symmetric 0/1 matrices with zero diagonal, (b, 2n, n), with
// node 0 of each G1 isolated.
func randAdjacency(rng *rand.Rand, b, n int) *tensor.Dense {
	x := tensor.New(tensor.WithShape(b, 2*n, n), tensor.Of(tensor.Float64))
	v := x.Float64s()
	for g := range 2 * b {
		a := v[g*n*n:][:n*n]
		for i := range n {
			for j := i + 1; j < n; j++ {
				if (g%2 == 1 || i > 0) && rng.IntN(2) == 1 {
					a[i*n+j], a[j*n+i] = 1, 1
				}
			}
		}
	}
	return x
}

func TestRowMean(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	const b, n = 2, 5
	x := randAdjacency(rng, b, n)
	v := x.Float64s()
	want := make([]float64, len(v))
	for r := range 2 * b * n {
		deg := 0.0
		for j := range n {
			deg += v[r*n+j]
		}
		for j := range n {
			if deg > 0 {
				want[r*n+j] = v[r*n+j] / deg
			}
		}
	}
	a := tensor.New(tensor.WithShape(2*b, n, n), tensor.WithBacking(v))
	opstest.CheckForward(t, []*tensor.Dense{a}, want, 1e-6, func(p []*G.Node) (*G.Node, error) { return RowMean(p[0]) })
}

func TestGraphPairFeatures(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 44))
	const b, n = 2, 4
	x := randAdjacency(rng, b, n)
	v := x.Float64s()
	want := make([]float64, b*n*n*GraphPairWidth)
	for s := range b {
		a1 := func(i, j int) float64 { return v[s*2*n*n+i*n+j] }
		deg := func(i int) float64 {
			d := 0.0
			for j := range n {
				d += a1(i, j)
			}
			return d / (n - 1)
		}
		mean := 0.0
		for i := range n {
			mean += deg(i) / n
		}
		for i := range n {
			for k := range n {
				copy(want[((s*n+i)*n+k)*GraphPairWidth:], []float64{a1(i, k), deg(i), deg(k), mean})
			}
		}
	}
	opstest.CheckForward(t, []*tensor.Dense{x}, want, 1e-6, func(p []*G.Node) (*G.Node, error) { return GraphPairFeatures(p[0]) })
	g := G.NewGraph()
	bad := G.NewTensor(g, tensor.Float64, 3, G.WithShape(2, 5, 3), G.WithName("bad"))
	if _, err := GraphPairFeatures(bad); err == nil {
		t.Error("GraphPairFeatures accepted a (B, 5, 3) state")
	}
}
